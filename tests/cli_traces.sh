#!/bin/sh
# cli_traces.sh -- the real traces in traces/sample replay with every valid
# row counted, and rate_scale / repeat behave as documented.
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
expect_in "$TMP/err" "lora_request_trace.csv" "lora skipped rows reported"
expect_in "$TMP/err" "$((lora_all - lora_ok))" "lora skipped count"
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
report
