#!/bin/sh
# cli_traces.sh -- the real traces in traces/sample replay with every valid
# row counted, and rate_scale / repeat behave as documented; a file
# included from another folder, which includes another in turn, names its
# own data files relative to itself, whatever the folder of the scenario
# run and the current directory.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/traces.db"
S="$SRCDIR/traces/sample"

# replay NAME TRACE FORMAT HORIZON SERVICE: a generous fleet so that every
# request is served before the horizon.
replay() {
    cat >"$TMP/$1.ini" <<INI
[scenario]
name = $1
horizon = $4
metrics_interval = 1h
[pool.p]
gpu = H100-80GB
count = 64
price = 1
[workload.w]
pools = p
arrivals = trace($2, format=$3)
service = $5
INI
    expect_exit 0 "replay $1" -- "$FLEETSIM" run "$TMP/$1.ini" --db "$DB" --quiet
}

count_rows() { awk 'END { print NR - 1 }' "$1"; }
code=$(count_rows "$S/AzureLLMInferenceTrace_code.csv")
conv=$(count_rows "$S/AzureLLMInferenceTrace_conv.csv")
lora_ok=$(grep -c ',SUCCEED,' "$S/lora_request_trace.csv")
lora_all=$(count_rows "$S/lora_request_trace.csv")

replay code "$S/AzureLLMInferenceTrace_code.csv" azure-llm 2h "const(100ms)"
expect_eq "$(sql "$DB" "SELECT arrivals || ' ' || count FROM latency l JOIN run r USING (run_id) WHERE r.name = 'code'")" "$code $code" "azure code: every row arrives and is served"
replay conv "$S/AzureLLMInferenceTrace_conv.csv" azure-llm 2h "const(100ms)"
expect_eq "$(sql "$DB" "SELECT arrivals || ' ' || count FROM latency l JOIN run r USING (run_id) WHERE r.name = 'conv'")" "$conv $conv" "azure conv: every row arrives and is served"
replay lora "$S/lora_request_trace.csv" alibaba-lora 30d trace
expect_eq "$(sql "$DB" "SELECT arrivals || ' ' || count FROM latency l JOIN run r USING (run_id) WHERE r.name = 'lora'")" "$lora_ok $lora_ok" "lora: every SUCCEED row served"
expect_eq "$((lora_all - lora_ok))" 431 "lora: rows not SUCCEED"
# With service = trace and a fleet that never queues, mean latency is the
# trace's mean exec_time (on the reference GPU, H100 here: factor 1).
want=$(awk -F, 'NR > 1 && $3 == "SUCCEED" { s += $4; n++ } END { printf "%.4f", s / n }' "$S/lora_request_trace.csv")
expect_eq "$(sql "$DB" "SELECT printf('%.4f', mean_s) FROM latency l JOIN run r USING (run_id) WHERE r.name = 'lora'")" "$want" "lora service times replayed"

# rate_scale = 3 and repeat = yes: an hour of code traffic as three days at
# 3x: about 3 x 72 x rows arrive (replication is whole copies plus a
# Bernoulli remainder, so for an integer scale exactly 3x per lap).
cat >"$TMP/scaled.ini" <<INI
[scenario]
name = scaled
horizon = 3d
metrics_interval = 1h
[pool.p]
gpu = H100-80GB
count = 64
price = 1
[workload.w]
pools = p
arrivals = trace($S/AzureLLMInferenceTrace_code.csv, format=azure-llm)
rate_scale = 3
repeat = yes
service = const(10ms)
INI
expect_exit 0 "scaled replay" -- "$FLEETSIM" run "$TMP/scaled.ini" --db "$DB" --quiet
arrived=$(sql "$DB" "SELECT arrivals FROM latency l JOIN run r USING (run_id) WHERE r.name = 'scaled'")
checks=$((checks + 1))
# The trace spans 57.3 minutes: 3 days hold 75.4 laps.
lo=$((code * 3 * 74)); hi=$((code * 3 * 77))
[ "$arrived" -ge "$lo" ] && [ "$arrived" -le "$hi" ] || fail "scaled replay: $arrived arrivals, expected between $lo and $hi"

# statuses: the rows not replayed are a line of the summary, by status,
# not a warning; the quickstart declares its statuses.
expect_exit 0 "quickstart" -- "$FLEETSIM" run "$SRCDIR/scenarios/quickstart.ini" --db "$DB"
expect_eq "$(wc -c <"$TMP/err")" 0 "quickstart: no warning"
expect_in "$TMP/out" "  diffusion: trace rows skipped: 398 FAILED, 30 PENDING, 3 PROCESSING (statuses = SUCCEED)" "quickstart: skipped rows in the summary"
expect_exit 0 "lora, default statuses" -- "$FLEETSIM" run "$TMP/lora.ini" --db "$DB"
expect_eq "$(wc -c <"$TMP/err")" 0 "lora, default statuses: no warning"
expect_in "$TMP/out" "  w: trace rows skipped: 398 FAILED, 30 PENDING, 3 PROCESSING (statuses = SUCCEED, the default)" "lora, default statuses: in the summary"
expect_exit 0 "lora, two statuses" -- "$FLEETSIM" run "$TMP/lora.ini" --db "$DB" --set "workload.w.statuses=SUCCEED, PROCESSING" --quiet
expect_eq "$(sql "$DB" "SELECT arrivals FROM latency JOIN run USING (run_id) WHERE run_id = $(cat "$TMP/out")")" "$((lora_ok + 3))" "statuses = SUCCEED, PROCESSING replays 3 more rows"
sed 's/^service = trace$/service = trace\nstatuses = SUCCESS/' "$TMP/lora.ini" >"$TMP/typo.ini"
expect_exit 1 "statuses typo" -- "$FLEETSIM" run "$TMP/typo.ini" --db "$DB"
expect_in "$TMP/err" "typo.ini:13: workload.w.statuses: no row of '$S/lora_request_trace.csv' has status 'SUCCESS' (its statuses: SUCCEED, FAILED, PENDING, PROCESSING)" "statuses typo named"
sed 's/^service = const(100ms)$/service = const(100ms)\nstatuses = SUCCEED/' "$TMP/code.ini" >"$TMP/nostatus.ini"
expect_exit 1 "statuses on a trace without status" -- "$FLEETSIM" run "$TMP/nostatus.ini" --db "$DB"
expect_in "$TMP/err" "nostatus.ini:13: workload.w.statuses: the azure-llm format has no status column" "statuses without a status column"

