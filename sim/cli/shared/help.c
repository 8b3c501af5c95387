/* help.c -- the overview of the commands (from main.c's table) and the
 * help text of each command.  The reference listings (scenario keys,
 * run_summary columns) are generated from their tables in help_ref.c. */
#include "sim/cli/shared/help.h"
#include "plots/plot.h"

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
"Not in this version: trace gen|stats of request traces (trace fit|stats\n"
"read preemption traces).\n";

void fs_help_usage(FILE *out, const fs_command *cmds, size_t n)
{
    fputs("usage: fleetsim COMMAND [ARGS]\n"
          "\n"
          "fleetsim simulates GPU fleets (on-demand, reserved, "
          "savings-plan and spot\npools serving inference workloads and "
          "training jobs, in time windows if\nasked) and stores cost, "
          "utilization and latency in SQLite.\n\ncommands:\n", out);
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
"Simulates SCENARIO and stores each replication as one run in the results\n"
"database (default fleetsim.db in the current directory), then prints the\n"
"bill by calendar month (by pool and pricing), the monthly run rate (730 h:\n"
"the horizon's cost, before rounding to cents, x 730 h / horizon), pool\n"
"utilization (\"-\" with no GPU provisioned), and per workload the p50/p99\n"
"latency, mean wait and SLO attainment: a workload with under 99% of its\n"
"finished requests within its slo_p99 (or an llm's slo_ttft, slo_tpot) is\n"
"flagged SLO MISSED, and\n"
"the line under the table says by how much.  Durations read in their\n"
"unit, under a millisecond in us or ns, never as an exponent.\n"
"A training workload gets a line instead: its jobs finished,\n"
"running, queued and rejected, mean wait, deadlines missed, GPU-hours\n"
"lost and cost, and, when jobs were interrupted, the Young/Daly\n"
"checkpoint interval sqrt(2 x checkpoint_cost x MTBF); each job is a row\n"
"of the job table.\n"
"\n"
"A run longer than a second shows a progress line on stderr when stderr is\n"
"a terminal: simulated time done, events done of the estimate, events/s\n"
"and ETA.  FLEETSIM_PROGRESS_INTERVAL=D draws the first line after D\n"
"(default 1s; 0: at once, before the first event).  Before the first event\n"
"the run's events are estimated (two per request, one on a plain FIFO pool\n"
"served by the Kiefer-Wolfowitz recursion, FLEETSIM_EVENTS_ONLY=1 to serve\n"
"it by events; one per metrics sample and autoscaling decision); a run\n"
"above --max-events is refused, naming the key that makes it large.\n"
"Each replication is stored, in one transaction, when it finishes.  A\n"
"finished run that cannot be stored (the database\n"
"stayed locked past the busy timeout, the disk is full) is kept in a\n"
"database of its own beside --db, NAME.kept-PID.db (else in $TMPDIR or\n"
"/tmp): the message names it, every command reads it with --db, and\n"
"`fleetsim import` copies it in; the exit status is then 1.  A pool no\n"
"workload uses is billed for nothing: a warning (not with --quiet).\n";

static const char sweep_help[] =
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
"Then each replication of each point runs in a worker process of its own,\n"
"at most N at a time (-j N, default the number of processors), exactly as\n"
"`fleetsim run` would run it, all storing into one database.  A point\n"
"that fails (or whose worker is killed) loses only its own runs; the\n"
"others are stored, the failed points are listed on stderr and the exit\n"
"status is 1.  Workers never outlive the command (sweep, plan, run -j):\n"
"SIGTERM or SIGINT stops them and waits for them, and a command killed\n"
"outright takes them with it; no run is stored after it has ended.\n"
"\n"
"At the end it prints one line per point: its run id (replication 0),\n"
"name, total cost, monthly run rate (730 h), p99 latency of the finished\n"
"requests, SLO attainment and the share of requests unfinished at the\n"
"horizon or dropped (means over its replications), with * on the points\n"
"of the cost-vs-p99 Pareto front (no other point has both a lower or\n"
"equal cost and a lower or equal p99, one of them strictly lower).  A\n"
"point with more than 1% unfinished is marked overloaded, left off the\n"
"front (its p99 leaves those requests out) and listed under the table.\n"
"\n"
"--shard I/N runs only the I-th of N disjoint slices of the sweep's runs\n"
"(run k, numbered point by point, is in shard k mod N + 1), into its own\n"
"--db; `fleetsim merge` brings the parts together.  A run's random streams\n"
"come from its point and replication, never the shard: the merged parts\n"
"equal the whole sweep.  A shard prints one line, not the table.\n"
"--shard auto takes I and N from the batch system: SLURM_ARRAY_TASK_ID -\n"
"SLURM_ARRAY_TASK_MIN of SLURM_ARRAY_TASK_COUNT (Slurm job arrays),\n"
"JOB_COMPLETION_INDEX with --shard-count N (Kubernetes indexed Jobs),\n"
"OMPI_COMM_WORLD_RANK/SIZE or PMI_RANK/SIZE (MPI).  The options shared\n"
"with `fleetsim run` apply to every point; --progress counts the points\n"
"done of the total, and --quiet prints the new run ids, point by point.\n";

static const char runs_help[] =
"Lists the stored runs: id, name, scenario, seed, replication, when it\n"
"finished, total cost and monthly run rate (730 h).  Control characters\n"
"in names are shown escaped (\\n, \\t, \\xNN).\n";

static const char compare_help[] =
"Prints the run_summary of each RUN side by side (one column per run, one\n"
"row per metric).  RUN is a run id or a run name (the most recent run of\n"
"that name).  --baseline RUN adds, for every other run, its absolute and\n"
"percent difference from the baseline.  Below the run's metrics come one\n"
"block per workload (requests, requests unfinished at the horizon or\n"
"dropped, their share, overloaded yes/no, p50, p99 (finished requests),\n"
"mean wait, SLO p99, attainment, SLO missed yes/no),\n"
"one per pool (pricing, GPU, GPU-hours, utilization, cost, idle cost; for\n"
"spot pools interruptions, requests retried, fallback hours and cost) and\n"
"the cost by pricing model, matched across runs by name.  --format json\n"
"prints an array of run_summary objects, each with workloads, pools and\n"
"cost_by_pricing arrays (and delta_vs_baseline and delta_pct_vs_baseline\n"
"objects, on the run and on each row, when --baseline is given); csv names\n"
"those rows SECTION.KEY.COLUMN (workloads.chat.latency_p99_s).  A run\n"
"with more than 1% of its requests unfinished (unfinished_share) is\n"
"flagged: OVERLOADED in the table and Markdown, \"overloaded\": true in\n"
"json, an overloaded row of yes/no in csv.  A workload under 99% within\n"
"its SLO is flagged the same way: SLO MISSED after its attainment, an SLO\n"
"missed row per workload and per run, \"slo_missed\" in json and csv.\n"
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
"Removes each RUN (an id, or a name: the most recent run of that name) and\n"
"all its rows, in one transaction.  If one RUN matches nothing, nothing is\n"
"removed and the message names it.  Never creates FILE.\n";

static const char import_help[] =
"Copies every run of each fleetsim database KEPT (such as the NAME.kept-\n"
"PID.db that `fleetsim run` writes when --db cannot take a finished run)\n"
"into FILE, with all its rows, in one transaction per KEPT.  The runs get\n"
"new ids; KEPT is left as it was (delete it once imported).  A run FILE\n"
"holds already (the same run.uid) is skipped: importing twice copies once.\n";

static const char merge_help[] =
"Copies every run of the fleetsim databases PART (the parts of a sharded\n"
"sweep: `fleetsim sweep ... --shard I/N --db part-I.db`) into INTO, created\n"
"if missing, with all its rows, in ONE transaction.  Runs get new ids; names,\n"
"scenario text and results are kept.  Each PART is checked first: one that\n"
"is not a fleetsim database, damaged, or from a newer fleetsim is refused by\n"
"name and nothing is written; an older one is migrated in a temporary copy\n"
"(PART itself is never modified).  A run is copied once: a run INTO holds\n"
"already (the same run.uid) is skipped, so merging a part twice changes\n"
"nothing.\n";

static const char export_help[] =
"Writes the simulated bill of each RUN, one row per pool and hour (or day),\n"
"to FILE (CSV, written whole or not at all).  --format focus writes a FOCUS\n"
"1.2 cost and usage dataset (every Mandatory column; see doc/money.md's FOCUS\n"
"columns table): ListCost = ListUnitPrice (the on-demand list price of an\n"
"instance-hour, from the catalog) x PricingQuantity (instance-hours,\n"
"PricingUnit Hours); ContractedCost = ContractedUnitPrice (a reservation's\n"
"fee plus its upfront spread over the term's hours; a savings plan's\n"
"discounted price) x PricingQuantity; EffectiveCost amortized; BilledCost as\n"
"billed (a reservation's upfront is a Purchase row when paid, one at each\n"
"term's start with renew; an all-upfront reservation's usage bills 0; its\n"
"instances after a term ended without renew are Standard rows at the\n"
"on-demand rate).  PricingCategory Standard, Committed or\n"
"Dynamic (spot); CommitmentDiscountCategory Usage (reserved) or Spend\n"
"(savings plan), Status Used, or Unused on rows of its own that add up to\n"
"the unused commitment, Quantity and Unit (Hours or USD).  Charge and\n"
"billing periods (calendar months) in UTC, YYYY-MM-DDTHH:MM:SSZ; SkuId,\n"
"SkuMeter, SkuPriceId, SkuPriceDetails; Tags (JSON); x_ columns of fleetsim's\n"
"own.  On every row each cost is its unit price x PricingQuantity to the\n"
"cent, as written: a row whose share of the pool's list cost was rounded\n"
"the other way states its unit price to ten decimals.  InvoiceId names a\n"
"simulated invoice per run and billing period, fleetsim-RUN-YYYYMM.\n"
"ListCost - EffectiveCost of the used rows, less the unused rows'\n"
"EffectiveCost, is the pool's realised saving that the run summary prints.\n"
"--format csv writes run_id, run, pool, pricing (PRICING-unused for an\n"
"unused commitment), period_start, period_end, gpu_hours, gpu_hours_busy,\n"
"billed_usd, effective_usd, list_usd.  Each pool-month's rows add up to its\n"
"cost_monthly rows to the cent (EffectiveCost).  A text cell that would\n"
"start a spreadsheet formula (= + - @, tab, CR) is written as text, behind\n"
"a single quote, in every CSV fleetsim writes; numbers stay numbers.\n";
static const char plot_help_head[] =
"Draws one chart of the RUNs with gnuplot (the Debian package gnuplot-nox;\n"
"without it: exit 1).  The format follows --out's extension: png, svg, pdf.\n"
"The same runs give the same bytes.  Charts:\n";
/* ... each chart of plots/plot.c's table (plot_help_text), then: */
static const char plot_help_tail[] =
"Each series has its own colour and dash pattern; legends stand outside\n"
"the plot.  Names reach gnuplot only as data, never as its commands.\n"
"Templates: plots/NAME.gp in $FLEETSIM_PLOTS or the installed data\n"
"directory.\n";

static const char report_help[] =
"Writes one budget review of the RUNs.  It opens with an executive\n"
"summary in plain words: the baseline's monthly run rate (730-hour month)\n"
"and bill by calendar month, each run's change in $ and %, an at-a-glance\n"
"table, the top savings and the risks (SLO attainment under 99%,\n"
"unfinished work, idle commitments).  A pool already reserved shows\n"
"\"already reserved\", never a recommendation.\n"
"Top savings: what the run whose changes hold every other's (else the one\n"
"with the most) saves against the baseline, per change, read from the\n"
"stored scenarios: per pool its instances, capacity (count, autoscaling,\n"
"MIG/sharing, schedule) and purchase option, per workload its pools and\n"
"checkpoints, per window its hours.  A RUN that makes some of those\n"
"changes and nothing else isolates them: its own difference is their line.\n"
"Changes no run isolates share one combined line.  The lines add up to\n"
"the baseline-to-run difference, built pool by pool from the stored\n"
"bills: where changes overlap on a pool, usage goes before rate (MIG, then\n"
"the reservation of what is left), and a change given less than its own\n"
"run's difference says both.  Apart, never added: each pool's idle cost\n"
"once, as a CEILING, with what a stored plan run of the pool achieves (or\n"
"the advice to run plan), and roi's reservation options.\n"
"--levers: first runs the baseline's scenario once per change of that\n"
"run, that change alone (same seed and replication, its --set lines),\n"
"stores each as BASE+SECTION:KIND (used again by later reports) and\n"
"attributes by them; run it from the folder the baseline was run in.\n"
"Then every run_summary figure, labelled in words (one column\n"
"per run), cost by calendar month and pricing model (cost_monthly), savings\n"
"against the baseline (--baseline, else the first RUN: run-rate and total\n"
"cost, difference in $ and %), idle cost per pool (cost_allocation rows\n"
"without a workload), GPU-hours used, showback cost and latency against\n"
"the SLO per workload (every workload, training teams included; under 99%\n"
"within the SLO: \"SLO missed\"), and every chart of `fleetsim plot`\n"
"(ri-breakeven for each run's on-demand pool with the largest bill),\n"
"drawn at their own size (text at least 11 px).  A chart that cannot be\n"
"drawn for these runs (no priceable pool, no gnuplot) gets a one-line\n"
"note in its place.\n"
"A table gives each pool's reservation recommendation as `fleetsim roi`\n"
"makes it with its defaults (1y, no upfront, hour by hour, whole run):\n"
"count, monthly cost without it (labelled by the pool's purchase option:\n"
"all on demand, all on spot as paid) and with it, savings, break-even\n"
"(none for a count of 0),\n"
"utilization, the daily-average choice; a pool that cannot be priced or a\n"
"run with metrics_interval over 1h gets a note row instead.\n"
"Where runs serve an llm with them, a serving table: per workload and\n"
"pool the prefix cache's token hit rate and cached input tokens, the KV\n"
"caches a prefill pool sent (transfer and link-wait means), cold starts\n"
"and the time loading, speculative decoding's tokens a step beside the\n"
"law's mean; left out when no run has any.\n"
".html: one self-contained page: inline CSS, no script, no external\n"
"resource, every name escaped, each chart an inline <svg>.\n"
".md: GitHub tables; each chart is written beside it as STEM-CHART.svg\n"
"(review.md: review-monthly-cost.svg, ...) and linked as an image.\n"
"Each file is written to a fresh temporary beside it and renamed when\n"
"whole; a device or FIFO is written in place, a symbolic link refused.\n";

static const char catalog_help[] =
"Prints the GPU catalog (memory, bandwidth, dense bf16/fp16/fp8/int8/int4\n"
"throughput, NVLink and PCIe GB/s, native fp8, generation, form factor,\n"
"TDP, MIG, the boost clock the peaks are stated at, the figures no vendor\n"
"document gives (unsourced), source), the LLM model catalog (parameters\n"
"total and active, layers, hidden, heads, KV heads, head dim, FFN,\n"
"experts, experts a token runs and shared experts, vocabulary, context,\n"
"source; models.csv) or the instance catalog (provider, type, GPU, GPUs,\n"
"on-demand, spot, 1y and 3y reserved $ per instance-hour, Savings Plan\n"
"discounts, region, date, source), then each reserved payment option (no,\n"
"partial, all upfront) as upfront + hourly; \"derived\" marks an option\n"
"computed from the no-upfront rate, not published.  DIR (or\n"
"$FLEETSIM_CATALOG) holds gpus.csv and instances.csv; a scenario can\n"
"point at its own with [scenario] catalog = DIR.\n"
"\n"
"catalog mig [GPU] prints NVIDIA's MIG profiles (mig.csv: compute and\n"
"memory slices, usable GB, SMs of the slice and of the GPU, most per GPU,\n"
"allowed first memory slices); with a GPU, its balanced layout and every\n"
"maximal layout (no instance can be added), as a pool writes it in\n"
"mig = ..., with one placement.  A GPU without MIG: exit status 1.  With\n"
"--model (a row of models.csv), whether it fits each profile's slice at\n"
"--precision (bf16) for --batch (1) sequences of --context (4096) tokens:\n"
"the memory breakdown in GB and the most sequences its KV cache holds.\n";

static const char fit_help[] =
"Whether an LLM fits a GPU, per GPU in GB (10^9 bytes).  Inference: weights\n"
"at P (fp32, bf16, fp16, fp8, int8, int4; default bf16) split over --tp\n"
"GPUs, the KV cache of --batch sequences of --context tokens (2 x layers x\n"
"KV heads x head dim x bytes a token), and what the --engine's profile\n"
"sets aside (activations of its profiling run, CUDA graphs, runtime, the\n"
"share it leaves unused), and with --draft M or --mtp speculative\n"
"decoding's proposer (a smaller model of its vocabulary, or its MTP\n"
"module: a block and a 2h x h projection) on a line of its own, its KV\n"
"cache beside the model's; the KV cache it holds (\"KV cache: N tokens at\n"
"16-token blocks\"); the largest batch and context that fit, and when it\n"
"does not fit the nearest configurations that do (each precision the GPU\n"
"runs at the least --tp that fits).  A precision the GPU cannot run (fp8\n"
"or bf16 on Volta and Turing: V100, T4) is refused, exit status 1, and\n"
"such GPUs are left out of the list.  --training: weights, 16-bit gradients, optimizer states\n"
"(adam: fp32 m and v; adam8bit; sgd: fp32 momentum), fp32 master weights\n"
"(a line of their own; --no-master-weights leaves them out), activations\n"
"of the batch (split over --gpus) with or without checkpointing, ZeRO\n"
"stage 1-3 sharding over --gpus; then tokens/s per GPU = MFU x peak /\n"
"(6 x active parameters), 8 x with checkpointing (--mfu, default by GPU\n"
"generation).  A fine-tune that does not fit names, for each ZeRO stage,\n"
"the fewest GPUs (powers of two up to 64, the same sequences per GPU) on\n"
"which it fits, and what a GPU holds over 8 GPUs.  --lora-rank R: LoRA,\n"
"the base frozen at P (no gradients, no optimizer states) and rank-R\n"
"adapters on q, k, v, o, gate, up and down trained (16-bit, with their\n"
"gradients, optimizer states and master copy), its tokens/s at 4 x the\n"
"base (no weight gradients) + 6 x the adapters' FLOPs a token (6 x and\n"
"8 x with checkpointing); --qlora: the base at int4 (QLoRA) with its\n"
"quantization constants, 0.127 bits a parameter (double quantization).\n"
"Then every catalog GPU it fits on with its cheapest\n"
"instance type, cheapest first.  MODEL is a row of models.csv (`fleetsim\n"
"catalog models`) or of --models FILE (same columns).  --engine names a\n"
"serving-stack profile of engines.csv (vllm, trt-llm, sglang, or\n"
"NAME@VERSION; default vllm).  Unknown model or GPU: exit status 1 with\n"
"the nearest name; unknown engine: exit status 2 with the known ones.  An\n"
"option of the other form (--zero, --gpus, --mfu, --seq... without\n"
"--training; --tp, --context, --engine, --kv-precision with it) is a usage\n"
"error, exit 2.\n";

static const char calibrate_help[] =
"Fits the LLM serving model to your own benchmark runs of M on G (at P,\n"
"default bf16, and --tp N, default 1, served by E, default vllm).  FILE:\n"
"vLLM's `vllm bench serve --save-result` JSON (benchmark_serving.py),\n"
"genai-perf's profile_export_genai_perf.json (or AIPerf's), GuideLLM's\n"
"report JSON (each benchmark of a sweep a run), inference-perf's\n"
"summary_lifecycle_metrics.json, or CSV with the columns model,gpu,\n"
"precision,tp,tokens_in,tokens_out,concurrency_or_rate,ttft_ms,tpot_ms,\n"
"throughput[,weight] (16 = clients, 2.5/s = a Poisson rate, inf = all at\n"
"once; an empty cell was not measured; rows of another model, GPU,\n"
"precision or TP are skipped).  The format is found from the keys; --format\n"
"vllm|genai-perf|guidellm|inference-perf|csv names it.  A run's mean TTFT,\n"
"TPOT (between output tokens after the first) and output tokens/s are\n"
"predicted for its load (closed-loop clients, or Little's law at an open\n"
"rate) from the iteration time, and the parameters fitted by weighted\n"
"least squares on log(predicted / measured) (GSL's trust-region\n"
"gsl_multifit_nlinear, each parameter kept within its bounds): mfu,\n"
"decode_frac, bw_efficiency, step_ms, prefill_ms and request_ms (time\n"
"before the first token off the GPU); --fit mfu,bw_efficiency,... fits\n"
"only those.  Prints each parameter's default, fitted value and standard\n"
"error (the covariance scaled by the residual variance; \"held\" when no\n"
"run moves it), each figure's residual and leave-one-out error (the run\n"
"predicted by a fit to the others), and the time taken.  --out writes the\n"
"fit as an engine profile row (engines.csv's columns, version calibrated)\n"
"for a pool's llm_profile = FILE or llm(..., profile = FILE) (request_ms as\n"
"its request_s: added to each request's TTFT and end-to-end latency, not\n"
"to the GPU's time).  A CSV's optional cached_tokens column: prompt tokens\n"
"the server's prefix cache held.  A malformed file: exit status 1 naming\n"
"file and key.\n";

static const char plan_help[] =
"The cheapest fleet that meets every SLO on the scenario's traffic.  For\n"
"each candidate, GPU (--gpus; default the pool's) x precision x TP (for a\n"
"workload with service = llm(...); default bf16, 1), the smallest count of\n"
"the workload's first pool (or --pool; its max when it autoscales, min\n"
"kept; the other pools as they are) whose run meets every SLO.  A pool\n"
"given by instance = gets the catalog's cheapest on-demand type of each\n"
"other GPU.  An M/M/c (Erlang C) estimate at the service's mean (or, for\n"
"llm, the roofline's lower bound) starts the search when arrivals are\n"
"Poisson, then simulations with the\n"
"scenario's seed (common random numbers) bisect to the smallest passing\n"
"count; count - 1 is simulated and fails.  Each simulation is a stored\n"
"run named plan[gpu=G,count=N] (compare, report, export read them).  A\n"
"candidate the model does not fit in memory, or whose GPU cannot run its\n"
"precision (fp8 or bf16 before Ampere), is excluded with the reason.\n"
"A pool's own price = (and upfront_price, reserved_* quotes) is per\n"
"instance of its GPU: a candidate on that GPU in instances of another\n"
"size pays it per GPU; one on another GPU is excluded (there is no price\n"
"of yours for it: remove price = to price every GPU from the catalog),\n"
"its reservation is priced only from the pool's reserved_1y quote, and\n"
"spot is refused.  Every candidate's scenario is read before any run: an\n"
"error they share (a --set) is said once.  METRIC is any stored latency\n"
"metric (ttft_ and tpot_ only for an llm service; a bound above 0):\n"
"p50, p90, p95, p99, p999, mean, wait_mean, wait_p99, ttft_p99,\n"
"tpot_p99, ... (the latency table's NAME_s columns) with <= and a\n"
"duration, or attainment\n"
"(slo_attainment) with >= and a share.  A run also fails when more than\n"
"--max-unfinished (default 1%, the share run and report call overloaded;\n"
"requests still running at the horizon count) of its requests are dropped\n"
"or unfinished (overload).\n"
"--replications N: each count runs N replications and the SLO must hold\n"
"at the pessimistic end of the mean's 95% t interval.  Each chosen fleet\n"
"is priced by roi on its run (1-year terms, no upfront): all on-demand,\n"
"k reserved + on-demand above, a savings-plan commitment + on-demand, or\n"
"spot (the fleet simulated again as a spot pool, stored as\n"
"plan[...,spot], k reserved + spot above); the cheapest asked is its\n"
"cost, a run rate over a 730-hour month; beside it the run's own bill\n"
"(as run) and, for llm, $ per million tokens.  Counts stop growing when\n"
"doubling them leaves every SLO value the same (more instances do not\n"
"help).\n"
"Choices the scenario makes searchable are candidates too (--try\n"
"NAME=LIST, repeatable): routing (default least-loaded,prefix-aware)\n"
"where prompts have a prefix identity on a pool with prefix_cache, spec\n"
"(on,off) where spec = is set, and for a prefill and a decode pool\n"
"pd-ratio (P:D,...,colocated; default 2:1,1:1,1:2,colocated: the other\n"
"pool sized from the searched one, or the searched pool alone).\n"
"For llm, a candidate on which one request alone misses a TTFT or TPOT\n"
"bound (its prompt's prefill, a batch-1 decode step; the roofline) is\n"
"excluded before simulating (--no-prune: simulated; the same plan).\n"
"Output: the candidates ranked, cheapest feasible first (* = on the\n"
"cost-vs-first-metric frontier), each count - 1 check, and why each\n"
"excluded one failed (memory, SLO, overload), then the simulations run\n"
"and the candidates excluded before simulating.  -j N candidates at once.\n"
"A GPU, precision or TP given twice, an empty list, --replications over\n"
"10000 or --purchase spot on an autoscaled pool are usage errors.\n"
"Exit status 0 when one is feasible, 1 when none is, 2 for usage.\n";

static const char trace_help[] =
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
"Recommends, for each pool of RUN (or POOL), how many instances to reserve:\n"
"the count k that makes least the cost of reserving k (the hourly rate and\n"
"the upfront payment spread over the term) plus on-demand for each hour's\n"
"demand above k.  The demand is the run's instances launched hour by hour,\n"
"provisioning included (the utilization table's gpus_provisioned over the\n"
"pool's GPUs per instance, time-averaged into hours), never a daily\n"
"average; what a daily-average sizing would choose, and what it costs on\n"
"the same hourly demand, is shown beside it.  The run needs\n"
"metrics_interval <= 1h (else: rerun with --set\n"
"scenario.metrics_interval=1h).  Monthly figures are 730-hour run rates.\n"
"The \"all on demand\" baseline is also given in dollars over the hours\n"
"sized (on_demand_run_usd): for an on-demand or autoscaled pool, the run's\n"
"own bill for the pool, provisioning included, which the table says\n"
"(run_billed_usd: the pool's bill over the whole run).\n"
"\n"
"Prices: on demand, the pool's own rate when it is an on-demand or\n"
"savings-plan pool, else the catalog's for its instance (or the cheapest\n"
"with its GPU, per GPU);\n"
"reserved, your quote (--rate) for the term and upfront option, else the\n"
"catalog's option (models/catalog/commitments.csv): published, or derived\n"
"by the provider's rule (AWS partial upfront: half the term's cost up\n"
"front, half by the hour); an option the provider does not sell is never\n"
"derived.  rate_basis says which was used: quote, published or derived.\n"
"A savings plan's discount is --discount, else the catalog's published\n"
"plan rate, else the reserved discount (the price source says it stands\n"
"in).  A spot pool is weighed against what it paid on spot (interruptions\n"
"included), never against on demand: compared_with \"spot bill\".  The\n"
"catalog is $FLEETSIM_CATALOG's (or the installed one), not a scenario's\n"
"catalog key.  A pool with no rate is said so on stderr and skipped; an\n"
"option the provider does not sell is said \"not sold\" on the table (csv\n"
"and json: on stderr, no row), exit status 0.\n"
"\n"
"Reported: recommended_count, upfront_cost_usd, recurring_monthly_cost_usd,\n"
"on_demand_cost_usd (all on demand), with_reservation_cost_usd (upfront\n"
"amortized), estimated_monthly_savings_usd and _pct, break_even_months\n"
"(upfront / monthly cash saved; 0 with no upfront; null if not within the\n"
"term), estimated_reservation_utilization (reserved hours used), npv_usd\n"
"(the term's monthly savings, month m discounted by (1 + R)^(m/12)),\n"
"daily_average_count and daily_average_cost_usd; json gives one object per\n"
"pool, with cash_flow: [{month, usd, amortized_usd}].\n";

/* `fleetsim help plot`: the charts listed from their table (plots/plot.c),
 * so that a chart added there is in the help with no second list. */
static const char *plot_help_text(void)
{
    static char text[8192];
    if (!text[0]) {
        size_t at = (size_t)snprintf(text, sizeof text, "%s", plot_help_head);
        fs_plot_chart_help_list(text + at, sizeof text - at);
        at = strlen(text);
        snprintf(text + at, sizeof text - at, "%s", plot_help_tail);
    }
    return text;
}

const char *fs_help_text(const char *topic)
{
    static const struct { const char *topic, *text; } texts[] = {
        {"run", run_help}, {"sweep", sweep_help}, {"runs", runs_help}, {"compare", compare_help},
        {"rm", rm_help}, {"import", import_help}, {"merge", merge_help}, {"roi", roi_help},
        {"commit", fs_commit_help},
        {"catalog", catalog_help}, {"fit", fit_help}, {"plan", plan_help},
        {"calibrate", calibrate_help},
        {"export", export_help}, {"plot", NULL},
        {"report", report_help}, {"trace", trace_help},
    };
    if (!topic)
        return NULL;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (strcmp(topic, texts[i].topic) == 0)
            return texts[i].text ? texts[i].text : plot_help_text();
    return NULL;
}
