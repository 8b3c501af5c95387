#!/bin/sh
# cli_llm.sh -- LLM serving as a user meets it: the Azure LLM traces
# replayed with service = llm(...) (every row a request, its own tokens
# used), a model that does not fit its pool's GPUs refused before any
# event with the memory breakdown and what would fit, an unknown model's
# "did you mean", the llm keys refused where they do not apply, and the
# TTFT/TPOT/token columns in the latency and pool tables and compare.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/llm.db"
S="$SRCDIR/traces/sample"
CONV="$SRCDIR/scenarios/llm-azure-conv.ini"

# rows of a trace and the sums of its token columns, by awk
# refused NAME FRAGMENT: $TMP/NAME.ini is refused at the memory fit (when
# the world is built, after the database was opened): bad_run's checks, no
# database file left behind; and an existing database is kept as it was.
refused() {
    rm -f "$TMP/bad.db"
    bad_run "$@"
    cp "$DB" "$TMP/kept.db"
    expect_exit 1 "$1 into an existing database" -- "$FLEETSIM" run "$TMP/$1.ini" --db "$TMP/kept.db" --quiet
    checks=$((checks + 1))
    cmp -s "$DB" "$TMP/kept.db" || fail "$1 changed an existing database"
}
rows() { awk 'END { print NR - 1 }' "$1"; }
sum_col() { awk -F, -v c="$2" 'NR > 1 { s += $c } END { printf "%d\n", s }' "$1"; }

# ---- (c) the whole conversation and code traces: every row a request ------
for t in conv code; do
    f="$S/AzureLLMInferenceTrace_$t.csv"
    expect_exit 0 "azure $t replayed with llm" -- "$FLEETSIM" run "$CONV" --db "$DB" \
        --name "az-$t" --set scenario.horizon=3h --set pool.a100.count=3 \
        --set "workload.chat.arrivals=trace($f, format=azure-llm)" --quiet
    got=$(sql "$DB" "SELECT arrivals || ' ' || count || ' ' || dropped || ' ' || unfinished || ' ' || CAST(tokens_in AS INTEGER) || ' ' || CAST(tokens_out AS INTEGER) FROM latency l JOIN run r USING (run_id) WHERE r.name = 'az-$t'")
    # a row longer than llama-3-8b's 8192-token context (prompt and
    # output) is dropped, as vLLM refuses it: the conversation trace has
    # one (14050 prompt tokens), the code trace none
    over=$(awk -F, 'NR > 1 && $2 + $3 > 8192 { n++ } END { print n + 0 }' "$f")
    fit_in=$(awk -F, 'NR > 1 && $2 + $3 <= 8192 { s += $2 } END { printf "%d\n", s }' "$f")
    fit_out=$(awk -F, 'NR > 1 && $2 + $3 <= 8192 { s += $3 } END { printf "%d\n", s }' "$f")
    want="$(rows "$f") $(($(rows "$f") - over)) $over 0 $fit_in $fit_out"
    expect_eq "$got" "$want" "azure $t: every row within the context served, the longer dropped, their tokens counted (arrivals, served, dropped, unfinished, tokens in, out)"
    expect_eq "$(sql "$DB" "SELECT CAST(p.tokens_out AS INTEGER) = CAST(l.tokens_out AS INTEGER) FROM pool p JOIN latency l USING (run_id) JOIN run r USING (run_id) WHERE r.name = 'az-$t'")" "1" "azure $t: the pool served them all"
