#!/bin/sh
# cli_basic.sh -- the commands a user meets first: help, version, run,
# runs, compare, catalog; --set and --seed; determinism.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/runs.db"

expect_exit 0 "version" -- "$FLEETSIM" --version && expect_in "$TMP/out" "fleetsim " "version"
expect_exit 0 "help" -- "$FLEETSIM" help && expect_in "$TMP/out" "compare RUN" "help lists commands"
for topic in run runs compare catalog scenario; do
    expect_exit 0 "help $topic" -- "$FLEETSIM" help "$topic"
done
expect_exit 0 "run --help" -- "$FLEETSIM" run --help && expect_in "$TMP/out" "--replications" "run help"
expect_exit 2 "no command" -- "$FLEETSIM"
expect_exit 2 "unknown command" -- "$FLEETSIM" frobnicate
expect_exit 2 "run without scenario" -- "$FLEETSIM" run
expect_exit 2 "run with unknown option" -- "$FLEETSIM" run x.ini --frob
expect_exit 2 "bad --seed" -- "$FLEETSIM" run x.ini --seed abc

expect_exit 0 "catalog gpus" -- "$FLEETSIM" catalog gpus && expect_in "$TMP/out" "H100-80GB" "catalog gpus"
expect_exit 0 "catalog instances" -- "$FLEETSIM" catalog instances && expect_in "$TMP/out" "aws:p4d.24xlarge" "catalog instances"
# each commitment option says where it comes from: published, derived by
# the provider's rule, derived* here from the no-upfront rate, or not sold
expect_in "$TMP/out" "14874 + 0.5660/h derived*" "catalog instances: derived from the no-upfront rate"
expect_in "$TMP/out" "72589 + 8.2864/h derived" "catalog instances: p4de partial split by rule"
expect_in "$TMP/out" "142274 + 0.0000/h published" "catalog instances: p4de all upfront published"
checks=$((checks + 1)); grep "^aws:p5.48xlarge  *1y" "$TMP/out" | grep -q "not sold.*not sold.*not sold.*34.6752/h published" || fail "p5 1y: RIs not sold, Savings Plan published"
expect_in "$TMP/out" "partial upfront" "catalog instances payment options"
expect_exit 2 "catalog unknown" -- "$FLEETSIM" catalog tpus

# The quickstart stores a costed run.
expect_exit 0 "quickstart" -- "$FLEETSIM" run "$SRCDIR/scenarios/quickstart.ini" --db "$DB"
expect_in "$TMP/out" "total" "quickstart summary"
expect_in "$TMP/out" "attainment" "quickstart summary"
expect_in "$TMP/out" "catalog gcp:g2-standard-4" "quickstart priced from"
if grep -qF "(derived)" "$TMP/out"; then fail "no-upfront reserved pool marked derived"; fi
# A partial-upfront reservation priced from a no-upfront catalog rate says
# so; one split by the provider's rule says that; GCP sells none.
expect_exit 0 "derived upfront" -- "$FLEETSIM" run "$SRCDIR/scenarios/quickstart.ini" --db "$TMP/derived.db" --set pool.base.upfront=partial --set pool.base.instance=aws:p3.2xlarge --set pool.base.term=3y --set pool.burst.instance=aws:p3.2xlarge
expect_in "$TMP/out" "catalog aws:p3.2xlarge (derived)" "derived upfront priced from"
expect_exit 0 "split upfront" -- "$FLEETSIM" run "$SRCDIR/scenarios/quickstart.ini" --db "$TMP/derived.db" --set pool.base.upfront=partial --set pool.base.instance=aws:g6.xlarge --set pool.burst.instance=aws:g6.xlarge
expect_in "$TMP/out" "catalog aws:g6.xlarge, partial upfront derived (split by rule)" "split upfront priced from"
expect_exit 1 "not sold upfront" -- "$FLEETSIM" run "$SRCDIR/scenarios/quickstart.ini" --db "$TMP/derived.db" --set pool.base.upfront=partial
expect_in "$TMP/err" "pool.base.upfront: gcp:g2-standard-4 is not sold with a 1-year reservation and partial upfront" "not sold, never derived"
expect_eq "$(sql "$DB" "SELECT count(*) FROM run")" 1 "one run stored"
expect_eq "$(sql "$DB" "SELECT total_cost_usd > 0 AND requests > 0 FROM run_summary")" 1 "costed run"
expect_eq "$(sql "$DB" "SELECT count(*) > 0 FROM utilization")" 1 "utilization series"
expect_eq "$(sql "$DB" "PRAGMA journal_mode")" wal "WAL mode"
expect_eq "$(sql "$DB" "PRAGMA user_version")" 24 "schema version"

