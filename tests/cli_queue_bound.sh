#!/bin/sh
# cli_queue_bound.sh -- issue 26 item 5: an overloaded queue is bounded.
# The issue's reproduction, `poisson(rate=1e6/s)` on one GPU (1e6/s where
# 1e6/h was meant), for 5 s instead of 10 min (the same overload, 5e6
# arrivals): what arrives to a full queue is dropped and counted, the
# counts add up (arrived = served + dropped + waiting + in service), the
# memory stays bounded (peak resident size, not time), and the estimate
# says before the run how many would be dropped.  queue_max's range is
# refused at its line.
. "${SRCDIR:-$(dirname "$0")/..}/tests/cli_lib.sh"
cd "$TMP" || exit 1

cat >over.ini <<'INI'
[scenario]
name = over
start = 2026-01-01
horizon = 5s
seed = 1
[pool.p]
gpu = L4
count = 1
price = 0.8
[workload.w]
pools = p
arrivals = poisson(rate=1e6/s)
service = exponential(mean=2s)
queue_max = 1000
INI

# peak KB: the run's peak resident set, from the kernel's accounting
peak() {
    python3 -c 'import resource, subprocess, sys
rc = subprocess.run(sys.argv[1:], stdout=open("out", "w"), stderr=open("err", "w")).returncode
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}

# ---- a small explicit bound, served through the event list ---------------
set -- $(peak "$FLEETSIM" run over.ini --db over.db)
expect_eq "$1" 0 "the overloaded run ends"
# 1000 waiting requests of 32 bytes; an unbounded queue would hold 5e6
# (2^23 slots, 256 MiB): the run stays far below that, sanitizers or not
checks=$((checks + 1))
[ "$2" -lt 131072 ] || fail "peak resident size $2 KB: the queue was not bounded"
row=$(sql over.db "SELECT arrivals, count, dropped, unfinished FROM latency WHERE run_id = 1")
set -- $(echo "$row" | tr '|' ' ')
# Poisson: 5e6 arrivals, sd sqrt(5e6) = 2236; 5 sd
checks=$((checks + 1))
[ "$1" -ge 4988820 ] && [ "$1" -le 5011180 ] || fail "arrived $1, expected 5e6 +- 5 sd"
# the queue is full at the end (1000) and the one server busy: 1001 left
expect_eq "$4" 1001 "unfinished at the horizon: the full queue and the server"
expect_eq "$(($2 + $3 + $4))" "$1" "served + dropped + unfinished = arrived"
checks=$((checks + 1))
[ "$2" -le 10 ] || fail "served $2: one server of 2 s requests serves about 2.5 in 5 s"
expect_eq "$(sql over.db "SELECT requests_dropped FROM run_summary WHERE run_id = 1")" "$3" "run_summary counts the drops"
expect_in out "$3 of $1 requests dropped: they arrived to a full queue (queue_max = 1000 waiting)" "the run's note says why"
expect_in out "dropped by queue_max" "the latency line says by what"
# the estimate: 5e6 arrive, the pool serves 0.5/s x 5 s = 2.5, the
# queue holds 1000: 5e6 - 2.5 - 1000 = 4998997.5
expect_in err "over.ini:12: workload.w.arrivals: about 5000000 requests arrive over 5s, and its pools serve at most about 2 (0.5 a second): about 4998998 would be dropped when its queue is full (queue_max = 1000 waiting" \
    "the warning before the run, at the arrivals line"
expect_exit 0 "--quiet" -- "$FLEETSIM" run over.ini --db over.db --quiet
checks=$((checks + 1))
[ ! -s "$TMP/err" ] || fail "--quiet still warns"

# ---- the default bound (ten million), served by the FIFO recursion -------
# 11 s: 1.1e7 arrive, 1e7 wait at the end, the rest dropped; 8 bytes a
# waiting start in the recursion's ring (2^24 slots: 128 MiB)
sed '/^queue_max/d; s/^horizon = 5s/horizon = 11s/' over.ini >default.ini
set -- $(peak "$FLEETSIM" run default.ini --db default.db --quiet)
expect_eq "$1" 0 "the default bound's run ends"
checks=$((checks + 1))
[ "$2" -lt 393216 ] || fail "peak resident size $2 KB with the default bound"
set -- $(sql default.db "SELECT arrivals, count, dropped, unfinished FROM latency" | tr '|' ' ')
expect_eq "$4" 10000001 "the default queue full at the end: 10000000 and the server"
expect_eq "$(($2 + $3 + $4))" "$1" "default bound: served + dropped + unfinished = arrived"
checks=$((checks + 1))
[ "$3" -ge 980000 ] && [ "$3" -le 1020000 ] || fail "dropped $3: expected about 1e6 of 1.1e7"

# ---- the key's range -----------------------------------------------------
good | sed 's/^service = .*/&\nqueue_max = 0/' >q0.ini
bad_run q0 "q0.ini:12: workload.w.queue_max: must be at least 1, got 0"
good | sed 's/^service = .*/&\nqueue_max = 10000001/' >qbig.ini
bad_run qbig "qbig.ini:12: workload.w.queue_max: must be at most 10000000, got 10000001"

report
