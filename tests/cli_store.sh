#!/bin/sh
# cli_store.sh -- the results database under pressure, as a user meets it:
# another process holding the write lock (the busy timeout, and where a
# finished run is kept when it cannot be stored), many runs creating one
# database at once, a read-only directory, a file-size limit, a damaged
# schema, and removing runs with `fleetsim rm`.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/store.db"
unset FLEETSIM_BUSY_TIMEOUT

good >"$TMP/good.ini"

# hold_lock DB: a sqlite3 process takes DB's write lock and keeps it until
# release_lock.  It touches $TMP/locked once it holds the lock, and we wait
# for that (up to a generous minute) rather than for some time.
hold_lock() {
    rm -f "$TMP/lockfifo" "$TMP/locked"
    mkfifo "$TMP/lockfifo"
    sqlite3 "$1" <"$TMP/lockfifo" >/dev/null 2>&1 &
    locker=$!
    exec 9>"$TMP/lockfifo"
    printf 'BEGIN IMMEDIATE;\n.system touch %s/locked\n' "$TMP" >&9
    i=0
    while [ ! -e "$TMP/locked" ] && [ $i -lt 600 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    checks=$((checks + 1))
    [ -e "$TMP/locked" ] || fail "the sqlite3 locker did not take the lock"
}
release_lock() {
    printf 'ROLLBACK;\n.quit\n' >&9
    exec 9>&-
    wait $locker
}
runs_in() { sql "$1" "SELECT count(*) FROM run"; }

expect_exit 0 "a first run" -- "$FLEETSIM" run "$TMP/good.ini" --db "$DB" --quiet

# --- A finished run is never lost to a busy database ----------------------
# The lock is held for the whole run; with a 1 s busy timeout the run is
# simulated, cannot be stored, and is kept in a database of its own whose
# name the message gives.
hold_lock "$DB"
expect_exit 1 "locked: run kept" -- env FLEETSIM_BUSY_TIMEOUT=1s "$FLEETSIM" run "$TMP/good.ini" --db "$DB" --name kept-me
release_lock
expect_in "$TMP/err" "$DB: database is locked by another process (waited 1s" "locked: says it waited 1s"
expect_in "$TMP/err" "FLEETSIM_BUSY_TIMEOUT" "locked: names the knob"
kept=$(sed -n 's/^fleetsim: the finished run is kept in \(.*\) as run [0-9]*: .*/\1/p' "$TMP/err")
checks=$((checks + 1))
case "$kept" in
"$TMP"/store.kept-[0-9]*.db) ;;
*) fail "locked: kept in '$kept', not next to the database"; cat "$TMP/err" ;;
esac
checks=$((checks + 1)); [ -n "$kept" ] && [ -f "$kept" ] || fail "locked: kept file '$kept' missing"
expect_in "$TMP/err" "fleetsim import --db $DB $kept" "locked: says how to copy it in"
expect_in "$TMP/out" "kept-me" "locked: the summary is printed all the same"
expect_eq "$(runs_in "$DB")" 1 "locked: nothing in the locked database"
if [ -n "$kept" ] && [ -f "$kept" ]; then
    expect_exit 0 "kept file is a database for every command" -- "$FLEETSIM" runs --db "$kept"
    expect_in "$TMP/out" "kept-me" "kept run listed"
    expect_exit 0 "compare reads the kept file" -- "$FLEETSIM" compare --db "$kept" --format csv kept-me
    expect_exit 0 "import the kept run" -- "$FLEETSIM" import --db "$DB" "$kept"
    expect_in "$TMP/out" "imported 1 run" "import says what it did"
    expect_eq "$(runs_in "$DB")" 2 "import: the run is in the main database"
    expect_eq "$(sql "$DB" "SELECT count(*) FROM utilization u JOIN run r USING (run_id) WHERE r.name = 'kept-me'")" \
        "$(sql "$kept" "SELECT count(*) FROM utilization")" "import: with all its samples"
    expect_eq "$(sql "$DB" "SELECT total_cost_usd FROM run_summary WHERE name = 'kept-me'")" \
        "$(sql "$kept" "SELECT total_cost_usd FROM run_summary")" "import: same cost"
