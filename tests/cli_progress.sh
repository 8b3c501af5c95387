#!/bin/sh
# cli_progress.sh -- the progress line, and the run-size estimate it shows.
#
# Nothing here depends on the machine's speed: FLEETSIM_PROGRESS_INTERVAL=0
# draws the first line before the first event, so a run of a few
# milliseconds shows one as surely as a long one.  Checked: --progress
# always (and FLEETSIM_PROGRESS=always) draws on a non-terminal, with the
# simulated time done, events of the estimate, events/s and the ETA, and a
# last line; auto draws on a terminal (script(1) provides one) and not
# elsewhere; --quiet and never draw nothing; bad values are usage errors.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/progress.db"

# An M/M/4 queue: 2 requests/s over 1000 s, sampled every 100 s, so the
# estimate is 2000 + 10 = 2010 events (the recursion serves this plain
# FIFO pool: an event per arrival, none per completion).
cat >"$TMP/small.ini" <<INI
[scenario]
name = small
horizon = 1000s
metrics_interval = 100s
[pool.p]
gpu = L4
count = 4
price = 1
[workload.w]
pools = p
arrivals = poisson(rate=2/s)
service = exponential(mean=1s)
INI
unset FLEETSIM_PROGRESS FLEETSIM_PROGRESS_INTERVAL
# run VAR=VALUE... [OPTION...]: the small run, with that environment (at
# least one assignment; env(1) keeps it out of this shell).
run() {
    local e=""
    while [ $# -gt 0 ]; do
        case $1 in [A-Z]*=*) e="$e $1"; shift ;; *) break ;; esac
    done
    # shellcheck disable=SC2086
    env $e "$FLEETSIM" run "$TMP/small.ini" --db "$DB" "$@"
}
I0=FLEETSIM_PROGRESS_INTERVAL=0

# Forced, on a non-terminal: a first line at once and a last one.
expect_exit 0 "--progress=always" -- run $I0 --progress=always
expect_in "$TMP/err" "small: 0s of 1000s simulated (0%), 0 of ~2010 events, 0.00M events/s, ETA -" "first line: time done, events of the estimate, events/s, ETA"
expect_in "$TMP/err" "small: 1000s of 1000s simulated (100%), " "last line: the horizon reached"
expect_in "$TMP/err" " of ~2010 events, " "last line: events of the estimate"
expect_in "$TMP/err" "events/s, done in " "last line: events/s and wall time"
expect_eq "$(grep -c 'simulated (' "$TMP/err")" 2 "two progress lines for a short run"
expect_in "$TMP/out" "stored in" "summary on stdout"
expect_eq "$(grep -c . "$TMP/err")" 2 "nothing else on stderr"

expect_exit 0 "FLEETSIM_PROGRESS=always" -- run $I0 FLEETSIM_PROGRESS=always
expect_in "$TMP/err" "small: 0s of 1000s simulated (0%), 0 of ~2010 events" "FLEETSIM_PROGRESS=always draws"
expect_exit 0 "--progress never over the environment" -- run $I0 FLEETSIM_PROGRESS=always --progress never
expect_eq "$(wc -c <"$TMP/err")" 0 "--progress never: no line"

# Not forced, not a terminal: nothing, even with the first draw at once.
expect_exit 0 "not a terminal" -- run $I0
expect_eq "$(wc -c <"$TMP/err")" 0 "stderr not a terminal: no progress line"
expect_exit 0 "--quiet" -- run $I0 --quiet --progress=always
expect_eq "$(wc -c <"$TMP/err")" 0 "--quiet: no progress line"
expect_eq "$(grep -c . "$TMP/out")" 1 "--quiet: only the run id"

# Bad values: usage errors naming what is wrong.
expect_exit 2 "bad --progress" -- run $I0 --progress sometimes
expect_in "$TMP/err" "--progress: expected auto, always or never, got 'sometimes'" "bad --progress named"
expect_exit 2 "bad FLEETSIM_PROGRESS" -- run FLEETSIM_PROGRESS=yes
expect_in "$TMP/err" "FLEETSIM_PROGRESS: expected auto, always or never, got 'yes'" "bad FLEETSIM_PROGRESS named"
expect_exit 2 "bad FLEETSIM_PROGRESS_INTERVAL" -- run FLEETSIM_PROGRESS_INTERVAL=soon
expect_in "$TMP/err" "FLEETSIM_PROGRESS_INTERVAL: " "bad FLEETSIM_PROGRESS_INTERVAL named"

# On a terminal (auto): drawn in place, erased before the summary.
if command -v script >/dev/null 2>&1; then
    checks=$((checks + 1))
    FLEETSIM_PROGRESS_INTERVAL=0 script -qefc "\"$FLEETSIM\" run \"$TMP/small.ini\" --db \"$DB\"" "$TMP/tty" >/dev/null 2>&1 ||
        fail "run on a terminal: exit $?"
    expect_in "$TMP/tty" "small: 0s of 1000s simulated (0%), 0 of ~2010 events, 0.00M events/s, ETA -" "terminal: progress line"
    expect_in "$TMP/tty" "stored in" "terminal: the summary follows"
    FLEETSIM_PROGRESS_INTERVAL=0 script -qefc "\"$FLEETSIM\" run \"$TMP/small.ini\" --db \"$DB\" --quiet" "$TMP/tty_quiet" >/dev/null 2>&1
    checks=$((checks + 1))
    ! grep -q "events/s" "$TMP/tty_quiet" || fail "--quiet on a terminal shows no progress"
    FLEETSIM_PROGRESS_INTERVAL=0 script -qefc "\"$FLEETSIM\" run \"$TMP/small.ini\" --db \"$DB\" --progress=never" "$TMP/tty_never" >/dev/null 2>&1
    checks=$((checks + 1))
    ! grep -q "events/s" "$TMP/tty_never" || fail "--progress=never on a terminal shows no progress"
else
    echo "terminal checks skipped: script(1) (util-linux) is not installed"
fi
report
