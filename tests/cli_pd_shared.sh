#!/bin/sh
# cli_pd_shared.sh -- a prefill and a decode pool on the same instances:
#   - 2 aws:p5.48xlarge split 4 + 4 (share_instances = pre) for an hour:
#     one kv_transfer row whose link is 4 GPUs' NVLink (4 x 450 GB/s one
#     way: 14,400 Gbps), its bytes the KV caches' (327,680 bytes a token
#     of llama-3.1-70b in bf16 x 4,000 prompt tokens each) and its mean
#     time on the link their bytes over 1,800 GB/s; the two pools' bills
#     add up to the instances' once: 2 x $55.04 (the catalog's on-demand
#     price), as a colocated pool of the 2 instances bills;
#   - bad input, each refused at file:line:key with exit 1 and nothing
#     written: the key on a prefill pool, a name that is no pool, a pool
#     naming itself, GPUs that do not fit one instance (8 + 4 of 8), a
#     different instance type, a different count, a different purchase
#     option, and an autoscaled pool; and plan, which does not search a
#     shared pair, says so at the key.
. "$(dirname "$0")/cli_lib.sh"

pd() {   # pd PRE_INSTANCE PRE_GPUS DEC_COUNT [EXTRA_DEC_LINE]
    cat <<INI
[scenario]
name = pdsh
horizon = 1h
seed = 1
[pool.pre]
instance = aws:$1
gpus_per_instance = $2
gpus_per_server = 4
count = 2
role = prefill
[pool.dec]
instance = aws:p5.48xlarge
gpus_per_instance = 4
gpus_per_server = 4
count = $3
role = decode
share_instances = pre
${4:-}
[workload.chat]
pools = pre, dec
arrivals = poisson(rate=1/s)
tokens_in = const(4000)
tokens_out = const(100)
service = llm(model=llama-3.1-70b, precision=bf16, tp=4)
INI
}

pd p5.48xlarge 4 2 >"$TMP/sh.ini"
expect_exit 0 "shared instances" -- "$FLEETSIM" run "$TMP/sh.ini" --db "$TMP/sh.db"
expect_in "$TMP/out" "over a 14400 Gbps link" "the summary's transfer line"
expect_eq "$(sql "$TMP/sh.db" "SELECT link_gbps, transfers > 3000, abs(kv_bytes - transfers * 4000 * 327680) < 1e-3, abs(transfer_mean_s - 4000 * 327680 / 1800e9) < 1e-12 FROM kv_transfer WHERE workload = 'chat'")" "14400.0|1|1|1" "kv_transfer row: NVLink, bytes and link time add up"
expect_eq "$(sql "$TMP/sh.db" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_monthly")" "110.08" "the shared instances billed once: 2 x \$55.04"
expect_eq "$(sql "$TMP/sh.db" "SELECT group_concat(printf('%.2f', cost_usd), ' ') FROM cost_monthly")" "55.04 55.04" "each pool bills its 4 GPUs' half"
cat >"$TMP/co.ini" <<'INI'
[scenario]
name = co
horizon = 1h
seed = 1
[pool.both]
instance = aws:p5.48xlarge
count = 2
[workload.chat]
pools = both
arrivals = poisson(rate=1/s)
tokens_in = const(4000)
tokens_out = const(100)
service = llm(model=llama-3.1-70b, precision=bf16, tp=4)
INI
expect_exit 0 "colocated" -- "$FLEETSIM" run "$TMP/co.ini" --db "$TMP/co.db" --quiet
expect_eq "$(sql "$TMP/co.db" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_monthly")" "110.08" "a colocated pool of the same instances bills the same"

# ---- bad input -----------------------------------------------------------
pd p5.48xlarge 4 2 | sed 's/^role = prefill$/role = prefill\nshare_instances = dec/' >"$TMP/onpre.ini"
bad_run onpre "onpre.ini:11: pool.pre.share_instances: applies to a role = decode pool (pool pre is prefill), naming its prefill pool"
pd p5.48xlarge 4 2 | sed 's/^share_instances = pre$/share_instances = nosuch/' >"$TMP/noname.ini"
bad_run noname "noname.ini:17: pool.dec.share_instances: no pool named 'nosuch'"
pd p5.48xlarge 4 2 | sed 's/^share_instances = pre$/share_instances = dec/' >"$TMP/self.ini"
bad_run self "self.ini:17: pool.dec.share_instances: pool dec names itself"
pd p5.48xlarge 8 2 >"$TMP/fit.ini"
bad_run fit "fit.ini:17: pool.dec.share_instances: 8 + 4 GPUs do not fit one aws:p5.48xlarge of 8 GPUs"
pd p4d.24xlarge 4 2 >"$TMP/type.ini"
bad_run type "type.ini:17: pool.dec.share_instances: pool dec is on aws:p5.48xlarge and pool pre on aws:p4d.24xlarge"
pd p5.48xlarge 4 3 >"$TMP/count.ini"
bad_run count "count.ini:17: pool.dec.share_instances: count 3 differs from pool pre's 2"
pd p5.48xlarge 4 2 "pricing = spot" >"$TMP/buy.ini"
bad_run buy "buy.ini:17: pool.dec.share_instances: pricing spot differs from pool pre's on-demand"
pd p5.48xlarge 4 2 | sed 's/^count = 2$/autoscale = queue(target=4)\nmin = 1\nmax = 2/' >"$TMP/auto.ini"
bad_run auto "pool.dec.share_instances: pool dec autoscales"
expect_exit 1 "plan refuses a shared pair" -- "$FLEETSIM" plan "$TMP/sh.ini" --slo 'ttft_p99<=2s' --gpus H100-80GB --db "$TMP/plan.db"
expect_in "$TMP/err" "sh.ini:17: pool.dec.share_instances: plan does not search pools that share instances" "plan's message"
report
