#!/bin/sh
# cli_llm_engine.sh -- serving-stack profiles as a user meets them: a
# scenario names one by engine= (vllm, vllm@VERSION, trt-llm, ...), an
# unknown one is refused with the known ones, a user's profile file
# (llm(..., profile = FILE), a pool's llm_profile = FILE) replaces the
# catalog's, its bad row is reported at its file, line and column, and a
# profile file equal to the catalog's rows gives the catalog's figures.
. "$(dirname "$0")/cli_lib.sh"
CAT="$SRCDIR/models/catalog/engines.csv"

cat >"$TMP/base.ini" <<'INI'
[scenario]
name = eng
horizon = 10m
seed = 3
[pool.h100]
gpu = H100-80GB
price = 4.00
count = 1
[workload.chat]
pools = h100
arrivals = poisson(rate=2/s)
service = llm(model=llama-3-8b, precision=bf16)
tokens_in = const(500)
tokens_out = const(100)
INI
lat() { sqlite3 -batch -noheader "$1" "SELECT printf('%.17g %.17g', ttft_p50_s, tpot_p50_s) FROM latency WHERE workload = 'chat'"; }

expect_exit 0 "default engine" -- "$FLEETSIM" run "$TMP/base.ini" --db "$TMP/a.db" --quiet
base=$(lat "$TMP/a.db")

# the current release by name and by its version give the same figures
ver=$(awk -F, '$1 == "vllm" && $3 == "yes" { print $2; exit }' "$CAT")
sed "s/precision=bf16)/precision=bf16, engine=vllm@$ver)/" "$TMP/base.ini" >"$TMP/ver.ini"
expect_exit 0 "engine=vllm@$ver" -- "$FLEETSIM" run "$TMP/ver.ini" --db "$TMP/b.db" --quiet
expect_eq "$(lat "$TMP/b.db")" "$base" "engine=vllm@$ver is engine=vllm"

# another stack: other figures
sed 's/precision=bf16)/precision=bf16, engine=trt-llm)/' "$TMP/base.ini" >"$TMP/trt.ini"
expect_exit 0 "engine=trt-llm" -- "$FLEETSIM" run "$TMP/trt.ini" --db "$TMP/c.db" --quiet
[ "$(lat "$TMP/c.db")" != "$base" ] || fail "trt-llm gives vllm's figures"

# a user's profile: the catalog's vllm rows under another name give the
# catalog's figures; with mfu halved, a slower first token
{ head -1 "$CAT"; awk -F, -v v="$ver" '$1 == "vllm" && $2 == v' "$CAT" | sed 's/^vllm,/mine,/'; } >"$TMP/mine.csv"
sed 's/precision=bf16)/precision=bf16, profile=mine.csv)/' "$TMP/base.ini" >"$TMP/prof.ini"
expect_exit 0 "profile=FILE" -- "$FLEETSIM" run "$TMP/prof.ini" --db "$TMP/d.db" --quiet
expect_eq "$(lat "$TMP/d.db")" "$base" "profile = the catalog's vllm rows: the same figures"
awk -F, 'BEGIN { OFS = "," } NR > 1 { $5 = $5 / 2 } { print }' "$TMP/mine.csv" >"$TMP/slow.csv"
sed 's/^\[pool\.h100\]$/[pool.h100]\nllm_profile = slow.csv/' "$TMP/base.ini" >"$TMP/pool.ini"
expect_exit 0 "llm_profile = FILE" -- "$FLEETSIM" run "$TMP/pool.ini" --db "$TMP/e.db" --quiet
expect_eq "$(sqlite3 -batch -noheader "$TMP/e.db" "SELECT ttft_p50_s > $(echo "$base" | cut -d' ' -f1) FROM latency WHERE workload = 'chat'")" "1" "a pool's profile with half the mfu: slower prefill"

# the profile's scheduler defaults: max_num_seqs 8 caps the running batch
# where llm(...) sets no max_batch; max_batch= given wins
hdr=$(head -1 "$TMP/mine.csv")
seqs=$(echo "$hdr" | tr ',' '\n' | grep -n '^max_num_seqs$' | cut -d: -f1)
awk -F, -v c="$seqs" 'BEGIN { OFS = "," } NR > 1 { $c = 8 } { print }' "$TMP/mine.csv" >"$TMP/eight.csv"
sed 's/precision=bf16)/precision=bf16, profile=eight.csv)/; s/rate=2\/s/rate=40\/s/' "$TMP/base.ini" >"$TMP/eight.ini"
expect_exit 0 "max_num_seqs 8" -- "$FLEETSIM" run "$TMP/eight.ini" --db "$TMP/f.db" --quiet
expect_eq "$(sqlite3 -batch -noheader "$TMP/f.db" "SELECT mean_batch_size <= 8 AND mean_batch_size > 6 FROM latency WHERE workload = 'chat'")" "1" "the profile's max_num_seqs caps the batch"
sed 's/profile=eight.csv)/profile=eight.csv, max_batch=64)/' "$TMP/eight.ini" >"$TMP/sixtyfour.ini"
expect_exit 0 "max_batch=64 over the profile's 8" -- "$FLEETSIM" run "$TMP/sixtyfour.ini" --db "$TMP/g.db" --quiet
expect_eq "$(sqlite3 -batch -noheader "$TMP/g.db" "SELECT mean_batch_size > 8 FROM latency WHERE workload = 'chat'")" "1" "max_batch= given wins"

