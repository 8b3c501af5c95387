#!/bin/sh
# cli_harden_io.sh -- faults and nonsense of issue 26 around files,
# processes and bounds: database readers given a FIFO, a device or a
# directory; a database whose schema version was lowered by hand; rate
# quotes beyond any price; empty MIG terms; plan and sweep killed; an
# overloaded queue's memory.  Each bad input is refused with one message
# naming it, exit status 1 (2 for usage), and nothing written.
. "$(dirname "$0")/cli_lib.sh"

good >"$TMP/good.ini"
"$FLEETSIM" run "$TMP/good.ini" --db "$TMP/r.db" --quiet ||
    fail "the good scenario does not run"
runs_in() { sql "$1" "SELECT count(*) FROM run"; }

# 7. Database readers refuse what is not a regular file by name: a FIFO
# blocked SQLite's open for a writer that never came (timeout: a
# regression fails instead of hanging), /dev/zero read as "empty".
mkfifo "$TMP/f.db"
mkdir "$TMP/dir.db"
for target in f.db dir.db zero; do
    db=$TMP/$target
    [ "$target" = zero ] && db=/dev/zero
    kind="is a directory, not a results database"
    [ "$target" = zero ] && kind="not a regular file (a character device)"
    [ "$target" = f.db ] && kind="not a regular file (a FIFO)"
    for cmd in "merge $TMP/r.db $db" "merge $TMP/new.db $db" "import $db --db $TMP/r.db" \
               "runs --db $db" "run $TMP/good.ini --quiet --db $db" "compare 1 2 --db $db" \
               "report 1 --db $db --out $TMP/x.html" "roi 1 --db $db" "rm 1 --db $db" \
               "export 1 --format csv --out $TMP/x.csv --db $db" \
               "plot 1 --chart monthly-cost --out $TMP/x.png --db $db"; do
        expect_exit 1 "$cmd" -- timeout 60 $FLEETSIM $cmd
        expect_one_line "$cmd"
        expect_in "$TMP/err" "$db: $kind" "$cmd names the file"
    done
done
checks=$((checks + 1))
[ ! -e "$TMP/new.db" ] && [ ! -e "$TMP/x.html" ] && [ ! -e "$TMP/x.csv" ] &&
    [ ! -e "$TMP/x.png" ] || fail "a refused reader wrote a file"
expect_eq "$(runs_in "$TMP/r.db")" 1 "runs after refused merges"

# 12. A database whose user_version was lowered by hand: its tables are
# a later version's, so a migration fails.  The message names the part and
# the cause, never our temporary copy or SQLite's words.
cp "$TMP/r.db" "$TMP/low.db"
sql "$TMP/low.db" "PRAGMA user_version = 3" >/dev/null
TMPDIR=$TMP expect_exit 1 "merge of a lowered user_version" -- \
    "$FLEETSIM" merge "$TMP/m.db" "$TMP/low.db"
expect_one_line "merge of a lowered user_version"
expect_in "$TMP/err" "$TMP/low.db: cannot migrate it: its schema version 3 does not match its tables" \
    "lowered user_version said"
checks=$((checks + 1))
grep -q "fleetsim-merge-\|duplicate column" "$TMP/err" && fail "temporary path or SQL error in the message"
checks=$((checks + 1))
[ ! -e "$TMP/m.db" ] || fail "merge of a lowered user_version wrote the target"
checks=$((checks + 1))
[ -z "$(ls "$TMP" | grep fleetsim-merge-)" ] || fail "merge left its temporary copy"

# 8. Rate quotes bounded as price and upfront_price: 1e300 printed a
# 300-digit price.  At the bound accepted, one cent beyond refused.
quote() {
    good | sed "s|^price = 0.80|price = 0.80\n$2|" >"$TMP/$1.ini"
}
quote q_all "reserved_1y_all = 1e300"
bad_run q_all "q_all.ini:8: pool.p.reserved_1y_all: '1e300': an upfront of at most \$87600000 per instance for a 1y term"
quote q_partial "reserved_1y_partial = 1e300+0.7/h"
bad_run q_partial "q_partial.ini:8: pool.p.reserved_1y_partial: '1e300+0.7/h': an upfront of at most \$87600000"
quote q_hourly "reserved_3y_partial = 1000+10000.01/h"
bad_run q_hourly "q_hourly.ini:8: pool.p.reserved_3y_partial: '1000+10000.01/h': an hourly rate of at most \$10000 per instance"
quote q_3y_over "reserved_3y_all = 262800000.01"
bad_run q_3y_over "q_3y_over.ini:8: pool.p.reserved_3y_all: '262800000.01': an upfront of at most \$262800000 per instance for a 3y term"
quote q_3y_at "reserved_3y_all = 262800000"
expect_exit 0 "a 3y upfront at the bound" -- "$FLEETSIM" run "$TMP/q_3y_at.ini" --db "$TMP/q.db" --quiet
for r in 1y:none=1e300/h 1y:none=10000.01/h 1y:all=1e300 1y:partial=1e300+0.7/h 3y:all=262800000.01; do
    expect_exit 2 "roi --rate $r" -- "$FLEETSIM" roi 1 --db "$TMP/r.db" --rate "$r"
    expect_in "$TMP/err" "fleetsim roi: --rate: '${r#*=}': an " "roi --rate $r names the value"
    checks=$((checks + 1)); [ -s "$TMP/out" ] && fail "roi --rate $r printed a table"