done
# TTFT/TPOT filled, ordered, and the objectives' attainment a share
expect_eq "$(sql "$DB" "SELECT ttft_p50_s > 0 AND ttft_p90_s >= ttft_p50_s AND ttft_p99_s >= ttft_p90_s AND tpot_p50_s > 0 AND tpot_p90_s >= tpot_p50_s AND tpot_p99_s >= tpot_p90_s AND slo_ttft_attainment BETWEEN 0 AND 1 AND slo_tpot_attainment BETWEEN 0 AND 1 FROM latency l JOIN run r USING (run_id) WHERE r.name = 'az-conv'")" "1" "TTFT/TPOT columns filled"
# cost per million output tokens: the run's bill over its output tokens
expect_eq "$(sql "$DB" "SELECT abs(l.cost_per_mtok_out_usd - (SELECT sum(cost_usd) FROM cost_monthly c WHERE c.run_id = r.run_id) * 1e6 / l.tokens_out) < 1e-9 FROM latency l JOIN run r USING (run_id) WHERE r.name = 'az-conv'")" "1" "cost per million output tokens = bill / output tokens"
expect_eq "$(sql "$DB" "SELECT abs(s.cost_per_mtok_out_usd - l.cost_per_mtok_out_usd) < 1e-9 FROM run_summary s JOIN latency l USING (run_id) WHERE s.name = 'az-conv'")" "1" "run_summary: cost per million output tokens"
expect_exit 0 "compare shows the llm columns" -- "$FLEETSIM" compare --db "$DB" az-conv az-code
expect_in "$TMP/out" "cost per million output tokens" "compare: cost per million output tokens"
expect_in "$TMP/out" "TTFT p99" "compare: TTFT p99"
# a workload that is not an llm keeps the columns NULL
good >"$TMP/plain.ini"
expect_exit 0 "a plain workload" -- "$FLEETSIM" run "$TMP/plain.ini" --db "$DB" --quiet
expect_eq "$(sql "$DB" "SELECT count(*) FROM latency l JOIN run r USING (run_id) WHERE r.name = 'good' AND ttft_p50_s IS NULL AND tokens_out IS NULL AND cost_per_mtok_usd IS NULL")" "1" "plain workload: llm columns NULL"

# ---- case 2 at the token level: 4 A100s one at a time vs 1 batching -----
for f in before after; do
    expect_exit 0 "case2-llm-$f" -- "$FLEETSIM" run "$SRCDIR/scenarios/case2-llm-$f.ini" --db "$DB" --quiet
done
q() { sql "$DB" "SELECT $1 FROM run_summary s JOIN latency l USING (run_id) WHERE s.name = 'case2-llm-$2'"; }
# the same requests (common random numbers), a quarter of the bill
expect_eq "$(q l.arrivals before)" "$(q l.arrivals after)" "case 2: the same arrivals"
expect_eq "$(q s.cost_per_month_usd before) $(q s.cost_per_month_usd after)" "10725.16 2681.29" "case 2: 4 x \$3.673/h vs 1 x, 730-hour run rate (3.673 x 730 = 2681.29, from the unrounded cost)"
expect_eq "$(q "s.utilization < 0.5" before) $(q "s.utilization > 0.7" after)" "1 1" "case 2: utilization about 37% -> 78%"
# batching cuts the wait for a GPU (TTFT) and costs a little TPOT
expect_eq "$(q "l.ttft_p99_s" after | awk -v b="$(q l.ttft_p99_s before)" '{ print ($1 < b / 2) }')" "1" "case 2: TTFT p99 down more than 2x"
expect_eq "$(q "l.tpot_p50_s" after | awk -v b="$(q l.tpot_p50_s before)" '{ print ($1 > b && $1 < 1.2 * b) }')" "1" "case 2: TPOT p50 up less than 20%"
expect_eq "$(q "l.mean_batch_size" before)" "1.0" "case 2: one at a time before"
# the figures doc/cases.md's table and the scenario's comment quote
expect_eq "$(q "printf('%.0f %.1f', l.ttft_p99_s * 1000, l.tpot_p50_s * 1000)" before) $(q "printf('%.0f %.1f', l.ttft_p99_s * 1000, l.tpot_p50_s * 1000)" after)" "420 10.9 163 11.8" "case 2: TTFT p99 420 -> 163 ms, TPOT p50 10.9 -> 11.8 ms"