# Malformed rows skipped (bad_rows = skip) are a warning, and in the
# summary; --quiet silences warnings.
sed 's|^arrivals = .*|arrivals = trace('"$SRCDIR"'/tests/data/bad_fields.csv, format=azure-llm)\nbad_rows = skip|' "$TMP/code.ini" >"$TMP/skip.ini"
expect_exit 0 "bad_rows = skip" -- "$FLEETSIM" run "$TMP/skip.ini" --db "$DB"
expect_in "$TMP/err" "fleetsim: warning: $SRCDIR/tests/data/bad_fields.csv:3: 2 fields where the header has 3 (workload.w.arrivals: skipped 5 malformed of 7 rows, this is the first; bad_rows = skip)" "malformed rows: a warning"
expect_in "$TMP/out" "  w: trace rows skipped: 5 malformed (bad_rows = skip)" "malformed rows: in the summary"
expect_exit 0 "bad_rows = skip, --quiet" -- "$FLEETSIM" run "$TMP/skip.ini" --db "$DB" --quiet
expect_eq "$(wc -c <"$TMP/err")" 0 "--quiet: no warning"

# Not a trace: refused at once, naming the file and the key that names it.
# (/dev/zero used to be read until memory ran out.)
not_trace() {
    sed "s|^arrivals = .*|arrivals = trace($2, format=generic)|" "$TMP/code.ini" >"$TMP/$1.ini"
    expect_exit 1 "$1" -- timeout 120 "$FLEETSIM" run "$TMP/$1.ini" --db "$DB"
    expect_one_line "$1"
    expect_in "$TMP/err" "$3" "$1 named"
}
not_trace zero /dev/zero "fleetsim: $TMP/zero.ini:11: workload.w.arrivals: cannot open trace '/dev/zero': not a regular file (a character device)"
mkdir "$TMP/dir.csv"
not_trace dir "$TMP/dir.csv" "fleetsim: $TMP/dir.ini:11: workload.w.arrivals: cannot open trace '$TMP/dir.csv': a directory, not a file"
printf 'time,x\n1,2\n2,a\000b\n' >"$TMP/nul.csv"
not_trace nul "$TMP/nul.csv" "fleetsim: $TMP/nul.csv:3: field 2: a NUL byte"
printf 'time,x,time\n1,2,3\n' >"$TMP/dup.csv"
not_trace dup "$TMP/dup.csv" "fleetsim: $TMP/dup.csv:1: column 'time' appears twice in the header (fields 1 and 3)"
awk 'BEGIN { printf "time\n1\n"; s = "2"; while (length(s) <= 1048576) s = s s; print s }' >"$TMP/long.csv"
not_trace long "$TMP/long.csv" "fleetsim: $TMP/long.csv:3: line longer than 1048576 bytes"
# ---- include across folders: a/b/top.ini includes ../../base/mid.ini,
# which includes deeper/root.ini; root.ini's jobs.csv and mid.ini's
# lives.csv are beside them.  One 30-minute job (5-minute checkpoints) on
# a spot L4 whose instances live 1000 s each (instant replacement): 3
# interruptions in the hour, at 1000, 2000 and 3000 s.
mkdir -p "$TMP/inc/a/b" "$TMP/inc/base/deeper"
printf 'job_id,submit_s,gpus,duration_s\nj,0,1,1800\n' >"$TMP/inc/base/deeper/jobs.csv"
printf 'lifetime_s\n1000\n' >"$TMP/inc/base/lives.csv"
cat >"$TMP/inc/base/deeper/root.ini" <<'INI'
[scenario]
name = root
horizon = 1h
metrics_interval = 10m
[pool.p]
gpu = L4
price = 1
count = 1
provision_delay = 0s
[workload.t]
kind = training
pools = p
jobs = trace(jobs.csv, format=generic)
checkpoint_interval = 5m
checkpoint_cost = 0s
restore_cost = 0s
INI
printf '[scenario]\ninclude = deeper/root.ini\n[pool.p]\npricing = spot\ninterruption = empirical(lives.csv)\n' >"$TMP/inc/base/mid.ini"
printf '[scenario]\ninclude = ../../base/mid.ini\nname = top\n' >"$TMP/inc/a/b/top.ini"
expect_exit 0 "include across folders" -- "$FLEETSIM" run "$TMP/inc/a/b/top.ini" --db "$TMP/inc.db" --quiet
(cd "$TMP/inc/a" && "$FLEETSIM" run b/top.ini --db "$TMP/inc.db" --quiet --name top2) >/dev/null 2>&1
expect_eq "$(sql "$TMP/inc.db" "SELECT group_concat(r.name || ':' || j.status || ':' || (SELECT count(*) FROM interruption i WHERE i.run_id = r.run_id), ' ') FROM run r JOIN job j USING (run_id)")" \
    "top:finished:3 top2:finished:3" "include across folders: each file's data beside it, from any current directory"
report
