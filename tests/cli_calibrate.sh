#!/bin/sh
# cli_calibrate.sh -- `fleetsim calibrate`: reading each format, the fit's
# report, the profile it writes, and its refusals.
#
# Three points of a published vLLM sweep on an L4 (tests/data/calibrate/
# doc/llm.md) are fitted: every parameter is printed with its standard
# error, every figure with its residual and leave-one-out error, and the
# profile's row carries the printed fit.  All five formats are read in one
# call, a CSV row of another GPU skipped and counted.  A file missing a key
# names file and key and exits 1 with nothing written; usage errors exit 2.
. "$(dirname "$0")/cli_lib.sh"
D="$SRCDIR/tests/data/calibrate"
M="--models $D/models.csv --model qwen2.5-0.5b --gpu L4"

grep -e '^model' -e ',128,1,27.0' -e ',128,8,60.9' -e ',128,32,135.3' "$D/l4_published.csv" >"$TMP/three.csv"
expect_exit 0 "calibrate three points" -- "$FLEETSIM" calibrate "$TMP/three.csv" $M --out "$TMP/profile.csv"
cp "$TMP/out" "$TMP/three.out"
expect_in "$TMP/three.out" "calibrate: qwen2.5-0.5b on L4, bf16, TP 1, vllm: 3 runs, 9 figures from 1 file" "the heading"
for p in mfu decode_frac bw_efficiency step_ms prefill_ms request_ms; do
    expect_in "$TMP/three.out" "$p " "parameter $p printed"
done
checks=$((checks + 1))
[ "$(grep -c 'clients' "$TMP/three.out")" = 9 ] || fail "a line for each of the 9 figures"
expect_in "$TMP/three.out" "leave-one-out: median |error|" "leave-one-out summary"
expect_in "$TMP/three.out" "calibrated 3 runs in" "the time taken"
expect_in "$TMP/three.out" "profile written to $TMP/profile.csv" "--out reported"

# the profile: engines.csv's header, one row for the L4's generation, whose
# mfu is the one printed (to its 4 printed digits)
checks=$((checks + 1))
head -1 "$TMP/profile.csv" | grep -qx 'engine,version,current,generation,mfu,decode_fraction,bw_efficiency,step_s,layer_s,prefill_s,pad_tokens,tp_step_growth,tp_pad_growth,allreduce_s,memory_utilization,kv_free_fraction,runtime_gb,tp_runtime_gb,cuda_graph_gb,max_num_batched_tokens,max_num_seqs,replicated_embedding,chunked_prefill,block_size,prefix_cache,request_s,output_lag,startup_s,moe_fp8,moe_efficiency,allreduce_held,source' ||
    fail "profile header: $(head -1 "$TMP/profile.csv")"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/profile.csv")" = 2 ] || fail "profile: one row"
checks=$((checks + 1))
grep -q '^vllm,calibrated,yes,ada,' "$TMP/profile.csv" || fail "profile row: $(sed -n 2p "$TMP/profile.csv")"
checks=$((checks + 1))
printed=$(awk '$1 == "mfu" { print $3 }' "$TMP/three.out")
written=$(awk -F, 'NR == 2 { printf "%.4g", $5 }' "$TMP/profile.csv")
[ "$printed" = "$written" ] || fail "mfu printed $printed, written $written"

# the profile as a scenario uses it: a pool's llm_profile = FILE and the
# workload's llm(..., profile = FILE) give the same figures, not the
# catalog's vllm
cat >"$TMP/base.ini" <<'INI'
[scenario]
name = cal
horizon = 10m
seed = 3
[pool.l4]
gpu = L4
price = 0.80
count = 1
[workload.chat]
pools = l4
arrivals = poisson(rate=1/s)
service = llm(model=llama-3-8b, precision=bf16)
tokens_in = const(256)
tokens_out = const(128)
INI
lat() { sqlite3 -batch -noheader "$1" "SELECT printf('%.17g %.17g', ttft_p50_s, tpot_p50_s) FROM latency WHERE workload = 'chat'"; }
cp "$TMP/profile.csv" "$TMP/cal.csv"
sed 's/^\[pool\.l4\]$/[pool.l4]\nllm_profile = cal.csv/' "$TMP/base.ini" >"$TMP/pool.ini"
sed 's/precision=bf16)/precision=bf16, profile=cal.csv)/' "$TMP/base.ini" >"$TMP/wl.ini"
expect_exit 0 "catalog vllm" -- "$FLEETSIM" run "$TMP/base.ini" --db "$TMP/a.db" --quiet
expect_exit 0 "llm_profile = calibrated" -- "$FLEETSIM" run "$TMP/pool.ini" --db "$TMP/b.db" --quiet
expect_exit 0 "profile = calibrated" -- "$FLEETSIM" run "$TMP/wl.ini" --db "$TMP/c.db" --quiet
expect_eq "$(lat "$TMP/b.db")" "$(lat "$TMP/c.db")" "the pool's and the workload's profile agree"
checks=$((checks + 1))
[ "$(lat "$TMP/b.db")" != "$(lat "$TMP/a.db")" ] || fail "the calibrated profile gives the catalog's figures"

