/* help.c -- the overview of the commands (from main.c's table) and the
 * help text of each command.  The reference listings (scenario keys,
 * run_summary columns) are generated from their tables in help_ref.c. */
#include "sim/cli/help.h"

#include <string.h>

/* Printed after the command list of the overview. */
static const char usage_tail[] =
"\n"
"`fleetsim help COMMAND` (or `fleetsim COMMAND --help`) shows a command's\n"
"options; `fleetsim help scenario` every scenario key; `fleetsim help keys`\n"
"and `fleetsim help columns` list the scenario keys and the run_summary\n"
"columns one a line, tab-separated, for scripts.\n"
"\n"
"exit status: 0 success, 1 the simulation could not be done (the message\n"
"names file, line and key), 2 usage error.\n"
"\n"
"Not in this version: sweep, roi, trace, catalog llms|mig (spot,\n"
"MIG, LLM models, training and windows come in later versions).\n";

void fs_help_usage(FILE *out, const fs_command *cmds, size_t n)
{
    fputs("usage: fleetsim COMMAND [ARGS]\n"
          "\n"
          "fleetsim simulates GPU fleets (on-demand and reserved pools "
          "serving\ninference workloads) and stores cost, utilization and "
          "latency in SQLite.\n\ncommands:\n", out);
    for (size_t i = 0; i < n; i++) {
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", cmds[i].name,
                 cmds[i].args[0] ? " " : "", cmds[i].args);
        fprintf(out, "  %-24s %s\n", head, cmds[i].summary);
    }
    fprintf(out, "  %-24s %s\n", "--version", "print the version");
    fputs(usage_tail, out);
}

static const char run_help[] =
"usage: fleetsim run SCENARIO [--db FILE] [--seed N] [--replications N]\n"
"                    [--set SECTION.KEY=VALUE]... [--name NAME] [--quiet]\n"
"                    [--progress auto|always|never] [--max-events N]\n"
"\n"
"Simulates SCENARIO and stores each replication as one run in the results\n"
"database (default fleetsim.db in the current directory), then prints the\n"
"bill by calendar month (by pool and pricing), the monthly run rate (730 h:\n"
"the horizon's cost x 730 h / horizon), pool utilization (\"-\" with no GPU\n"
"provisioned), and per workload the p50/p99 latency, mean wait and SLO\n"
"attainment.\n"
"\n"
"  --db FILE          results database (created if missing)\n"
"  --seed N           overrides [scenario] seed\n"
"  --replications N   overrides [scenario] replications (runs 0..N-1, each\n"
"                     its own random streams, each stored as a run)\n"
"  --set S.K=V        overrides any scenario key, e.g. --set pool.gpu.count=6\n"
"                     (repeatable; applied after the file and its include)\n"
"  --name NAME        the run's name, at most 63 bytes (default [scenario]\n"
"                     name, else the file name without .ini)\n"
"  --quiet            no progress line, no warnings and no summary: print\n"
"                     the run ids\n"
"  --busy-timeout D   how long to wait for another process's lock on the\n"
"                     database (default 5m, or $FLEETSIM_BUSY_TIMEOUT)\n"
"  --progress MODE    the progress line on stderr: auto (default: when\n"
"                     stderr is a terminal), always (also into logs, a line\n"
"                     per draw), never; or $FLEETSIM_PROGRESS\n"
"  --max-events N     refuse a run estimated at more than N events\n"
"                     (default 2e9, about ten minutes; 0: no limit)\n"
"\n"
"A run longer than a second shows a progress line on stderr when stderr is\n"
"a terminal: simulated time done, events done of the estimate, events/s\n"
"and ETA.  FLEETSIM_PROGRESS_INTERVAL=D draws the first line after D\n"
"(default 1s; 0: at once, before the first event).  Before the first event\n"
"the run's events are estimated (two per request, one per metrics sample\n"
"and autoscaling decision); a run above --max-events is refused, naming the\n"
"key that makes it large.  Each replication is stored, in one transaction,\n"
"when it finishes.  A finished run that cannot be stored (the database\n"
"stayed locked past the busy timeout, the disk is full) is kept in a\n"
"database of its own beside --db, NAME.kept-PID.db (else in $TMPDIR or\n"
"/tmp): the message names it, every command reads it with --db, and\n"
"`fleetsim import` copies it in; the exit status is then 1.  A pool no\n"
"workload uses is billed for nothing: a warning (not with --quiet).\n";

