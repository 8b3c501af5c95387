#!/bin/sh
# cli_bad_input.sh -- every bad input gets one clear message naming file,
# line and key, exit status 1, and leaves the database as it was.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/bad.db"


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
# Cold starts: load_time negative, on a pool serving no llm; auto with no bandwidth.
good | sed 's/^price = 0.80/&\nload_time = -30s/' >"$TMP/load_neg.ini"; bad load_neg "load_neg.ini:8: pool.p.load_time" "negative"
good | sed 's/^price = 0.80/&\nload_time = 30s/' >"$TMP/load_plain.ini"; bad load_plain "load_plain.ini:8: pool.p.load_time" "llm(...) only"
good | sed 's/^gpu = L4/instance = azure:Standard_NC6s_v3/; s/^count = 1/autoscale = queue(target=4)\nmax = 2/; s/^service = .*/service = llm(model=llama-2-7b, precision=fp16)\ntokens_in = const(100)\ntokens_out = const(10)/' >"$TMP/load_bw.ini"; bad load_bw "load_bw.ini:5: pool.p: missing load_time = DURATION" "network_gbps"

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
# A database locked by another process is not bad input: the run waits for
# the lock, and keeps its results elsewhere if it cannot get it
# (tests/cli_store.sh).
# ---- Scenario limits and nonsense (defects 1, 3, 10-13).  Every run is
# bounded by timeout(1): a regression that hangs or reads forever fails
# (exit 124) instead of stalling the suite.
bad_t() {
    name=$1
    shift 3
    before=$(sql "$DB" "SELECT count(*) FROM run" 2>/dev/null || echo none)
    expect_exit 1 "$name" -- timeout 120 "$FLEETSIM" run "$TMP/$name.ini" --db "$DB" --quiet "$@"
    expect_one_line "$name"
    after=$(sql "$DB" "SELECT count(*) FROM run" 2>/dev/null || echo none)
    expect_eq "$after" "$before" "$name leaves the database as it was"
}
# bad_msg NAME MESSAGE [ARGS...]: as bad, and stderr is exactly
# "fleetsim: $TMP/MESSAGE".
bad_msg() {
    name=$1 msg=$2
    shift 2
    bad_t "$name" - - "$@"
    expect_eq "$(cat "$TMP/err")" "fleetsim: $TMP/$msg" "$name message"
}
printf '[scenario]\nhorizon = 3000w\n' >"$TMP/h3000.ini"
bad_msg h3000 "h3000.ini:2: scenario.horizon: a duration must be at most 3650d (10 years), got '3000w'"
good >"$TMP/hset.ini"
bad_t hset - - --set scenario.horizon=3000w
expect_eq "$(cat "$TMP/err")" "fleetsim: --set: scenario.horizon: a duration must be at most 3650d (10 years), got '3000w'" "--set horizon message"
good | sed 's/^horizon = 1h/horizon = 3650d\nmetrics_interval = 1m/' >"$TMP/rows.ini"
bad_t rows - -
expect_in "$TMP/err" "rows.ini:4: scenario.metrics_interval: 1 pool x 1 replication x 5256121 rows" "too many samples"

printf '[scenario]\ninclude = /dev/zero\n' >"$TMP/zero.ini"
bad_msg zero "zero.ini:2: scenario.include: '/dev/zero' is not a regular file (a device, pipe or socket)"
printf '[scenario]\ninclude = %s\n' "$TMP" >"$TMP/incdir.ini"
bad_msg incdir "incdir.ini:2: scenario.include: '$TMP' is a directory, not a scenario file"
mkfifo "$TMP/fifo.ini" 2>/dev/null && {
    printf '[scenario]\ninclude = fifo.ini\n' >"$TMP/incfifo.ini"
    bad_msg incfifo "incfifo.ini:2: scenario.include: 'fifo.ini' is not a regular file (a device, pipe or socket)"
}
good >"$TMP/huge.ini"; head -c 1100000 /dev/zero | tr '\0' ';' >>"$TMP/huge.ini"
bad_msg huge "huge.ini: is $(wc -c <"$TMP/huge.ini" | tr -d ' ') bytes; a scenario file holds at most 1048576 (1 MiB)"
good | sed 's/^price = 0.80/price = 0.80\x00 7/' >"$TMP/nul.ini"
bad_msg nul "nul.ini:7: pool.p.price: the line holds a NUL byte (not a text file?)"