done
expect_exit 0 "roi --rate at the bound" -- "$FLEETSIM" roi 1 --db "$TMP/r.db" --rate 1y:none=10000/h --rate 3y:all=262800000
# 13. The same option twice kept the last without a word.
expect_exit 2 "roi --rate twice" -- "$FLEETSIM" roi 1 --db "$TMP/r.db" --rate 1y:none=1/h --rate 1y:none=2/h
expect_in "$TMP/err" "fleetsim roi: --rate: 1y:none is given twice" "roi --rate twice said"
expect_exit 0 "roi --rate for two options" -- "$FLEETSIM" roi 1 --db "$TMP/r.db" --rate 1y:none=1/h --rate 3y:none=2/h

# 9. Empty MIG terms: "" and "+" ran whole GPUs, the others were skipped.
n=0
for m in "" "+" "3g.40gb+" "3g.40gb++2g.20gb" "+3g.40gb" "3g.40gb+ +2g.20gb"; do
    n=$((n + 1))
    good | sed "s|^gpu = L4|gpu = A100-80GB\nmig = $m|" >"$TMP/mig$n.ini"
    bad_run "mig$n" "mig$n.ini:6: pool.p.mig: layout '$m' on A100-80GB: an empty term: expected PROFILE[*N]+..."
done
good | sed "s|^gpu = L4|gpu = A100-80GB\nmig = 3g.40gb + 2g.20gb*2|" >"$TMP/mig_ok.ini"
expect_exit 0 "a layout with spaces round its terms" -- "$FLEETSIM" run "$TMP/mig_ok.ini" --db "$TMP/mig.db" --quiet

# 12. A report that cannot be written says why (the system's reason).
if [ -w /dev/full ]; then
    ln -s /dev/full "$TMP/full.html"
    expect_exit 1 "report to a full device" -- "$FLEETSIM" report 1 --db "$TMP/r.db" --out "$TMP/full.html"
    expect_one_line "report to a full device"
    expect_in "$TMP/err" "full.html: cannot write: No space left on device" "report says why it cannot write"
fi

# 13. Readers of a database they may not write (runs, compare, roi, ...)
# left -wal and -shm files beside it, owned by them: a read-only SQLite
# connection creates them and cannot remove them.  Permissions do not stop
# root, so as root the readers run as nobody (setpriv or runuser), in a
# directory anyone may write (where SQLite could create them).
as_reader=
if [ "$(id -u)" = 0 ]; then
    if command -v setpriv >/dev/null 2>&1 &&
        setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
        as_reader="setpriv --reuid=65534 --regid=65534 --clear-groups"
    elif command -v runuser >/dev/null 2>&1 && runuser -u nobody -- true 2>/dev/null; then
        as_reader="runuser -u nobody --"
    fi
fi
if [ "$(id -u)" != 0 ] || [ -n "$as_reader" ]; then
    mkdir "$TMP/ro"
    cp "$TMP/r.db" "$TMP/ro/r.db"
    chmod 0755 "$TMP"; chmod 0777 "$TMP/ro"; chmod 0444 "$TMP/ro/r.db"
    for cmd in "runs" "compare 1" "roi 1" "export 1 --format csv --out /dev/null"; do
        expect_exit 0 "$cmd on a read-only database" -- $as_reader "$FLEETSIM" $cmd --db "$TMP/ro/r.db"
        expect_eq "$(ls -A "$TMP/ro")" "r.db" "$cmd on a read-only database: nothing made beside it"
    done
    expect_exit 0 "runs on a read-only database, again" -- $as_reader "$FLEETSIM" runs --db "$TMP/ro/r.db"
    expect_in "$TMP/out" " good " "the read-only database read"
    expect_eq "$(ls -A "$TMP/ro")" "r.db" "read twice: nothing made beside it"
    # A -wal holding changes (a writer's, not checkpointed) without its
    # -shm: reading would create the -shm; refused by name, nothing made.
    cp "$TMP/r.db" "$TMP/w.db"
    python3 - "$TMP" <<'PY'
