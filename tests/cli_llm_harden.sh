#!/bin/sh
# cli_llm_harden.sh -- the LLM serving keys on the inputs issue 26 found
# accepted: prompts beyond the model's context, requests of unknown
# length served as one token, token counts with a time unit, custom
# models whose parameters do not match their shape, malformed models
# files.  Each bad input: exit 1, one message naming file:line:key, no
# database written.
. "${SRCDIR:-$(dirname "$0")/..}/tests/cli_lib.sh"
cd "$TMP" || exit 1

# chat NAME TOKENS-LINES: llama-3-8b (max_context 8192) on one A100 for
# ten minutes, the token keys given as TOKENS-LINES, into NAME.ini.
chat() {
    cat >"$1.ini" <<INI
[scenario]
name = $1
horizon = 10m
seed = 5
[pool.p]
gpu = A100-80GB
count = 1
price = 3
[workload.chat]
pools = p
arrivals = poisson(rate=0.5/s)
service = llm(model=llama-3-8b, precision=bf16, tp=1)
$2
INI
}

# ---- 2. a prompt longer than the context is dropped, as vLLM refuses it;
# a distribution that can only draw such requests is refused at its key
chat over 'tokens_in = const(20000)
tokens_out = const(100)'
bad_run over "over.ini:13: workload.chat.tokens_in: every request would be longer than llama-3-8b's context of 8192 tokens (max_context): prompts of at least 20000 tokens and outputs of at least 100"
chat sum 'tokens_in = const(8100)
tokens_out = const(100)'
bad_run sum "sum.ini:14: workload.chat.tokens_out: every request would be longer than llama-3-8b's context of 8192 tokens"
# 8092 + 100 = 8192 fits exactly
chat edge 'tokens_in = const(8092)
tokens_out = const(100)'
expect_exit 0 "prompt + output = the context" -- "$FLEETSIM" run edge.ini --db edge.db --quiet
expect_eq "$(sql edge.db "SELECT dropped FROM latency")" 0 "8192 tokens are served"
# half the prompts (9000 tokens) are longer than the context: each of
# those is dropped, counted in dropped, and the summary says why; every
# other request is served (one A100 is far from full at 0.5/s)
printf 'tokens\n1000\n9000\n' >half.csv
chat half 'tokens_in = empirical(half.csv)
tokens_out = const(100)'
expect_exit 0 "half the prompts too long" -- "$FLEETSIM" run half.ini --db half.db
expect_in "$TMP/out" "dropped: prompt and output longer than the model's context of 8192 tokens, which vLLM refuses" "the summary says why"
set -- $(sql half.db "SELECT arrivals || ' ' || count || ' ' || dropped || ' ' || unfinished || ' ' || CAST(tokens_in AS INTEGER) FROM latency")
expect_eq "$(($2 + $3 + $4))" "$1" "arrivals = served + dropped + unfinished"
expect_eq "$5" "$(($2 * 1000))" "only 1000-token prompts were served"
checks=$((checks + 1))
# the draws are a fair coin: 9000-token prompts are 50% +- 4.5 sd of the
# ~300 arrivals (sd = sqrt(300 x 0.25) = 8.7)
python3 -c "import sys; a, d = $1, $3; sys.exit(not abs(d - a / 2) <= 4.5 * (a * 0.25) ** 0.5)" ||
    fail "dropped $3 of $1: not about half"
expect_in "$TMP/out" "dropped: see the llm table" "the latency line does not blame queue_max"

# ---- 3. token counts: both keys required unless the trace has the
# column (refused at the service's line, naming the missing key); a time
# unit is refused
chat noin 'tokens_out = const(100)'
bad_run noin "noin.ini:12: workload.chat.tokens_in: llm(): the requests' prompt lengths are unknown: give tokens_in ="
chat noout 'tokens_in = const(100)'
bad_run noout "noout.ini:12: workload.chat.tokens_out: llm(): the requests' output lengths are unknown: give tokens_out ="
chat neither ''
bad_run neither "neither.ini:12: workload.chat.tokens_in: llm(): the requests' prompt lengths are unknown"
chat unit 'tokens_in = const(5s)
tokens_out = const(100)'
bad_run unit "unit.ini:13: workload.chat.tokens_in: const(): value: a number of tokens takes no unit, got '5s'"
chat unit2 'tokens_in = lognormal(mean=2m, sigma=0.5)
tokens_out = const(100)'
bad_run unit2 "unit2.ini:13: workload.chat.tokens_in: lognormal(): mean: a number of tokens takes no unit, got '2m'"
chat unit3 'tokens_in = const(100)
tokens_out = exponential(mean=-5)'
bad_run unit3 "unit3.ini:14: workload.chat.tokens_out: exponential(): mean: a number of tokens must not be negative, got '-5'"
# a generic trace with a tokens_out column and tokens_in drawn: accepted;
# without tokens_in, refused (the trace does not have that column)
printf 'time,out\n0,10\n1,20\n2,30\n' >gen.csv
chat trace_out 'tokens_in = const(100)'
sed -i 's|^arrivals = .*|arrivals = trace(gen.csv, format=generic, time=time, tokens_out=out)|' trace_out.ini
expect_exit 0 "trace's tokens_out, tokens_in drawn" -- "$FLEETSIM" run trace_out.ini --db trace_out.db --quiet
expect_eq "$(sql trace_out.db "SELECT CAST(tokens_in AS INTEGER) || ' ' || CAST(tokens_out AS INTEGER) FROM latency")" "300 60" "tokens: 3 x 100 drawn in, 10 + 20 + 30 from the trace"
chat trace_no ''
sed -i 's|^arrivals = .*|arrivals = trace(gen.csv, format=generic, time=time, tokens_out=out)|' trace_no.ini
bad_run trace_no "trace_no.ini:12: workload.chat.tokens_in: llm(): the requests' prompt lengths are unknown"