# the profile's output_lag (vLLM's: 1): every token handed out a step
# late, so TTFT and end-to-end carry a step more (the request's own mean
# TPOT) and the time per output token is unchanged; 0 streams at once
lagc=$(echo "$hdr" | tr ',' '\n' | grep -n '^output_lag$' | cut -d: -f1)
expect_eq "$(awk -F, -v c="$lagc" 'NR > 1 { print $c }' "$TMP/mine.csv" | sort -u)" "1" "vllm's rows: output_lag 1"
awk -F, -v c="$lagc" 'BEGIN { OFS = "," } NR > 1 { $c = 0 } { print }' "$TMP/mine.csv" >"$TMP/nolag.csv"
sed 's/profile=mine.csv)/profile=nolag.csv)/' "$TMP/prof.ini" >"$TMP/nolag.ini"
expect_exit 0 "output_lag 0" -- "$FLEETSIM" run "$TMP/nolag.ini" --db "$TMP/l.db" --quiet
expect_eq "$(sqlite3 -batch -noheader "$TMP/l.db" "ATTACH '$TMP/d.db' AS d; SELECT abs((l.ttft_mean_s - n.ttft_mean_s) - l.tpot_mean_s) < 0.02 * l.tpot_mean_s AND abs((l.mean_s - n.mean_s) - l.tpot_mean_s) < 0.02 * l.tpot_mean_s AND abs(l.tpot_mean_s - n.tpot_mean_s) < 1e-12 FROM d.latency l JOIN latency n USING (workload) WHERE workload = 'chat'")" "1" "output_lag 1 against 0: TTFT and end-to-end a TPOT longer, TPOT the same"
awk -F, -v c="$lagc" 'BEGIN { OFS = "," } NR == 2 { $c = 0.5 } { print }' "$TMP/mine.csv" >"$TMP/lag2.csv"
sed 's/profile=mine.csv)/profile=lag2.csv)/' "$TMP/prof.ini" >"$TMP/lag2.ini"
bad_run lag2 "lag2.csv:2: output_lag: '0.5': expected 0 (off) or 1 (on)"

# allreduce_held: whole all-reduce inputs a layer, 0 to 2 (vllm@0.2.5: 2)
heldc=$(echo "$hdr" | tr ',' '\n' | grep -n '^allreduce_held$' | cut -d: -f1)
[ -n "$heldc" ] || fail "engines.csv has an allreduce_held column"
awk -F, -v c="$heldc" 'BEGIN { OFS = "," } NR == 3 { $c = 1.5 } { print }' "$TMP/mine.csv" >"$TMP/held.csv"
sed 's/profile=mine.csv)/profile=held.csv)/' "$TMP/prof.ini" >"$TMP/held.ini"
bad_run held "held.csv:3: allreduce_held: '1.5': expected 0, 1 or 2 all-reduce inputs a layer"
awk -F, -v c="$heldc" 'BEGIN { OFS = "," } NR == 2 { $c = 3 } { print }' "$TMP/mine.csv" >"$TMP/held3.csv"
sed 's/profile=mine.csv)/profile=held3.csv)/' "$TMP/prof.ini" >"$TMP/held3.ini"
bad_run held3 "held3.csv:2: allreduce_held: '3': expected a number from 0 to 2"

# a pool's kv_cache_tokens: a cache of 2 sequences' tokens holds at most 2
sed 's/^\[pool\.h100\]$/[pool.h100]\nkv_cache_tokens = 1200/' "$TMP/eight.ini" >"$TMP/kv.ini"
expect_exit 0 "kv_cache_tokens" -- "$FLEETSIM" run "$TMP/kv.ini" --db "$TMP/h.db" --quiet
expect_eq "$(sqlite3 -batch -noheader "$TMP/h.db" "SELECT mean_batch_size <= 2 FROM latency WHERE workload = 'chat'")" "1" "kv_cache_tokens = 1200 (1,184 in blocks): at most two 600-token requests at once"
sed 's/^\[pool\.h100\]$/[pool.h100]\nkv_cache_tokens = 8/' "$TMP/base.ini" >"$TMP/kvsmall.ini"
bad_run kvsmall "kvsmall.ini:6: pool.h100.kv_cache_tokens:"

# what a user gets wrong
sed 's/precision=bf16)/precision=bf16, engine=vlm)/' "$TMP/base.ini" >"$TMP/typo.ini"
bad_run typo "typo.ini:12: workload.chat.service: llm(): unknown engine 'vlm' in engines.csv (did you mean 'vllm'? known: trt-llm vllm vllm@0.6.0 sglang"
sed 's/precision=bf16)/precision=bf16, engine=vllm@9.9)/' "$TMP/base.ini" >"$TMP/nover.ini"
bad_run nover "llm(): unknown engine 'vllm@9.9'"
sed 's/precision=bf16)/precision=bf16, profile=none.csv)/' "$TMP/base.ini" >"$TMP/noprof.ini"
bad_run noprof "noprof.ini:12: workload.chat.service:"
sed '2s/,0\.5,/,zero,/' "$TMP/mine.csv" >"$TMP/badrow.csv"
sed 's/profile=mine.csv/profile=badrow.csv/' "$TMP/prof.ini" >"$TMP/badrow.ini"
bad_run badrow "badrow.csv:2: mfu: 'zero': expected a number"
sed 's/slow.csv/badrow.csv/' "$TMP/pool.ini" >"$TMP/poolbad.ini"
bad_run poolbad "poolbad.ini:6: pool.h100.llm_profile: "
report