good | sed 's/^price = 0.80/price = 1e308/' >"$TMP/price.ini"
bad_msg price "price.ini:7: pool.p.price: at most \$10000 per instance-hour, got '1e308'"
good | sed 's/mean=1s/mean=1s, sigma=1e6/; s/exponential/lognormal/' >"$TMP/sigma.ini"
bad_msg sigma "sigma.ini:11: workload.w.service: lognormal(): sigma must be at most 4, got '1e6'"
good | sed 's/^service = .*/service = weibull(shape=1e-300, scale=1s)/' >"$TMP/shape.ini"
bad_msg shape "shape.ini:11: workload.w.service: weibull(): shape must be between 0.1 and 100, got '1e-300'"
good | sed 's/^service = .*/service = const(1e300s)/' >"$TMP/const.ini"
bad_msg const "const.ini:11: workload.w.service: const(): value: a duration must be at most 3650d (10 years), got '1e300s'"
good | sed 's/rate=0.5\/s/rate=0.5\/s, rate=2\/s/' >"$TMP/twice.ini"
bad_msg twice "twice.ini:10: workload.w.arrivals: argument 'rate' given twice in 'poisson(rate=0.5/s, rate=2/s)'"
good | sed 's/rate=0.5\/s/rate=0/' >"$TMP/rate0.ini"
bad_msg rate0 "rate0.ini:10: workload.w.arrivals: poisson: rate must be above 0 (no request would arrive)"
good | sed 's/^name = good/name =/' >"$TMP/noname.ini"
bad_msg noname "noname.ini:2: scenario.name: must not be empty"
good | sed 's/^count = 1/count = 1000000000/' >"$TMP/count.ini"
bad_msg count "count.ini:6: pool.p.count: must be at most 1000000, got 1000000000"
good | sed 's/^count = 1/gpus_per_instance = 2147483647/' >"$TMP/gpi.ini"
bad_msg gpi "gpi.ini:6: pool.p.gpus_per_instance: must be at most 64, got 2147483647"
good | sed 's/^service = .*/&\nbatch_max = 2000000000/' >"$TMP/batch.ini"
bad_msg batch "batch.ini:12: workload.w.batch_max: must be at most 65536, got 2000000000"
good | sed 's/^horizon = 1h/&\nreplications = 1000000000/' >"$TMP/reps.ini"
bad_msg reps "reps.ini:4: scenario.replications: must be at most 10000, got 1000000000"
good >"$TMP/reps_opt.ini"
bad_t reps_opt - - --replications 1000000000
expect_eq "$(cat "$TMP/err")" "fleetsim: --set: scenario.replications: must be at most 10000, got 1000000000" "--replications bound"

good | sed 's/^count = 1/autoscale = utilization(target=0%)\nmax = 3/' >"$TMP/target0.ini"
bad_msg target0 "target0.ini:6: pool.p.autoscale: utilization(): target must be above 0%, got '0%'"

good | sed 's/^gpu = L4/gpu = A100-40GB\npricing = reserved/; /^price/d' >"$TMP/provider.ini"
bad_msg provider "provider.ini:5: pool.p.gpu: A100-40GB is sold by several providers (aws:p4d.24xlarge, gcp:a2-highgpu-1g, gcp:a2-highgpu-8g, gcp:a2-highgpu-2g, gcp:a2-highgpu-4g, gcp:a2-megagpu-16g, azure:Standard_ND96asr_v4): say which with provider = aws|azure|gcp or instance = PROVIDER:TYPE, or set price"
sed 's/^pricing = reserved/&\nprovider = gcp/' "$TMP/provider.ini" >"$TMP/provider_gcp.ini"
expect_exit 0 "provider = gcp" -- timeout 120 "$FLEETSIM" run "$TMP/provider_gcp.ini" --db "$DB" --name provider-gcp --quiet
expect_eq "$(sql "$DB" "SELECT name FROM run ORDER BY run_id DESC LIMIT 1")" "provider-gcp" "provider = gcp stored"

# Names that do not fit are refused, never cut.
long=$(printf '%062d' 0 | tr 0 n)
good | sed "s/^name = good/name = ${long}é/" >"$TMP/longname.ini"
bad_msg longname "longname.ini:2: scenario.name: is 64 bytes long; at most 63"
before=$(sql "$DB" "SELECT count(*) FROM run")
expect_exit 2 "--name too long" -- timeout 120 "$FLEETSIM" run "$TMP/good.ini" --db "$DB" --quiet --name "${long}é"
expect_in "$TMP/err" "fleetsim run: --name is 64 bytes long; at most 63" "--name too long message"
expect_eq "$(sql "$DB" "SELECT count(*) FROM run")" "$before" "--name too long: no new run"
sect=$(printf '%050d' 0 | tr 0 q)
good | sed "s/^\[workload.w\]/[workload.$sect]/" >"$TMP/longsect.ini"
bad_msg longsect "longsect.ini:8: workload.$sect: section name is 59 characters; at most 49"
lf="$TMP/$(printf '%070d' 0 | tr 0 f).ini"
good | sed '/^name = /d' >"$lf"
expect_exit 1 "long file name" -- timeout 120 "$FLEETSIM" run "$lf" --db "$DB" --quiet
expect_in "$TMP/err" "the file name gives a run name of 70 bytes, at most 63: set name = in [scenario]" "long file name message"
expect_exit 0 "long file name with --name" -- timeout 120 "$FLEETSIM" run "$lf" --db "$DB" --quiet --name short-name
expect_eq "$(sql "$DB" "SELECT name FROM run ORDER BY run_id DESC LIMIT 1")" "short-name" "--name stored"

# A pool no workload uses: billed for nothing, so a warning; the run goes on.
good | sed 's/^\[workload.w\]/[pool.spare]\ngpu = L4\nprice = 0.80\n&/' >"$TMP/spare.ini"
expect_exit 0 "unused pool" -- timeout 120 "$FLEETSIM" run "$TMP/spare.ini" --db "$DB"
expect_in "$TMP/err" "fleetsim: warning: $TMP/spare.ini:9: pool.spare: used by no workload: its instances are billed but serve nothing" "unused pool warned"
expect_exit 0 "unused pool, --quiet" -- timeout 120 "$FLEETSIM" run "$TMP/spare.ini" --db "$DB" --quiet
checks=$((checks + 1)); [ ! -s "$TMP/err" ] || fail "--quiet silences the unused-pool warning (got: $(head -c 200 "$TMP/err"))"
report
