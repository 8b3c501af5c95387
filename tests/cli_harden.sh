#!/bin/sh
# cli_harden.sh -- inputs a careless or hostile user tries (issue 20): each
# is refused with one message naming file, line and key, exit status 1,
# nothing half-written; output files are never written through a planted
# name.
. "$(dirname "$0")/cli_lib.sh"

# spot SCN-NAME TRACE COUNT: a spot pool replaying TRACE.
spot() {
    good | sed "s|^gpu = L4|instance = aws:p3.2xlarge\npricing = spot|;
                s|^price = 0.80|interruption = trace($2)|;
                s|^count = 1|count = $3|" >"$TMP/$1.ini"
}

# 1. available unbounded: 1e300 was cast to long (UB) and pushed one birth
# per instance until memory ran out; 1.5 was floored without a word.
printf 't_seconds,available\n0,0\n10,1e300\n20,0\n' >"$TMP/huge.csv"
printf 't_seconds,available\n0,0\n10,1.5\n20,0\n' >"$TMP/frac.csv"
printf 't_seconds,available\n0,1\n10,3\n5000,1\n' >"$TMP/three.csv"
for f in huge frac; do
    expect_exit 1 "trace stats $f" -- "$FLEETSIM" trace stats "$TMP/$f.csv"
    expect_one_line "trace stats $f"
    expect_in "$TMP/err" "$f.csv:3: available" "trace stats $f names file:line"
    expect_in "$TMP/err" "whole number of instances from 0 to 1000000" "$f bound said"
    spot "spot_$f" "$TMP/$f.csv" 4
    bad_run "spot_$f" "spot_$f.ini:8: pool.p.interruption: $TMP/$f.csv:3: available"
done
spot spot_over "$TMP/three.csv" 2
bad_run spot_over "$TMP/three.csv:3: available 3 is more than the pool keeps (count + spot_extra = 2)"
spot spot_fits "$TMP/three.csv" 3
expect_exit 0 "a trace within count" -- "$FLEETSIM" run "$TMP/spot_fits.ini" --db "$TMP/ok.db" --quiet
# 4. Training out of memory: njobs was set before the calloc that failed
# and the free walked a NULL array (SIGSEGV).  An allocation fault is
# injected by the sanitizer's allocator (no effect on a plain build,
# where the file is small enough to run).
train() {
    printf '[scenario]\nhorizon = 1h\n[pool.p]\ngpu = L4\ncount = 1\nprice = 0.80\n[workload.t]\nkind = training\npools = p\njobs = trace(%s)\n' "$2" >"$TMP/$1.ini"
}
awk 'BEGIN{print "job_id,submit_s,gpus,duration_s"; for(i=0;i<262144;i++) printf "j%d,%d,1,3600\n", i, i/100}' >"$TMP/many.csv"
train oom "$TMP/many.csv"
if nm "$FLEETSIM" 2>/dev/null | grep -q __asan_init; then
    ASAN_OPTIONS=max_allocation_size_mb=80:allocator_may_return_null=1 \
        expect_exit 1 "training out of memory" -- "$FLEETSIM" run "$TMP/oom.ini" --db "$TMP/oom.db" --quiet
    expect_in "$TMP/err" "fleetsim: out of memory building the training scheduler" "out of memory said"
    checks=$((checks + 1)); grep -q "runtime error\|SEGV" "$TMP/err" && fail "out of memory crashed"
fi
# More jobs than a file may hold: refused by name at the first row over.
awk 'BEGIN{print "job_id,submit_s,gpus,duration_s"; for(i=0;i<=1000000;i++) printf "%d,0,1,1\n", i}' >"$TMP/toomany.csv"
train toomany "$TMP/toomany.csv"
bad_run toomany "toomany.csv:1000002: more than 1000000 jobs in one file (each job holds about 1024 bytes"

