#!/bin/sh
# cli_estimate.sh -- a run too large to finish is refused before its first
# event, with its estimated number of events, the key that makes it large
# and the option that lifts the limit (--max-events); nothing is written.
# No test here runs a large simulation: the limit is checked just above
# and just below the estimate of a small run.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/estimate.db"

# scenario FILE ARRIVALS HORIZON METRICS: one fixed pool, one workload.
scenario() {
    cat >"$1" <<INI
[scenario]
name = est
horizon = $3
metrics_interval = $4
[pool.p]
gpu = L4
count = 4
price = 1
[workload.w]
pools = p
arrivals = $2
service = exponential(mean=1s)
INI
}
runs() { sql "$DB" "SELECT count(*) FROM run" 2>/dev/null || echo 0; }

# 2 requests/s over 1000 s, sampled every 100 s, on a plain FIFO pool the
# recursion serves (an arrival each, no completion events):
# 2000 + 10 = 2010.
scenario "$TMP/small.ini" "poisson(rate=2/s)" 1000s 100s
expect_exit 1 "just above the limit" -- "$FLEETSIM" run "$TMP/small.ini" --db "$DB" --max-events 2009
expect_eq "$(cat "$TMP/err")" "fleetsim: $TMP/small.ini:11: workload.w.arrivals: this run would take about 2010 events (this key: 2000 requests), more than the limit of 2009: shorten the horizon or lower the rate, or raise the limit with --max-events N (0: no limit)" "refusal: estimate, key, limit and option"
expect_eq "$(runs)" 0 "nothing stored when refused"
# Through the event list, a completion too: 2 x 2000 + 10 = 4010.
expect_exit 1 "events only: just above the limit" -- env FLEETSIM_EVENTS_ONLY=1 "$FLEETSIM" run "$TMP/small.ini" --db "$DB" --max-events 4009
expect_in "$TMP/err" "would take about 4010 events (this key: 2000 requests)" "events only: two events a request"
expect_exit 0 "events only: at the limit" -- env FLEETSIM_EVENTS_ONLY=1 "$FLEETSIM" run "$TMP/small.ini" --db "$DB" --max-events 4010 --quiet
expect_eq "$(sql "$DB" "SELECT events > 4000 FROM run")" 1 "events only: the run took two events a request"
sql "$DB" "DELETE FROM run" >/dev/null
expect_exit 0 "at the limit" -- "$FLEETSIM" run "$TMP/small.ini" --db "$DB" --max-events=2010 --quiet
expect_eq "$(sql "$DB" "SELECT events < 2100 FROM run")" 1 "the recursion: one event a request"
expect_exit 0 "no limit" -- "$FLEETSIM" run "$TMP/small.ini" --db "$DB" --max-events 0 --quiet
expect_exit 0 "default limit" -- "$FLEETSIM" run "$TMP/small.ini" --db "$DB" --quiet
expect_eq "$(runs)" 3 "three runs stored"

# The largest part names its key: here the metrics samples (1000 of them
# against 1 request).
scenario "$TMP/samples.ini" "poisson(rate=0.001/s)" 1000s 1s
expect_exit 1 "metrics samples dominate" -- "$FLEETSIM" run "$TMP/samples.ini" --db "$DB" --max-events 1000
expect_in "$TMP/err" "samples.ini:4: scenario.metrics_interval: this run would take about 1001 events (this key: 1000 metrics samples), more than the limit of 1000" "metrics_interval named"

# The default limit (2e9 events) stops a million requests a second for an
# hour at once, instead of running for an hour or more without a word.
scenario "$TMP/big.ini" "poisson(rate=1M/s)" 1h 5m
expect_exit 1 "default limit refuses" -- timeout 120 "$FLEETSIM" run "$TMP/big.ini" --db "$DB"
expect_in "$TMP/err" "big.ini:11: workload.w.arrivals: this run would take about 3.6e+09 events (this key: 3.6e+09 requests), more than the limit of 2e+09" "default limit: the estimate"
expect_in "$TMP/err" "--max-events N" "default limit: the option"
# Past anything that could finish (2^40 arrivals), no option helps.
scenario "$TMP/huge.ini" "poisson(rate=1e12/s)" 1h 5m
expect_exit 1 "1e12/s refused" -- timeout 120 "$FLEETSIM" run "$TMP/huge.ini" --db "$DB" --max-events 0
expect_in "$TMP/err" "huge.ini:11: workload.w.arrivals: poisson: rate: 1e+12/s over 1h is 3.6e+15 arrivals, more than fleetsim can simulate" "1e12/s: why"
expect_eq "$(runs)" 3 "nothing stored by the refused runs"

# A shared GPU (timeslice(4)): each start and finish of a request
# reschedules up to 3 others' completions, 2 x 3 x 2000 = 12000 more:
# 4010 + 12000 = 16010, at the pool's sharing key.
scenario "$TMP/shared.ini" "poisson(rate=2/s)" 1000s 100s
sed -i 's/^price = 1$/price = 1\nsharing = timeslice(4)/' "$TMP/shared.ini"
expect_exit 1 "shared: just above the limit" -- "$FLEETSIM" run "$TMP/shared.ini" --db "$DB" --max-events 16009
expect_in "$TMP/err" "shared.ini:9: pool.p.sharing: this run would take about 16010 events (this key: 12000 completions rescheduled by sharing), more than the limit of 16009" "shared: the rescheduled completions counted"
expect_exit 0 "shared: at the limit" -- "$FLEETSIM" run "$TMP/shared.ini" --db "$DB" --max-events 16010 --quiet

expect_exit 2 "negative --max-events" -- "$FLEETSIM" run "$TMP/small.ini" --db "$DB" --max-events -1
expect_in "$TMP/err" "--max-events needs a number of events (0 for no limit), got '-1'" "negative --max-events named"
expect_exit 2 "--max-events not a number" -- "$FLEETSIM" run "$TMP/small.ini" --db "$DB" --max-events lots
report