# ---- 10. custom models checked against their shape
llama8='layers=32, hidden=4096, heads=32, kv_heads=8, head_dim=128, ffn=14336, vocab=128256, max_context=8192'
custom() {
    chat "$1" "tokens_in = const(500)
tokens_out = const(100)
model = custom($2)"
    sed -i 's/model=llama-3-8b/model=custom/' "$1.ini"
}
custom tiny "params_b=0.001, $llama8"
bad_run tiny "tiny.ini:15: workload.chat.model: custom(): params_b 0.001 is not within a factor of 2 of the 8.03 billion parameters its shape holds"
custom huge "params_b=17, $llama8"
bad_run huge "huge.ini:15: workload.chat.model: custom(): params_b 17 is not within a factor of 2"
custom active "params_b=8.03, active_params_b=9, $llama8"
bad_run active "active.ini:15: workload.chat.model: custom(): active_params_b 9 is larger than params_b 8.03"
# within the factor (tied embeddings: 8.03 - 0.525 = 7.5): accepted
custom tied "params_b=7.5, $llama8"
expect_exit 0 "params_b within the factor" -- "$FLEETSIM" run tied.ini --db tied.db --quiet
# the formula reproduces every catalog model's params_b within 0.1% (with
# one embedding matrix where the model ties them)
checks=$((checks + 1))
python3 - "$SRCDIR/models/catalog/models.csv" <<'PY' || fail "shape formula against models.csv"
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    g = lambda k: int(r[k])
    h, heads, d = g("hidden"), g("heads"), g("head_dim")
    if r["attention"] == "mla":   # DeepSeek's q_a, q_b, kv_a, kv_b and o projections
        ql, kl, rope = g("q_lora_rank"), g("kv_lora_rank"), g("rope_head_dim")
        attn = h * ql + ql * heads * (d + rope) + h * (kl + rope) + kl * heads * 2 * d + heads * d * h
    else:
        attn = 2 * h * heads * d + 2 * h * g("kv_heads") * d
    ffn = 3 * h * g("ffn") * max(g("experts") + g("shared_experts"), 1)
    dense = g("dense_layers")   # leading layers with a dense FFN of dense_ffn
    shape = g("layers") * attn + (g("layers") - dense) * ffn + dense * 3 * h * g("dense_ffn") + 2 * g("vocab") * h
    # tied embeddings (Llama 3.2 1B and 3B): one vocab x hidden matrix
    tied = shape - g("vocab") * h
    if min(abs(float(r["params_b"]) * 1e9 / s - 1) for s in (shape, tied)) > 1e-3:
        sys.exit("%s: params_b %s, shape %.4g" % (r["name"], r["params_b"], shape / 1e9))
PY
# models files: a row with an extra field, a header and no row
hdr='name,params_b,active_params_b,layers,hidden,heads,kv_heads,head_dim,ffn,experts,experts_per_token,vocab,max_context'
printf '%s\nm,8.03,8.03,32,4096,32,8,128,14336,0,0,128256,8192,oops\n' "$hdr" >extra.csv
printf '%s\n' "$hdr" >empty.csv
for f in extra empty; do
    expect_exit 1 "models file $f" -- "$FLEETSIM" fit m --gpu A100-80GB --models $f.csv
    expect_one_line "models file $f"