# 9. Jobs nonsense: deadline before submission or negative, a header and
# no row, the same id twice, durations that never end.
jobs_bad() {
    printf "job_id,submit_s,gpus,duration_s,deadline_s\n$2" >"$TMP/$1.csv"
    train "$1" "$TMP/$1.csv"
    bad_run "$1" "$3"
}
jobs_bad deadline_before 'a,100,1,10,50\n' "deadline_before.csv:2: deadline_s: deadline 50 is not after the job's submission (submit_s 100)"
jobs_bad deadline_neg 'a,0,1,10,-5\n' "deadline_neg.csv:2: deadline_s: deadline -5 is not after"
jobs_bad no_rows '' "no_rows.csv:1: no job rows after the header"
jobs_bad same_id 'a,0,1,10,\nb,1,1,10,\na,2,1,10,\n' "same_id.csv:4: job_id: job 'a' again (first on line 2)"
jobs_bad forever 'a,0,1,1e308,\n' "forever.csv:2: duration_s: expected seconds above 0 and at most 315360000"
jobs_bad late 'a,1e308,1,1,\n' "late.csv:2: submit_s: expected seconds from 0 to 315360000"

# A request trace's service time of 1e308 s: a request that never ends.
printf 'time,service\n0,1\n1,1e308\n' >"$TMP/forever_req.csv"
good | sed "s|^arrivals = .*|arrivals = trace($TMP/forever_req.csv, format=generic, service=service)|;
            s|^service = .*|service = trace|" >"$TMP/forever_req.ini"
expect_exit 1 forever_req -- "$FLEETSIM" run "$TMP/forever_req.ini" --db "$TMP/req.db" --quiet
expect_one_line forever_req
expect_in "$TMP/err" "forever_req.csv:3: service: more than 3650 days (a request that never finishes)" forever_req
checks=$((checks + 1)); [ ! -e "$TMP/req.db" ] || fail "forever_req (a trace error mid-run) left a database"

# 3. The event estimate saw neither window openings nor short laps of a
# repeated spot trace: both ran for hours with --max-events never applying.
printf 't_seconds,available\n0,1\n' >"$TMP/one.csv"
spot lap "$TMP/one.csv" 1
sed -i 's|^horizon = 1h|horizon = 3650d|; s|one.csv)|one.csv, repeat=yes)|;
        s|rate=0.5/s|rate=1/d|' "$TMP/lap.ini"
expect_exit 1 "a one-second lap is counted" -- "$FLEETSIM" run "$TMP/lap.ini" --db "$TMP/est.db" --max-events 1e6
expect_in "$TMP/err" "lap.ini:8: pool.p.interruption: this run would take about" "lap refused at its key"
expect_in "$TMP/err" "(this key: 315360000 spot trace rows)" "lap: one row a second for 3650 days"
window() {
    good | sed "s|^horizon = 1h|horizon = 3650d\n[window.w]\nevery = $2\nduration = $3|;
                s|^price = 0.80|price = 0.80\nschedule = w|;
                s|rate=0.5/s|rate=1/d|" >"$TMP/$1.ini"
}
window win_fast 2ms 1ms
bad_run win_fast "win_fast.ini:5: window.w.every: a window opens at most once a minute (every = 1m or more)"
window win_min 1m 30s
expect_exit 1 "window openings are counted" -- "$FLEETSIM" run "$TMP/win_min.ini" --db "$TMP/est.db" --max-events 1e6
expect_in "$TMP/err" "win_min.ini:5: window.w.every: this run would take about" "openings refused at every"
expect_in "$TMP/err" "(this key: 5256000 window openings)" "openings: one a minute for 3650 days"
checks=$((checks + 1)); [ ! -e "$TMP/est.db" ] || fail "a refused estimate left a database"

# 2. --out: export and report wrote through a predictable OUT.tmp and
# renamed it over --out; plot removed --out when a write failed.
ODB="$TMP/out.db"
for k in 1 2 3 4; do
    good | sed "s/^name = good/name = run$k/; s/^count = 1/count = $k/" >"$TMP/run$k.ini"
    "$FLEETSIM" run "$TMP/run$k.ini" --db "$ODB" --quiet >/dev/null 2>&1
