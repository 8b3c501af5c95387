#!/bin/sh
# cli_compare.sh -- what `fleetsim compare`, `runs` and `run` print:
# per-workload and per-pool rows and the cost by pricing model (in all four
# formats, with baseline deltas), the monthly run rate (730 h) beside the
# bill by calendar month, names with control characters and multibyte or
# invalid UTF-8 (escaped for people, valid JSON and CSV for programs), and
# a pool of count 0 (utilization "-" / null, never nan).
#
# The scenario is deterministic: arrivals replayed from small traces and
# const() service, so counts, waits, SLO attainment and costs are exact.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/cmp.db"
cd "$TMP" || exit 1

# quick: one request a second for 100 s, 0.1 s each: no waiting.
# heavy: 10 requests at once on one GPU, 10 s each: waits 0, 10, ..., 90 s
# (mean 45 s), latencies 10..100 s, 3 of them within the 35 s SLO.
{ echo time; i=0; while [ $i -lt 100 ]; do echo $i; i=$((i + 1)); done; } >quick.csv
{ echo time; for i in 1 2 3 4 5 6 7 8 9 10; do echo 0; done; } >heavy.csv
cat >two.ini <<'INI'
[scenario]
name = two
start = 2026-01-01
horizon = 1h
[pool.fast]
gpu = L4
count = 1
price = 0.80
[pool.slow]
gpu = A100-80GB
count = 1
pricing = reserved
term = 1y
upfront = none
price = 1.50
[pool.idle]
gpu = L4
count = 0
price = 1.00
[workload.quick]
pools = fast
arrivals = trace(quick.csv, format=generic)
service = const(0.1s)
slo_p99 = 1s
[workload.heavy]
pools = slow
arrivals = trace(heavy.csv, format=generic)
service = const(10s)
slo_p99 = 35s
INI
# the same fleet serving quick only, for rows that one run lacks
sed -e '/^\[workload.heavy\]/,$d' two.ini >quick-only.ini

py() { python3 -c "$@"; }

# ---- defect 17: the monthly run rate (730 h) and the bill ----------------
expect_exit 0 "two run" -- "$FLEETSIM" run two.ini --db "$DB" --name base
expect_in "$TMP/out" "bill by calendar month" "run: the calendar months are the bill"
expect_in "$TMP/out" 'monthly run rate (730 h)' "run: run rate labelled"
# 1 hour costing $0.80 + $1.50: 2.30 x 730 = 1,679.00
expect_eq "$(grep 'monthly run rate (730 h)' "$TMP/out" | grep -o '\$[0-9,.]*')" '$1,679.00' "run: run rate = cost x 730"
checks=$((checks + 1))
grep -q 'calendar months covered' "$TMP/out" && fail "run: old per-month label"
expect_eq "$(sql "$DB" "SELECT total_cost_usd, cost_per_month_usd FROM run_summary WHERE name = 'base'")" "2.3|1679.0" "view: cost_per_month_usd = cost x 730 for 1 h"
expect_exit 0 "runs" -- "$FLEETSIM" runs --db "$DB"
expect_in "$TMP/out" "monthly run rate (730 h)" "runs: run rate labelled"
expect_in "$TMP/out" "1,679.00" "runs: run rate"
expect_exit 0 "compare table" -- "$FLEETSIM" compare --db "$DB" base
expect_in "$TMP/out" "monthly run rate (730 h)  " "compare table: run rate labelled"
expect_in "$TMP/out" '$1,679.00' "compare table: run rate"
expect_exit 0 "compare markdown" -- "$FLEETSIM" compare --db "$DB" --format markdown base
expect_in "$TMP/out" '| monthly run rate (730 h) | $1,679.00 |' "compare markdown: run rate"
expect_exit 0 "compare csv" -- "$FLEETSIM" compare --db "$DB" --format csv base
expect_in "$TMP/out" "cost_per_month_usd,1679.0" "compare csv: column name kept"

# ---- defect 19: a pool of count 0 ----------------------------------------
expect_exit 0 "two run again" -- "$FLEETSIM" run two.ini --db "$DB" --name base-again
checks=$((checks + 1))
grep -qi 'nan' "$TMP/out" && { fail "run: nan in the summary"; grep -i nan "$TMP/out"; }
expect_eq "$(grep -m1 '^  idle ' "$TMP/out" | awk '{print $(NF - 3)}')" "-" "run: idle pool utilization '-'"

