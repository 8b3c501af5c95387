#!/bin/sh
# cli_sweep.sh -- `fleetsim sweep`: one run per grid point, in parallel
# workers, into one database.  Exact costs (count x price x hours), the
# same arrivals for every point (common random numbers), names, a bad key
# refused before anything is written, a failed and a killed point losing
# only themselves, and the cost-vs-p99 Pareto front on known results.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/sweep.db"

# Requests in pairs every 2 s (t = 0, 0, 2, 2, ..., 3590: 3592 requests),
# each needing exactly 0.5 s, for 1 h.  One server: the second of a pair
# waits 0.5 s, so p99 = 1 s; two or three: no wait, p99 = 0.5 s.  Every
# request is done by the horizon.
seq 0 2 3590 | awk 'BEGIN { print "t" } { print; print }' >"$TMP/pairs.csv"
cat >"$TMP/pairs.ini" <<'INI'
[scenario]
name = pairs
start = 2026-01-01
horizon = 1h
metrics_interval = 10m
[pool.od]
gpu = A100-80GB
count = 1
price = 1.23
[workload.w]
pools = od
arrivals = trace(pairs.csv, format=generic, time=t)
service = const(value=0.5s)
slo_p99 = 750ms
INI

expect_exit 0 "3-point sweep" -- "$FLEETSIM" sweep "$TMP/pairs.ini" --vary pool.od.count=1,2,3 -j 2 --db "$DB"
cp "$TMP/out" "$TMP/table"
expect_eq "$(sql "$DB" "SELECT count(*) FROM run")" 3 "three runs stored"
expect_eq "$(sql "$DB" "SELECT group_concat(name, ' ') FROM (SELECT name FROM run ORDER BY name)")" \
    "pairs[count=1] pairs[count=2] pairs[count=3]" "names NAME[key=value]"
expect_eq "$(sql "$DB" "SELECT count(DISTINCT requests) || ' ' || min(requests) FROM run_summary")" "1 3592" "identical requests"
# on-demand, 1 h at $1.23 per instance-hour: count x 1.23
for c in 1 2 3; do
    expect_eq "$(sql "$DB" "SELECT printf('%.2f', total_cost_usd) FROM run_summary WHERE name = 'pairs[count=$c]'")" \
        "$(awk -v c=$c 'BEGIN { printf "%.2f", c * 1.23 }')" "cost of count=$c: $c x 1.23 x 1 h"
done
# run rate: 1.23 x 730 = 897.90 per instance
expect_eq "$(sql "$DB" "SELECT printf('%.2f', cost_per_month_usd) FROM run_summary WHERE name = 'pairs[count=3]'")" 2693.70 "run rate 3 x 1.23 x 730"
# p99: 1 s with one server, 0.5 s with two (histogram: within 1%)
expect_eq "$(sql "$DB" "SELECT abs(latency_p99_s - 1.0) < 0.01 FROM run_summary WHERE name = 'pairs[count=1]'")" 1 "p99 of count=1 is 1 s"
expect_eq "$(sql "$DB" "SELECT abs(latency_p99_s - 0.5) < 0.005 FROM run_summary WHERE name = 'pairs[count=2]'")" 1 "p99 of count=2 is 0.5 s"
expect_eq "$(sql "$DB" "SELECT printf('%.4f', slo_attainment) FROM run_summary WHERE name = 'pairs[count=1]'")" 0.5000 "half within 750 ms with one server"
# The Pareto front: count=1 (cheapest) and count=2 (lowest p99 at a lower
# cost than count=3, which has the same p99 and costs more).
front() { awk -v n="$1" '$3 == n { print ($NF == "*") }' "$TMP/table"; }
expect_eq "$(front 'pairs[count=1]')" 1 "count=1 on the front"
expect_eq "$(front 'pairs[count=2]')" 1 "count=2 on the front"
expect_eq "$(front 'pairs[count=3]')" 0 "count=3 dominated"
expect_in "$TMP/table" '$3.69' "table shows count=3's cost"
expect_in "$TMP/table" '$2,693.70' "table shows count=3's run rate"

# Common random numbers: Poisson arrivals, three fleets, the same arrivals.
sed -e 's/^arrivals = .*/arrivals = poisson(rate=2\/s)/' \
    -e 's/^service = .*/service = exponential(mean=300ms)/' "$TMP/pairs.ini" >"$TMP/poisson.ini"
expect_exit 0 "Poisson sweep" -- "$FLEETSIM" sweep "$TMP/poisson.ini" --vary pool.od.count=1,2,3 -j 8 --db "$TMP/crn.db" --quiet
expect_eq "$(wc -l <"$TMP/out" | tr -d ' ')" 3 "--quiet prints the three run ids"
expect_eq "$(sql "$TMP/crn.db" "SELECT count(DISTINCT requests) FROM run_summary")" 1 "same Poisson arrivals at every point"
expect_eq "$(sql "$TMP/crn.db" "SELECT count(DISTINCT latency_p99_s) FROM run_summary")" 3 "different fleets, different p99"