done
for k in 1 2 3 4; do
    "$FLEETSIM" export --db "$ODB" --format csv --out "$TMP/want$k.csv" "$k"
done
echo precious >"$TMP/victim"
# a symbolic link planted at the old temporary's name is never written
ln -s "$TMP/victim" "$TMP/planted.csv.tmp"
expect_exit 0 "export beside a planted link" -- "$FLEETSIM" export --db "$ODB" --format csv --out "$TMP/planted.csv" 1
expect_eq "$(cat "$TMP/victim")" precious "the planted link's target is untouched"
expect_eq "$(cmp "$TMP/planted.csv" "$TMP/want1.csv" && echo same)" same "export written whole"
# a private file stays private when replaced
chmod 600 "$TMP/planted.csv"
expect_exit 0 "export over a private file" -- "$FLEETSIM" export --db "$ODB" --format csv --out "$TMP/planted.csv" 2
expect_eq "$(stat -c %a "$TMP/planted.csv")" 600 "the replaced file keeps its mode"
# --out a symbolic link to a regular file: refused, link and target kept
ln -s "$TMP/victim" "$TMP/link.csv"
for cmd in "export --format csv" "report"; do
    out="$TMP/link.csv"; [ "$cmd" = report ] && { ln -sf "$TMP/victim" "$TMP/link.html"; out="$TMP/link.html"; }
    expect_exit 1 "$cmd --out a link" -- "$FLEETSIM" $cmd --db "$ODB" --out "$out" 1
    expect_one_line "$cmd --out a link"
    expect_in "$TMP/err" "$out: cannot write: a symbolic link (name the file itself)" "$cmd --out a link said"
    checks=$((checks + 1)); [ -L "$out" ] || fail "$cmd replaced the link"
    expect_eq "$(cat "$TMP/victim")" precious "$cmd: the link's target is untouched"
done
# a FIFO is written in place, not replaced
mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/from_fifo" &
reader=$!
expect_exit 0 "export to a FIFO" -- "$FLEETSIM" export --db "$ODB" --format csv --out "$TMP/fifo" 2
wait $reader
checks=$((checks + 1)); [ -p "$TMP/fifo" ] || fail "the FIFO was replaced"
expect_eq "$(cmp "$TMP/from_fifo" "$TMP/want2.csv" && echo same)" same "the FIFO's reader got the export"
# a device: /dev/full fails with a reason and stays a device
if [ -c /dev/full ] && [ -w /dev/full ]; then
    expect_exit 1 "export to /dev/full" -- "$FLEETSIM" export --format csv --db "$ODB" --out /dev/full 1
    expect_one_line "export to /dev/full"
    expect_in "$TMP/err" "/dev/full: cannot write: No space left on device" "/dev/full said"
    checks=$((checks + 1)); [ -c /dev/full ] || fail "export replaced /dev/full"
fi
# a missing directory: the reason, and --out named, not a temporary
expect_exit 1 "report into a missing directory" -- "$FLEETSIM" report --db "$ODB" --out "$TMP/no/such/dir/r.html" 1
expect_eq "$(cat "$TMP/err")" "fleetsim: $TMP/no/such/dir/r.html: cannot write: No such file or directory" "missing directory said"
# four concurrent exports to one path: each succeeds and the file is one
# of them, whole; no temporary is left
pids=""
for k in 1 2 3 4; do
    "$FLEETSIM" export --db "$ODB" --format csv --out "$TMP/shared.csv" "$k" 2>"$TMP/err$k" &
    pids="$pids $!"
