#!/bin/sh
# cli_bad_input.sh -- every bad input gets one clear message naming file,
# line and key, exit status 1, and leaves the database as it was.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/bad.db"

good() {
    cat <<'INI'
[scenario]
name = good
horizon = 1h
[pool.p]
gpu = L4
count = 1
price = 0.80
[workload.w]
pools = p
arrivals = poisson(rate=0.5/s)
service = exponential(mean=1s)
INI
}

# bad NAME FRAGMENT1 FRAGMENT2: runs $TMP/NAME.ini, expects exit 1, one
# line on stderr containing both fragments, and no new run in the db.
# (Not at the end of a pipeline: a subshell would lose the counts.)
bad() {
    name=$1
    before=$(sql "$DB" "SELECT count(*) FROM run" 2>/dev/null || echo none)
    expect_exit 1 "$name" -- "$FLEETSIM" run "$TMP/$name.ini" --db "$DB" --quiet
    expect_one_line "$name"
    expect_in "$TMP/err" "$2" "$name"
    [ -n "${3:-}" ] && expect_in "$TMP/err" "$3" "$name"
    after=$(sql "$DB" "SELECT count(*) FROM run" 2>/dev/null || echo none)
    expect_eq "$after" "$before" "$name leaves the database as it was"
}

# An unknown GPU, before any database exists: nothing is created.
good | sed 's/^gpu = L4/gpu = A100-80G/' >"$TMP/unknown.ini"
expect_exit 1 "unknown GPU" -- "$FLEETSIM" run "$TMP/unknown.ini" --db "$DB"
expect_one_line "unknown GPU"
expect_in "$TMP/err" "unknown.ini:5: pool.p.gpu: unknown GPU 'A100-80G'" "unknown GPU names file, line, key"
expect_in "$TMP/err" "did you mean 'A100-80GB'" "unknown GPU suggests"
checks=$((checks + 1)); [ ! -e "$DB" ] || fail "unknown GPU created the database"

good >"$TMP/good.ini"
expect_exit 0 "a good run first" -- "$FLEETSIM" run "$TMP/good.ini" --db "$DB" --quiet

good | sed 's/^count = 1/count = -2/' >"$TMP/negative.ini"; bad negative "negative.ini:6: pool.p.count" "negative"
good | sed 's/^price = 0.80/price = nan/' >"$TMP/nan.ini"; bad nan "nan.ini:7: pool.p.price" "expected an amount"
good | sed 's/mean=1s/mean=NaN/' >"$TMP/nan_service.ini"; bad nan_service "nan_service.ini:11: workload.w.service"
good | sed 's/^gpu = L4/instance = aws:g5.xlrge/' >"$TMP/instance.ini"; bad instance "pool.p.instance" "did you mean 'aws:g5.xlarge'"
good | sed 's/poisson(rate=0.5\/s)/poison(rate=0.5\/s)/' >"$TMP/arrival_name.ini"; bad arrival_name "arrival_name.ini:10: workload.w.arrivals" "poisson"
good | sed 's/^horizon = 1h/horizon = 1 fortnight/' >"$TMP/horizon.ini"; bad horizon "horizon.ini:3: scenario.horizon" "expected a duration"
printf '[scenario]\nhorizon = 1h\n[pool.p]\ngpu = L4\nprice = 1\n' >"$TMP/no_workload.ini"; bad no_workload "no [workload.NAME] section"

# Traces: missing file, malformed row, timestamps going backwards.
printf 'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:17:03.9799600,4808,10\n2023-11-16 18:17:04.0319600,31x80,8\n' >"$TMP/malformed.csv"
printf 'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:17:03.9799600,4808,10\n2023-11-16 18:17:02.0319600,3180,8\n' >"$TMP/backwards.csv"
trace_scn() {
    good | sed "s|^arrivals = .*|arrivals = trace($1, format=azure-llm)|"
}
trace_scn "$TMP/nowhere.csv" >"$TMP/trace_missing.ini"; bad trace_missing "trace_missing.ini:10: workload.w.arrivals" "nowhere.csv"
trace_scn "$TMP/malformed.csv" >"$TMP/trace_malformed.ini"; bad trace_malformed "malformed.csv:3:" "ContextTokens"
trace_scn "$TMP/backwards.csv" >"$TMP/trace_backwards.ini"; bad trace_backwards "backwards.csv:3:" "TIMESTAMP"
trace_scn "$TMP/malformed.csv" | sed 's/^service = .*/service = const(1s)\nbad_rows = skip/' >"$TMP/skip.ini"
expect_exit 0 "bad_rows = skip" -- "$FLEETSIM" run "$TMP/skip.ini" --db "$DB"
expect_in "$TMP/err" "malformed.csv:3" "skipped row reported with file:line"

# Databases: not writable, locked, not a database, from the future.
expect_exit 1 "unwritable db" -- "$FLEETSIM" run "$TMP/good.ini" --db /proc/fleetsim.db --quiet
expect_one_line "unwritable db"
expect_in "$TMP/err" "/proc/fleetsim.db" "unwritable db named"
echo "this is not a database" >"$TMP/junk.db"
expect_exit 1 "junk db" -- "$FLEETSIM" run "$TMP/good.ini" --db "$TMP/junk.db" --quiet
expect_in "$TMP/err" "junk.db" "junk db named"
expect_eq "$(cat "$TMP/junk.db")" "this is not a database" "junk db untouched"
cp "$DB" "$TMP/future.db"
sql "$TMP/future.db" "PRAGMA user_version = 99"
expect_exit 1 "future db" -- "$FLEETSIM" run "$TMP/good.ini" --db "$TMP/future.db" --quiet
expect_in "$TMP/err" "newer" "future db refused"
expect_eq "$(sql "$TMP/future.db" "PRAGMA user_version")" 99 "future db untouched"
# A read-only database.  Permissions do not stop root, so as root the run
# is made as nobody (setpriv, util-linux).
cp "$DB" "$TMP/ro.db"; chmod 0444 "$TMP/ro.db"
as_nobody=
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    chmod 0755 "$TMP"
    as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
if [ "$(id -u)" != 0 ] || [ -n "$as_nobody" ]; then
    runs_before=$(sql "$TMP/ro.db" "SELECT count(*) FROM run")
    expect_exit 1 "read-only db" -- $as_nobody "$FLEETSIM" run "$TMP/good.ini" --db "$TMP/ro.db" --quiet
    expect_one_line "read-only db"
    expect_in "$TMP/err" "$TMP/ro.db: cannot write the results database" "read-only db named"
    expect_in "$TMP/err" "readonly" "read-only db says why"
    expect_eq "$(sql "$TMP/ro.db" "SELECT count(*) FROM run")" "$runs_before" "read-only db: no new run"
else
    echo "read-only database check skipped: running as root without setpriv"
fi
# Hold a write lock from another process for a few seconds.
before=$(sql "$DB" "SELECT count(*) FROM run")
( printf 'BEGIN EXCLUSIVE;\nINSERT INTO run(name) VALUES (%slocker%s);\n' "'" "'"; sleep 6; printf 'ROLLBACK;\n' ) | sqlite3 "$DB" &
locker=$!
sleep 1
expect_exit 1 "locked db" -- "$FLEETSIM" run "$TMP/good.ini" --db "$DB" --quiet
expect_one_line "locked db"
expect_in "$TMP/err" "locked" "locked db message"
wait $locker
expect_eq "$(sql "$DB" "SELECT count(*) FROM run")" "$before" "locked db: no new run"
report
