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
"Not in this version: trace gen|stats of request traces, catalog llms|mig\n"
"(MIG, LLM models, training and windows come in later versions).\n";

void fs_help_usage(FILE *out, const fs_command *cmds, size_t n)
{
    fputs("usage: fleetsim COMMAND [ARGS]\n"
          "\n"
          "fleetsim simulates GPU fleets (on-demand, reserved and "
          "savings-plan pools\nserving inference workloads) and stores "
          "cost, utilization and latency in\nSQLite.\n\ncommands:\n", out);
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
"attainment.  A training workload gets a line instead: its jobs finished,\n"
"running, queued and rejected, mean wait, deadlines missed, GPU-hours\n"
"lost and cost, and, when jobs were interrupted, the Young/Daly\n"
"checkpoint interval sqrt(2 x checkpoint_cost x MTBF); each job is a row\n"
"of the job table.\n"
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

static const char sweep_help[] =
"usage: fleetsim sweep SCENARIO --vary SECTION.KEY=V1,V2,... [--vary ...]\n"
"                      [-j N] [--replications N] [--db FILE] [--quiet]\n"
"                      [--set SECTION.KEY=VALUE]... [--seed N]\n"
"                      [--progress auto|always|never] [--max-events N]\n"
"                      [--busy-timeout DURATION]\n"
"\n"
"Runs SCENARIO once per point of a grid: the cartesian product of the\n"
"--vary lists, in the order of nested loops (the first --vary slowest):\n"
"--vary a.x.k=1,2 --vary a.x.m=p,q gives (1,p) (1,q) (2,p) (2,q).  Values\n"
"are split at commas outside parentheses, so poisson(rate=2/s) is one.\n"
"Point N is stored as runs named NAME[k=1,m=p] (NAME the scenario's name;\n"
"each key shown by its last part, or whole when two varied keys end\n"
"alike); a name longer than 63 bytes is cut at a character boundary and\n"
"ends ~N] instead.  Replications are stored as runs of the same name,\n"
"replication 0..N-1, as `fleetsim run` does.\n"
"\n"
"Every point uses the scenario's seed, so points that differ only in the\n"
"fleet see the same arrivals and service demands (common random numbers).\n"
"Every point's scenario is loaded and checked before any work starts: an\n"
"unknown key or a bad value exits 1 naming it, with nothing written.\n"
"Then each point runs in a worker process of its own, at most N at a time\n"
"(-j N, default the number of processors), exactly as `fleetsim run`\n"
"would run it, all storing into one database.  A point that fails (or\n"
"whose worker is killed) loses only its own runs; the others are stored,\n"
"the failed points are listed on stderr and the exit status is 1.\n"
"\n"
"At the end it prints one line per point: its run id (replication 0),\n"
"name, total cost, monthly run rate (730 h), p99 latency of all requests\n"
"and SLO attainment (means over its replications), with * on the points\n"
"of the cost-vs-p99 Pareto front (no other point has both a lower or\n"
"equal cost and a lower or equal p99, one of them strictly lower).\n"
"\n"
"  --vary S.K=V1,...  a key and its values (repeatable; each key once)\n"
"  -j N, --jobs N     points run at the same time\n"
"  --quiet            no progress line, no warnings, no table: print the\n"
"                     new run ids, point by point\n"
"  --progress MODE    points done of the total on stderr: auto (when stderr\n"
"                     is a terminal), always, never; or $FLEETSIM_PROGRESS\n"
"  --db, --set, --seed, --replications, --max-events, --busy-timeout:\n"
"                     as for `fleetsim run`, applied to every point\n";

static const char runs_help[] =
"usage: fleetsim runs [--db FILE]\n"
"\n"
"Lists the stored runs: id, name, scenario, seed, replication, when it\n"
"finished, total cost and monthly run rate (730 h).  Control characters\n"
"in names are shown escaped (\\n, \\t, \\xNN).\n";

static const char compare_help[] =
"usage: fleetsim compare [--db FILE] [--format table|csv|json|markdown]\n"
"                        [--baseline RUN] [--group] RUN...\n"
"\n"
"Prints the run_summary of each RUN side by side (one column per run, one\n"
"row per metric).  RUN is a run id or a run name (the most recent run of\n"
"that name).  --baseline RUN adds, for every other run, its absolute and\n"
"percent difference from the baseline.  Below the run's metrics come one\n"
"block per workload (requests, p50, p99, mean wait, SLO p99, attainment),\n"
"one per pool (pricing, GPU, GPU-hours, utilization, cost, idle cost; for\n"
"spot pools interruptions, requests retried, fallback hours and cost) and\n"
"the cost by pricing model, matched across runs by name.  --format json\n"
"prints an array of run_summary objects, each with workloads, pools and\n"
"cost_by_pricing arrays (and delta_vs_baseline and delta_pct_vs_baseline\n"
"objects, on the run and on each row, when --baseline is given); csv names\n"
"those rows SECTION.KEY.COLUMN (workloads.chat.latency_p99_s).\n"
"\n"
"--group: each RUN stands for the replications of its run name (the newest\n"
"run of each replication index); one column per group with each metric's\n"
"mean and 95% confidence interval (Student t), \"mean +- half-width\".  With\n"
"--baseline, the change and its interval: paired by replication index when\n"
"both groups hold the same replications (same seed: common random numbers),\n"
"else Welch.  csv: group,metric,n,mean,ci_low,ci_high,delta,delta_ci_low,\n"
"delta_ci_high,delta_pct,delta_pct_ci_low,delta_pct_ci_high,delta_method;\n"
"json: one object per group, each metric as {mean, ci_low, ci_high, n}.\n";

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

static const char export_help[] =
"usage: fleetsim export [--db FILE] --format focus|csv [--granularity hour|day]\n"
"                       --out FILE RUN...\n"
"\n"
"Writes the simulated bill of each RUN, one row per pool and hour (or day),\n"
"to FILE (CSV, written whole or not at all).  --format focus writes a FOCUS\n"
"1.2 cost and usage dataset: BilledCost (what is invoiced), EffectiveCost\n"
"(amortized: with each hour's share of a reservation's upfront payment),\n"
"ListCost, ContractedCost, BillingCurrency (USD), ChargeCategory (Usage, or\n"
"Purchase for an upfront payment, billed in the first month), ChargeFrequency,\n"
"ChargePeriodStart/End and BillingPeriodStart/End (UTC, YYYY-MM-DDTHH:MM:SSZ),\n"
"PricingCategory (Standard, Committed, Dynamic), CommitmentDiscountId/Type/\n"
"Status (Used when the pool was busy that hour, else Unused), ResourceId,\n"
"ResourceType, ServiceCategory, ServiceName, ProviderName, ConsumedQuantity\n"
"in GPU-Hours, Tags (the pool's, JSON) and x_ columns of fleetsim's own.\n"
"--format csv writes run_id, run, pool, pricing, period_start, period_end,\n"
"gpu_hours, gpu_hours_busy, billed_usd, effective_usd.  Each pool-month's\n"
"rows add up to its cost_monthly row to the cent (EffectiveCost); BilledCost\n"
"adds up to that less the upfront's monthly share, plus the whole upfront.\n";
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

static const char report_help[] =
"usage: fleetsim report [--db FILE] [--baseline RUN] --out FILE.html|FILE.md\n"
"                       RUN...\n"
"\n"
"Writes one budget review of the RUNs: the run_summary columns (one column\n"
"per run), cost by calendar month and pricing model (cost_monthly), savings\n"
"against the baseline (--baseline, else the first RUN: run-rate and total\n"
"cost, difference in $ and %), idle cost per pool (cost_allocation rows\n"
"without a workload), GPU-hours used and latency against the SLO per\n"
"workload, and the six charts of `fleetsim plot` (ri-breakeven for each\n"
"run's default pool).  A chart that cannot be drawn for these runs (no\n"
"priceable pool, no gnuplot) gets a one-line note in its place.\n"
"A table gives each pool's reservation recommendation as `fleetsim roi`\n"
"makes it with its defaults (1y, no upfront, hour by hour, whole run):\n"
"count, monthly cost without and with it, savings, break-even,\n"
"utilization, the daily-average choice; a pool that cannot be priced or a\n"
"run with metrics_interval over 1h gets a note row instead.\n"
".html: one self-contained page: inline CSS, no script, no external\n"
"resource, every name escaped, each chart an inline <svg>.\n"
".md: GitHub tables; each chart is written beside it as STEM-CHART.svg\n"
"(review.md: review-monthly-cost.svg, ...) and linked as an image.\n"
"Each file is written to a fresh temporary beside it and renamed when\n"
"whole; a device or FIFO is written in place, a symbolic link refused.\n";

static const char catalog_help[] =
"usage: fleetsim catalog gpus|instances [--catalog DIR]\n"
"\n"
"Prints the GPU catalog (memory, bandwidth, dense bf16/fp8/int8 throughput,\n"
"TDP, MIG, source) or the instance catalog (provider, type, GPU, GPUs,\n"
"on-demand, spot, 1y and 3y reserved $ per instance-hour, Savings Plan\n"
"discounts, region, date, source), then each reserved payment option (no,\n"
"partial, all upfront) as upfront + hourly; \"derived\" marks an option\n"
"computed from the no-upfront rate, not published.  DIR (or\n"
"$FLEETSIM_CATALOG) holds gpus.csv and instances.csv; a scenario can\n"
"point at its own with [scenario] catalog = DIR.\n";

static const char trace_help[] =
"usage: fleetsim trace fit|stats FILE\n"
"\n"
"Reads a spot preemption trace, t_seconds,available (as in\n"
"traces/sample/spot/, from skypilot-org/spot-traces), and turns it into\n"
"instance lifetimes: an instance lives from the sample where available\n"
"rises to the one where it drops (oldest first when several run); those\n"
"still running at the end are censored.  stats prints the span, the\n"
"preemptions and the lifetimes' mean and median.  fit adds the\n"
"maximum-likelihood exponential and Weibull fits (censored lifetimes\n"
"counted in the likelihood; the Weibull shape solved with GSL's Brent\n"
"root finder), the Kolmogorov-Smirnov statistic D of each against the\n"
"ended lifetimes with its 5% critical value 1.36/sqrt(n), and the\n"
"interruption = ... line of the better fit, to paste into a spot pool.\n"
"A malformed, unsorted or negative-time trace: exit 1 with file:line.\n";

static const char roi_help[] =
"usage: fleetsim roi [--db FILE] RUN [--pool POOL] [--term 1y|3y]\n"
"                    [--upfront none|partial|all] [--savings-plan\n"
"                    [--discount D]] [--discount-rate R] [--lookback D]\n"
"                    [--format table|csv|json|markdown]\n"
"\n"
"Recommends, for each pool of RUN (or POOL), how many instances to reserve:\n"
"the count k that makes least the cost of reserving k (the hourly rate and\n"
"the upfront payment spread over the term) plus on-demand for each hour's\n"
"demand above k.  The demand is the run's instances in use hour by hour\n"
"(the utilization table's instances_up, time-averaged into hours), never\n"
"a daily average; what a daily-average sizing would choose, and what it\n"
"costs on the same hourly demand, is shown beside it.  The run needs\n"
"metrics_interval <= 1h (else: rerun with --set\n"
"scenario.metrics_interval=1h).  Monthly figures are 730-hour run rates.\n"
"\n"
"Prices: on demand, the pool's own rate when it is an on-demand or\n"
"savings-plan pool, else the catalog's for its instance (or the cheapest\n"
"with its GPU, per GPU);\n"
"reserved, the catalog's 1y or 3y rate (no upfront); partial and all\n"
"upfront are the provider's published options where the catalog lists\n"
"them (the price source says \"published\"), else derived as the scenario\n"
"derives them: partial pays half the term's cost up front and half by the\n"
"hour, all pays it all up front.  A savings plan's discount is the\n"
"catalog's published one, else the reserved discount.  The catalog is\n"
"$FLEETSIM_CATALOG's (or the installed one), not a scenario's catalog\n"
"key.  A pool the catalog cannot price is said so on stderr and skipped.\n"
"\n"
"  --pool POOL        one pool only\n"
"  --term T           1y (default) or 3y\n"
"  --upfront U        none (default), partial or all\n"
"  --savings-plan     recommend a savings plan's hourly commitment instead:\n"
"                     the commitment c ($ an hour, buying c / (1 - D) of\n"
"                     on-demand usage) of least cost\n"
"  --discount D       the plan's discount (0.37 or 37%; default: the\n"
"                     catalog's published plan discount for --term, else\n"
"                     its reserved discount, an approximation)\n"
"  --discount-rate R  yearly rate for the NPV of the monthly savings\n"
"                     (default 8%)\n"
"  --lookback D       size against the last D of the run (default: all of\n"
"                     it; longer than the run is an error)\n"
"  --format F         table (default), csv, json (one object per pool, with\n"
"                     cash_flow: [{month, usd}], upfront in month 1) or\n"
"                     markdown\n"
"\n"
"Reported: recommended_count, upfront_cost_usd, recurring_monthly_cost_usd,\n"
"on_demand_cost_usd (all on demand), with_reservation_cost_usd (upfront\n"
"amortized), estimated_monthly_savings_usd and _pct, break_even_months\n"
"(upfront / monthly cash saved; 0 with no upfront; null if not within the\n"
"term), estimated_reservation_utilization (reserved hours used), npv_usd\n"
"(the term's monthly savings, month m discounted by (1 + R)^(m/12)),\n"
"daily_average_count and daily_average_cost_usd.\n";

const char *fs_help_text(const char *topic)
{
    static const struct { const char *topic, *text; } texts[] = {
        {"run", run_help}, {"sweep", sweep_help}, {"runs", runs_help}, {"compare", compare_help},
        {"rm", rm_help}, {"import", import_help}, {"roi", roi_help}, {"catalog", catalog_help},
        {"export", export_help}, {"plot", plot_help},
        {"report", report_help}, {"trace", trace_help},
    };
    if (!topic)
        return NULL;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (strcmp(topic, texts[i].topic) == 0)
            return texts[i].text;
    return NULL;
}