done
expect_exit 1 "models file extra" -- "$FLEETSIM" fit m --gpu A100-80GB --models extra.csv
expect_in "$TMP/err" "extra.csv:2: 14 fields, but the header has 13" "extra field refused at its line"
expect_exit 1 "models file empty" -- "$FLEETSIM" fit m --gpu A100-80GB --models empty.csv
expect_in "$TMP/err" "empty.csv:1: a header and no row" "header only refused"
chat models 'tokens_in = const(500)
tokens_out = const(100)'
sed -i "s|^name = models|name = models\nmodels = $TMP/extra.csv|" models.ini
sed -i "s|model=llama-3-8b|model=m|" models.ini
bad_run models "models.ini:3: scenario.models: $TMP/extra.csv:2: 14 fields, but the header has 13"

# ---- 4. "fits with": precision x TP (and slice, and GPU) searched
# together, never a precision the GPU cannot run
pool() {
    chat "$1" 'tokens_in = const(500)
tokens_out = const(100)'
    sed -i "s|^gpu = A100-80GB|$2|; s|model=llama-3-8b, precision=bf16|$3|" "$1.ini"
}
# llama-3-70b on an L4 pool: what `fit` lists (tp 8 bf16, tp 4 fp8/int8,
# tp 2 int4), not "no configuration fits"
pool l4 'gpu = L4' 'model=llama-3-70b, precision=bf16'
bad_run l4 "l4.ini:12: workload.chat.service: llama-3-70b bf16 does not fit pool p's 1 x L4 (tp=1): weights 141.1 GB + activations 1.7 GB + overhead 0.1 GB + CUDA graphs 0.5 GB + kept free 1.9 GB = 145.3 GB > 24.0 GB; fits with tp=8 bf16 (instances of 8 GPUs), tp=4 fp8 (instances of 4 GPUs), tp=4 int8 (instances of 4 GPUs), tp=2 int4 (instances of 2 GPUs); a larger GPU: B200 (180 GB)"
expect_exit 0 "fit llama-3-70b on L4" -- "$FLEETSIM" fit llama-3-70b --gpu L4
expect_in "$TMP/out" "Fits on L4 with: tp=8 bf16 (" "fit agrees: tp 8 bf16"
expect_in "$TMP/out" ", tp=4 fp8 (" "fit agrees: tp 4 fp8"
expect_in "$TMP/out" ", tp=2 int4 (" "fit agrees: tp 2 int4"
# and each suggestion runs: tp 2 int4 on instances of two L4s
sed -i 's|^gpu = L4|gpu = L4\ngpus_per_instance = 2|; s|precision=bf16, tp=1|precision=int4, tp=2|' l4.ini
expect_exit 0 "the suggestion runs" -- "$FLEETSIM" run l4.ini --db l4.db --quiet
# a 1g.10gb slice: a larger slice (1g.20gb holds 20 GB, the replica
# needs 18.3 with the vllm profile's reservations) before a larger GPU
pool slice 'gpu = A100-80GB\nmig = 1g.10gb*7' 'model=llama-3-8b, precision=bf16'
printf 'mig_profile = 1g.10gb\n' >>slice.ini
bad_run slice "on a 1g.10gb slice (10.0 GB): weights 16.1 GB + activations 1.1 GB + overhead 0.1 GB + CUDA graphs 0.5 GB + kept free 0.5 GB = 18.3 GB > 10.0 GB; fits with tp=1 int4; a larger slice: 1g.20gb; a larger GPU: H100-NVL (94 GB)"
# a T4 (Turing) runs neither fp8 nor bf16: refused at the key, never
# suggested; fp16 is, with int8 and int4
for p in fp8 bf16; do
    pool t4$p 'gpu = T4' "model=llama-3-8b, precision=$p"
    bad_run t4$p "t4$p.ini:12: workload.chat.service: llm(): precision=$p on pool p: T4 (turing) cannot run $p (it needs compute capability 8.0 or later); fp16, int8 or int4 run there"
done
pool t4kv 'gpu = T4' 'model=llama-3-8b, precision=int4, kv_precision=fp8'
bad_run t4kv "workload.chat.service: llm(): kv_precision=fp8 on pool p: T4 (turing) cannot run fp8"
pool t4fp16 'gpu = T4' 'model=llama-3-8b, precision=fp16'
bad_run t4fp16 "18.9 GB > 15.6 GB; fits with tp=2 fp16 (instances of 2 GPUs), tp=1 int8, tp=1 int4; a larger GPU: L4 (24 GB)"
checks=$((checks + 1))
grep -q 'fp8' "$TMP/err" && fail "fp8 suggested on a T4: $(cat "$TMP/err")"
expect_exit 1 "fit fp8 on T4" -- "$FLEETSIM" fit llama-3-8b --gpu T4 --precision fp8
expect_in "$TMP/err" "fit: --precision fp8: T4 (turing) cannot run fp8" "fit refuses fp8 on a T4"
expect_exit 0 "fit fp8: where" -- "$FLEETSIM" fit llama-3-8b --gpu L4 --precision fp8
checks=$((checks + 1))
grep -qE '^  (T4|V100)' "$TMP/out" && fail "fit lists a GPU that cannot run fp8: $(grep -E '^  (T4|V100)' "$TMP/out")"
expect_in "$TMP/out" "  A100-80GB" "fp8 runs on Ampere (weight-only)"
# plan: an fp8 candidate on a T4 is excluded with the reason, not priced
pool plan 'gpu = L4\nprovider = aws' 'model=llama-3-8b, precision=bf16'
sed -i '/^price = 3/d' plan.ini
expect_exit 0 "plan with a T4 fp8 candidate" -- "$FLEETSIM" plan plan.ini --slo 'ttft_p99<=2s' \
    --gpus T4,L4 --precision fp8 --db plan.db -j 1 --purchase on-demand