fi

# A lock released within the busy timeout: the run waits for it and lands.
before=$(runs_in "$DB")
hold_lock "$DB"
"$FLEETSIM" run "$TMP/good.ini" --db "$DB" --quiet --busy-timeout 10m >"$TMP/wait.out" 2>"$TMP/wait.err" &
runner=$!
sleep 3     # longer than the old fixed 2 s; the outcome does not depend on it
release_lock
wait $runner
expect_eq "$?" 0 "lock released in time: run exits 0"
expect_eq "$(runs_in "$DB")" $((before + 1)) "lock released in time: run stored"
expect_eq "$(cat "$TMP/wait.err")" "" "lock released in time: no message"
expect_exit 2 "bad --busy-timeout" -- "$FLEETSIM" run "$TMP/good.ini" --db "$DB" --busy-timeout soon
expect_in "$TMP/err" "--busy-timeout" "bad --busy-timeout named"
expect_exit 1 "bad FLEETSIM_BUSY_TIMEOUT" -- env FLEETSIM_BUSY_TIMEOUT=soon "$FLEETSIM" runs --db "$DB"
expect_in "$TMP/err" "FLEETSIM_BUSY_TIMEOUT: expected a duration" "bad FLEETSIM_BUSY_TIMEOUT named"

# --- Concurrent first use: 8 runs at once into a database that does not
# exist yet, four rounds; every run succeeds and is stored.
for round in 1 2 3 4; do
    fresh="$TMP/fresh$round.db"
    pids=
    for k in 1 2 3 4 5 6 7 8; do
        "$FLEETSIM" run "$TMP/good.ini" --db "$fresh" --quiet --seed $k \
            >"$TMP/c$k.out" 2>"$TMP/c$k.err" &
        pids="$pids $!"
    done
    k=0
    for p in $pids; do
        k=$((k + 1))
        wait "$p"
        st=$?
        expect_eq "$st" 0 "concurrent first use, round $round, run $k"
        [ "$st" = 0 ] || sed 's/^/    stderr: /' "$TMP/c$k.err"
    done
    expect_eq "$(runs_in "$fresh")" 8 "concurrent first use, round $round: 8 runs stored"
done

# --- A damaged schema is found before simulating ----------------------------
# The scenario cannot be simulated (no pool may hold an instance); the
# schema message, not the simulation's, shows the database is checked first.
cp "$DB" "$TMP/damaged.db"
sql "$TMP/damaged.db" "DROP TABLE utilization"
sed 's/^count = 1/count = 0/' "$TMP/good.ini" >"$TMP/nopool.ini"
expect_exit 1 "dropped table" -- "$FLEETSIM" run "$TMP/nopool.ini" --db "$TMP/damaged.db" --quiet
expect_one_line "dropped table"
expect_in "$TMP/err" "$TMP/damaged.db: not a usable fleetsim database: table utilization is missing" "dropped table named"
expect_exit 1 "dropped table, runs" -- "$FLEETSIM" runs --db "$TMP/damaged.db"
expect_in "$TMP/err" "table utilization is missing" "dropped table found by runs"
cp "$DB" "$TMP/noview.db"
sql "$TMP/noview.db" "DROP VIEW run_summary"
expect_exit 1 "dropped view" -- "$FLEETSIM" run "$TMP/nopool.ini" --db "$TMP/noview.db" --quiet
expect_in "$TMP/err" "view run_summary is missing" "dropped view named"