import shutil, sqlite3, sys
t = sys.argv[1]
c = sqlite3.connect(t + "/w.db")
c.execute("PRAGMA wal_autocheckpoint = 0")
c.execute("UPDATE run SET name = 'changed'")
c.commit()
for f in ("", "-wal", "-shm"):
    shutil.copy(t + "/w.db" + f, t + "/ro/w.db" + f)
c.close()
PY
    chmod 0444 "$TMP"/ro/w.db*
    mv "$TMP/ro/w.db-shm" "$TMP/w.db-shm.kept"
    expect_exit 1 "a read-only database with a -wal and no -shm" -- $as_reader "$FLEETSIM" runs --db "$TMP/ro/w.db"
    expect_one_line "a -wal without its -shm"
    expect_in "$TMP/err" "$TMP/ro/w.db: cannot read this database without writing beside it: its -wal file holds changes" \
        "a -wal without its -shm: said by name"
    expect_eq "$(ls -A "$TMP/ro" | tr '\n' ' ')" "r.db w.db w.db-wal " "a -wal without its -shm: nothing made"
    # with its -shm, read as it is, the -wal's changes included
    cp "$TMP/w.db-shm.kept" "$TMP/ro/w.db-shm"; chmod 0444 "$TMP/ro/w.db-shm"
    expect_exit 0 "a read-only database with its -wal and -shm" -- $as_reader "$FLEETSIM" runs --db "$TMP/ro/w.db"
    expect_in "$TMP/out" "changed" "the -wal's changes read"
    expect_eq "$(ls -A "$TMP/ro" | tr '\n' ' ')" "r.db w.db w.db-shm w.db-wal " "a -wal and its -shm: nothing made"
else
    echo "read-only database readers skipped: running as root without setpriv or runuser"
fi

# 13. A spot notice of ten years kept every instance from serving.
spot_notice() {
    good | sed "s|^gpu = L4|instance = aws:p3.2xlarge\npricing = spot|;
                s|^price = 0.80|interruption = exponential(mean=1h)\nnotice = $2|" >"$TMP/$1.ini"
}
spot_notice notice_long 3650d
bad_run notice_long "notice_long.ini:9: pool.p.notice: at most 1h (providers give 30s to 2m)"
spot_notice notice_over 3601s
bad_run notice_over "notice_over.ini:9: pool.p.notice: at most 1h"
spot_notice notice_hour 1h
expect_exit 0 "a notice of 1h" -- "$FLEETSIM" run "$TMP/notice_hour.ini" --db "$TMP/notice.db" --quiet

# 13. sweep --shard twice kept the last without a word.
expect_exit 2 "sweep --shard twice" -- "$FLEETSIM" sweep "$TMP/good.ini" --vary pool.p.count=1,2 \
    --shard 1/2 --shard 2/2 --db "$TMP/shard.db"
expect_in "$TMP/err" "fleetsim sweep: --shard is given twice" "sweep --shard twice said"
expect_exit 2 "sweep --shard-count twice" -- "$FLEETSIM" sweep "$TMP/good.ini" --vary pool.p.count=1,2 \
    --shard auto --shard-count 2 --shard-count 3 --db "$TMP/shard.db"
expect_in "$TMP/err" "fleetsim sweep: --shard-count is given twice" "sweep --shard-count twice said"
checks=$((checks + 1)); [ ! -e "$TMP/shard.db" ] || fail "a refused sweep wrote a database"

# 13. --max-events is a bound in events: its help promises no wall time.
"$FLEETSIM" help run >"$TMP/help_run" 2>&1
expect_in "$TMP/help_run" "(default 2e9 events; 0: no limit)" "--max-events default in events"
checks=$((checks + 1)); grep -A1 -- "--max-events" "$TMP/help_run" | grep -q "minute" &&
    fail "--max-events promises a wall time"

# 13. fit ignored the options of the other form without a word.
for o in "--zero 1 --gpus 2" "--gpus 2" "--mfu 0.4" "--seq 2048" "--optimizer sgd" "--activation-checkpointing"; do
    expect_exit 2 "fit $o without --training" -- "$FLEETSIM" fit llama-2-7b --gpu A100-80GB $o
    expect_in "$TMP/err" "sizes a fine-tune: it goes with --training" "fit $o without --training said"
done
for o in "--tp 2" "--context 4096" "--engine vllm" "--kv-precision fp8"; do
    expect_exit 2 "fit $o with --training" -- "$FLEETSIM" fit llama-2-7b --gpu A100-80GB --training --batch 4 --seq 2048 $o
    expect_in "$TMP/err" "${o% *} is for serving, not with --training" "fit $o with --training said"
done