# ---- per pool: TTFT, TPOT and end to end over all the pool serves ----------
# one workload on a pool: the pool's quantiles are its workload's
expect_eq "$(sql "$DB" "SELECT p.ttft_p50_s = l.ttft_p50_s AND p.ttft_p99_s = l.ttft_p99_s AND p.tpot_p50_s = l.tpot_p50_s AND p.tpot_p99_s = l.tpot_p99_s AND p.e2e_p50_s = l.p50_s AND p.e2e_p99_s = l.p99_s FROM pool p JOIN latency l USING (run_id) JOIN run r USING (run_id) WHERE r.name = 'case2-llm-after'")" "1" "pool latency = its only workload's"
expect_eq "$(sql "$DB" "SELECT p.ttft_p90_s = l.ttft_p90_s AND p.tpot_p90_s = l.tpot_p90_s AND p.e2e_p90_s = l.p90_s AND abs(p.ttft_mean_s - l.ttft_mean_s) <= 1e-9 * l.ttft_mean_s AND abs(p.tpot_mean_s - l.tpot_mean_s) <= 1e-9 * l.tpot_mean_s AND abs(p.e2e_mean_s - l.mean_s) <= 1e-9 * l.mean_s FROM pool p JOIN latency l USING (run_id) JOIN run r USING (run_id) WHERE r.name = 'case2-llm-after'")" "1" "pool p90 and mean = its only workload's"
cat >"$TMP/two.ini" <<'INI'
[scenario]
name = two
horizon = 20m
[pool.a100]
gpu = A100-80GB
price = 3.00
count = 2
[pool.cpu]
gpu = L4
price = 1.00
[workload.short]
pools = a100
arrivals = poisson(rate=3/s)
service = llm(model=llama-3-8b)
tokens_in = const(200)
tokens_out = const(20)
[workload.long]
pools = a100
arrivals = poisson(rate=1/s)
service = llm(model=llama-3-8b)
tokens_in = const(3000)
tokens_out = const(300)
[workload.plain]
pools = cpu
arrivals = poisson(rate=1/s)
service = exponential(mean=100ms)
INI
expect_exit 0 "two llm workloads on one pool" -- "$FLEETSIM" run "$TMP/two.ini" --db "$TMP/two.db" --quiet
# the pool's quantiles lie between its two workloads' (a mixture's do)
for c in ttft_p50_s ttft_p99_s tpot_p50_s e2e_p50_s; do
    l=$(echo "$c" | sed 's/^e2e_//')
    expect_eq "$(sql "$TMP/two.db" "SELECT p.$c BETWEEN min(l.$l) * 0.99 AND max(l.$l) * 1.01 AND min(l.$l) < max(l.$l) FROM pool p, latency l WHERE p.pool = 'a100' AND l.workload IN ('short', 'long')")" "1" "pool $c between its workloads'"
done
expect_eq "$(sql "$TMP/two.db" "SELECT count(*) FROM pool WHERE pool = 'cpu' AND ttft_p50_s IS NULL AND tpot_p99_s IS NULL AND e2e_p99_s IS NULL")" "1" "a pool with no llm: NULL"
expect_exit 0 "compare json: the pools' TTFT" -- "$FLEETSIM" compare --db "$TMP/two.db" two --format json
expect_in "$TMP/out" '"e2e_p99_s":null,"ttft_p90_s":null,"tpot_p90_s":null,"e2e_p90_s":null,"ttft_mean_s":null,"tpot_mean_s":null,"e2e_mean_s":null,"cold_starts":null,"load_s":null,"energy_kwh":' "compare json: pools[]' TTFT/TPOT/end-to-end (NULL for a pool with no llm)"
expect_in "$TMP/out" '"ttft_p50_s":0.6' "compare json: pools[].ttft_p50_s"
expect_exit 0 "run prints the pool's latency" -- "$FLEETSIM" run "$TMP/two.ini" --db "$TMP/two.db"
expect_in "$TMP/out" "TTFT p50" "run: the pool's TTFT line"
expect_in "$TMP/out" "end to end p50" "run: the pool's end-to-end"

# the event estimate counts the servers' iterations (upper bound: one per
# output token, or every server iterating alone): refused at --max-events
expect_exit 1 "llm run over --max-events" -- "$FLEETSIM" run "$CONV" --db "$TMP/est.db" --max-events 100000
expect_in "$TMP/err" "llm-azure-conv.ini:32: workload.chat.service: this run would take about" "estimate: at the service key"
expect_in "$TMP/err" "LLM server iterations" "estimate: iterations named"
checks=$((checks + 1)); [ ! -e "$TMP/est.db" ] || fail "a run refused at the estimate left a database"

