/* help.c -- help texts, one per command and one for the scenario keys.
 * Kept beside each other so that README.md and `fleetsim help` can be
 * checked against the same list. */
#include "sim/cli/help.h"

#include <string.h>

const char *const fs_help_topics[] = {"run", "runs", "compare", "rm",
                                      "import", "catalog", "scenario",
                                      "help", NULL};

static const char usage[] =
"usage: fleetsim COMMAND [ARGS]\n"
"\n"
"fleetsim simulates GPU fleets (on-demand and reserved pools serving\n"
"inference workloads) and stores cost, utilization and latency in SQLite.\n"
"\n"
"commands:\n"
"  run SCENARIO      simulate a scenario and store the run (fleetsim.db)\n"
"  runs              list the stored runs\n"
"  compare RUN...    compare runs side by side (--baseline for deltas)\n"
"  rm RUN...         remove runs and all their rows\n"
"  import FILE...    copy the runs of a kept database into --db\n"
"  catalog gpus|instances   print the GPU and instance-price catalogs\n"
"  help [TOPIC]      this text, or help on a command or on `scenario`\n"
"  --version         print the version\n"
"\n"
"exit status: 0 success, 1 the simulation could not be done (the message\n"
"names file, line and key), 2 usage error.\n"
"\n"
"Not in this version: sweep, roi, plot, trace, catalog llms|mig (spot,\n"
"MIG, LLM models, training and windows come in later versions).\n";

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

static const char catalog_help[] =
"usage: fleetsim catalog gpus|instances [--catalog DIR]\n"
"\n"
"Prints the GPU catalog (memory, bandwidth, dense bf16/fp8/int8 throughput,\n"
"TDP, MIG, source) or the instance catalog (provider, type, GPU, GPUs,\n"
"on-demand, spot, 1y and 3y reserved $ per instance-hour, region, date,\n"
"source).  DIR (or $FLEETSIM_CATALOG) holds gpus.csv and instances.csv;\n"
"a scenario can point at its own with [scenario] catalog = DIR.\n";

static const char help_help[] =
"usage: fleetsim help [run|runs|compare|rm|import|catalog|scenario]\n";