# A small M/M/2 scenario for determinism and --set.
cat >"$TMP/mm2.ini" <<'INI'
[scenario]
name = mm2
horizon = 2h
seed = 4
[pool.p]
gpu = L4
count = 2
price = 0.80
[workload.w]
pools = p
arrivals = poisson(rate=1.5/s)
service = exponential(mean=1s)
slo_p99 = 5s
INI
expect_exit 0 "mm2 run 1" -- "$FLEETSIM" run "$TMP/mm2.ini" --db "$DB" --quiet
expect_exit 0 "mm2 run 2" -- "$FLEETSIM" run "$TMP/mm2.ini" --db "$DB" --quiet
cols="name, scenario, seed, replication, horizon_s, total_cost_usd, cost_per_month_usd, gpu_hours_provisioned, gpu_hours_busy, utilization, requests, requests_dropped, latency_mean_s, latency_p50_s, latency_p99_s, wait_mean_s, slo_attainment"
a=$(sql "$DB" "SELECT $cols FROM run_summary WHERE run_id = 2")
b=$(sql "$DB" "SELECT $cols FROM run_summary WHERE run_id = 3")
expect_eq "$a" "$b" "same seed, same run_summary"
# Bit for bit: SQL compares REAL values exactly, so the rows of run 2 that
# run 3 lacks (and the other way round) must be none, in every table.
same_rows() {
    tcols=$(sql "$DB" "SELECT group_concat(name) FROM pragma_table_info('$1') WHERE name <> 'run_id'")
    n=$(sql "$DB" "SELECT count(*) FROM $1 WHERE run_id = 2")
    diff=$(sql "$DB" "SELECT count(*) FROM (SELECT $tcols FROM $1 WHERE run_id = 2 EXCEPT SELECT $tcols FROM $1 WHERE run_id = 3) UNION ALL SELECT count(*) FROM (SELECT $tcols FROM $1 WHERE run_id = 3 EXCEPT SELECT $tcols FROM $1 WHERE run_id = 2)" | tr '\n' ' ')
    expect_eq "$diff" "0 0 " "same seed, identical $1 rows"
    checks=$((checks + 1)); [ "$n" -gt 0 ] || fail "$1 has rows for run 2"
}
for table in run_summary latency utilization cost_monthly pool; do
    same_rows $table
done
expect_eq "$(sql "$DB" "SELECT count(*) FROM run a JOIN run b ON a.run_id = 2 AND b.run_id = 3 WHERE a.events IS b.events AND a.latency_p99_s IS b.latency_p99_s AND a.wait_mean_s IS b.wait_mean_s")" 1 "same seed, same events and waits"
expect_exit 0 "mm2 other seed" -- "$FLEETSIM" run "$TMP/mm2.ini" --db "$DB" --quiet --seed 5
c=$(sql "$DB" "SELECT $cols FROM run_summary WHERE run_id = 4")
checks=$((checks + 1)); [ -n "$c" ] && [ "$a" != "$c" ] || fail "another seed gives another run"
expect_exit 0 "mm2 --set" -- "$FLEETSIM" run "$TMP/mm2.ini" --db "$DB" --quiet --set pool.p.count=3 --name mm3
expect_eq "$(sql "$DB" "SELECT round(gpu_hours_provisioned, 6) FROM run_summary WHERE name = 'mm3'")" 6.0 "--set count=3 gives 3 GPUs for 2h"
expect_eq "$(sql "$DB" "SELECT total_cost_usd FROM run_summary WHERE name = 'mm3'")" 4.8 "3 x 2h x 0.80"
expect_eq "$(sql "$DB" "SELECT count(*) FROM run WHERE scenario_text LIKE '%--set pool.p.count=3%'")" 1 "--set recorded in scenario_text"
expect_exit 0 "replications" -- "$FLEETSIM" run "$TMP/mm2.ini" --db "$DB" --quiet --replications 3 --name reps
expect_eq "$(sql "$DB" "SELECT group_concat(replication) FROM run WHERE name = 'reps'")" "0,1,2" "three replications"
expect_eq "$(sql "$DB" "SELECT count(DISTINCT latency_p99_s) FROM run_summary WHERE name = 'reps'")" 3 "replications differ"

# Options take "--opt VALUE" or "--opt=VALUE", as in every command.
expect_exit 0 "--opt=VALUE spellings" -- "$FLEETSIM" run "$TMP/mm2.ini" --db="$DB" --seed=4 --name=eqform --set=pool.p.count=3 --quiet
expect_eq "$(sql "$DB" "SELECT seed || ' ' || round(gpu_hours_provisioned, 6) FROM run_summary WHERE name = 'eqform'")" "4 6.0" "--opt=VALUE options applied"
expect_exit 2 "--set without a value" -- "$FLEETSIM" run "$TMP/mm2.ini" --set
expect_in "$TMP/err" "--set needs a value" "--set without a value"
expect_exit 2 "misspelt option" -- "$FLEETSIM" run "$TMP/mm2.ini" --replication 2
expect_in "$TMP/err" "did you mean '--replications'" "misspelt option suggests"

expect_exit 0 "runs" -- "$FLEETSIM" runs --db "$DB" && expect_in "$TMP/out" "mm3" "runs lists names"
for fmt in table csv json markdown; do
    expect_exit 0 "compare $fmt" -- "$FLEETSIM" compare --db "$DB" --format "$fmt" 2 mm3
done
expect_exit 0 "compare json baseline" -- "$FLEETSIM" compare --db "$DB" --format json --baseline 2 mm3
expect_in "$TMP/out" '"delta_vs_baseline"' "json deltas"
expect_in "$TMP/out" '"total_cost_usd"' "json keys"
expect_exit 1 "compare unknown run" -- "$FLEETSIM" compare --db "$DB" nosuchrun
expect_in "$TMP/err" "nosuchrun" "unknown run named"
expect_exit 2 "compare nothing" -- "$FLEETSIM" compare --db "$DB"
# A million instances start in linear time (a free-slot structure, not a
# scan of the table per start: that took hours).  The bound is generous for
# a busy machine and a sanitizer build; the quadratic code never met it.
cat >"$TMP/million.ini" <<'INI'
[scenario]
horizon = 1h
metrics_interval = 1h
[pool.p]
gpu = L4
price = 1
count = 1000000
[workload.w]
pools = p
arrivals = poisson(rate=1/s)
service = const(1s)
INI
expect_exit 0 "count = 1000000" -- timeout 300 "$FLEETSIM" run "$TMP/million.ini" --db "$TMP/million.db" --quiet
expect_eq "$(sql "$TMP/million.db" 'SELECT round(total_cost_usd) FROM run_summary')" "1000000.0" "a million instance-hours at \$1"
report
