#!/bin/sh
# cli_plan_harden.sh -- `fleetsim plan` on the inputs issue 26 found it
# mishandling: a pool's own price carried to candidates of other sizes
# and GPUs, and usage errors found late, twice or never.  Each usage
# error exits 2 before any simulation, stores nothing.
. "${SRCDIR:-$(dirname "$0")/..}/tests/cli_lib.sh"
cd "$TMP" || exit 1

# llm POOL-LINES: a two-hour llama-3-8b scenario on pool p.
llm() {
    cat <<INI
[scenario]
name = pp
horizon = 2h
seed = 1
[pool.p]
$1
[workload.chat]
pools = p
arrivals = poisson(rate=0.5/s)
service = llm(model=llama-3-8b, precision=bf16, tp=1)
tokens_in = const(500)
tokens_out = const(100)
INI
}
json_costs='import json, sys
def money(v):
    return "nan" if v is None else "%.2f" % v
for e in json.load(open(sys.argv[1])):
    c = e["monthly_cost_by_purchase"]
    print(e["gpu"], e["tp"], e["count"], e["feasible"], money(c.get("on-demand")),
          money(c.get("reserved")), e["reason"][:40])'

# ---- 1. price = 3.67 for one A100: candidates on the A100 in instances of
# 8 GPUs pay 8 x 3.67 an hour; L4 and H100 candidates have no price of the
# user's and are excluded, saying so; the reservation column is never the
# catalog's beside the user's on-demand rate.
llm 'gpu = A100-80GB
price = 3.67
count = 2' >price.ini
expect_exit 0 "plan price = pool" -- "$FLEETSIM" plan price.ini --slo 'ttft_p99<=2s' \
    --gpus L4,H100-80GB,A100-80GB --tp 1,8 --db price.db --format json -j 1
python3 -c "$json_costs" "$TMP/out" >costs.txt
# 730 h x 3.67 = 2679.10; x 8 GPUs = 21432.80
expect_in costs.txt "A100-80GB 1 1 True 2679.10 nan " "A100 tp1: one instance at the user's 3.67/h"
expect_in costs.txt "A100-80GB 8 1 True 21432.80 nan " "A100 tp8: 8 GPUs at 3.67/h each"
for g in L4 H100-80GB; do
    for t in 1 8; do
        expect_in costs.txt "$g $t None False nan nan pool 'p' sets price = 3.67 per instanc" "$g tp$t excluded"
    done
done
expect_exit 0 "plan price = table" -- "$FLEETSIM" plan price.ini --slo 'ttft_p99<=2s' \
    --gpus H100-80GB,A100-80GB --tp 8 --db price.db -j 1
expect_in "$TMP/out" "H100-80GB bf16 tp8: pool 'p' sets price = 3.67 per instance-hour of A100-80GB; there is no price of yours for H100-80GB" "exclusion says why"
expect_in "$TMP/out" "reserved: not priced, pool p sets price = (your on-demand rate) and no reserved_1y" "no catalog reservation beside the user's price"
# the stored runs bill what the table says: 8 x 3.67 = 29.36 an hour
expect_eq "$(sql price.db "SELECT group_concat(printf('%.2f', price_usd_h), ' ') FROM (SELECT p.price_usd_h FROM pool p JOIN run r USING (run_id) WHERE r.name LIKE 'plan[gpu=A100-80GB,%,tp=8,%' ORDER BY r.run_id LIMIT 1)")" 29.36 "tp8 run priced per GPU"

# with the user's reservation quote too, both columns are the user's,
# scaled alike: 2.20/h x 8 x 730 = 12848.00
llm 'gpu = A100-80GB
price = 3.67
reserved_1y = 2.20/h
count = 2' >quote.ini
expect_exit 0 "plan price + quote" -- "$FLEETSIM" plan quote.ini --slo 'ttft_p99<=2s' \
    --gpus A100-80GB --tp 1,8 --db quote.db --format json -j 1
python3 -c "$json_costs" "$TMP/out" >costs.txt
expect_in costs.txt "A100-80GB 1 1 True 2679.10 1606.00 " "tp1: the quote, 2.20 x 730"
expect_in costs.txt "A100-80GB 8 1 True 21432.80 12848.00 " "tp8: the quote per GPU"

# the same on an instance = pool of 8 GPUs at a price of the user's: tp 1
# keeps the pool's instance (8 replicas of one GPU, 8 x 730 x 1.00)
llm 'instance = aws:p4de.24xlarge
price = 8.00
count = 1' >inst.ini
expect_exit 0 "plan instance price" -- "$FLEETSIM" plan inst.ini --slo 'ttft_p99<=2s' \
    --tp 1,8 --db inst.db --format json -j 1 --purchase on-demand
python3 -c "$json_costs" "$TMP/out" >costs.txt
expect_in costs.txt "A100-80GB 1 1 True 5840.00 nan " "instance pool tp1: its own price"
expect_in costs.txt "A100-80GB 8 1 True 5840.00 nan " "instance pool tp8: the same 8-GPU instance"

# without price =, every candidate is priced from the catalog (no exclusion)
llm 'gpu = A100-80GB
provider = aws
count = 2' >cat.ini
expect_exit 0 "plan catalog prices" -- "$FLEETSIM" plan cat.ini --slo 'ttft_p99<=2s' \
    --gpus L4,A100-80GB --db cat.db --format json -j 1 --purchase on-demand
python3 -c "$json_costs" "$TMP/out" >costs.txt
checks=$((checks + 1))
grep -q "False" costs.txt && fail "catalog-priced candidates excluded: $(cat costs.txt)"