static const char runs_help[] =
"usage: fleetsim runs [--db FILE]\n"
"\n"
"Lists the stored runs: id, name, scenario, seed, replication, when it\n"
"finished, total cost and monthly run rate (730 h).  Control characters\n"
"in names are shown escaped (\\n, \\t, \\xNN).\n";

static const char compare_help[] =
"usage: fleetsim compare [--db FILE] [--format table|csv|json|markdown]\n"
"                        [--baseline RUN] RUN...\n"
"\n"
"Prints the run_summary of each RUN side by side (one column per run, one\n"
"row per metric).  RUN is a run id or a run name (the most recent run of\n"
"that name).  --baseline RUN adds, for every other run, its absolute and\n"
"percent difference from the baseline.  Below the run's metrics come one\n"
"block per workload (requests, p50, p99, mean wait, SLO p99, attainment),\n"
"one per pool (pricing, GPU, GPU-hours, utilization, cost) and the cost by\n"
"pricing model, matched across runs by name.  --format json prints an\n"
"array of run_summary objects, each with workloads, pools and\n"
"cost_by_pricing arrays (and delta_vs_baseline and delta_pct_vs_baseline\n"
"objects, on the run and on each row, when --baseline is given); csv names\n"
"those rows SECTION.KEY.COLUMN (workloads.chat.latency_p99_s).\n";

static const char rm_help[] =
"usage: fleetsim rm [--db FILE] RUN...\n"
"\n"
"Removes each RUN (an id, or a name: the most recent run of that name) and\n"
"all its rows, in one transaction.  If one RUN matches nothing, nothing is\n"
"removed and the message names it.  Never creates FILE.\n";

static const char import_help[] =
"usage: fleetsim import [--db FILE] KEPT...\n"
"\n"
"Copies every run of each fleetsim database KEPT (such as the NAME.kept-\n"
"PID.db that `fleetsim run` writes when --db cannot take a finished run)\n"
"into FILE, with all its rows, in one transaction per KEPT.  The runs get\n"
"new ids; KEPT is left as it was (delete it once imported).\n";

static const char plot_help[] =
"usage: fleetsim plot [--db FILE] --chart NAME --out FILE.png|svg|pdf\n"
"                     [--baseline RUN] [--pool POOL] [--term 1y|3y] RUN...\n"
"\n"
"Draws one chart of the RUNs with gnuplot (the Debian package gnuplot-nox;\n"
"without it: exit 1).  The format follows --out's extension: png, svg, pdf.\n"
"The same runs give the same bytes.  Charts:\n"
"  monthly-cost     cost per calendar month (cost_monthly), one bar per run\n"
"                   and month, stacked by pricing model\n"
"  utilization      GPUs provisioned and busy of each pool over time\n"
"  latency-cdf      latency CDF of each workload drawn through the stored\n"
"                   percentiles (p50, p90, p95, p99, p99.9), SLO marked\n"
"  cost-vs-latency  each run as a point: run-rate cost (730-hour month)\n"
"                   against p99 latency; Pareto front marked\n"
"  ri-breakeven     one pool per run (--pool, else its first on-demand\n"
"                   pool): cumulative on-demand cost (its average GPUs at\n"
"                   its on-demand rate) against a --term reservation of\n"
"                   that many GPUs rounded up at the catalog's reserved\n"
"                   rate, paid monthly or upfront; break-even marked\n"
"  savings          waterfall of run-rate cost from the baseline\n"
"                   (--baseline, else the first RUN) through the others\n"
"Templates: plots/NAME.gp in $FLEETSIM_PLOTS or the installed data\n"
"directory.\n";

static const char catalog_help[] =
"usage: fleetsim catalog gpus|instances [--catalog DIR]\n"
"\n"
"Prints the GPU catalog (memory, bandwidth, dense bf16/fp8/int8 throughput,\n"
"TDP, MIG, source) or the instance catalog (provider, type, GPU, GPUs,\n"
"on-demand, spot, 1y and 3y reserved $ per instance-hour, region, date,\n"
"source).  DIR (or $FLEETSIM_CATALOG) holds gpus.csv and instances.csv;\n"
"a scenario can point at its own with [scenario] catalog = DIR.\n";

const char *fs_help_text(const char *topic)
{
    static const struct { const char *topic, *text; } texts[] = {
        {"run", run_help}, {"runs", runs_help}, {"compare", compare_help},
        {"rm", rm_help}, {"import", import_help}, {"catalog", catalog_help},
        {"plot", plot_help},
    };
    if (!topic)
        return NULL;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (strcmp(topic, texts[i].topic) == 0)
            return texts[i].text;
    return NULL;
}
