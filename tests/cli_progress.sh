#!/bin/sh
# cli_progress.sh -- a run longer than a second shows a progress line on
# stderr when stderr is a terminal (script(1) provides one), and none with
# --quiet or when stderr is not a terminal.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/progress.db"
if ! command -v script >/dev/null 2>&1; then
    echo "progress check skipped: script(1) (util-linux) is not installed"
    exit 77
fi

# An M/M/4 queue whose horizon is sized, from a first timed run, so that
# the run takes about 1.8 seconds on this machine and build.
scenario() {
    cat >"$TMP/long.ini" <<INI
[scenario]
name = long
horizon = ${1}s
metrics_interval = 1h
[pool.p]
gpu = L4
count = 4
price = 1
[workload.w]
pools = p
arrivals = poisson(rate=2.8/s)
service = exponential(mean=1s)
INI
}
now() { date +%s.%N; }
scenario 100000
t0=$(now)
expect_exit 0 "timing run" -- "$FLEETSIM" run "$TMP/long.ini" --db "$DB" --quiet
t1=$(now)
horizon=$(awk -v a="$t0" -v b="$t1" 'BEGIN { d = b - a; if (d < 0.01) d = 0.01; printf "%.0f", 100000 * 1.8 / d }')
scenario "$horizon"

checks=$((checks + 1))
script -qefc "\"$FLEETSIM\" run \"$TMP/long.ini\" --db \"$DB\"" "$TMP/tty" >/dev/null 2>&1 ||
    fail "run on a terminal: exit $?"
expect_in "$TMP/tty" "long: " "progress line names the run"
expect_in "$TMP/tty" "simulated (" "progress line shows simulated time"
expect_in "$TMP/tty" "events/s" "progress line shows events/s"
expect_in "$TMP/tty" "ETA" "progress line shows the ETA"
expect_in "$TMP/tty" "stored in" "summary follows the progress line"

script -qefc "\"$FLEETSIM\" run \"$TMP/long.ini\" --db \"$DB\" --quiet" "$TMP/tty_quiet" >/dev/null 2>&1
checks=$((checks + 1))
! grep -q "events/s" "$TMP/tty_quiet" || fail "--quiet on a terminal shows no progress"

expect_exit 0 "not a terminal" -- "$FLEETSIM" run "$TMP/long.ini" --db "$DB"
checks=$((checks + 1))
[ ! -s "$TMP/err" ] || fail "stderr not a terminal: no progress line (got: $(head -c 200 "$TMP/err"))"
report