expect_in "$TMP/out" "T4 fp8 tp1: precision: T4 (turing) cannot run fp8" "plan excludes fp8 on T4"
expect_eq "$(sql plan.db "SELECT count(*) FROM run WHERE name LIKE 'plan[gpu=T4%'")" 0 "no T4 run stored"

# ---- 12. messages: timeslice's arguments, an empty mig_profile, a MIG
# GPU's near name, the MIG GPUs the catalog had no row for
good | sed 's/^gpu = L4/gpu = A100-80GB\nsharing = timeslice(n=4)/' >"$TMP/tsn.ini"
bad_run tsn "tsn.ini:6: pool.p.sharing: timeslice() takes one argument, the replicas per GPU, e.g. timeslice(4); it has no 'n' (sm_cap is mps()'s)"
good | sed 's/^gpu = L4/gpu = A100-80GB\nsharing = timeslice(4, sm_cap=0.5)/' >"$TMP/tscap.ini"
bad_run tscap "tscap.ini:6: pool.p.sharing: timeslice() takes one argument, the replicas per GPU, e.g. timeslice(4); it has no 'sm_cap' (sm_cap is mps()'s)"
good | sed 's/^gpu = L4/gpu = A100-80GB\nmig = 3g.40gb*2/; s/^service = .*/&\nmig_profile =/' >"$TMP/mpe.ini"
bad_run mpe "mpe.ini:13: workload.w.mig_profile: empty: name a profile of the workload's pools; their layouts: p mig = 3g.40gb*2"
checks=$((checks + 1)); grep -q '  ' "$TMP/err" && fail "double space in: $(cat "$TMP/err")"
expect_exit 1 "catalog mig A100-80G" -- "$FLEETSIM" catalog mig A100-80G
expect_in "$TMP/err" "A100-80G has no MIG profiles (did you mean 'A100-80GB'? fleetsim catalog mig lists the GPUs that do)" "nearest MIG GPU"
expect_exit 1 "catalog mig T4" -- "$FLEETSIM" catalog mig T4
expect_in "$TMP/err" "T4 has no MIG profiles (fleetsim catalog mig lists the GPUs that do)" "no near name for T4"
# every GPU with MIG profiles has a gpus.csv row, and runs cut as mig.csv
# says (the datasheet figures are in gpus.csv's source column and
# SOURCES.md)
for g in $(sql ":memory:" ".mode csv" ".import $SRCDIR/models/catalog/mig.csv m" "SELECT DISTINCT gpu FROM m"); do
    good | sed "s/^gpu = L4/gpu = $g\nmig = balanced/" >"$TMP/mig_$g.ini"
    expect_exit 0 "gpu = $g, mig = balanced" -- "$FLEETSIM" run "$TMP/mig_$g.ini" --db "$TMP/mig.db" --quiet
done
expect_exit 0 "catalog gpus" -- "$FLEETSIM" catalog gpus
expect_in "$TMP/out" "A30             24    23.53       933     165.0" "A30: 24 GB, 933 GB/s, 165 TFLOPS BF16 dense"
expect_in "$TMP/out" "H100-NVL        94        -      3900     835.5" "H100 NVL: 94 GB, 3.9 TB/s, 1671/2 TFLOPS"
expect_in "$TMP/out" "B200           180        -      8000    2250.0" "B200: 180 GB, 8 TB/s, 36 PF/8/2"

# ---- 12. a pool-level error about two workloads named no line: an llm
# workload (continuous batching) and a plain one on the same pool are
# refused at the second one's service line, naming the first
chat mixed "tokens_in = const(500)
tokens_out = const(50)
[workload.batch]
pools = p
arrivals = poisson(rate=0.5/s)
service = exponential(mean=1s)"
bad_run mixed "mixed.ini:18: workload.batch.service: batch servers, but pool p serves workload chat with continuous servers: give each its own pool"

report