done
ok=0
for p in $pids; do wait "$p" && ok=$((ok + 1)); done
expect_eq "$ok" 4 "four concurrent exports succeed"
whole=0
for k in 1 2 3 4; do cmp -s "$TMP/shared.csv" "$TMP/want$k.csv" && whole=1; done
expect_eq "$whole" 1 "the shared file is one export, whole"
expect_eq "$(ls -a "$TMP" | grep -c '^\.shared')" 0 "no temporary left"
# 11. Read-only commands on an existing database left empty -wal and -shm.
rm -f "$ODB-wal" "$ODB-shm"
for cmd in "runs" "compare 1 2" "roi 1" "export --format csv --out $TMP/e.csv 1" \
           "report --out $TMP/r.html 1" "plot --chart monthly-cost --out $TMP/p.png 1"; do
    command -v gnuplot >/dev/null || [ "${cmd#plot}" = "$cmd" ] || continue
    expect_exit 0 "$cmd" -- "$FLEETSIM" $cmd --db "$ODB"
    expect_eq "$(ls "$ODB"-* 2>/dev/null)" "" "$cmd leaves no -wal or -shm"
done

# A full disk (a 64 KB tmpfs, when we may mount one): a failed write
# keeps the user's file (plot removed it) and leaves no temporary.
MNT="$TMP/mnt"
mkdir "$MNT"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$MNT" 2>/dev/null; then
    echo "old chart" >"$MNT/chart.png"
    cat /dev/zero >"$MNT/fill" 2>/dev/null
    if command -v gnuplot >/dev/null; then
        expect_exit 1 "plot onto a full disk" -- "$FLEETSIM" plot --db "$ODB" --chart monthly-cost --out "$MNT/chart.png" 1
        expect_in "$TMP/err" "$MNT/chart.png: cannot write: No space left on device" "plot on a full disk said"
        expect_eq "$(cat "$MNT/chart.png")" "old chart" "a failed plot keeps --out"
    fi
    expect_exit 1 "export onto a full disk" -- "$FLEETSIM" export --format csv --db "$ODB" --out "$MNT/chart.png" 1
    expect_eq "$(cat "$MNT/chart.png")" "old chart" "a failed export keeps --out"
    expect_eq "$(ls -a "$MNT" | grep -c '^\.chart')" 0 "no temporary left on a full disk"
    # 11. run on a full disk left a 0-byte database
    expect_exit 1 "run onto a full disk" -- "$FLEETSIM" run "$TMP/run1.ini" --db "$MNT/full.db" --quiet
    expect_one_line "run onto a full disk"
    expect_in "$TMP/err" "full.db: cannot create the results schema: database or disk is full" "full disk said"
    expect_eq "$(ls "$MNT" | grep -c full.db)" 0 "no database file left on a full disk"
    umount "$MNT"
fi

