#!/bin/sh
# cli_adapter.sh -- many models and LoRA adapters on one fleet from the
# command line:
#   - a run with adapters stores one tenancy row and one adapter row per
#     adapter (requests adding up to the workload's, costs to its cost),
#     prints the adapters' lines, compare shows the loads and the report a
#     row per adapter under its workload; the same
#     scenario and seed give the same rows;
#   - two models on one pool: the replicas each hosts, stated and by
#     demand, in the tenancy table and the summary;
#   - the README case scenarios/llm-lora-50.ini (50 adapters on one
#     llama-3-8b fleet) against scenarios/llm-lora-dedicated.ini (50
#     dedicated pools): the shared fleet's $/Mtok is below the dedicated
#     pools';
#   - each bad input is refused at file:line:key, exit 1, one line, no
#     database: max_adapters 0, a negative adapter_load_time, a bad
#     popularity, an adapter key without adapters, adapters on a workload
#     that does not serve an llm, adapters whose memory leaves no KV cache,
#     an unknown model, replicas that do not add up to the pool's.
. "$(dirname "$0")/cli_lib.sh"

scenario() {   # scenario LINES...
    cat <<INI
[scenario]
name = lora
horizon = 20m
seed = 5
[pool.h100]
gpu = H100-80GB
price = 3.00
count = 1
[workload.chat]
pools = h100
arrivals = poisson(rate=2/s)
service = llm(model=llama-3-8b, precision=bf16)
tokens_in = const(300)
tokens_out = const(100)
INI
    for l in "$@"; do echo "$l"; done
}

scenario "adapters = 20" "adapter_popularity = zipf(1.1)" "max_adapters = 4" >"$TMP/on.ini"
expect_exit 0 "adapters" -- "$FLEETSIM" run "$TMP/on.ini" --db "$TMP/r.db"
expect_in "$TMP/out" "adapters 20 (zipf(1.1), rank 16, 4 loaded a replica" "summary: the adapters' line"
expect_in "$TMP/out" "(10 more adapters in the database's adapter table)" "summary: the ten most popular"
expect_eq "$(sql "$TMP/r.db" "SELECT workload, replicas, adapters, adapter_rank, max_adapters, zipf_s, loads > 0 FROM tenancy")" \
    "chat|0|20|16|4|1.1|1" "one tenancy row"
expect_eq "$(sql "$TMP/r.db" "SELECT count(*), sum(requests) = (SELECT count FROM latency), round(sum(cost_usd), 6) = round((SELECT cost_usd FROM latency), 6), sum(loads) = (SELECT loads FROM tenancy) FROM adapter")" \
    "20|1|1|1" "adapter rows: requests, cost and loads add up to the workload's"
# 16-bit rank-16 adapters of llama-3-8b over an H100's PCIe 5 (64 GB/s a way)
expect_eq "$(sql "$TMP/r.db" "SELECT printf('%.0f', load_s * 64e9) FROM tenancy")" "83886080" "load: 83,886,080 bytes over 64 GB/s"
expect_exit 0 "compare" -- "$FLEETSIM" compare --db "$TMP/r.db" 1
expect_in "$TMP/out" "adapter loads" "compare: the loads row"
expect_exit 0 "report" -- "$FLEETSIM" report --db "$TMP/r.db" --out "$TMP/r.md" 1
expect_in "$TMP/r.md" "| chat · adapter 1 |" "report: the adapters under their workload"
checks=$((checks + 1))
[ "$(grep -c '| chat · adapter ' "$TMP/r.md")" = 20 ] || fail "report: not one row per adapter"
expect_exit 0 "adapters again" -- "$FLEETSIM" run "$TMP/on.ini" --db "$TMP/r.db" --quiet
expect_eq "$(sql "$TMP/r.db" "SELECT count(DISTINCT loads || ':' || quote(load_wait_s)) FROM tenancy")" 1 "same scenario and seed, same rows"

