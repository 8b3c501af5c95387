#!/bin/sh
# cli_sessions.sh -- sessions = turns(mean=M, think=T) on generated LLM
# traffic (sim/fleet/serve/llm_session.c), held against the closed form:
#   turn k of a session has the prompt in_k = k a + (k - 1) b (a new
#   tokens each turn, b output tokens: turn k-1's prompt and output, then
#   a); with an unlimited cache on one replica at light load it finds turn
#   k-1's prompt cached but its last block (the block holding the last
#   prompt token is computed, 16-token blocks): in_{k-1} - 16 tokens for
#   a, b multiples of 16.  With K turns geometric of mean M (p = 1/M,
#   E[K] = M, E[K^2] = (2 - p) / p^2), the token hit rate is
#     E[a K(K-1)/2 + b (K-1)(K-2)/2 - 16 (K-1)] / E[a K(K+1)/2 + b K(K-1)/2]
#   = 5232 / 7040 = 0.74318 for a = 320, b = 160, M = 4; and the mean
#   prompt E[P] / E[K] = 1760 tokens.  40 h at 0.2 requests/s is about
#   7,200 sessions: over that many sessions the rate's standard deviation
#   is 0.0036 and the mean prompt's 26.6 tokens (the geometric's spread,
#   simulated), 4 of them allowed.
#   - prefix_cache = no serves the same requests (counts and tokens);
#   - mean = 1: one turn each, nothing cached, every prompt 320 tokens;
#   - sessions on a trace, or out of its grammar: refused at file:line:key.
. "$(dirname "$0")/cli_lib.sh"

scenario() {   # scenario CACHE MEAN
    cat <<INI
[scenario]
horizon = 40h
seed = 3
[pool.a]
gpu = A100-80GB
price = 3.00
count = 1
prefix_cache = $1
[workload.chat]
pools = a
arrivals = poisson(rate=0.2/s)
service = llm(model=llama-3.1-8b, precision=bf16)
tokens_in = const(320)
tokens_out = const(160)
sessions = turns(mean=$2, think=5s)
INI
}
rate() { sql "$1" "SELECT printf('%.6f', token_hit_rate) FROM prefix_cache WHERE workload = 'chat'"; }
served() { sql "$1" "SELECT count, tokens_in FROM latency WHERE workload = 'chat'"; }

scenario unlimited 4 >"$TMP/s.ini"
expect_exit 0 "sessions" -- "$FLEETSIM" run "$TMP/s.ini" --db "$TMP/s.db" --quiet
got=$(rate "$TMP/s.db")
want=$(awk 'BEGIN { a = 320; b = 160; M = 4; p = 1 / M; k = M; k2 = (2 - p) / p / p;
    h = a * (k2 - k) / 2 + b * (k2 - 3 * k + 2) / 2 - 16 * (k - 1);
    t = a * (k2 + k) / 2 + b * (k2 - k) / 2; printf "%.6f", h / t }')
echo "sessions of 4 turns: hit rate $got, closed form $want"
near "$got" "$want" 0.0145 "token hit rate against the closed form"
mean=$(sql "$TMP/s.db" "SELECT tokens_in / count FROM latency WHERE workload = 'chat'")
echo "mean prompt: $mean tokens, closed form 1760"
near "$mean" 1760 106 "mean prompt tokens against E[P] / E[K]"

scenario no 4 >"$TMP/n.ini"
expect_exit 0 "sessions, no cache" -- "$FLEETSIM" run "$TMP/n.ini" --db "$TMP/n.db" --quiet
expect_eq "$(served "$TMP/n.db")" "$(served "$TMP/s.db")" "prefix_cache = no serves the same requests"

scenario unlimited 1 >"$TMP/one.ini"
expect_exit 0 "one turn" -- "$FLEETSIM" run "$TMP/one.ini" --db "$TMP/one.db" --quiet
expect_eq "$(rate "$TMP/one.db")" "0.000000" "one turn: nothing cached"
expect_eq "$(sql "$TMP/one.db" "SELECT tokens_in = 320.0 * count FROM latency WHERE workload = 'chat'")" "1" "one turn: every prompt its drawn tokens"

sed 's/turns(mean=4, think=5s)/turns(mean=0.5, think=5s)/' "$TMP/s.ini" >"$TMP/badmean.ini"
bad_run badmean "badmean.ini:15: workload.chat.sessions: turns(): mean must be a number from 1 to 1000"
sed 's/turns(mean=4, think=5s)/sessions(4)/' "$TMP/s.ini" >"$TMP/badcall.ini"
bad_run badcall "badcall.ini:15: workload.chat.sessions: expected turns(mean=M, think=T)"
printf '{"timestamp": 0, "input_length": 600, "output_length": 3, "hash_ids": [1, 2]}\n' >"$TMP/t.jsonl"
sed "s#poisson(rate=0.2/s)#trace($TMP/t.jsonl, format=mooncake)#" "$TMP/s.ini" >"$TMP/badtrace.ini"
bad_run badtrace "badtrace.ini:15: workload.chat.sessions: applies to generated arrivals only"
report