# ---- tokens_in = empirical(FILE): a sample of token counts ----------------
mkdir -p "$TMP/emp"
printf 'tokens\n100\n300\n' >"$TMP/emp/in.csv"
printf '20\n' >"$TMP/emp/out.csv"
cat >"$TMP/emp/emp.ini" <<'INI'
[scenario]
name = emp
horizon = 10m
[pool.a100]
gpu = A100-80GB
price = 3.00
[workload.chat]
pools = a100
arrivals = poisson(rate=2/s)
service = llm(model=llama-3-8b)
tokens_in = empirical(in.csv)
tokens_out = empirical(out.csv)
INI
expect_exit 0 "tokens from empirical(FILE), relative to the scenario" -- "$FLEETSIM" run "$TMP/emp/emp.ini" --db "$TMP/emp.db" --quiet
# every request 100 or 300 prompt tokens (about half each), 20 out
expect_eq "$(sql "$TMP/emp.db" "SELECT tokens_out = 20.0 * count AND abs(tokens_in / count - 200) < 10 FROM latency")" "1" "empirical tokens: 20 out each, 200 in on average"
printf 'tokens\n100\nmany\n' >"$TMP/emp/in.csv"
expect_exit 1 "a bad empirical file" -- "$FLEETSIM" run "$TMP/emp/emp.ini" --db "$TMP/emp2.db" --quiet
expect_in "$TMP/err" "emp.ini:11: workload.chat.tokens_in: $TMP/emp/in.csv:3: 'many' is not a number of tokens" "empirical: the scenario's line and the file's"
checks=$((checks + 1)); [ ! -e "$TMP/emp2.db" ] || fail "a bad empirical file left a database"

# ---- (d) a model that does not fit is refused before any event ------------
cat >"$TMP/big.ini" <<'INI'
[scenario]
name = big
horizon = 1h
[pool.a100]
gpu = A100-80GB
price = 3.00
count = 1
[workload.chat]
pools = a100
arrivals = poisson(rate=1/s)
service = llm(model=llama-2-70b, precision=bf16)
tokens_in = const(1000)
tokens_out = const(100)
INI
rm -f "$TMP/bad.db"
refused big "big.ini:11: workload.chat.service: llama-2-70b bf16 does not fit pool a100's 1 x A100-80GB (tp=1): weights 138.0 GB"
expect_in "$TMP/err" "> 85.0 GB; fits with tp=2 bf16 (instances of 2 GPUs), tp=1 fp8, tp=1 int8, tp=1 int4" "refusal: the breakdown against the GPU, and each precision at the least tp that fits"
# on an 8-GPU instance it says tp=2 fits there; and tp=2 runs there
sed 's/^gpu = A100-80GB$/instance = aws:p4de.24xlarge/; /^price/d' "$TMP/big.ini" >"$TMP/big8.ini"
refused big8 "fits with tp=2 bf16, tp=1 fp8"
# with replications run by worker processes (-j 2), the parent removes the
# file once its workers are done
rm -f "$TMP/bad.db"
expect_exit 1 "refused with -j 2" -- "$FLEETSIM" run "$TMP/big8.ini" --set scenario.replications=2 -j 2 --db "$TMP/bad.db" --quiet
checks=$((checks + 1)); [ ! -e "$TMP/bad.db" ] || fail "a refusal with -j 2 left a database"
sed 's/precision=bf16)/precision=bf16, tp=2)/' "$TMP/big8.ini" >"$TMP/tp2.ini"
expect_exit 0 "llama-2-70b bf16 tp=2 runs" -- "$FLEETSIM" run "$TMP/tp2.ini" --db "$DB" --quiet
sed 's/precision=bf16)/precision=int4)/' "$TMP/big.ini" >"$TMP/int4.ini"
expect_exit 0 "llama-2-70b int4 runs on one A100" -- "$FLEETSIM" run "$TMP/int4.ini" --db "$DB" --quiet