# 12. Terminal safety: input bytes in messages, and invisible reordering
# characters (U+202E, U+2028) in names, are shown escaped, never raw.
printf '[scenario]\nname = ab\nhorizon = 1h\n[pool.p]\ngpu = \033[31mL4\rX\ncount = 1\nprice = 0.80\n[workload.w]\npools = p\narrivals = poisson(rate=0.5/s)\nservice = exponential(mean=1s)\n' >"$TMP/esc.ini"
bad_run esc "unknown GPU '\\x1b[31mL4\\rX'"
checks=$((checks + 1)); if LC_ALL=C grep -q "$(printf '\033')" "$TMP/err"; then fail "an ESC reached stderr"; fi
printf '[scenario]\nname = evil\342\200\256txt.exe\342\200\250x\nhorizon = 1h\n[pool.p]\ngpu = L4\ncount = 1\nprice = 0.80\n[workload.w]\npools = p\narrivals = poisson(rate=0.5/s)\nservice = exponential(mean=1s)\n' >"$TMP/bidi.ini"
expect_exit 0 "a bidi name is stored" -- "$FLEETSIM" run "$TMP/bidi.ini" --db "$TMP/bidi.db" --quiet
expect_exit 0 "runs" -- "$FLEETSIM" runs --db "$TMP/bidi.db"
expect_in "$TMP/out" 'evil\u202etxt.exe\u2028x' "runs table escapes U+202E and U+2028"
expect_exit 0 "report html" -- "$FLEETSIM" report --db "$TMP/bidi.db" --out "$TMP/b.html" 1
expect_in "$TMP/b.html" 'evil\u202etxt.exe\u2028x' "HTML escapes them"
# 13. Markdown links to charts whose file name holds spaces and parentheses
expect_exit 0 "report md" -- "$FLEETSIM" report --db "$TMP/bidi.db" --out "$TMP/my review (v2).md" 1
expect_in "$TMP/my review (v2).md" 'evil\\u202etxt.exe\\u2028x' "Markdown escapes them"
# The charts' labels (gnuplot's SVG, inline in the HTML and beside the
# Markdown) show the name escaped the same way.
bidi_files="$TMP/b.html|$TMP/my review (v2).md|$TMP/out"
if command -v gnuplot >/dev/null; then
    sed -n '/<svg/,/<\/svg>/p' "$TMP/b.html" >"$TMP/b-svg.html"
    expect_in "$TMP/b-svg.html" 'evil\u202etxt.exe\u2028x 20' "the HTML's charts escape them"
    expect_in "$TMP/my review (v2)-monthly-cost.svg" 'evil\u202etxt.exe\u2028x 20' "the Markdown's charts escape them"
    bidi_files="$bidi_files|$TMP/my review (v2)-monthly-cost.svg"
fi
IFS='|'; for f in $bidi_files; do
    checks=$((checks + 1))
    if grep -q "$(printf '\342\200\256')\|$(printf '\342\200\250')" "$f"; then fail "$(basename "$f") holds a raw U+202E or U+2028"; fi
done; unset IFS
if command -v gnuplot >/dev/null; then
    expect_in "$TMP/my review (v2).md" '![monthly-cost](my%20review%20%28v2%29-monthly-cost.svg)' "Markdown link percent-encoded"
    checks=$((checks + 1)); [ -s "$TMP/my review (v2)-monthly-cost.svg" ] || fail "the linked chart exists"
fi

# 9. More nonsense: ragged rows in lifetimes, price and availability
# traces; a notice longer than every lifetime; --set scenario.include.
printf 'lifetime_s,x\n60,1\n120\n' >"$TMP/rag_life.csv"
printf 'lifetime_s\n60\n120\n' >"$TMP/short_life.csv"
printf 't_seconds,price\n0,1\n10\n' >"$TMP/rag_price.csv"
printf 't_seconds,available\n0,1\n10\n' >"$TMP/rag_avail.csv"
spotd() {   # NAME INTERRUPTION [EXTRA LINE]
    good | sed "s|^gpu = L4|instance = aws:p3.2xlarge\npricing = spot|;
                s|^price = 0.80|interruption = $2\n${3:-notice = 0s}|" >"$TMP/$1.ini"
}
spotd rag_life "empirical($TMP/rag_life.csv)"
bad_run rag_life "rag_life.ini:8: pool.p.interruption: $TMP/rag_life.csv:3: 1 fields where the first row has 2"
spotd long_notice "empirical($TMP/short_life.csv)" "notice = 5m"
bad_run long_notice "long_notice.ini:9: pool.p.notice: 300s is longer than every lifetime of $TMP/short_life.csv (the longest: 120s)"
spotd rag_price "exponential(mean=1h)" "price_trace = $TMP/rag_price.csv"
bad_run rag_price "rag_price.ini:9: pool.p.price_trace: $TMP/rag_price.csv:3: 1 fields where the header has 2"
expect_exit 1 "trace stats ragged" -- "$FLEETSIM" trace stats "$TMP/rag_avail.csv"
expect_in "$TMP/err" "rag_avail.csv:3: 1 fields where the header has 2" "ragged availability row"
good >"$TMP/plain.ini"
for v in "" "$TMP/other.ini"; do
    expect_exit 1 "--set scenario.include=$v" -- "$FLEETSIM" run "$TMP/plain.ini" --db "$TMP/inc.db" --quiet --set "scenario.include=$v"
    expect_one_line "--set scenario.include=$v"
    expect_in "$TMP/err" "scenario.include is read with the scenario file and cannot be set from the command line" "--set include said"