# ---- defect 18: rows per workload, per pool, per pricing model -----------
expect_exit 0 "json" -- "$FLEETSIM" compare --db "$DB" --format json base
cp "$TMP/out" base.json
got=$(py '
import json, sys
r = json.load(open("base.json", encoding="utf-8"))[0]
w = {x["workload"]: x for x in r["workloads"]}
print(len(r["workloads"]), w["quick"]["requests"], w["quick"]["wait_mean_s"],
      w["quick"]["slo_s"], w["quick"]["slo_attainment"],
      w["heavy"]["requests"], w["heavy"]["wait_mean_s"], w["heavy"]["slo_s"],
      w["heavy"]["slo_attainment"])
print(abs(w["quick"]["latency_p99_s"] - 0.1) <= 0.001,
      abs(w["quick"]["latency_p50_s"] - 0.1) <= 0.001,
      abs(w["heavy"]["latency_p99_s"] - 100) <= 1)
p = {x["pool"]: x for x in r["pools"]}
print(len(r["pools"]), [x["pool"] for x in r["pools"]])
print(p["fast"]["pricing"], p["fast"]["gpu"], p["fast"]["gpu_hours_provisioned"],
      p["fast"]["cost_usd"], round(p["fast"]["gpu_hours_busy"] * 3600, 6),
      round(p["fast"]["utilization"] * 3600, 6))
print(p["slow"]["pricing"], p["slow"]["gpu_hours_provisioned"], p["slow"]["cost_usd"],
      round(p["slow"]["utilization"] * 3600, 6))
print(p["idle"]["gpu_hours_provisioned"], p["idle"]["utilization"], p["idle"]["cost_usd"])
print([(x["pricing"], x["cost_usd"]) for x in r["cost_by_pricing"]])
print("delta_vs_baseline" in r)
')
expect_eq "$got" "2 100 0.0 1.0 1.0 10 45.0 35.0 0.3
True True True
3 ['fast', 'slow', 'idle']
on-demand L4 1.0 0.8 10.0 10.0
reserved 1.0 1.5 100.0
0.0 None 0.0
[('on-demand', 0.8), ('reserved', 1.5)]
False" "json: workloads, pools, cost by pricing"
# and the per-workload percentiles are the latency table's, not a blend
expect_eq "$(py '
import json, sys
r = json.load(open("base.json"))[0]
p99 = [x["latency_p99_s"] for x in r["workloads"]]
print(len(p99) == 2 and p99 == [float(v) for v in sys.argv[1:]])
' $(sql "$DB" "SELECT p99_s FROM latency JOIN run USING (run_id) WHERE name = 'base' ORDER BY latency.rowid"))" \
    True "json: p99 per workload from the latency table"

# Baseline: twice the fast pool (its cost and GPU-hours double; the
# requests are the same), and a run without the heavy workload.
expect_exit 0 "fast x2" -- "$FLEETSIM" run two.ini --db "$DB" --quiet --name fast2 --set pool.fast.count=2
expect_exit 0 "quick only" -- "$FLEETSIM" run quick-only.ini --db "$DB" --quiet --name quick-only
expect_exit 0 "json baseline" -- "$FLEETSIM" compare --db "$DB" --format json --baseline base fast2 quick-only
checks=$((checks + 1))
python3 -m json.tool "$TMP/out" >/dev/null 2>&1 || fail "json baseline: not valid JSON"
cp "$TMP/out" delta.json
got=$(py '
import json
runs = json.load(open("delta.json"))
print([r["name"] for r in runs])
base, f2, q = runs
print("delta_vs_baseline" in base, [("delta_vs_baseline" in x) for x in base["pools"]])
p = {x["pool"]: x for x in f2["pools"]}
d = p["fast"]["delta_vs_baseline"]
print(d["gpu_hours_provisioned"], d["cost_usd"], p["fast"]["delta_pct_vs_baseline"]["cost_usd"],
      p["slow"]["delta_vs_baseline"]["cost_usd"], p["idle"]["delta_vs_baseline"]["utilization"])
w = {x["workload"]: x for x in f2["workloads"]}
print(w["quick"]["delta_vs_baseline"]["requests"], w["heavy"]["delta_vs_baseline"]["wait_mean_s"])
c = {x["pricing"]: x for x in f2["cost_by_pricing"]}
print(c["on-demand"]["delta_vs_baseline"]["cost_usd"], c["reserved"]["delta_vs_baseline"]["cost_usd"])
print(f2["delta_vs_baseline"]["cost_per_month_usd"])
print([x["workload"] for x in q["workloads"]], q["workloads"][0]["delta_vs_baseline"]["requests"])
')
expect_eq "$got" "['base', 'fast2', 'quick-only']
False [False, False, False]
1 0.8 100 0 None
0 0
0.8 0
584
['quick'] 0" "json: row deltas matched by name"

expect_exit 0 "csv baseline" -- "$FLEETSIM" compare --db "$DB" --format csv --baseline base fast2 quick-only
cp "$TMP/out" delta.csv
got=$(py '
import csv
rows = {r[0]: r[1:] for r in csv.reader(open("delta.csv", newline=""))}
print(rows["metric"])
print(rows["pools.fast.cost_usd"], rows["pools.fast.pricing"])
print(rows["workloads.heavy.wait_mean_s"], rows["workloads.quick.requests"])
print(rows["cost_by_pricing.reserved.cost_usd"], rows["pools.idle.utilization"])
')
expect_eq "$got" "['base #1', 'fast2 #3', 'fast2 #3 delta', 'fast2 #3 delta %', 'quick-only #4', 'quick-only #4 delta', 'quick-only #4 delta %']
['0.8', '1.6', '0.8', '100', '0.8', '0', '0'] ['on-demand', 'on-demand', '', '', 'on-demand', '', '']
['45.0', '45.0', '0', '0', '', '', ''] ['100', '100', '0', '0', '100', '0', '0']
['1.5', '1.5', '0', '0', '1.5', '0', '0'] ['', '', '', '', '', '', '']" "csv: rows and deltas"

expect_exit 0 "table baseline" -- "$FLEETSIM" compare --db "$DB" --baseline base fast2 quick-only
cp "$TMP/out" delta.txt
expect_in delta.txt "workload heavy" "table: workload section"
expect_in delta.txt "pool fast" "table: pool section"
expect_in delta.txt "cost by pricing model" "table: pricing section"
# a table row with its runs of spaces squeezed
squeeze() { sed 's/  */ /g; s/^ //; s/ $//'; }
expect_eq "$(sed -n '/^workload heavy/,/^pool/p' delta.txt | grep -m1 'wait mean' | squeeze)" \
    "wait mean 45 s 45 s 0 s 0.0%" "table: heavy's wait, blank where quick-only has no heavy"
expect_eq "$(sed -n '/^pool idle/,$p' delta.txt | grep -m1 'utilization' | squeeze)" \
    "utilization - - -" "table: idle pool utilization '-'"
expect_eq "$(sed -n '/^pool fast/,/^pool slow/p' delta.txt | grep -m1 '  cost' | squeeze)" \
    "cost \$0.80 \$1.60 +\$0.80 +100.0% \$0.80 \$0.00 0.0%" "table: fast pool cost and delta"
expect_eq "$(sed -n '/^cost by pricing model/,$p' delta.txt | grep -m1 'reserved' | squeeze)" \
    "reserved \$1.50 \$1.50 \$0.00 0.0% \$1.50 \$0.00 0.0%" "table: reserved cost"
checks=$((checks + 1))
grep -qi 'nan' delta.txt && fail "table: nan"

expect_exit 0 "markdown baseline" -- "$FLEETSIM" compare --db "$DB" --format markdown --baseline base fast2
expect_in "$TMP/out" "| **workload quick** |" "markdown: workload section"
expect_in "$TMP/out" "| latency p99 (finished requests) | 0.1 s | 0.1 s | 0 s | 0.0% |" "markdown: per-workload p99"
expect_in "$TMP/out" "| cost | \$0.80 | \$1.60 | +\$0.80 | +100.0% |" "markdown: per-pool cost"

# ---- defect 13: names with control characters and UTF-8 ------------------
odd=$(printf 'we\tird\n"q" \303\251')
# Stored names are set with SQL: whatever `run --name` accepts, a database
# may hold any text.
expect_exit 0 "odd name" -- "$FLEETSIM" run two.ini --db "$DB" --quiet --name odd
sql "$DB" "UPDATE run SET name = '$odd' WHERE run_id = 5"
expect_exit 0 "runs odd" -- "$FLEETSIM" runs --db "$DB"
expect_eq "$(grep -c '' "$TMP/out")" 6 "runs: one line per run (5 runs and the header)"
expect_in "$TMP/out" 'we\tird\n"q" é' "runs: name escaped"
expect_exit 0 "table odd" -- "$FLEETSIM" compare --db "$DB" --baseline base "$odd"
expect_in "$TMP/out" 'we\tird\n"q" é #5' "table: name escaped"
checks=$((checks + 1))
tr -d '\n' <"$TMP/out" | LC_ALL=C grep -q "$(printf '[\001-\037]')" && fail "table: raw control characters"
expect_exit 0 "markdown odd" -- "$FLEETSIM" compare --db "$DB" --format markdown "$odd"
expect_in "$TMP/out" '| metric | we\tird\n"q" é #5 |' "markdown: name escaped"
expect_exit 0 "json odd" -- "$FLEETSIM" compare --db "$DB" --format json "$odd" base
cp "$TMP/out" odd.json
checks=$((checks + 1))
python3 -m json.tool odd.json >/dev/null 2>&1 || fail "json odd: python3 -m json.tool refuses it"
expect_eq "$(py '
import json, sys
r = json.loads(open("odd.json", "rb").read().decode("utf-8"))
sys.stdout.buffer.write((r[0]["name"] + "|" + r[1]["name"]).encode("utf-8"))
')" "$odd|base" "json: name round-trips"
expect_exit 0 "csv odd" -- "$FLEETSIM" compare --db "$DB" --format csv "$odd" base
cp "$TMP/out" odd.csv
expect_eq "$(py '
import csv, sys
rows = list(csv.reader(open("odd.csv", encoding="utf-8", newline="")))
sys.stdout.buffer.write((rows[0][1] + "|" + [r for r in rows if r[0] == "name"][0][1]).encode("utf-8"))
')" "$odd #5|$odd" "csv: name round-trips"

# Invalid UTF-8 in a stored name: escaped for people, U+FFFD in JSON.
expect_exit 0 "bad utf-8" -- "$FLEETSIM" run two.ini --db "$DB" --quiet --name bad
sql "$DB" "UPDATE run SET name = CAST(X'626164FF0178' AS TEXT) WHERE run_id = 6"
expect_exit 0 "json bad utf-8" -- "$FLEETSIM" compare --db "$DB" --format json 6
cp "$TMP/out" bad.json
checks=$((checks + 1))
python3 -m json.tool bad.json >/dev/null 2>&1 || fail "json bad utf-8: python3 -m json.tool refuses it"
expect_eq "$(py '
import json
print(ascii(json.loads(open("bad.json", "rb").read().decode("utf-8"))[0]["name"]))
')" "'bad\\ufffd\\x01x'" "json: invalid UTF-8 as U+FFFD, control as \\u0001"
expect_exit 0 "runs bad utf-8" -- "$FLEETSIM" runs --db "$DB"
expect_in "$TMP/out" 'bad\xff\x01x' "runs: invalid byte escaped"
expect_exit 0 "csv bad utf-8" -- "$FLEETSIM" compare --db "$DB" --format csv 6
cp "$TMP/out" bad.csv
expect_eq "$(py '
import csv
print(ascii([r for r in csv.reader(open("bad.csv", encoding="utf-8", newline="")) if r[0] == "name"][0][1]))
')" "'bad\\ufffd\\x01x'" "csv: valid UTF-8"
# ---- mean batch size per workload -----------------------------------------
# 10 requests at t = 0 on one server, batch_max = 4, no batch wait: the
# first is started alone, then the queue is taken 4, 4 and 1 at a time:
# 10 requests in 4 batches, a mean batch size of 2.5.
sed -e 's/^service = const(10s)/service = const(10s)\nbatch_max = 4/' two.ini >batch.ini
expect_exit 0 "batch run" -- "$FLEETSIM" run batch.ini --db "$DB" --name batched --quiet
expect_eq "$(sql "$DB" "SELECT mean_batch_size FROM latency l JOIN run r USING (run_id) WHERE r.name = 'batched' AND workload = 'heavy'")" "2.5" "latency.mean_batch_size"
expect_exit 0 "compare json batch" -- "$FLEETSIM" compare --db "$DB" --format json batched
expect_eq "$(py 'import json,sys; print([w for w in json.load(open(sys.argv[1]))[0]["workloads"] if w["workload"] == "heavy"][0]["mean_batch_size"])' "$TMP/out")" "2.5" "compare json: mean batch size"
expect_exit 0 "compare table batch" -- "$FLEETSIM" compare --db "$DB" batched
expect_in "$TMP/out" "mean batch size" "compare table: mean batch size row"
# Intervals that mean something: M/M/1 at rho = 0.7 (mean service 1 s),
# 5 replications of 2 days after a 2 h warmup.  The sojourn time is
# exponential of rate mu - lambda = 0.3/s, so p99 = ln(100) / 0.3 =
# 15.3506 s.  Each replication's p99 is read inside its histogram bin (not
# one value per bin), so the five differ: compare's 95% interval is not a
# false "+- 0", and it covers the closed form.
cat >mm1.ini <<'INI'
[scenario]
name = mm1
start = 2026-01-01
horizon = 2d
warmup = 2h
seed = 3
[pool.gpu]
gpu = L4
count = 1
price = 1.00
[workload.w]
pools = gpu
arrivals = poisson(rate=0.7/s)
service = exponential(mean=1s)
INI
expect_exit 0 "M/M/1, 5 replications" -- "$FLEETSIM" run mm1.ini \
    --replications 5 --db "$DB" --quiet
expect_eq "$(sql "$DB" "SELECT count(DISTINCT p99_s) FROM latency JOIN run USING (run_id) WHERE name = 'mm1'")" \
    5 "five replications, five different stored p99s"
expect_exit 0 "compare --group mm1" -- "$FLEETSIM" compare --db "$DB" \
    --group --format json mm1
expect_eq "$(py 'import json,sys,math
s = json.load(open(sys.argv[1]))[0]["workloads"][0]["latency_p99_s"]
exact = math.log(100) / 0.3
print("%.4f" % exact, s["ci_high"] - s["ci_low"] > 0.01 * exact,
      s["ci_low"] <= exact <= s["ci_high"],
      s["ci_high"] - s["ci_low"] < 0.2 * exact)' "$TMP/out")" \
    "15.3506 True True True" \
    "p99 interval: not zero, holds ln(100)/0.3 s, narrower than 20%"
# Overload never hidden, in all four formats: 1.2 s requests in pairs every
# 2 s, queue_max = 1, one server: 898 of 3592 dropped (25.00%); two
# servers: none.
seq 0 2 3590 | awk 'BEGIN { print "t" } { print; print }' >pairs.csv
cat >over.ini <<'INI'
[scenario]
name = over
start = 2026-01-01
horizon = 1h
[pool.od]
gpu = L4
count = 1
price = 1.00
[workload.w]
pools = od
arrivals = trace(pairs.csv, format=generic, time=t)
service = const(1.2s)
queue_max = 1
INI
expect_exit 0 "overloaded run" -- "$FLEETSIM" run over.ini --db "$DB"
expect_in "$TMP/out" "898 (25.00%)  OVERLOADED" "run summary: unfinished and the flag"
expect_in "$TMP/out" "p50, p99 and mean over finished requests only" "run summary: p99 labelled"
expect_exit 0 "two servers" -- "$FLEETSIM" run over.ini --db "$DB" --quiet \
    --set pool.od.count=2 --name fine
expect_exit 0 "compare table, overloaded" -- "$FLEETSIM" compare --db "$DB" over fine
expect_in "$TMP/out" "25.00% OVERLOADED" "table: run flagged"
expect_in "$TMP/out" "requests unfinished" "table: unfinished row"
expect_in "$TMP/out" "latency p99 (finished requests)" "table: p99 labelled"
expect_exit 0 "compare markdown, overloaded" -- "$FLEETSIM" compare --db "$DB" --format markdown over fine
expect_in "$TMP/out" "| unfinished share | 25.00% OVERLOADED | 0.00% |" "markdown: flagged"
expect_in "$TMP/out" "| requests unfinished | 898 | 0 |" "markdown: count"
expect_exit 0 "compare csv, overloaded" -- "$FLEETSIM" compare --db "$DB" --format csv over fine
expect_in "$TMP/out" "overloaded,yes,no" "csv: overloaded row"
expect_in "$TMP/out" "workloads.w.requests_unfinished,898,0" "csv: per workload"
expect_exit 0 "compare json, overloaded" -- "$FLEETSIM" compare --db "$DB" --format json over fine
expect_eq "$(py 'import json,sys
a, b = json.load(open(sys.argv[1]))
w = a["workloads"][0]
print(a["overloaded"], b["overloaded"], a["requests_unfinished"], a["unfinished_share"], w["requests_unfinished"], w["overloaded"])' "$TMP/out")" \
    "True False 898 0.25 898 yes" "json: flags and counts"
expect_exit 0 "overloaded, 2 replications" -- "$FLEETSIM" run over.ini \
    --db "$DB" --quiet --replications 2 --name over2
expect_exit 0 "compare --group, overloaded" -- "$FLEETSIM" compare \
    --db "$DB" --group over2
expect_in "$TMP/out" "25.00% ± 0.00% OVERLOADED" "group: the mean flagged, after its interval"

report