# ---- a mixture of experts with expert parallelism (llm(..., ep=N)) ------
# DeepSeek-V3 at fp8 on one 8 x H200 instance: tp=8 ep=8 and tp=1 ep=8 (8
# attention copies) serve, each replica the instance's 8 GPUs; ep on a
# dense model is refused at the key
cat >"$TMP/ds.ini" <<'INI'
[scenario]
name = ds
horizon = 10m
[pool.h200]
instance = aws:p5en.48xlarge
count = 1
[workload.chat]
pools = h200
arrivals = poisson(rate=2/s)
service = llm(model=deepseek-v3, precision=fp8, tp=8, ep=8)
tokens_in = const(1000)
tokens_out = const(100)
INI
expect_exit 0 "deepseek-v3 tp=8 ep=8 serves" -- "$FLEETSIM" run "$TMP/ds.ini" --db "$TMP/ds.db" --quiet
sed 's/tp=8, ep=8/tp=1, ep=8/' "$TMP/ds.ini" >"$TMP/ds1.ini"
expect_exit 0 "deepseek-v3 tp=1 ep=8 serves" -- "$FLEETSIM" run "$TMP/ds1.ini" --db "$TMP/ds.db" --quiet
expect_eq "$(sql "$TMP/ds.db" "SELECT count(*) FROM latency WHERE count > 1000 AND tokens_out = 100.0 * count")" "2" "both EP layouts serve every request"
sed 's/deepseek-v3, precision=fp8, tp=8, ep=8/llama-3-8b, ep=2/' "$TMP/ds.ini" >"$TMP/dsbad.ini"
rm -f "$TMP/bad.db"
expect_exit 1 "ep on a dense model" -- "$FLEETSIM" run "$TMP/dsbad.ini" --db "$TMP/bad.db" --quiet
expect_in "$TMP/err" "dsbad.ini:10: workload.chat.service: llm(): ep=2 spreads a mixture of experts' experts over GPUs, but llama-3-8b has none" "ep refused for a dense model, at the key"
sed 's/tp=8, ep=8/ep=6/' "$TMP/ds.ini" >"$TMP/dsbad.ini"
expect_exit 1 "ep=6" -- "$FLEETSIM" run "$TMP/dsbad.ini" --db "$TMP/bad.db" --quiet
expect_in "$TMP/err" "ep must be 1, 2, 4 or 8, got 6" "ep: a power of two"

# ---- a user's own model: models = FILE, looked up before the catalog's ----
head -1 "$SRCDIR/models/catalog/models.csv" >"$TMP/my.csv"
grep '^llama-3-8b,' "$SRCDIR/models/catalog/models.csv" | sed 's/^llama-3-8b,/my-8b,/' >>"$TMP/my.csv"
sed 's/^horizon = 1h$/horizon = 10m\nmodels = my.csv/; s/model=llama-2-70b, precision=bf16/model=my-8b, precision=bf16/' "$TMP/big.ini" >"$TMP/mine.ini"
expect_exit 0 "models = FILE: a user's model" -- "$FLEETSIM" run "$TMP/mine.ini" --db "$TMP/mine.db" --quiet
expect_eq "$(sql "$TMP/mine.db" "SELECT count > 0 AND tokens_out = 100.0 * count FROM latency")" "1" "a user's model serves"
# the same shape as the catalog's llama-3-8b: the same run
sed 's/model=my-8b/model=llama-3-8b/' "$TMP/mine.ini" >"$TMP/cat.ini"
expect_exit 0 "the catalog's model" -- "$FLEETSIM" run "$TMP/cat.ini" --db "$TMP/mine.db" --quiet
expect_eq "$(sql "$TMP/mine.db" "SELECT count(DISTINCT mean_s || ttft_p99_s || tpot_p99_s) FROM latency")" "1" "a user's copy of a catalog model gives the same figures"
printf 'broken,1,2\n' >>"$TMP/my.csv"
rm -f "$TMP/bad.db"
expect_exit 1 "a malformed models file" -- "$FLEETSIM" run "$TMP/mine.ini" --db "$TMP/bad.db" --quiet
expect_in "$TMP/err" "my.csv:3" "models file: the bad row's line"
expect_in "$TMP/err" "scenario.models" "models file: the key"