# The progress line: points done of the total (off a terminal only with
# --progress always; --quiet wins).
expect_exit 0 "progress always" -- "$FLEETSIM" sweep "$TMP/pairs.ini" --vary pool.od.count=1,2 -j 1 --progress always --db "$TMP/prog.db"
expect_in "$TMP/err" "fleetsim sweep: 1 of 2 points done" "progress after the first point"
expect_in "$TMP/err" "fleetsim sweep: 2 of 2 points done, 0 running, 0 failed" "progress at the end"
expect_exit 0 "progress, quiet" -- "$FLEETSIM" sweep "$TMP/pairs.ini" --vary pool.od.count=1,2 --progress always --quiet --db "$TMP/prog.db"
expect_eq "$(wc -c <"$TMP/err" | tr -d ' ')" 0 "--quiet: nothing on stderr"

# Two axes, first slowest; replications as runs of one name.
expect_exit 0 "2 x 2 sweep, 2 replications" -- "$FLEETSIM" sweep "$TMP/pairs.ini" --vary pool.od.count=1,2 \
    --vary pool.od.price=1,2 --replications 2 -j 2 --db "$TMP/grid.db" --quiet
expect_eq "$(sql "$TMP/grid.db" "SELECT group_concat(name || '/' || replication || '=' || printf('%.2f', total_cost_usd), ' ') FROM (SELECT * FROM run_summary ORDER BY name, replication)")" \
    "pairs[count=1,price=1]/0=1.00 pairs[count=1,price=1]/1=1.00 pairs[count=1,price=2]/0=2.00 pairs[count=1,price=2]/1=2.00 pairs[count=2,price=1]/0=2.00 pairs[count=2,price=1]/1=2.00 pairs[count=2,price=2]/0=4.00 pairs[count=2,price=2]/1=4.00" \
    "grid points, names and replications"
# --quiet prints the ids point by point: the first point's two runs first
first=$(head -2 "$TMP/out" | tr '\n' ' ')
expect_eq "$(sql "$TMP/grid.db" "SELECT group_concat(run_id, ' ') || ' ' FROM (SELECT run_id FROM run WHERE name = 'pairs[count=1,price=1]' ORDER BY replication)")" "$first" "ids in point order"

# A name past 63 bytes: cut at a character boundary, ends ~N].
long=ééééééééééééééééééééééééééééé   # 29 x 2 bytes
expect_exit 0 "long names" -- "$FLEETSIM" sweep "$TMP/pairs.ini" --set "scenario.name=$long" \
    --vary pool.od.count=1,2 -j 2 --db "$TMP/long.db" --quiet
expect_eq "$(sql "$TMP/long.db" "SELECT group_concat(name || ':' || length(CAST(name AS BLOB)), ' ') FROM (SELECT name FROM run ORDER BY name)")" \
    "$long[c~1]:63 $long[c~2]:63" "shortened unique names, 63 bytes"

# A bad --vary key: exit 1 naming it, nothing written (not even the file).
expect_exit 1 "unknown key" -- "$FLEETSIM" sweep "$TMP/pairs.ini" --vary pool.od.cont=1,2 --db "$TMP/bad.db"
expect_in "$TMP/err" "pool.od.cont: unknown key" "the key is named"
expect_one_line "unknown key"
checks=$((checks + 1)); [ -e "$TMP/bad.db" ] && fail "a refused sweep created its database"
# A bad value at one point: refused before any point runs.
expect_exit 1 "bad value" -- "$FLEETSIM" sweep "$TMP/pairs.ini" --vary pool.od.count=1,-1,2 --db "$TMP/bad.db"
expect_in "$TMP/err" "pool.od.count" "the key is named"
expect_in "$TMP/err" "pairs[count=-1]" "the point is named"
checks=$((checks + 1)); [ -e "$TMP/bad.db" ] && fail "a refused sweep created its database"
expect_exit 2 "malformed --vary" -- "$FLEETSIM" sweep "$TMP/pairs.ini" --vary count=1,2 --db "$TMP/bad.db"
expect_exit 2 "a value twice" -- "$FLEETSIM" sweep "$TMP/pairs.ini" --vary pool.od.count=1,1 --db "$TMP/bad.db"
expect_exit 2 "no --vary" -- "$FLEETSIM" sweep "$TMP/pairs.ini" --db "$TMP/bad.db"
# unbalanced parentheses: refused as such, not split into a confusing call
expect_exit 2 "an unclosed (" -- "$FLEETSIM" sweep "$TMP/pairs.ini" --vary 'workload.w.service=const(value=1s,const(value=2s)' --db "$TMP/bad.db"
expect_in "$TMP/err" "--vary workload.w.service: 1 '(' not closed in 'const(value=1s,const(value=2s)'" "unclosed ( named"
expect_exit 2 "a stray )" -- "$FLEETSIM" sweep "$TMP/pairs.ini" --vary 'workload.w.service=const(value=1s)),const(value=2s)' --db "$TMP/bad.db"
expect_in "$TMP/err" "a ')' with no '(' before it" "stray ) named"
# a section only the --vary makes: said --vary, not --set
expect_exit 1 "a new section" -- "$FLEETSIM" sweep "$TMP/pairs.ini" --vary pool.nope.count=1,2 --db "$TMP/bad.db"
expect_in "$TMP/err" "fleetsim: --vary: pool.nope: missing gpu" "the --vary named"
checks=$((checks + 1)); [ ! -e "$TMP/bad.db" ] || fail "a bad --vary wrote a database"