# --- A file-size limit (ulimit -f): a message, not a SIGXFSZ death, and no
# new empty database left behind.
( ulimit -f 4 && exec "$FLEETSIM" run "$TMP/good.ini" --db "$TMP/limited.db" --quiet ) >"$TMP/out" 2>"$TMP/err"
expect_eq "$?" 1 "file-size limit: exit 1"
expect_in "$TMP/err" "$TMP/limited.db: cannot create the results schema" "file-size limit: names the file"
expect_in "$TMP/err" "File too large (the file-size limit, ulimit -f, is reached)" "file-size limit: says why"
expect_one_line "file-size limit"
checks=$((checks + 1))
ls "$TMP"/limited.db* >/dev/null 2>&1 && fail "file-size limit: left $(ls "$TMP"/limited.db*)"

# --- A read-only directory with a writable database file -------------------
# Permissions do not stop root: as root the run is made as nobody.
as_nobody=
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
if [ "$(id -u)" != 0 ] || [ -n "$as_nobody" ]; then
    chmod 0755 "$TMP"
    mkdir "$TMP/rodir"
    cp "$DB" "$TMP/rodir/r.db"
    chmod 0666 "$TMP/rodir/r.db"
    chmod 0555 "$TMP/rodir"
    expect_exit 1 "read-only directory" -- $as_nobody "$FLEETSIM" run "$TMP/good.ini" --db "$TMP/rodir/r.db" --quiet
    expect_one_line "read-only directory"
    expect_in "$TMP/err" "$TMP/rodir/r.db: cannot write the results database: its directory $TMP/rodir is not writable" "read-only directory: says the directory is the cause"
    chmod 0755 "$TMP/rodir"
else
    echo "read-only directory check skipped: running as root without setpriv"
fi

# --- fleetsim rm -----------------------------------------------------------
expect_exit 0 "help rm" -- "$FLEETSIM" help rm
expect_in "$TMP/out" "usage: fleetsim rm [--db FILE] RUN..." "help rm"
expect_exit 0 "import --help" -- "$FLEETSIM" import --help
expect_in "$TMP/out" "usage: fleetsim import [--db FILE] KEPT..." "import --help"
expect_exit 0 "help run: the busy timeout" -- "$FLEETSIM" help run
expect_in "$TMP/out" "--busy-timeout D" "help run: the busy timeout"
RM="$TMP/rm.db"
for n in a b c; do
    "$FLEETSIM" run "$TMP/good.ini" --db "$RM" --quiet --name "$n" >/dev/null
done
expect_eq "$(runs_in "$RM")" 3 "rm: three runs to start with"
expect_exit 1 "rm: unknown run" -- "$FLEETSIM" rm --db "$RM" 1 nosuch
expect_one_line "rm: unknown run"
expect_in "$TMP/err" "no run named 'nosuch'" "rm: names the unknown run"
expect_eq "$(runs_in "$RM")" 3 "rm: unknown run deletes nothing"
expect_exit 1 "rm: unknown id" -- "$FLEETSIM" rm --db "$RM" 99
expect_in "$TMP/err" "no run with id 99 in $RM" "rm: names the unknown id"
expect_exit 0 "rm by id and name" -- "$FLEETSIM" rm --db "$RM" 1 c
expect_in "$TMP/out" "removed run 1 (a)" "rm: says what it removed"
expect_in "$TMP/out" "removed run 3 (c)" "rm: says what it removed, by name"
expect_eq "$(sql "$RM" "SELECT group_concat(name) FROM run")" "b" "rm: only b is left"
for t in cost_monthly latency utilization job pool; do
    expect_eq "$(sql "$RM" "SELECT count(*) FROM $t WHERE run_id NOT IN (SELECT run_id FROM run)")" 0 "rm: no orphans in $t"
done
expect_eq "$(sql "$RM" "SELECT count(*) > 0 FROM utilization")" 1 "rm: b keeps its samples"
expect_exit 2 "rm: no RUN" -- "$FLEETSIM" rm --db "$RM"
expect_exit 1 "rm: missing database" -- "$FLEETSIM" rm --db "$TMP/none.db" 1
checks=$((checks + 1)); [ ! -e "$TMP/none.db" ] || fail "rm created a database"
# The sqlite3 shell, with foreign keys on, leaves no orphans either.
sql "$RM" "PRAGMA foreign_keys = ON; DELETE FROM run"
for t in cost_monthly latency utilization job pool; do
    expect_eq "$(sql "$RM" "SELECT count(*) FROM $t")" 0 "sqlite3 delete: no orphans in $t"
