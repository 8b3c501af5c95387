/* help.c -- help texts, one per command and one for the scenario keys.
 * Kept beside each other so that README.md and `fleetsim help` can be
 * checked against the same list. */
#include "help.h"

#include <string.h>

const char *const fs_help_topics[] = {"run", "runs", "compare", "catalog",
                                      "scenario", "help", NULL};

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
"monthly cost by pool and pricing, pool utilization, and per workload the\n"
"p50/p99 latency, mean wait and SLO attainment.\n"
"\n"
"  --db FILE          results database (created if missing)\n"
"  --seed N           overrides [scenario] seed\n"
"  --replications N   overrides [scenario] replications (runs 0..N-1, each\n"
"                     its own random streams, each stored as a run)\n"
"  --set S.K=V        overrides any scenario key, e.g. --set pool.gpu.count=6\n"
"                     (repeatable; applied after the file and its include)\n"
"  --name NAME        the run's name (default [scenario] name, else the\n"
"                     file name without .ini)\n"
"  --quiet            no progress line, no warnings and no summary: print\n"
"                     the run ids\n"
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
"key that makes it large.  Nothing is written unless every replication\n"
"succeeds.\n";

static const char runs_help[] =
"usage: fleetsim runs [--db FILE]\n"
"\n"
"Lists the stored runs: id, name, scenario, seed, replication, when it\n"
"finished, total cost and cost per month.\n";

static const char compare_help[] =
"usage: fleetsim compare [--db FILE] [--format table|csv|json|markdown]\n"
"                        [--baseline RUN] RUN...\n"
"\n"
"Prints the run_summary of each RUN side by side (one column per run, one\n"
"row per metric).  RUN is a run id or a run name (the most recent run of\n"
"that name).  --baseline RUN adds, for every other run, its absolute and\n"
"percent difference from the baseline.  --format json prints an array of\n"
"run_summary objects (with delta_vs_baseline and delta_pct_vs_baseline\n"
"objects when --baseline is given).\n";

static const char catalog_help[] =
"usage: fleetsim catalog gpus|instances [--catalog DIR]\n"
"\n"
"Prints the GPU catalog (memory, bandwidth, dense bf16/fp8/int8 throughput,\n"
"TDP, MIG, source) or the instance catalog (provider, type, GPU, GPUs,\n"
"on-demand, spot, 1y and 3y reserved $ per instance-hour, region, date,\n"
"source).  DIR (or $FLEETSIM_CATALOG) holds gpus.csv and instances.csv;\n"
"a scenario can point at its own with [scenario] catalog = DIR.\n";

static const char help_help[] =
"usage: fleetsim help [run|runs|compare|catalog|scenario]\n";

static const char scenario_help[] =
"Scenario files are INI (inih).  Values use one grammar: durations 250ms\n"
"90s 15m 4h 30d 2w (a bare number is seconds); rates 3.2/s 100/m 5000/h\n"
"1M/d; money 4.10 or $4.10 ($ per instance-hour unless said); fractions\n"
"0.7 or 70%; calls NAME(key=value, ...).  ';' or '#' starts a comment.\n"
"\n"
"[scenario]\n"
"  name = TEXT               run name (default: the file name)\n"
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
"  gpus_per_instance = N     (default: the instance's, else 1)\n"
"  gpus_per_server = N       GPUs one replica uses (default 1)\n"
"  pricing = on-demand|reserved   (default on-demand)\n"
"  count = N                 fixed number of instances (default 1)\n"
"  autoscale = utilization(target=70%) | queue(target=N)  with min = N,\n"
"                            max = N (on-demand only; not with count)\n"
"  autoscale_interval = DURATION  (default 1m)\n"
"  cooldown = DURATION       scale-in window: shrink only to the most\n"
"                            instances wanted within it (default 5m)\n"
"  provision_delay = DURATION  launch to ready (default 3m; pools present\n"
"                            at the start are ready at once)\n"
"  price = MONEY             $ per instance-hour (default: catalog)\n"
"  term = 1y|3y              reserved term (default 1y)\n"
"  upfront = none|partial|all   reserved upfront option (default none)\n"
"  upfront_price = MONEY     reserved: $ per instance for the whole term\n"
"  min_billed = DURATION     on-demand minimum per launch (default 60s)\n"
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
"  (validated; used by batch workloads in a later version)\n";

const char *fs_help_text(const char *topic)
{
    if (!topic)
        return usage;
    static const struct { const char *topic, *text; } texts[] = {
        {"run", run_help}, {"runs", runs_help}, {"compare", compare_help},
        {"catalog", catalog_help}, {"scenario", scenario_help},
        {"help", help_help},
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (strcmp(topic, texts[i].topic) == 0)
            return texts[i].text;
    return NULL;
}