# spot with price = would bill the on-demand rate as the spot price
expect_exit 2 "spot with price =" -- "$FLEETSIM" plan price.ini --slo 'ttft_p99<=2s' \
    --db none.db --purchase spot
expect_in "$TMP/err" "--purchase spot: pool 'p' sets price = (your on-demand rate)" "spot with price = refused"
checks=$((checks + 1)); [ ! -e none.db ] || fail "refused plan wrote a database"

# ---- 11. usage errors found before any simulation: exit 2, the option
# named, no database left behind
good >generic.ini
# usage NAME FRAGMENT ARGS...: plan refuses ARGS with exit 2 and FRAGMENT,
# storing nothing.
usage() {
    name=$1 frag=$2
    shift 2
    rm -f use.db
    expect_exit 2 "$name" -- "$FLEETSIM" plan "$@" --db use.db -j 1
    expect_in "$TMP/err" "$frag" "$name"
    expect_in "$TMP/err" "fleetsim help plan" "$name points to the help"
    checks=$((checks + 1)); [ ! -e use.db ] || fail "$name left a database"
}
usage "ttft on a generic service" "--slo: ttft_p99 is not measured on workload 'w': only an llm(...) service" \
    generic.ini --slo 'ttft_p99<=1s'
usage "tpot on a generic service" "tpot_mean is not measured on workload 'w'" \
    generic.ini --slo 'p99<=2s,tpot_mean<=1s'
usage "p99<=0s" "--slo: 'p99<=0s': the bound must be above 0" generic.ini --slo 'p99<=0s'
usage "attainment>=0%" "'attainment>=0%': the bound must be above 0" generic.ini --slo 'attainment>=0%'
usage "--gpus ," "--gpus: no value in ','" generic.ini --slo 'p99<=2s' --gpus ,
usage "--tp ," "--tp: no value in ','" price.ini --slo 'p99<=2s' --tp ,
usage "--gpus L4,L4" "--gpus: 'L4' and 'L4' are the same candidate (L4)" generic.ini --slo 'p99<=2s' --gpus L4,L4
usage "--gpus l4,L4" "--gpus: 'l4' and 'L4' are the same candidate (L4)" generic.ini --slo 'p99<=2s' --gpus l4,L4
usage "--precision fp8,fp8" "--precision: 'fp8' and 'fp8' are the same candidate" price.ini --slo 'p99<=2s' --precision fp8,fp8
usage "--tp 2,2" "--tp: '2' and '2' are the same candidate" price.ini --slo 'p99<=2s' --tp 2,2
usage "--gpus A100-80G" "--gpus: unknown GPU 'A100-80G' (did you mean 'A100-80GB'? see \`fleetsim catalog gpus\`)" generic.ini --slo 'p99<=2s' --gpus A100-80G
usage "--purchase ," "--purchase: no value in ','" generic.ini --slo 'p99<=2s' --purchase ,
usage "--purchase spot,spot" "--purchase: 'spot' given twice: give each once" generic.ini --slo 'p99<=2s' --purchase spot,spot
usage "--tp 2x" "--tp: expected 1, 2, 4 or 8, got '2x'" price.ini --slo 'p99<=2s' --tp 2x
usage "--replications 100000" "--replications: at most 10000, got '100000'" generic.ini --slo 'p99<=2s' --replications 100000
good | sed 's/^count = 1/autoscale = utilization(target=70%)\nmin = 1\nmax = 4/; s/^price = 0.80//' >auto.ini
usage "spot on an autoscaled pool" "--purchase spot: pool 'p' autoscales, and a spot pool has a fixed count" \
    auto.ini --slo 'p99<=2s' --purchase on-demand,spot
# --workload naming no workload (found by tests/mutate_scenarios.py:
# --workload , said which file but not which option)
rm -f use.db
expect_exit 1 "--workload ," -- "$FLEETSIM" plan generic.ini --slo 'p99<=2s' --workload , --db use.db -j 1
expect_one_line "--workload ,"
expect_in "$TMP/err" "generic.ini: --workload: no inference workload ',' (it has: w)" "--workload , names the option"
checks=$((checks + 1)); [ ! -e use.db ] || fail "--workload , left a database"
# a --set the scenario refuses: said once, not once per candidate, before
# any run (exit 1, as `run` gives it)
rm -f use.db
expect_exit 1 "--set error" -- "$FLEETSIM" plan price.ini --slo 'ttft_p99<=2s' \
    --gpus A100-80GB --tp 1,2,4 --set workload.chat.max_batchh=4 --db use.db -j 1
expect_one_line "--set error"
expect_in "$TMP/err" "--set: workload.chat.max_batchh: unknown key" "--set error names the key"
checks=$((checks + 1)); [ ! -e use.db ] || fail "--set error left a database"
# one candidate the scenario alone refuses is excluded with the reason,
# the others planned (servers of one GPU cannot hold tp 2)
rm -f use.db
llm 'gpu = A100-80GB
provider = aws
count = 2' >one.ini
expect_exit 0 "candidate refused alone" -- "$FLEETSIM" plan one.ini --slo 'ttft_p99<=2s' \
    --gpus A100-80GB --tp 1,2 --set pool.p.gpus_per_server=1 --db use.db -j 1 --purchase on-demand
expect_in "$TMP/out" "A100-80GB bf16 tp2: the scenario refuses it: --set: workload.chat.service: llm(): tp=2, but pool p's servers are 1 GPUs wide" "the one candidate excluded, why said"
expect_in "$TMP/out" "A100-80GB bf16 tp1: count=1 meets every SLO" "the other planned"
expect_eq "$(sql use.db "SELECT count(*) FROM run WHERE name LIKE '%tp=2%'")" 0 "the refused candidate never ran"

report