# ---- two models on one pool ------------------------------------------------
two() {   # two A_LINE B_LINE
    cat <<INI
[scenario]
name = two
horizon = 10m
seed = 3
[pool.h100]
gpu = H100-80GB
price = 3.00
count = 4
[workload.a]
pools = h100
arrivals = poisson(rate=3/s)
service = llm(model=llama-3-8b, precision=bf16)
tokens_in = const(300)
tokens_out = const(100)
$1
[workload.b]
pools = h100
arrivals = poisson(rate=1/s)
service = llm(model=mistral-7b, precision=bf16)
tokens_in = const(300)
tokens_out = const(100)
$2
INI
}
two "" "" >"$TMP/two.ini"
expect_exit 0 "two models by demand" -- "$FLEETSIM" run "$TMP/two.ini" --db "$TMP/two.db"
expect_in "$TMP/out" "its model on 3 replicas of a pool shared by several models" "summary: a's replicas"
two "replicas = 2" "replicas = 2" >"$TMP/two2.ini"
expect_exit 0 "two models stated" -- "$FLEETSIM" run "$TMP/two2.ini" --db "$TMP/two.db" --quiet
expect_eq "$(sql "$TMP/two.db" "SELECT group_concat(run_id || workload || replicas, ' ') FROM tenancy")" "1a3 1b1 2a2 2b2" "tenancy: replicas by demand, then stated"

# ---- the README case: 50 adapters on one fleet, 50 dedicated pools -----------
expect_exit 0 "50 adapters" -- "$FLEETSIM" run "$SRCDIR/scenarios/llm-lora-50.ini" --db "$TMP/case.db" --quiet --set scenario.horizon=30m
expect_exit 0 "50 dedicated pools" -- "$FLEETSIM" run "$SRCDIR/scenarios/llm-lora-dedicated.ini" --db "$TMP/case.db" --quiet --set scenario.horizon=30m
checks=$((checks + 1))
[ "$(sql "$TMP/case.db" "SELECT (SELECT cost_per_mtok_usd FROM latency WHERE run_id = 1) < 0.5 * (SELECT sum(cost_usd) * 1e6 / sum(tokens_in + tokens_out) FROM latency WHERE run_id = 2)")" = 1 ] ||
    fail "shared fleet's \$/Mtok not below half the dedicated pools'"

# ---- bad input ---------------------------------------------------------------
bad() {   # bad NAME FRAGMENT LINES...
    n=$1 f=$2
    shift 2
    scenario "$@" >"$TMP/$n.ini"
    bad_run "$n" "$f"
}
bad max0 "max0.ini:16: workload.chat.max_adapters: must be at least 1, got 0" "adapters = 8" "max_adapters = 0"
bad negload "negload.ini:16: workload.chat.adapter_load_time: a duration must not be negative, got '-1s'" "adapters = 8" "adapter_load_time = -1s"
bad pop "pop.ini:16: workload.chat.adapter_popularity: expected zipf(S) with an exponent S above 0" "adapters = 8" "adapter_popularity = zipf(0)"
bad stray "stray.ini:15: workload.chat.adapter_rank: needs adapters = N" "adapter_rank = 8"
bad big "big.ini:17: workload.chat.max_adapters: 64 adapters of rank 256 (1.342 GB each, 85.90 GB loaded at once) do not fit beside llama-3-8b on pool h100" \
    "adapters = 64" "adapter_rank = 256" "max_adapters = 64"
scenario "adapters = 8" | sed "s/llama-3-8b/llama-3-9b/" >"$TMP/unknown.ini"
bad_run unknown "unknown.ini:12: workload.chat.service: llm(): unknown model 'llama-3-9b'"
{ good; echo "adapters = 4"; } >"$TMP/notllm.ini"
bad_run notllm "notllm.ini:12: workload.w.adapters: applies to workloads with service = llm(...) only"
two "replicas = 1" "replicas = 2" >"$TMP/sum.ini"
bad_run sum "sum.ini:15: workload.a.replicas: the models' replicas add up to 3, pool h100 has 4"
two "replicas = 1" "" >"$TMP/half.ini"
bad_run half "half.ini:15: workload.a.replicas: pool h100 serves several models: give replicas on a workload of each (b has none)"
report