done

# ---- schema version 1 is migrated in place, its runs kept -------------------
# A version-1 database: today's schema taken back (the run rate view of v1
# divided by calendar months; latency had no mean_batch_size).
MIG="$TMP/v1.db"
cat >"$TMP/mig.ini" <<'INI'
[scenario]
name = mig
start = 2026-01-01
horizon = 1h
[pool.p]
gpu = L4
count = 1
price = 0.80
[workload.w]
pools = p
arrivals = poisson(rate=1/s)
service = const(0.1s)
INI
expect_exit 0 "v1 fixture run" -- "$FLEETSIM" run "$TMP/mig.ini" --db "$MIG" --quiet
sql "$MIG" "DROP TABLE run_growth; DROP TABLE tenancy; DROP TABLE adapter; DROP TABLE cost_extra; DROP TABLE budget; DROP INDEX run_uid; ALTER TABLE run DROP COLUMN uid; DROP VIEW run_summary; ALTER TABLE run DROP COLUMN cost_unrounded_usd; CREATE VIEW run_summary AS SELECT run_id, name, 0 AS cost_per_month_usd FROM run; ALTER TABLE latency DROP COLUMN mean_batch_size; DROP TABLE cost_allocation; ALTER TABLE pool DROP COLUMN instance_type; ALTER TABLE pool DROP COLUMN tags; ALTER TABLE pool DROP COLUMN upfront_usd; ALTER TABLE pool DROP COLUMN term_months; ALTER TABLE pool DROP COLUMN instances; DROP TABLE interruption; ALTER TABLE pool DROP COLUMN requests_retried; ALTER TABLE pool DROP COLUMN work_lost_s; ALTER TABLE pool DROP COLUMN fallback_hours; ALTER TABLE pool DROP COLUMN fallback_cost_usd; ALTER TABLE job DROP COLUMN cost_usd; ALTER TABLE job DROP COLUMN status; ALTER TABLE job DROP COLUMN reason; ALTER TABLE pool DROP COLUMN list_price_usd_h; ALTER TABLE pool DROP COLUMN contracted_price_usd_h; ALTER TABLE pool DROP COLUMN commitment_usd_h; ALTER TABLE pool DROP COLUMN gpus_per_instance; ALTER TABLE pool DROP COLUMN renew; ALTER TABLE pool DROP COLUMN rate_quotes; ALTER TABLE latency DROP COLUMN ttft_mean_s; ALTER TABLE latency DROP COLUMN tpot_mean_s; ALTER TABLE latency DROP COLUMN ttft_p90_s; ALTER TABLE latency DROP COLUMN tpot_p90_s; ALTER TABLE latency DROP COLUMN slo_ttft_s; ALTER TABLE latency DROP COLUMN slo_ttft_attainment; ALTER TABLE latency DROP COLUMN slo_tpot_s; ALTER TABLE latency DROP COLUMN slo_tpot_attainment; ALTER TABLE latency DROP COLUMN tokens_in; ALTER TABLE latency DROP COLUMN tokens_out; ALTER TABLE latency DROP COLUMN tokens_in_per_gpu_s; ALTER TABLE latency DROP COLUMN tokens_out_per_gpu_s; ALTER TABLE latency DROP COLUMN cost_usd; ALTER TABLE latency DROP COLUMN cost_per_mtok_out_usd; ALTER TABLE latency DROP COLUMN cost_per_mtok_usd; ALTER TABLE latency DROP COLUMN preempted; ALTER TABLE pool DROP COLUMN tokens_in; ALTER TABLE pool DROP COLUMN tokens_out; ALTER TABLE pool DROP COLUMN tokens_in_per_gpu_s; ALTER TABLE pool DROP COLUMN tokens_out_per_gpu_s; ALTER TABLE pool DROP COLUMN cost_per_mtok_out_usd; ALTER TABLE pool DROP COLUMN cost_per_mtok_usd; DROP TABLE slice_utilization; ALTER TABLE pool DROP COLUMN gpu_hours_busy_sm; ALTER TABLE pool DROP COLUMN ttft_p50_s; ALTER TABLE pool DROP COLUMN ttft_p99_s; ALTER TABLE pool DROP COLUMN tpot_p50_s; ALTER TABLE pool DROP COLUMN tpot_p99_s; ALTER TABLE pool DROP COLUMN e2e_p50_s; ALTER TABLE pool DROP COLUMN e2e_p99_s; ALTER TABLE pool DROP COLUMN ttft_p90_s; ALTER TABLE pool DROP COLUMN tpot_p90_s; ALTER TABLE pool DROP COLUMN e2e_p90_s; ALTER TABLE pool DROP COLUMN ttft_mean_s; ALTER TABLE pool DROP COLUMN tpot_mean_s; ALTER TABLE pool DROP COLUMN e2e_mean_s; ALTER TABLE latency DROP COLUMN wait_p50_s; ALTER TABLE latency DROP COLUMN wait_p90_s; ALTER TABLE latency DROP COLUMN wait_p99_s; DROP TABLE prefix_cache; DROP TABLE spec_decode; DROP TABLE kv_transfer; ALTER TABLE pool DROP COLUMN cold_starts; ALTER TABLE pool DROP COLUMN load_s; ALTER TABLE pool DROP COLUMN energy_kwh; PRAGMA user_version = 1;"
expect_eq "$(sql "$MIG" 'PRAGMA user_version')" "1" "v1 fixture"
# a reading command never writes: it says how to upgrade
expect_exit 1 "runs on a v1 database" -- "$FLEETSIM" runs --db "$MIG"
expect_in "$TMP/err" "database schema version 1 is older than this fleetsim (version 24); \`fleetsim run\` with this --db upgrades it" "runs: v1 message"
expect_eq "$(sql "$MIG" 'PRAGMA user_version')" "1" "runs left the v1 database alone"
expect_exit 0 "run into a v1 database migrates it" -- "$FLEETSIM" run "$TMP/mig.ini" --db "$MIG" --quiet
expect_eq "$(sql "$MIG" 'PRAGMA user_version')" "24" "migrated to version 24"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('pool') WHERE name IN ('list_price_usd_h', 'contracted_price_usd_h', 'commitment_usd_h', 'gpus_per_instance')")" "4" "pool columns added by the v7 migration (FOCUS prices)"
expect_eq "$(sql "$MIG" "SELECT uid LIKE 'legacy:1:%' FROM run WHERE run_id = 1")" 1 "v11: the v1 run's identity made of its id, name, times"
expect_eq "$(sql "$MIG" "SELECT length(uid) || ' ' || (uid GLOB '[0-9a-f]*' AND uid NOT GLOB '*[^0-9a-f]*') FROM run WHERE run_id = 2")" "32 1" "v11: a new run's identity: 32 hex digits"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('job') WHERE name IN ('cost_usd', 'status', 'reason')")" "3" "job columns added by the v4 migration (training)"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('pool') WHERE name IN ('requests_retried', 'work_lost_s', 'fallback_hours', 'fallback_cost_usd')")" "4" "pool columns added by the v5 migration"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM sqlite_master WHERE name = 'interruption'")" "1" "interruption table added by the v5 migration"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('pool') WHERE name IN ('renew', 'rate_quotes')")" "2" "pool.renew and rate_quotes added by the v6 migration"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('latency') WHERE name IN ('ttft_mean_s', 'tpot_mean_s', 'ttft_p90_s', 'tpot_p90_s', 'slo_ttft_s', 'slo_ttft_attainment', 'slo_tpot_s', 'slo_tpot_attainment', 'tokens_in', 'tokens_out', 'tokens_in_per_gpu_s', 'tokens_out_per_gpu_s', 'cost_usd', 'cost_per_mtok_out_usd', 'cost_per_mtok_usd', 'preempted')")" "16" "latency columns added by the v9 migration (llm)"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('pool') WHERE name IN ('ttft_p50_s', 'ttft_p99_s', 'tpot_p50_s', 'tpot_p99_s', 'e2e_p50_s', 'e2e_p99_s', 'ttft_p90_s', 'tpot_p90_s', 'e2e_p90_s', 'ttft_mean_s', 'tpot_mean_s', 'e2e_mean_s')")" "12" "pool columns added by the v13 migration (llm latency per pool)"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('pool') WHERE name IN ('tokens_in', 'tokens_out', 'tokens_in_per_gpu_s', 'tokens_out_per_gpu_s', 'cost_per_mtok_out_usd', 'cost_per_mtok_usd')")" "6" "pool columns added by the v9 migration (llm)"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('slice_utilization')")" "10" "slice_utilization added by the v10 migration (and its sm_share by v15)"
expect_eq "$(sql "$MIG" "SELECT group_concat(coalesce(gpu_hours_busy_sm = gpu_hours_busy, 'NULL')) FROM (SELECT * FROM pool ORDER BY run_id)")" "NULL,1" "v15: pool.gpu_hours_busy_sm, NULL for the run stored before, the busy GPU-hours on a pool without MIG"
expect_eq "$(sql "$MIG" 'SELECT group_concat(sm_utilization = utilization) FROM run_summary')" "1,1" "v15 view: sm_utilization equals utilization without MIG (the old run's from gpu_hours_busy)"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('prefix_cache')")" "8" "prefix_cache added by the v16 migration"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('spec_decode')")" "9" "spec_decode added by the v17 migration"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('kv_transfer')")" "7" "kv_transfer added by the v18 migration"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('tenancy') UNION ALL SELECT count(*) FROM pragma_table_info('adapter')" | tr '\n' ' ')" "10 13 " "tenancy and adapter added by the v23 migration"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('pool') WHERE name IN ('cold_starts', 'load_s')")" "2" "pool columns added by the v19 migration (cold starts)"
expect_eq "$(sql "$MIG" "SELECT group_concat(coalesce(energy_kwh > 0, 'NULL')) FROM (SELECT * FROM pool ORDER BY run_id)")" "NULL,1" "v20: pool.energy_kwh, NULL for the run stored before"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('run_growth')")" "6" "run_growth added by the v21 migration (growth with its uncertainty), its pool by v24"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('cost_extra')") $(sql "$MIG" "SELECT count(*) FROM pragma_table_info('budget')")" "12 6" "cost_extra and budget added by the v22 migration"
expect_eq "$(sql "$MIG" 'SELECT count(*) FROM run_summary')" "2" "the v1 run kept"
# 1 hour at $0.80: a run rate of 0.80 x 730 = 584.00 for both runs
expect_eq "$(sql "$MIG" 'SELECT group_concat(cost_per_month_usd) FROM run_summary')" "584.0,584.0" "v2 view: the 730-h run rate"
expect_eq "$(sql "$MIG" "SELECT group_concat(coalesce(cost_unrounded_usd, 'NULL')) FROM run ORDER BY run_id")" "NULL,0.8" "v14: run.cost_unrounded_usd, NULL for the run stored before (its rate from the bill)"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('latency') WHERE name = 'mean_batch_size'")" "1" "latency.mean_batch_size added"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('cost_allocation')")" "9" "cost_allocation added by the v3 migration (its profile by v12, its energy_kwh by v20)"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM pragma_table_info('interruption')")" "6" "interruption added by the v4 migration"
expect_eq "$(sql "$MIG" "SELECT count(*) FROM cost_allocation c JOIN run r USING (run_id) WHERE r.run_id = (SELECT max(run_id) FROM run)")" "2" "the new run has allocation rows (workload w and idle)"
report
