#!/bin/sh
# cli_disagg.sh -- prefill and decode pools from the command line:
#   - a run on aws:p5.48xlarge pools (the catalog's 3,200 Gbps) stores one
#     kv_transfer row whose parts add up: its bytes are the KV caches'
#     (327,680 bytes a token of llama-3.1-70b in bf16 x the prompt tokens
#     sent) and its mean time on the link their bytes over 400 GB/s;
#   - without any role the same scenario has no kv_transfer row;
#   - bad input, each refused at file:line:key with exit 1 and nothing
#     written: a role on a pool serving a non-LLM workload, a decode pool
#     without a prefill pool, a prefill pool without a decode pool, a
#     colocated pool beside the pair, a role word out of the grammar, an
#     unknown network bandwidth (a pool of gpu = alone), and a bandwidth
#     out of bounds.
. "$(dirname "$0")/cli_lib.sh"

pd() {   # pd PREFILL_ROLE DECODE_ROLE [POOLS]
    cat <<INI
[scenario]
name = pd
horizon = 5m
seed = 1
[pool.pre]
instance = aws:p5.48xlarge
gpus_per_server = 8
count = 1
role = $1
[pool.dec]
instance = aws:p5.48xlarge
gpus_per_server = 8
count = 1
role = $2
[workload.chat]
pools = ${3:-pre, dec}
arrivals = poisson(rate=1/s)
tokens_in = const(4000)
tokens_out = const(100)
service = llm(model=llama-3.1-70b, precision=bf16, tp=8)
INI
}

pd prefill decode >"$TMP/pd.ini"
expect_exit 0 "prefill and decode pools" -- "$FLEETSIM" run "$TMP/pd.ini" --db "$TMP/pd.db"
expect_in "$TMP/out" "prefill -> decode:" "the summary's transfer line"
expect_eq "$(sql "$TMP/pd.db" "SELECT link_gbps, transfers > 200, abs(kv_bytes - transfers * 4000 * 327680) < 1e-3, abs(transfer_mean_s - 4000 * 327680 / 400e9) < 1e-12 FROM kv_transfer WHERE workload = 'chat'")" "3200.0|1|1|1" "kv_transfer row: 3200 Gbps, bytes and link time add up"
pd colocated colocated >"$TMP/co.ini"
expect_exit 0 "colocated pools" -- "$FLEETSIM" run "$TMP/co.ini" --db "$TMP/co.db" --quiet
expect_eq "$(sql "$TMP/co.db" "SELECT count(*) FROM kv_transfer")" "0" "no kv_transfer row without roles"

# ---- bad input -----------------------------------------------------------
good >"$TMP/nonllm.ini"
printf 'role = prefill\nnetwork_gbps = 100\n' >"$TMP/role.txt"
sed "/^price = 0.80/r $TMP/role.txt" "$TMP/nonllm.ini" >"$TMP/nonllm2.ini"
mv "$TMP/nonllm2.ini" "$TMP/nonllm.ini"
bad_run nonllm "nonllm.ini:8: pool.p.role: applies to pools that serve service = llm(...) only; workload w on pool p does not"
pd colocated decode >"$TMP/dec.ini"
bad_run dec "dec.ini:16: workload.chat.pools: a decode pool without a prefill pool"
pd prefill colocated >"$TMP/pre.ini"
bad_run pre "pre.ini:16: workload.chat.pools: a prefill pool without a decode pool"
pd prefill decode "pre, dec, extra" >"$TMP/extra.ini"
printf '[pool.extra]\ninstance = aws:p5.48xlarge\ncount = 1\n' >>"$TMP/extra.ini"
bad_run extra "extra.ini:16: workload.chat.pools: pool extra is colocated beside a prefill and a decode pool"
pd prefill decoder >"$TMP/word.ini"
bad_run word "word.ini:14: pool.dec.role:"
pd prefill decode | sed 's/^instance = aws:p5.48xlarge$/gpu = H100-80GB\nprice = 10\ngpus_per_instance = 8/' >"$TMP/nonet.ini"
bad_run nonet "nonet.ini:11: pool.pre.role: pool pre sends or receives KV caches, but its network bandwidth is unknown (no instance type): set network_gbps"
pd prefill decode | sed 's/^role = decode$/role = decode\nnetwork_gbps = 0/' >"$TMP/zero.ini"
bad_run zero "zero.ini:15: pool.dec.network_gbps: expected a bandwidth above 0, at most 100000 Gbps"
report