static const char scenario_help[] =
"Scenario files are INI (inih).  Values use one grammar: durations 250ms\n"
"90s 15m 4h 30d 2w (a bare number is seconds); rates 3.2/s 100/m 5000/h\n"
"1M/d; money 4.10 or $4.10 ($ per instance-hour unless said); fractions\n"
"0.7 or 70%; calls NAME(key=value, ...).  ';' or '#' starts a comment.\n"
"\n"
"[scenario]\n"
"  name = TEXT               run name, 1-63 bytes (default: the file name)\n"
"  start = YYYY-MM-DD[ HH:MM] calendar start, UTC (default 2026-01-01)\n"
"  horizon = DURATION        simulated time (default 30d)\n"
"  seed = N                  random seed (default 1)\n"
"  replications = N          independent replications (default 1)\n"
"  metrics_interval = DURATION  utilization sampling (default 5m)\n"
"  include = FILE            read FILE first; this file overrides it\n"
"  catalog = DIR             gpus.csv and instances.csv to use\n"
"  catalog_gpus = FILE, catalog_instances = FILE   one file each\n"
"\n"
"[pool.NAME]\n"
"  gpu = NAME                a catalog GPU (fleetsim catalog gpus)\n"
"  instance = PROVIDER:TYPE  a catalog instance (GPU, count and prices)\n"
"  provider = aws|azure|gcp  whose catalog prices a gpu several sell\n"
"                            (required then, unless instance or price)\n"
"  gpus_per_instance = N     (default: the instance's, else 1)\n"
"  gpus_per_server = N       GPUs one replica uses (default 1)\n"
"  pricing = on-demand|reserved   (default on-demand)\n"
"  count = N                 fixed number of instances (default 1)\n"
"  autoscale = utilization(target=70%) | queue(target=N)  with min = N,\n"
"                            max = N (on-demand only; not with count);\n"
"                            utilization counts busy time plus the growth\n"
"                            of the queued work\n"
"  autoscale_interval = DURATION  (default 1m)\n"
"  cooldown = DURATION       scale-in window: shrink only to the most\n"
"                            instances wanted within it (default 5m)\n"
"  provision_delay = DURATION  launch to ready (default 3m; pools present\n"
"                            at the start are ready at once)\n"
"  price = MONEY             $ per instance-hour (default: catalog)\n"
"  term = 1y|3y              reserved term (default 1y)\n"
"  upfront = none|partial|all   reserved upfront option (default none)\n"
"  upfront_price = MONEY     reserved: $ per instance for the whole term\n"
"                            (partial: with price, the hourly rate that goes\n"
"                            with it; all: no hourly rate, no price)\n"
"  min_billed = DURATION     on-demand minimum per launch (default 60s; not\n"
"                            for instances still up at the horizon)\n"
"\n"
"[workload.NAME]\n"
"  kind = inference          (default; batch and training come later)\n"
"  pools = P1, P2            pools that serve it, in preference order\n"
"  arrivals = poisson(rate=R) | diurnal(peak=R, trough=R, peak_hour=H)\n"
"           | mmpp(high=R, low=R, high_for=D, low_for=D)\n"
"           | trace(PATH, format=azure-llm|alibaba-lora|generic, ...)\n"
"             generic: time=COL service=COL tokens_in=COL tokens_out=COL\n"
"             time_unit=s|ms|us|datetime\n"
"  service = const(D) | exponential(mean=D) | lognormal(mean=D, sigma=S)\n"
"          | lognormal(mu=M, sigma=S) | weibull(shape=K, scale=D)\n"
"          | linear(base=D, per_item=D) | trace\n"
"  reference_gpu = NAME      GPU the service times are stated for (default\n"
"                            the first pool's); others scale by bf16 TFLOPS\n"
"  batch_max = N             requests per batch (default 1)\n"
"  batch_wait = DURATION     longest a request waits for its batch to fill\n"
"                            (default 0s)\n"
"  slo_p99 = DURATION        latency objective; attainment = share of\n"
"                            requests within it\n"
"  rate_scale = X            traces: thin (<1) or replicate (>1) requests\n"
"  repeat = yes|no           traces: loop the trace to the horizon\n"
"  bad_rows = fail|skip      traces: stop at a malformed row (default) or\n"
"                            skip and count it\n"
"  statuses = S1, S2         traces with a status column (alibaba-lora):\n"
"                            the statuses replayed (default SUCCEED); the\n"
"                            other rows are counted in the run summary\n"
"  queue_max = N             drop arrivals beyond N waiting (default 0 =\n"
"                            unbounded)\n"
"\n"
"[window.NAME]  every = DURATION  open = HH:MM  duration = DURATION\n"
"  (validated; used by batch workloads in a later version)\n"
"\n"
"Limits (refused with file:line:key beyond them): a file is a regular file\n"
"of at most 1 MiB, lines at most 198 characters, section names at most 49;\n"
"durations at most 3650d; count, min, max at most 1000000; gpus_per_instance\n"
"at most 64; batch_max at most 65536; replications at most 10000; price at\n"
"most $10000 per instance-hour; rate_scale at most 1000; lognormal sigma at\n"
"most 4; weibull shape 0.1 to 100; per pool, servers x batch_max at most\n"
"4194304; pools x replications x (samples + months) at most 5000000.\n";

const char *fs_help_text(const char *topic)
{
    if (!topic)
        return usage;
    static const struct { const char *topic, *text; } texts[] = {
        {"run", run_help}, {"runs", runs_help}, {"compare", compare_help},
        {"rm", rm_help}, {"import", import_help}, {"catalog", catalog_help}, {"scenario", scenario_help},
        {"help", help_help},
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (strcmp(topic, texts[i].topic) == 0)
            return texts[i].text;
    return NULL;
}