# every format at once; the A10G row of runs.csv is skipped
expect_exit 0 "all formats" -- "$FLEETSIM" calibrate "$D/vllm_c8.json" "$D/vllm_rate4.json" \
    "$D/genai_perf.json" "$D/guidellm.json" "$D/inference_perf.json" "$D/runs.csv" $M
expect_in "$TMP/out" "13 runs, 37 figures from 6 files (1 runs of other configurations skipped)" "runs counted"
expect_in "$TMP/out" "guidellm.json: benchmarks[1]" "a GuideLLM benchmark named"
expect_in "$TMP/out" "2 req/s" "inference-perf's rate"
expect_in "$TMP/out" "2.5 req/s" "a CSV rate"

# --format names the reader of every file; --fit a subset
expect_exit 0 "--format and --fit" -- "$FLEETSIM" calibrate "$D/genai_perf.json" $M \
    --format genai-perf --fit mfu,request_ms
expect_in "$TMP/out" "bw_efficiency        0.75       held" "a parameter not in --fit held"
expect_exit 1 "--format of another tool" -- "$FLEETSIM" calibrate "$D/genai_perf.json" $M --format vllm
expect_in "$TMP/err" "genai_perf.json: request_rate: missing (nor max_concurrency)" "read as vLLM's"

# refusals: the file and key named, nothing written
rm -f "$TMP/p2.csv"
expect_exit 1 "missing key" -- "$FLEETSIM" calibrate "$D/bad_missing.json" $M --out "$TMP/p2.csv"
expect_in "$TMP/err" "bad_missing.json: output_lens: missing" "file and key named"
checks=$((checks + 1))
[ ! -e "$TMP/p2.csv" ] || fail "a profile written after an error"
expect_exit 1 "not a number" -- "$FLEETSIM" calibrate "$D/bad_number.json" $M
expect_in "$TMP/err" "bad_number.json: time_to_first_token.avg: expected a number" "bad number named"
expect_exit 1 "bad load" -- "$FLEETSIM" calibrate "$D/bad_load.csv" $M
expect_in "$TMP/err" "bad_load.csv:3: concurrency_or_rate: 'fast'" "CSV line and column named"
expect_exit 1 "bad JSON" -- "$FLEETSIM" calibrate "$D/bad_syntax.json" $M
expect_in "$TMP/err" "bad_syntax.json:1: not valid JSON" "JSON syntax error with its line"
expect_exit 1 "no file" -- "$FLEETSIM" calibrate "$TMP/none.json" $M
expect_in "$TMP/err" "none.json: cannot open" "missing file"
expect_exit 1 "too few figures" -- "$FLEETSIM" calibrate "$D/vllm_rate4.json" $M
expect_in "$TMP/err" "3 measured figures cannot set 6 parameters" "too few figures"
expect_exit 1 "no run of the configuration" -- "$FLEETSIM" calibrate "$D/runs.csv" $M --tp 2
expect_in "$TMP/err" "no run of qwen2.5-0.5b on L4 (bf16, TP 2)" "nothing of that configuration"
expect_exit 1 "unknown model" -- "$FLEETSIM" calibrate "$D/runs.csv" --model qwen2.5-0.5 --gpu L4
expect_in "$TMP/err" "unknown model 'qwen2.5-0.5'" "unknown model"
expect_exit 2 "no GPU" -- "$FLEETSIM" calibrate "$D/runs.csv" --model qwen2.5-0.5b
expect_exit 2 "bad --fit" -- "$FLEETSIM" calibrate "$D/runs.csv" $M --fit mfu,speed
expect_in "$TMP/err" "--fit 'speed'" "bad --fit named"
expect_exit 2 "bad --format" -- "$FLEETSIM" calibrate "$D/runs.csv" $M --format yaml
expect_exit 2 "unknown --engine" -- "$FLEETSIM" calibrate "$D/runs.csv" $M --engine vlm
expect_in "$TMP/err" "--engine 'vlm': no such profile (did you mean 'vllm'?" "engine suggested"
expect_exit 2 "bad --tp" -- "$FLEETSIM" calibrate "$D/runs.csv" $M --tp 3