# A point that fails at run time (its world is too large for --max-events:
# 300 days of 10-minute metrics samples) loses only itself.
expect_exit 1 "one point fails" -- "$FLEETSIM" sweep "$TMP/pairs.ini" --vary scenario.horizon=1h,300d,2h \
    --max-events 20000 -j 2 --db "$TMP/fail.db"
expect_eq "$(sql "$TMP/fail.db" "SELECT group_concat(name, ' ') FROM (SELECT name FROM run ORDER BY name)")" \
    "pairs[horizon=1h] pairs[horizon=2h]" "the other points are stored"
expect_in "$TMP/err" "1 of 3 points failed" "failures are counted"
expect_in "$TMP/err" "fleetsim: pairs[horizon=300d]: " "the worker's message names its point"
expect_in "$TMP/err" "point 2, pairs[horizon=300d]: exit status 1" "the failed point is listed"
expect_in "$TMP/out" "failed: exit status 1" "the table says it failed"
expect_eq "$(sql "$TMP/fail.db" "PRAGMA integrity_check")" ok "integrity_check after a failed point"
# Every point refused at run time: no database left behind (as `run`
# leaves none); one that was there before stays, runs and all.
expect_exit 1 "every point fails" -- "$FLEETSIM" sweep "$TMP/pairs.ini" --vary scenario.horizon=200d,300d \
    --max-events 20000 -j 2 --db "$TMP/none.db"
expect_in "$TMP/err" "2 of 2 points failed" "both failures are counted"
checks=$((checks + 1)); [ -z "$(ls "$TMP" | grep '^none\.db')" ] || fail "a sweep refused at every point left $(ls "$TMP" | grep '^none\.db' | tr '\n' ' ')"
expect_exit 1 "every point fails, into a database with runs" -- "$FLEETSIM" sweep "$TMP/pairs.ini" \
    --vary scenario.horizon=200d,300d --max-events 20000 -j 2 --db "$TMP/fail.db"
expect_eq "$(sql "$TMP/fail.db" "SELECT count(*) FROM run")" 2 "the database there before keeps its runs"

# A killed worker (test hook) loses only its point.
expect_exit 1 "a killed worker" -- env FLEETSIM_TEST_SWEEP_KILL=2 "$FLEETSIM" sweep "$TMP/pairs.ini" \
    --vary pool.od.count=1,2,3 -j 3 --db "$TMP/kill.db"
expect_eq "$(sql "$TMP/kill.db" "SELECT group_concat(name, ' ') FROM (SELECT name FROM run ORDER BY name)")" \
    "pairs[count=1] pairs[count=3]" "the killed point's run is missing, the others stored"
expect_in "$TMP/err" "point 2, pairs[count=2]: killed by signal 9" "the killed point is listed"
expect_eq "$(sql "$TMP/kill.db" "PRAGMA integrity_check")" ok "integrity_check after a killed worker"
expect_eq "$(sql "$TMP/kill.db" "SELECT count(*) FROM cost_monthly WHERE run_id NOT IN (SELECT run_id FROM run)")" 0 "no orphan rows"

# Overload never hidden: 1.2 s requests in pairs every 2 s with
# queue_max = 1.  One server drops 898 of the 3592 (25.00%): cheaper than
# two and its p99 over the finished (2.4 s) would put it on the front, but
# it is overloaded, so it is left off and listed under the table.
sed -e 's/^service = .*/service = const(value=1.2s)\nqueue_max = 1/' "$TMP/pairs.ini" >"$TMP/over.ini"
expect_exit 0 "overloaded sweep" -- "$FLEETSIM" sweep "$TMP/over.ini" --vary pool.od.count=1,2 --db "$TMP/over.db"
cp "$TMP/out" "$TMP/table"
expect_eq "$(sql "$TMP/over.db" "SELECT requests_unfinished || ' ' || unfinished_share FROM run_summary WHERE name = 'pairs[count=1]'")" \
    "898 0.25" "898 of 3592 dropped: 25%"
expect_eq "$(awk '$3 == "pairs[count=1]" { print $NF }' "$TMP/table")" overloaded "count=1 flagged overloaded"
expect_eq "$(front 'pairs[count=1]')" 0 "overloaded count=1 off the front"
expect_eq "$(front 'pairs[count=2]')" 1 "count=2 on the front"
expect_in "$TMP/table" "p99 (finished)" "p99 labelled: finished requests"
expect_in "$TMP/table" "  point 1  pairs[count=1]: 898 unfinished requests (25.00%)" "listed under the front"

report
