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
# refused NAME FRAGMENT: $TMP/NAME.ini is refused: exit 1, one line on
# stderr containing FRAGMENT, and no run stored.  (Unlike bad_run, the
# database may have been created: the fit is checked when the world is
# built, against its servers' shape, after the database was opened.)
refused() {
    rm -f "$TMP/bad.db"
    expect_exit 1 "$1" -- "$FLEETSIM" run "$TMP/$1.ini" --db "$TMP/bad.db" --quiet
    expect_one_line "$1"
    expect_in "$TMP/err" "$2" "$1"
    checks=$((checks + 1))
    [ "$(sql "$TMP/bad.db" 'SELECT count(*) FROM run' 2>/dev/null || echo 0)" = 0 ] || fail "$1 stored a run"
}
rows() { awk 'END { print NR - 1 }' "$1"; }
sum_col() { awk -F, -v c="$2" 'NR > 1 { s += $c } END { printf "%d\n", s }' "$1"; }

# ---- (c) the whole conversation and code traces: every row a request ------
for t in conv code; do
    f="$S/AzureLLMInferenceTrace_$t.csv"
    expect_exit 0 "azure $t replayed with llm" -- "$FLEETSIM" run "$CONV" --db "$DB" \
        --name "az-$t" --set scenario.horizon=3h --set pool.a100.count=3 \
        --set "workload.chat.arrivals=trace($f, format=azure-llm)" --quiet
    got=$(sql "$DB" "SELECT arrivals || ' ' || count || ' ' || unfinished || ' ' || CAST(tokens_in AS INTEGER) || ' ' || CAST(tokens_out AS INTEGER) FROM latency l JOIN run r USING (run_id) WHERE r.name = 'az-$t'")
    want="$(rows "$f") $(rows "$f") 0 $(sum_col "$f" 2) $(sum_col "$f" 3)"
    expect_eq "$got" "$want" "azure $t: every row served, its tokens counted (arrivals, served, unfinished, tokens in, out)"
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
expect_eq "$(q s.cost_per_month_usd before) $(q s.cost_per_month_usd after)" "10723.7 2679.1" "case 2: 4 x \$3.673/h vs 1 x, 730-hour run rate"
expect_eq "$(q "s.utilization < 0.5" before) $(q "s.utilization > 0.7" after)" "1 1" "case 2: utilization about 37% -> 78%"
# batching cuts the wait for a GPU (TTFT) and costs a little TPOT
expect_eq "$(q "l.ttft_p99_s" after | awk -v b="$(q l.ttft_p99_s before)" '{ print ($1 < b / 2) }')" "1" "case 2: TTFT p99 down more than 2x"
expect_eq "$(q "l.tpot_p50_s" after | awk -v b="$(q l.tpot_p50_s before)" '{ print ($1 > b && $1 < 1.2 * b) }')" "1" "case 2: TPOT p50 up less than 20%"
expect_eq "$(q "l.mean_batch_size" before)" "1.0" "case 2: one at a time before"

# the event estimate counts the servers' iterations (upper bound: one per
# output token, or every server iterating alone): refused at --max-events
expect_exit 1 "llm run over --max-events" -- "$FLEETSIM" run "$CONV" --db "$TMP/est.db" --max-events 100000
expect_in "$TMP/err" "llm-azure-conv.ini:32: workload.chat.service: this run would take about" "estimate: at the service key"
expect_in "$TMP/err" "LLM server iterations" "estimate: iterations named"

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
expect_in "$TMP/err" "> 80.0 GB; fits with precision=" "refusal: the breakdown against the GPU, and a precision that fits"
# on an 8-GPU instance it says tp=2 fits; and tp=2 runs there
sed 's/^gpu = A100-80GB$/instance = aws:p4de.24xlarge/; /^price/d' "$TMP/big.ini" >"$TMP/big8.ini"
refused big8 "fits with tp=2 (instances of 8 GPUs)"
sed 's/precision=bf16)/precision=bf16, tp=2)/' "$TMP/big8.ini" >"$TMP/tp2.ini"
expect_exit 0 "llama-2-70b bf16 tp=2 runs" -- "$FLEETSIM" run "$TMP/tp2.ini" --db "$DB" --quiet
sed 's/precision=bf16)/precision=int4)/' "$TMP/big.ini" >"$TMP/int4.ini"
expect_exit 0 "llama-2-70b int4 runs on one A100" -- "$FLEETSIM" run "$TMP/int4.ini" --db "$DB" --quiet

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
report
