#!/bin/sh
# cli_mig.sh -- MIG layouts and GPU sharing through the command line:
# `catalog mig` lists profiles and layouts; 3g.40gb+4g.40gb runs and
# stores one slice_utilization row per profile; invalid layouts, MIG on
# GPUs without it, a mig_profile no pool has and bad sharing keys are
# refused with file:line:key, the layout and why, exit 1, nothing stored.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/mig.db"

# 1. The catalog.
expect_exit 0 "catalog mig" -- "$FLEETSIM" catalog mig
expect_in "$TMP/out" "B200" "every GPU listed"
expect_exit 0 "catalog mig A100-80GB" -- "$FLEETSIM" catalog mig A100-80GB
expect_in "$TMP/out" "balanced = 3g.40gb+2g.20gb+1g.10gb*2" "balanced layout"
expect_in "$TMP/out" "4g.40gb+3g.40gb" "a maximal layout"
expect_in "$TMP/out" "14/108" "1g SMs"
expect_eq "$(grep -c '^ *[0-9][0-9]*  ' "$TMP/out")" 38 "A100-80GB's distinct maximal layouts with all six profiles"
expect_exit 1 "catalog mig T4" -- "$FLEETSIM" catalog mig T4
expect_in "$TMP/err" "T4 has no MIG profiles" "T4"

# An LLM on each slice: 7B bf16 does not fit 1g.10gb (the breakdown says
# why), fits 2g.20gb with room for one 4096-token sequence.
expect_exit 0 "catalog mig --model" -- "$FLEETSIM" catalog mig A100-80GB --model llama-2-7b
expect_in "$TMP/out" "1g.10gb    does not fit  weights 13.5 GB + KV cache 2.1 GB + activations 0.5 GB + overhead 1.4 GB = 17.6 GB > 10.0 GB" "7B on 1g.10gb"
expect_in "$TMP/out" "2g.20gb    fits          weights 13.5 GB" "7B on 2g.20gb"
expect_eq "$(grep '^  2g.20gb' "$TMP/out" | sed 's/.*KV cache for //')" "1 sequence" "2g.20gb: a small KV cache"
expect_exit 0 "catalog mig --model int4" -- "$FLEETSIM" catalog mig A100-80GB --model llama-2-7b --precision int4 --context 2048 --batch 4
expect_in "$TMP/out" "1g.10gb    fits" "7B int4 fits 1g.10gb"
expect_exit 1 "catalog mig --model unknown" -- "$FLEETSIM" catalog mig A100-80GB --model llama-7
expect_in "$TMP/err" "unknown model 'llama-7'" "unknown model"
expect_exit 2 "catalog mig --model without GPU" -- "$FLEETSIM" catalog mig --model llama-2-7b

pool_ini() {   # pool_ini GPU POOL-KEY-LINES [WORKLOAD-KEY-LINES]
    cat <<INI
[scenario]
horizon = 1d
[pool.p]
gpu = $1
price = 4
$2
[workload.w]
pools = p
arrivals = poisson(rate=0.05/s)
service = exponential(mean=1s)
${3:-}
INI
}

# 2. A valid layout runs; each profile gets its row.
pool_ini A100-80GB "mig = 3g.40gb+4g.40gb" >"$TMP/ok.ini"
expect_exit 0 "3g.40gb+4g.40gb runs" -- "$FLEETSIM" run "$TMP/ok.ini" --db "$DB" --quiet
expect_eq "$(sql "$DB" "SELECT group_concat(profile || ':' || slices_per_gpu || ':' || round(compute_share, 4) || ':' || round(sm_share, 4), ' ') FROM (SELECT * FROM slice_utilization ORDER BY profile)")" \
    "3g.40gb:1:0.4286:0.3889 4g.40gb:1:0.5714:0.5185" "slice rows with compute shares 3/7, 4/7 and SM shares 42/108, 56/108"
# Busy slice-hours x their compute share = the pool's busy GPU-hours; x
# their SM share, its SM-counted ones.
expect_eq "$(sql "$DB" "SELECT abs((SELECT sum(busy_hours * compute_share) FROM slice_utilization) - gpu_hours_busy) < 1e-9 FROM pool")" 1 "slices add up to the pool's busy GPU-hours"
expect_eq "$(sql "$DB" "SELECT abs((SELECT sum(busy_hours * sm_share) FROM slice_utilization) - gpu_hours_busy_sm) < 1e-9 FROM pool")" 1 "slices by SM share add up to the pool's gpu_hours_busy_sm"