# 13. A sweep point its GPU refuses (a T4 cannot run bf16) failed after the
# other points were stored; every point is built and checked first.
expect_exit 1 "sweep with a point that does not fit" -- "$FLEETSIM" sweep "$SRCDIR/scenarios/llm-gpu-choice.ini" \
    --vary pool.gpu.instance=azure:Standard_NC24ads_A100_v4,aws:g4dn.xlarge --db "$TMP/fit.db" -j 1 --quiet
expect_one_line "sweep with a point that does not fit"
expect_in "$TMP/err" "llm-gpu-choice.ini:30: workload.chat.service: llm(): precision=bf16 on pool gpu: T4 (turing) cannot run bf16" \
    "the point that cannot run named at its key"
expect_in "$TMP/err" "(point llm-gpu-choice[instance=aws:g4dn.xlarge])" "the point named"
checks=$((checks + 1)); [ ! -e "$TMP/fit.db" ] || fail "a sweep refused at a point stored runs"

# 6. plan and sweep workers die with their command.  Each simulation of
# long.ini takes tens of CPU seconds, so a worker that outlived its parent
# would still be there when looked for; none may be, and the database's
# runs do not change once the command has ended.  Nothing here depends on
# speed: we wait for the workers to exist, and for at most 30 s for the
# kernel to finish them off.
good | sed 's|^horizon = 1h|horizon = 365d|; s|^count = 1|count = 40|;
            s|rate=0.5/s|rate=20/s|; s|^price = 0.80|provider = aws|' >"$TMP/long.ini"
# (catalog prices, not the pool's own: plan leaves out candidates of other
# GPUs on a pool priced by hand, and needs two candidates for two workers)
# alive PID: the process exists and is no zombie.
alive() {
    st=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${st#Z}" = "$st" ]
}
# killed_with_workers NAME SIGNAL COMMAND...: starts COMMAND, waits for its
# two workers, sends SIGNAL to it alone, and checks what is left.
killed_with_workers() {
    name=$1 sig=$2
    shift 2
    rm -f "$TMP/k.db" "$TMP/k.db-wal" "$TMP/k.db-shm"
    "$@" --db "$TMP/k.db" >/dev/null 2>&1 &
    parent=$!
    workers=
    for i in $(seq 1200); do
        workers=$(pgrep -P "$parent" | tr '\n' ' ')
        [ "$(echo $workers | wc -w)" -ge 2 ] && break
        sleep 0.1
    done
    checks=$((checks + 1))
    [ "$(echo $workers | wc -w)" -ge 2 ] || fail "$name: no two workers started"
    kill "-$sig" "$parent"
    wait "$parent"
    got=$?
    case $sig in TERM) num=15 ;; KILL) num=9 ;; esac
    expect_eq "$got" "$((128 + num))" "$name: the command died of SIG$sig"
    left=
    for w in $workers; do
        for i in $(seq 300); do alive "$w" || break; sleep 0.1; done
        alive "$w" && left="$left $w"
    done
    expect_eq "$left" "" "$name: workers left running"
    n1=$(sql "$TMP/k.db" "SELECT count(*) FROM run" 2>/dev/null || echo 0)
    sleep 2
    n2=$(sql "$TMP/k.db" "SELECT count(*) FROM run" 2>/dev/null || echo 0)
    expect_eq "$n2" "$n1" "$name: runs stored after the command ended"
    if [ -e "$TMP/k.db" ]; then
        expect_eq "$(sql "$TMP/k.db" "PRAGMA integrity_check")" ok "$name: database sound"
        expect_eq "$(sql "$TMP/k.db" "SELECT count(*) FROM run WHERE run_id NOT IN (SELECT run_id FROM latency)")" 0 \
            "$name: a run stored in part"
    fi
    for w in $left; do kill -KILL "$w" 2>/dev/null; done
}
killed_with_workers "plan SIGTERM" TERM "$FLEETSIM" plan "$TMP/long.ini" --slo 'p99<=5s' --gpus L4,A100-80GB,H100-80GB -j 2
killed_with_workers "plan SIGKILL" KILL "$FLEETSIM" plan "$TMP/long.ini" --slo 'p99<=5s' --gpus L4,A100-80GB,H100-80GB -j 2
killed_with_workers "sweep SIGTERM" TERM "$FLEETSIM" sweep "$TMP/long.ini" --vary pool.p.count=40,41 -j 2 --quiet
killed_with_workers "sweep SIGKILL" KILL "$FLEETSIM" sweep "$TMP/long.ini" --vary pool.p.count=40,41 -j 2 --quiet
killed_with_workers "run -j SIGTERM" TERM "$FLEETSIM" run "$TMP/long.ini" --replications 2 -j 2 --quiet

report