# --shared: one row for several deployments of one GPU, as the shipped
# `vllm` Hopper row was fitted (tests/data/vllm-h100-load/calibration.csv,
# the CALIBRATION set of those runs: the 8 "general" stages of four
# deployments; the validation stages are not read here).  Started from
# vllm@0.6's figures (--start) with its decode fraction held and the
# shipped row's other columns (--engine vllm: no growth of the step with
# TP), as test_vllm_load fits it, the written row's five fitted figures are
# the shipped row's (engines.csv rounds them to 3 figures: within 1%).
L="$SRCDIR/tests/data/vllm-h100-load/calibration.csv"
expect_exit 0 "shared fit" -- "$FLEETSIM" calibrate "$L" --shared --gpu H100-80GB --engine vllm \
    --start vllm@0.6 --fit mfu,bw_efficiency,step_ms,prefill_ms,request_ms --out "$TMP/shared.csv"
expect_in "$TMP/out" "calibrate: one vllm row for H100-80GB (hopper), bf16, over 4 deployments: llama-2-70b TP 4 llama-2-7b TP 1 mixtral-8x7b TP 2 codellama-34b TP 2; 8 runs, 24 figures from 1 file" "shared heading"
expect_in "$TMP/out" "mfu                   0.5     0.5982" "started from vllm@0.6's figures"
checks=$((checks + 1))
grep -q '^vllm,calibrated,yes,hopper,' "$TMP/shared.csv" || fail "shared row: $(sed -n 2p "$TMP/shared.csv")"
shipped=$(grep '^vllm,2026-02,yes,hopper,' "$SRCDIR/models/catalog/engines.csv")
# columns: mfu 5, bw_efficiency 7, step_s 8, prefill_s 10, request_s 26
for c in 5 7 8 10 26; do
    checks=$((checks + 1))
    w=$(awk -F, -v c=$c 'NR == 2 { print $c }' "$TMP/shared.csv")
    s=$(echo "$shipped" | cut -d, -f$c)
    awk -v w="$w" -v s="$s" 'BEGIN { d = w / s - 1; exit !(d < 0.01 && d > -0.01) }' ||
        fail "shared fit column $c: $w, shipped $s"
done
expect_exit 2 "--start without --shared" -- "$FLEETSIM" calibrate "$L" --gpu H100-80GB --model llama-2-7b --start vllm@0.6
expect_in "$TMP/err" "--start is for --shared fits" "--start refused without --shared"
expect_exit 2 "unknown --start" -- "$FLEETSIM" calibrate "$L" --shared --gpu H100-80GB --start vlm@0.6
expect_in "$TMP/err" "--start 'vlm@0.6': no such profile for H100-80GB" "--start named"
expect_exit 2 "--shared with --model" -- "$FLEETSIM" calibrate "$L" --shared --gpu H100-80GB --model llama-2-7b
expect_in "$TMP/err" "--shared takes each run's model" "--shared refuses --model"
grep -v '^model' "$D/l4_published.csv" | head -3 | sed 's/^[^,]*,/,/' | { echo "model,gpu,precision,tp,tokens_in,tokens_out,concurrency_or_rate,ttft_ms,tpot_ms,throughput"; cat; } >"$TMP/nomodel.csv"
rm -f "$TMP/p3.csv"
expect_exit 1 "shared run without a model" -- "$FLEETSIM" calibrate "$TMP/nomodel.csv" --shared --gpu L4 --models "$D/models.csv" --out "$TMP/p3.csv"
expect_in "$TMP/err" "nomodel.csv:2: a shared fit needs each run's model and tp" "the run named"
checks=$((checks + 1))
[ ! -e "$TMP/p3.csv" ] || fail "a profile written after a refused shared fit"

report