# A busy slice counts as its compute share: seven 1g.10gb slices each at
# 60% load read 60% utilization, not 60% x 98/108 = 54.4% (the SMs no
# slice holds).  A request of 1 s on the whole GPU takes 108/14 s on a 1g
# (its 14 SMs of 108), so each slice's load is rate/7 x 108/14 = 0.6 at a
# rate of 0.6 x 7 x 14/108 = 0.54444/s; over a day the sampled load is
# within 2% of 0.60 (this seed: 0.603).  SM utilization is the same busy
# time at 14/108 a slice: utilization x 98/108.
pool_ini A100-80GB "mig = 1g.10gb*7" >"$TMP/seven.ini"
sed -i 's#rate=0.05/s#rate=0.5444444444/s#' "$TMP/seven.ini"
expect_exit 0 "1g.10gb*7 at 60% a slice runs" -- "$FLEETSIM" run "$TMP/seven.ini" --db "$TMP/seven.db" --quiet --seed 1
expect_eq "$(sql "$TMP/seven.db" "SELECT abs(utilization - 0.60) < 0.02 * 0.60 FROM run_summary")" 1 "1g.10gb*7 at 60% a slice: utilization 0.60 within 2%"
expect_eq "$(sql "$TMP/seven.db" "SELECT abs(sm_utilization - utilization * 98 / 108) < 1e-9 FROM run_summary")" 1 "sm_utilization = utilization x 98/108 on seven 1g slices"
# Saturated, the full layout reads 100%: 70 requests of 3 h at t = 0 keep
# all seven slices busy over the 1 h horizon.
printf 'time\n' >"$TMP/burst.csv"
for i in $(seq 70); do echo 0 >>"$TMP/burst.csv"; done
pool_ini A100-80GB "mig = 1g.10gb*7" "" >"$TMP/full.ini"
sed -i "s#poisson(rate=0.05/s)#trace($TMP/burst.csv, format=generic)#; s#exponential(mean=1s)#const(3h)#; s#horizon = 1d#horizon = 1h#" "$TMP/full.ini"
expect_exit 0 "1g.10gb*7 saturated runs" -- "$FLEETSIM" run "$TMP/full.ini" --db "$TMP/full.db" --quiet
expect_eq "$(sql "$TMP/full.db" "SELECT printf('%.6f %.6f', utilization, sm_utilization) FROM run_summary")" "1.000000 0.907407" "a full 1g.10gb*7 layout reads 100% (98/108 = 0.907407 by SMs)"
# ... and no idle cost: the 1 h at \$4 is all the workload's (OpenCost's
# view: the slices pay for the SMs none of them can hold).
expect_eq "$(sql "$TMP/full.db" "SELECT group_concat(coalesce(workload, 'idle') || coalesce('/' || profile, '') || ':' || printf('%.2f', cost_usd), ' ') FROM (SELECT * FROM cost_allocation ORDER BY workload IS NULL, profile IS NULL)")" "w:4.00 idle/1g.10gb:0.00 idle:0.00" "a full layout: the whole bill to the workload"
pool_ini A100-80GB "mig = balanced" "mig_profile = 2g.20gb" >"$TMP/bal.ini"
expect_exit 0 "balanced with a mig_profile runs" -- "$FLEETSIM" run "$TMP/bal.ini" --db "$DB" --quiet
expect_eq "$(sql "$DB" "SELECT count(*) FROM slice_utilization WHERE run_id = 2 AND busy_hours > 0")" 1 "only the 2g.20gb slice worked"

# 3. Refusals: file:line:key, the layout, why, the nearest layouts.
pool_ini A100-80GB "mig = 2g.20gb*4" >"$TMP/four2g.ini"
bad_run four2g "four2g.ini:6: pool.p.mig: layout '2g.20gb*4' on A100-80GB is not valid: 4 x 2g.20gb, and a GPU holds at most 3; nearest valid layouts: 2g.20gb*3+1g.10gb"
pool_ini A100-80GB "mig = 4g.40gb+4g.40gb" >"$TMP/two4g.ini"
bad_run two4g "layout '4g.40gb+4g.40gb' on A100-80GB is not valid"
expect_in "$TMP/err" "4g.40gb+3g.40gb" "two4g: nearest"
pool_ini A100-80GB "mig = 4g.40gb+2g.20gb*2" >"$TMP/compute.ini"
bad_run compute "it takes 8 compute slices and the GPU has 7"
for g in T4 L4 A10G L40S; do
    pool_ini $g "mig = 1g.10gb*7" >"$TMP/nomig$g.ini"
    bad_run nomig$g "pool.p.mig: layout '1g.10gb*7': $g has no MIG"