# ---- doc/cases.md's "Which GPU for an LLM": the sweep's conclusion, pinned
# (the command of doc/cases.md and scenarios/llm-gpu-choice.ini; the figures
# the page quotes, at its rounding)
expect_exit 0 "llm-gpu-choice sweep" -- "$FLEETSIM" sweep "$SRCDIR/scenarios/llm-gpu-choice.ini" --db "$TMP/choice.db" --quiet \
    --vary pool.gpu.instance=azure:Standard_NC24ads_A100_v4,aws:p5.4xlarge,aws:g6e.xlarge \
    --vary pool.gpu.count=2,4,6,8
ch() { sql "$TMP/choice.db" "SELECT $1 FROM run_summary WHERE name = 'llm-gpu-choice[instance=$2,count=$3]'"; }
expect_eq "$(sql "$TMP/choice.db" "SELECT name, cost_per_month_usd FROM run_summary WHERE name LIKE 'llm-gpu-choice[%' AND ttft_p99_s <= 0.5 AND tpot_p99_s <= 0.05 ORDER BY cost_per_month_usd LIMIT 1")" \
    "llm-gpu-choice[instance=aws:p5.4xlarge,count=2]|10044.8" "cheapest meeting TTFT p99 500 ms and TPOT p99 50 ms: two H100s"
expect_eq "$(ch "printf('%.2f %.0f', ttft_p99_s, tpot_p99_s * 1000)" aws:p5.4xlarge 2)" "0.19 17" "two H100s: TTFT p99 0.19 s, TPOT p99 17 ms"
expect_eq "$(ch "printf('%.1f %.3f', cost_per_month_usd, ttft_p99_s)" azure:Standard_NC24ads_A100_v4 4)" "10725.2 0.510" "four A100s, at more than two H100s, just miss TTFT"
expect_eq "$(ch "printf('%.1f %d', cost_per_month_usd, ttft_p99_s <= 0.5 AND tpot_p99_s <= 0.05)" azure:Standard_NC24ads_A100_v4 6)" "16087.7 1" "six A100s meet both"
expect_eq "$(ch "printf('%.1f', tpot_p99_s * 1000)" aws:g6e.xlarge 6)" "53.3" "six L40S miss TPOT"
expect_eq "$(ch "printf('%.1f %d', cost_per_month_usd, ttft_p99_s <= 0.5 AND tpot_p99_s <= 0.05)" aws:g6e.xlarge 8)" "10868.2 1" "eight L40S meet both, dearer"