done
expect_exit 1 "--vary scenario.include" -- "$FLEETSIM" sweep "$TMP/plain.ini" --db "$TMP/inc.db" --vary "scenario.include=a.ini,b.ini"
expect_in "$TMP/err" "scenario.include is read with the scenario file" "--vary include said"
expect_eq "$(sql "$TMP/inc.db" "SELECT count(*) FROM run" 2>/dev/null || echo 0)" 0 "no include run stored"

# 10. Clearer messages.
spotd neg_delay "exponential(mean=1h)" "replace_delay = -1m"
bad_run neg_delay "neg_delay.ini:9: pool.p.replace_delay: a duration must not be negative, got '-1m'"
good | sed 's|^horizon = 1h|horizon = 1h\ncatalog = /nonexistent|' >"$TMP/no_catalog.ini"
bad_run no_catalog "no_catalog.ini:4: scenario.catalog: cannot read /nonexistent/gpus.csv: No such file or directory"
good | sed 's|^horizon = 1h|horizon = 1h\ncatalog_instances = nowhere.csv|' >"$TMP/no_inst.ini"
bad_run no_inst "no_inst.ini:4: scenario.catalog_instances: cannot read $TMP/nowhere.csv"
for n in "a b" "x,y"; do
    good | sed "s/^\[pool.p\]/[pool.$n]/; s/^pools = p/pools = $n/" >"$TMP/poolname.ini"
    bad_run poolname "poolname.ini:5: pool.$n: the name '$n' holds a"
done

# Found by fuzzing (fuzz_catalog): an instance of 2e116 GPUs was cast to
# int (undefined behaviour).
good | sed "s|^horizon = 1h|horizon = 1h\ncatalog_instances = $SRCDIR/tests/data/fuzz-crashes/catalog-instances-gpus-2e116.csv|" >"$TMP/cat_gpus.ini"
bad_run cat_gpus "catalog-instances-gpus-2e116.csv:2: gpus: expected a whole number of GPUs from 1 to 64"
# A GPU of 1e300 GB: an LLM's KV-cache capacity in tokens was cast to long
# (undefined behaviour, found by the float-cast-overflow sanitizer at
# models/llm/llm_perf.c); memory_gb is above 0 and at most 10000.
for m in 1e300 0; do
    sed "s/^A100-80GB,80,/A100-80GB,$m,/" "$SRCDIR/models/catalog/gpus.csv" >"$TMP/gpus-mem.csv"
    good | sed "s|^horizon = 1h|horizon = 1h\ncatalog_gpus = $TMP/gpus-mem.csv|" >"$TMP/cat_mem.ini"
    bad_run cat_mem "gpus-mem.csv:$(grep -n '^A100-80GB,' "$TMP/gpus-mem.csv" | cut -d: -f1): memory_gb: expected GB above 0, at most 10000"
done
# The total the driver reports (reported_gib, GiB) must be within 10% of
# the datasheet's GB: a MiB figure (79150) or the wrong card's is refused.
sed 's/^\(A100-80GB,.*\),79\.15,\([^,]*\)$/\1,79150,\2/' "$SRCDIR/models/catalog/gpus.csv" >"$TMP/gpus-drv.csv"
good | sed "s|^horizon = 1h|horizon = 1h\ncatalog_gpus = $TMP/gpus-drv.csv|" >"$TMP/cat_drv.ini"
bad_run cat_drv "gpus-drv.csv:$(grep -n '^A100-80GB,' "$TMP/gpus-drv.csv" | cut -d: -f1): reported_gib: expected GiB within 10% of the row's memory_gb (80 GB = 74.51 GiB)"

report