done
pool_ini A100-80GB "mig = 3g.40gb+4g.40gb" "mig_profile = 2g.20gb" >"$TMP/noprof.ini"
bad_run noprof "noprof.ini:11: workload.w.mig_profile: no pool of this workload has a 2g.20gb slice; their layouts: p mig = 4g.40gb+3g.40gb"
pool_ini A100-80GB "mig = 3g.40gb*2
sharing = timeslice(2)" >"$TMP/both.ini"
bad_run both "pool.p.sharing: not with mig"
pool_ini A100-80GB "sharing = timeslice(1)" >"$TMP/one.ini"
bad_run one "from 2 to 48"
pool_ini A100-80GB "timeslice_efficiency = 0.8" >"$TMP/eff.ini"
bad_run eff "pool.p.timeslice_efficiency: needs sharing = timeslice(N)"
pool_ini A100-80GB "sharing = mps(4)
timeslice_efficiency = 0.8" >"$TMP/mpseff.ini"
bad_run mpseff "applies to sharing = timeslice(N) only"
pool_ini A100-80GB "sharing = slice(4)" >"$TMP/what.ini"
bad_run what "expected timeslice(N) or mps(N)"
# A count beyond int (1e300): refused by its range, never cast to int
# (undefined behaviour, which the sanitized build stops at).
pool_ini A100-80GB "mig = 3g.40gb*1e300" >"$TMP/hugecount.ini"
bad_run hugecount "hugecount.ini:6: pool.p.mig: layout '3g.40gb*1e300' on A100-80GB: '3g.40gb*1e300': the count after * must be a whole number, 1 to 7"
pool_ini A100-80GB "sharing = timeslice(1e300)" >"$TMP/hugets.ini"
bad_run hugets "hugets.ini:6: pool.p.sharing: the replicas per GPU must be a whole number from 2 to 48"
# An objective of 0s (found by tests/mutate_scenarios.py on
# case4-mig-sliced.ini): every request would miss it; refused as slo_ttft.
pool_ini A100-80GB "mig = 3g.40gb+4g.40gb" "mig_profile = 3g.40gb
slo_p99 = 0s" >"$TMP/slo0.ini"
# a typo'd profile: the nearest of the pools' profiles
pool_ini A100-80GB "mig = 3g.40gb+4g.40gb" "mig_profile = 3g.40g" >"$TMP/typo.ini"
bad_run typo "typo.ini:11: workload.w.mig_profile: no pool of this workload has a 3g.40g slice; their layouts: p mig = 4g.40gb+3g.40gb (did you mean 3g.40gb?)"
bad_run slo0 "slo0.ini:12: workload.w.slo_p99: must be longer than 0s"

# 4. Time-slicing and MPS run and bill the whole GPU.
pool_ini A100-80GB "sharing = timeslice(3)" >"$TMP/ts.ini"
expect_exit 0 "timeslice runs" -- "$FLEETSIM" run "$TMP/ts.ini" --db "$DB" --quiet
expect_eq "$(sql "$DB" "SELECT cost_usd FROM cost_monthly WHERE run_id = 3")" "96.0" "a whole GPU billed: 24 h x \$4"
# 5. Spot interruptions on a time-sliced and a MIG pool: lost batches are
# requeued from both (the sharing's books stay right: each pool's
# allocated GPU-hours add up to its busy ones, under ASan).
cat >"$TMP/spot.ini" <<'INI'
[scenario]
horizon = 1d
[pool.s]
gpu = A100-80GB
pricing = spot
price = 1
count = 2
interruption = exponential(mean=2h)
sharing = timeslice(4)
[pool.m]
gpu = A100-80GB
pricing = spot
price = 1
count = 2
interruption = exponential(mean=2h)
mig = 1g.10gb*7
[workload.w]
pools = s, m
arrivals = poisson(rate=2/s)
service = exponential(mean=1s)
[workload.v]
pools = m
mig_profile = 1g.10gb
arrivals = poisson(rate=0.1/s)
service = exponential(mean=1s)
INI
expect_exit 0 "spot on shared and sliced pools" -- "$FLEETSIM" run "$TMP/spot.ini" --db "$TMP/spot.db" --quiet
expect_eq "$(sql "$TMP/spot.db" "SELECT sum(requests_retried > 0) FROM pool")" 2 "both pools lost and requeued work"
expect_eq "$(sql "$TMP/spot.db" "SELECT count(*) FROM pool p WHERE abs(p.gpu_hours_busy - (SELECT sum(gpu_hours) FROM cost_allocation c WHERE c.pool = p.pool AND c.workload IS NOT NULL)) < 1e-6")" 2 "allocated GPU-hours = busy GPU-hours"