# ---- model = custom(...): a user's model in the scenario itself ------------
sed 's/model=my-8b, precision=bf16)/model=custom, precision=bf16)\nmodel = custom(params_b=8.03, layers=32, hidden=4096, heads=32, kv_heads=8, head_dim=128, ffn=14336, vocab=128256, max_context=8192)/; /^models = /d' "$TMP/mine.ini" >"$TMP/custom.ini"
expect_exit 0 "model = custom(...)" -- "$FLEETSIM" run "$TMP/custom.ini" --db "$TMP/mine.db" --quiet
expect_eq "$(sql "$TMP/mine.db" "SELECT count(DISTINCT mean_s || ttft_p99_s || tpot_p99_s) FROM latency")" "1" "custom(...) with llama-3-8b's shape gives the catalog model's figures"
sed 's/heads=32, kv_heads=8/heads=32, kv_heads=7/' "$TMP/custom.ini" >"$TMP/custkv.ini"
bad_run custkv "custkv.ini:12: workload.chat.model: custom(): 32 heads are not a multiple of 7 KV heads"
sed 's/, max_context=8192)/)/' "$TMP/custom.ini" >"$TMP/custmiss.ini"
bad_run custmiss "custmiss.ini:12: workload.chat.model: custom(): a model needs name, params_b, layers"
sed 's/layers=32/layers=3.5/' "$TMP/custom.ini" >"$TMP/custnum.ini"
bad_run custnum "workload.chat.model: custom(): layers: '3.5': expected a whole number"
sed 's/layers=32/layer=32/' "$TMP/custom.ini" >"$TMP/custkey.ini"
bad_run custkey "workload.chat.model: custom(): layer: unknown model column 'layer'"
# objectives and efficiencies: positive, each refused at its own key
{ cat "$TMP/custom.ini"; echo "slo_ttft = 0s"; } >"$TMP/sloz.ini"
bad_run sloz "workload.chat.slo_ttft: must be longer than 0s"
{ cat "$TMP/custom.ini"; echo "slo_tpot = abc"; } >"$TMP/slobad.ini"
bad_run slobad "workload.chat.slo_tpot: expected a duration"
sed 's/^\(\[pool\.[^]]*\]\)$/\1\nmfu = 0/' "$TMP/custom.ini" >"$TMP/mfuz.ini"
bad_run mfuz ".mfu: must be above 0"
sed 's/^\(\[pool\.[^]]*\]\)$/\1\nbw_efficiency = 1.5/' "$TMP/custom.ini" >"$TMP/bwbad.ini"
bad_run bwbad ".bw_efficiency: "
sed '/^model = /d' "$TMP/custom.ini" >"$TMP/custnone.ini"
bad_run custnone "custnone.ini:11: workload.chat.service: llm(model=custom) needs the workload's model = custom("
sed 's/model=custom,/model=llama-3-8b,/' "$TMP/custom.ini" >"$TMP/custnot.ini"
bad_run custnot "custnot.ini:12: workload.chat.model: on a workload serving an llm, model = custom(...) gives the shape of llm(model=custom)"
# a 70B-shaped custom model is refused at the fit like the catalog's
sed 's/params_b=8.03, layers=32, hidden=4096, heads=32, kv_heads=8, head_dim=128, ffn=14336/params_b=69, layers=80, hidden=8192, heads=64, kv_heads=8, head_dim=128, ffn=28672/' "$TMP/custom.ini" >"$TMP/cust70.ini"
bad_run cust70 "workload.chat.service: custom bf16 does not fit pool a100's 1 x A100-80GB (tp=1): weights 138.0 GB"

# ---- what a user mistypes ------------------------------------------------
rm -f "$TMP/bad.db"
sed 's/model=llama-2-70b/model=llama-2-70/' "$TMP/big.ini" >"$TMP/typo.ini"
bad_run typo "typo.ini:11: workload.chat.service: llm(): unknown model 'llama-2-70' (did you mean 'llama-2-70b'?"
sed 's/precision=bf16)/precision=bf16, tp=3)/' "$TMP/big.ini" >"$TMP/tp3.ini"
bad_run tp3 "tp must be 1, 2, 4 or 8"
sed 's/precision=bf16)/precision=int4, tp=2)/' "$TMP/big.ini" >"$TMP/tp2on1.ini"
bad_run tp2on1 "tp=2 needs instances of a multiple of 2 GPUs; pool a100's have 1"
printf 'tokens_in = const(10)\n' >>"$TMP/plain.ini"
bad_run plain "workload.w.tokens_in: applies to workloads with service = llm(...) only"
sed 's/^tokens_out = .*/tokens_out = often/' "$TMP/int4.ini" >"$TMP/tokbad.ini"
bad_run tokbad "tokbad.ini:13: workload.chat.tokens_out:"
printf 'slo_ttft = -1s\n' >>"$TMP/int4.ini"
bad_run int4 "workload.chat.slo_ttft:"
# ---- autoscale = utilization on llm servers: refused with the advice.  A
# continuous-batching server is busy whenever it holds one request, so the
# pool would sit at max at any load; queue(target=N) is what scales it.
sed 's/^count = .*/autoscale = utilization(target=70%)\nmin = 1\nmax = 16/' "$CONV" >"$TMP/llm-util.ini"
line=$(grep -n '^autoscale = utilization' "$TMP/llm-util.ini" | cut -d: -f1)
expect_exit 1 "llm pool on utilization" -- "$FLEETSIM" run "$TMP/llm-util.ini" --db "$TMP/util.db" --quiet
expect_one_line "llm pool on utilization"
expect_in "$TMP/err" "llm-util.ini:$line: pool.a100.autoscale: utilization cannot scale a pool of llm servers" "refused at file:line:key"
expect_in "$TMP/err" "use queue(target=N)" "with the advice"
report
