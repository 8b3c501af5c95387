#!/bin/sh
# cli_prefix.sh -- prefix caching replayed from the Mooncake conversation
# trace (traces/sample, 12,031 requests with their prompts' 512-token hash
# ids), held against tests/prefix_replay.py, an independent replay of the
# same hash ids in Python:
#   - an unlimited cache on one replica (llama-3.1-70b, TP 8 on 8 x H100):
#     fleetsim's token hit rate equals the replay's within 0.5% (absolute);
#     both read 16-token blocks (vLLM's), the requests in arrival order;
#   - a cache of 20,000 and of 50,000 blocks (prefix_cache = 320000 and
#     800000 tokens), one request at a time (max_batch=1, so that no block
#     is held by a running request while another is admitted, as in the
#     sequential replay): the hit rate an LRU replay of the same capacity
#     gives, within 0.5%, and lower than the unlimited cache's;
#   - the database's prefix_cache rows: the workload's and the pool's,
#     whose parts add up (cached tokens over prompt tokens is the rate);
#   - a malformed or earlier-timestamped line is refused at FILE:LINE, and
#     prefix = / prefix_cache = values out of their grammar at file:line:key.
. "$(dirname "$0")/cli_lib.sh"
TRACE="$SRCDIR/traces/sample/mooncake_conversation_trace.jsonl"
REPLAY="$SRCDIR/tests/prefix_replay.py"

scenario() {   # scenario CACHE LLM_EXTRA
    cat <<INI
[scenario]
name = mooncake
horizon = 30d
seed = 1
[pool.h100]
instance = aws:p5.48xlarge
count = 1
prefix_cache = $1
[workload.chat]
pools = h100
arrivals = trace($TRACE, format=mooncake)
service = llm(model=llama-3.1-70b, precision=bf16, tp=8$2)
INI
}
rate() { sql "$1" "SELECT printf('%.6f', token_hit_rate) FROM prefix_cache WHERE workload = 'chat'"; }
# |a - b| <= 0.005
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.005) }'; }

scenario unlimited "" >"$TMP/inf.ini"
expect_exit 0 "unlimited cache" -- "$FLEETSIM" run "$TMP/inf.ini" --db "$TMP/inf.db" --quiet
got=$(rate "$TMP/inf.db")
want=$(python3 "$REPLAY" "$TRACE" 16)
echo "unlimited: fleetsim $got, replay $want"
checks=$((checks + 1)); close "$got" "$want" || fail "unlimited: hit rate $got, replay $want"
expect_eq "$(sql "$TMP/inf.db" "SELECT count, unfinished FROM latency")" "12031|0" "every request served"
# the parts add up, workload and pool alike
expect_eq "$(sql "$TMP/inf.db" "SELECT count(*) FROM prefix_cache WHERE abs(tokens_cached / tokens_in - token_hit_rate) < 1e-12 AND tokens_in = (SELECT tokens_in FROM latency)")" 2 "workload and pool rows add up"

for blocks in 20000 50000; do
    scenario $((blocks * 16)) ", max_batch=1" >"$TMP/lru.ini"
    expect_exit 0 "cache of $blocks blocks" -- "$FLEETSIM" run "$TMP/lru.ini" --db "$TMP/lru$blocks.db" --quiet
    got=$(rate "$TMP/lru$blocks.db")
    want=$(python3 "$REPLAY" "$TRACE" 16 "$blocks")
    echo "$blocks blocks: fleetsim $got, LRU replay $want"
    checks=$((checks + 1)); close "$got" "$want" || fail "$blocks blocks: hit rate $got, LRU replay $want"
    checks=$((checks + 1))
    awk -v a="$got" -v b="$(rate "$TMP/inf.db")" 'BEGIN { exit !(a < b) }' || fail "$blocks blocks: not below the unlimited cache"
done

# ---- bad input -----------------------------------------------------------
head -3 "$TRACE" >"$TMP/bad.jsonl"
echo '{"timestamp": 5, "input_length": 10, "output_length": 3, "hash_ids": [1, 2]}' >>"$TMP/bad.jsonl"
sed "s#$TRACE#$TMP/bad.jsonl#" "$TMP/inf.ini" >"$TMP/badids.ini"
bad_run badids "$TMP/bad.jsonl:4: \"hash_ids\": 2 ids for 10 prompt tokens"
head -3 "$TRACE" >"$TMP/back.jsonl"
printf '{"timestamp": 99999999, "input_length": 10, "output_length": 3, "hash_ids": [1]}\n{"timestamp": 5, "input_length": 10, "output_length": 3, "hash_ids": [1]}\n' >>"$TMP/back.jsonl"
sed "s#$TRACE#$TMP/back.jsonl#" "$TMP/inf.ini" >"$TMP/back.ini"
bad_run back "$TMP/back.jsonl:5: \"timestamp\": 5 is earlier than the previous line's (line 4)"
printf '{"timestamp": 0, "input_length": 10,\n' >"$TMP/nojson.jsonl"
sed "s#$TRACE#$TMP/nojson.jsonl#" "$TMP/inf.ini" >"$TMP/nojson.ini"
bad_run nojson "$TMP/nojson.jsonl:1: not JSON"
sed 's/format=mooncake)/format=mooncake)\nrate_scale = 2/' "$TMP/inf.ini" >"$TMP/scale.ini"
bad_run scale "format=mooncake replays the trace as recorded: remove rate_scale"
sed 's/prefix_cache = unlimited/prefix_cache = lots/' "$TMP/inf.ini" >"$TMP/size.ini"
bad_run size "size.ini:8: pool.h100.prefix_cache: expected yes, no, unlimited or a number of tokens"
printf 'prefix = shared(tokens=2000)\n' >>"$TMP/inf.ini"
cp "$TMP/inf.ini" "$TMP/share.ini"
bad_run share "share.ini:13: workload.chat.prefix: shared(): give tokens= and share="
report