# An llm on MIG slices: the slice's memory and bandwidth share (2g.20gb
# holds llama-2-7b bf16; 1g.10gb refused with the breakdown).
cat >"$TMP/llm-mig.ini" <<'INI'
[scenario]
name = llm-mig
horizon = 1h
[pool.a]
gpu = A100-80GB
price = 4
count = 1
mig = 2g.20gb*3+1g.10gb
[workload.chat]
pools = a
mig_profile = 2g.20gb
arrivals = poisson(rate=0.5/s)
tokens_in = const(512)
tokens_out = const(64)
service = llm(model=llama-2-7b, precision=bf16)
INI
expect_exit 0 "llm on 2g.20gb slices" -- "$FLEETSIM" run "$TMP/llm-mig.ini" --db "$TMP/llm-mig.db" --quiet
# decode on a 2g slice reads weights at 2/8 of the GPU's bandwidth: TPOT at
# least 3x a whole A100's 13.5 GB / 2.04 TB/s = 6.6 ms floor
expect_eq "$(sql "$TMP/llm-mig.db" "SELECT tpot_p50_s > 4 * 0.0066 FROM latency")" 1 "TPOT on a 2g slice above 4x the whole GPU's floor"
sed 's/^mig_profile = 2g.20gb/mig_profile = 1g.10gb/' "$TMP/llm-mig.ini" >"$TMP/llm-mig1.ini"
expect_exit 1 "llm on 1g.10gb" -- "$FLEETSIM" run "$TMP/llm-mig1.ini" --db "$TMP/llm-mig1.db" --quiet
expect_in "$TMP/err" "workload.chat.service: llama-2-7b bf16 does not fit" "1g.10gb refused"
expect_in "$TMP/err" "weights 13.5 GB" "1g.10gb refusal shows the breakdown"
expect_in "$TMP/err" "> 10.0 GB" "1g.10gb refusal shows the slice's memory"
# An llm on a time-sliced pool: each of N replicas holds its model in 1/N
# of the GPU's memory (8 x llama-2-7b bf16 do not fit an A100-80GB: the
# breakdown against 10.0 GB), and runs at the GPU's speed / k x 0.9 while k
# replicas are busy.  Alone it is the whole GPU (requests 1000 s apart: the
# same TTFT and TPOT as on a whole GPU); two requests at once on
# timeslice(2) decode at 2 / 0.9 of the whole GPU's TPOT (the first one,
# whose prefill ran alone, all the way: the p99), where one whole GPU
# would batch them at about its batch-of-one TPOT.
llm_trace() {   # FILE SHARING TRACE
    cat >"$1" <<INI
[scenario]
horizon = 1h
[pool.a]
gpu = A100-80GB
price = 4
count = 1
$2
[workload.chat]
pools = a
arrivals = trace($3, format=generic)
tokens_in = const(512)
tokens_out = const(64)
service = llm(model=llama-2-7b, precision=bf16)
INI
}
printf 'time\n0\n1000\n2000\n' >"$TMP/apart.csv"
printf 'time\n0\n0\n' >"$TMP/together.csv"
llm_trace "$TMP/llm-whole.ini" "" "$TMP/apart.csv"
llm_trace "$TMP/llm-ts.ini" "sharing = timeslice(3)" "$TMP/apart.csv"
llm_trace "$TMP/llm-ts2.ini" "sharing = timeslice(2)" "$TMP/together.csv"
for n in whole ts ts2; do
    expect_exit 0 "llm $n" -- "$FLEETSIM" run "$TMP/llm-$n.ini" --db "$TMP/llm-sh.db" --quiet
done
lat() { sql "$TMP/llm-sh.db" "SELECT $1 FROM latency WHERE run_id = $2"; }
expect_eq "$(lat 'count, ttft_p50_s, tpot_p50_s' 2)" "$(lat 'count, ttft_p50_s, tpot_p50_s' 1)" "one busy time-sliced replica = the whole GPU"
expect_eq "$(sql "$TMP/llm-sh.db" "SELECT abs(b.tpot_p99_s / (a.tpot_p50_s * 2 / 0.9) - 1) < 0.005 FROM latency a, latency b WHERE a.run_id = 1 AND b.run_id = 3")" 1 "two busy replicas: TPOT x 2 / 0.9"
sed 's/timeslice(3)/timeslice(8)/' "$TMP/llm-ts.ini" >"$TMP/llm-ts8.ini"
expect_exit 1 "8 replicas of a 7B on one A100-80GB" -- "$FLEETSIM" run "$TMP/llm-ts8.ini" --db "$TMP/llm-ts8.db" --quiet
expect_in "$TMP/err" "workload.chat.service: llama-2-7b bf16 does not fit pool a's 1 x A100-80GB (tp=1) as one of its 8 time-sliced replicas (each 10.0 GB: the replicas' models must fit the GPU together): weights 13.5 GB + activations 0.6 GB + overhead 0.1 GB + CUDA graphs 0.5 GB + kept free 0.5 GB = 15.2 GB > 10.0 GB; fits with tp=1 fp8, tp=1 int8, tp=1 int4; a larger GPU: H200 (141 GB)" "shared fit refused with the breakdown (no more tp on a shared GPU)"

report
