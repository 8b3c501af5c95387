#!/bin/sh
# cli_spot.sh -- spot pools through the command line: the us-east-1f V100
# preemption trace replayed for 7 days gives exactly the trace's
# preemptions (counted here with awk, independently of fleetsim); bad
# traces, empirical lifetimes that are not positive numbers and a fallback
# naming no pool are refused with file:line, exit 1 and nothing stored; `fleetsim trace fit` prints the fits and the line to
# paste, which runs.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/spot.db"
TRACE="$SRCDIR/traces/sample/spot/us-east-1f_v100_1.csv"

spot_ini() {   # spot_ini INTERRUPTION [EXTRA KEY LINES]
    cat <<INI
[scenario]
horizon = 7d
metrics_interval = 1h
[pool.s]
gpu = V100-16GB
pricing = spot
price = 0.918
count = 1
provision_delay = 0s
interruption = $1
${2:-}
[workload.w]
pools = s
arrivals = poisson(rate=0.01/s)
service = exponential(mean=10s)
INI
}

# 1. The trace's drops before the horizon (604800 s), each a preemption.
want=$(awk -F, 'NR > 2 && $2 < prev && $1 < 604800 { d += prev - $2 }
                NR > 1 { prev = $2 } END { print d }' "$TRACE")
expect_eq "$want" 54 "the trace drops 54 times in 7 days"
spot_ini "trace($TRACE)" >"$TMP/replay.ini"
expect_exit 0 "trace replay" -- "$FLEETSIM" run "$TMP/replay.ini" --db "$DB" --quiet
expect_eq "$(sql "$DB" "SELECT interruptions FROM run_summary")" "$want" "run_summary.interruptions = the trace's preemptions"
expect_eq "$(sql "$DB" "SELECT count(*) FROM interruption")" "$want" "one interruption row each"
expect_eq "$(sql "$DB" "SELECT pricing FROM pool")" "spot" "pricing spot"
# provisioned hours = the hours the trace has an instance available
hours=$(awk -F, 'NR > 2 && $1 <= 604800 { up += ($1 - pt) * pv }
                 NR > 1 { pt = $1; pv = $2 } END { printf "%.6f", up / 3600 }' "$TRACE")
expect_eq "$(sql "$DB" "SELECT printf('%.6f', gpu_hours_provisioned) FROM pool")" "$hours" "billed while the trace has the instance"

# 2. Bad inputs: exit 1, one line naming the file and line, nothing stored.
before=$(sql "$DB" "SELECT count(*) FROM run")
bad_trace() {   # bad_trace NAME ROWS FRAGMENT [INTERRUPTION-SUFFIX]
    printf 't_seconds,available\n%b' "$2" >"$TMP/$1.csv"
    spot_ini "trace($TMP/$1.csv${4:-})" >"$TMP/$1.ini"
    expect_exit 1 "$1" -- "$FLEETSIM" run "$TMP/$1.ini" --db "$DB" --quiet
    expect_one_line "$1"
    expect_in "$TMP/err" "$1.ini:10: pool.s.interruption: $TMP/$1.csv:$3" "$1"
}
bad_trace unsorted '0,1\n700000,1\n600000,0\n' "4: time 600000 is before"
bad_trace negative '-32,1\n700000,1\n' "2: negative time -32"
bad_trace short '0,1\n3600,0\n' "3: the trace ends at 3600s, before the horizon (604800s); add repeat=yes"
printf 't_seconds,available\n0,1\n3600,0\n' >"$TMP/loop.csv"
spot_ini "trace($TMP/loop.csv, repeat=yes)" >"$TMP/loop.ini"
expect_exit 0 "a short trace with repeat=yes" -- "$FLEETSIM" run "$TMP/loop.ini" --db "$TMP/loop.db" --quiet
printf 't_seconds,price\n0,0.9\n7200,0.95\n3600,1.0\n' >"$TMP/prices.csv"
spot_ini "exponential(mean=10h)" "price_trace = $TMP/prices.csv" | sed '/^price = /d' >"$TMP/prices.ini"
expect_exit 1 "an unsorted price trace" -- "$FLEETSIM" run "$TMP/prices.ini" --db "$DB" --quiet
expect_one_line "an unsorted price trace"
expect_in "$TMP/err" "prices.ini:10: pool.s.price_trace: $TMP/prices.csv:4: time 3600 is before" "price trace names file:line"
spot_ini "exponential(mean=10h)" "fallback = nowhere" >"$TMP/fallback.ini"
expect_exit 1 "fallback to a missing pool" -- "$FLEETSIM" run "$TMP/fallback.ini" --db "$DB" --quiet
expect_one_line "fallback to a missing pool"
expect_in "$TMP/err" "fallback.ini:11: pool.s.fallback: no pool named 'nowhere'" "fallback names file, line, key"
# empirical(): a row that is not a number, and a lifetime of 0 or less
printf 'lifetime_s\n3600\nabc\n' >"$TMP/notnum.csv"
spot_ini "empirical($TMP/notnum.csv)" >"$TMP/notnum.ini"
expect_exit 1 "empirical, not a number" -- "$FLEETSIM" run "$TMP/notnum.ini" --db "$DB" --quiet
expect_one_line "empirical, not a number"
expect_in "$TMP/err" "notnum.ini:10: pool.s.interruption: $TMP/notnum.csv:3: 'abc' is not a number of seconds" "empirical names file:line"
printf '3600\n-5\n' >"$TMP/neglife.csv"
spot_ini "empirical($TMP/neglife.csv)" >"$TMP/neglife.ini"
expect_exit 1 "empirical, negative" -- "$FLEETSIM" run "$TMP/neglife.ini" --db "$DB" --quiet
expect_one_line "empirical, negative"
expect_in "$TMP/err" "$TMP/neglife.csv:2: a lifetime must be above 0 seconds, got '-5'" "empirical negative names file:line"
expect_eq "$(sql "$DB" "SELECT count(*) FROM run")" "$before" "bad inputs stored nothing"

# 3. trace fit: both fits, the KS statistics, a line that runs.
expect_exit 0 "trace fit" -- "$FLEETSIM" trace fit "$TRACE"
expect_in "$TMP/out" "60 preemptions, 60 lifetimes ended" "trace fit counts"
expect_in "$TMP/out" "exponential  mean = 6302s" "exponential fit"
expect_in "$TMP/out" "weibull      shape = 0.582, scale = 3515s" "weibull fit"
expect_in "$TMP/out" "interruption = weibull(shape=0.582, scale=3515s)" "the line to paste"
line=$(grep '^interruption = ' "$TMP/out" | sed 's/^interruption = //')
spot_ini "$line" >"$TMP/fitted.ini"
expect_exit 0 "the fitted model runs" -- "$FLEETSIM" run "$TMP/fitted.ini" --db "$TMP/fit.db" --quiet
expect_exit 1 "trace fit of an unsorted trace" -- "$FLEETSIM" trace fit "$TMP/unsorted.csv"
expect_in "$TMP/err" "unsorted.csv:4: time 600000 is before" "trace fit names file:line"
expect_exit 2 "trace without a file" -- "$FLEETSIM" trace fit
report
