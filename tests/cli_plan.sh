#!/bin/sh
# cli_plan.sh -- `fleetsim plan`: the count it chooses on M/M/c traffic
# against Erlang C, memory exclusion with the breakdown, the reserved count
# against `fleetsim roi` on the chosen run, its runs stored by name, and
# bad input.
. "${SRCDIR:-$(dirname "$0")/..}/tests/cli_lib.sh"
cd "$TMP" || exit 1

# ---- M/M/c: lambda 8/s, exponential service of mean 1 s, p99 sojourn <= 5.6 s
# The smallest c whose p99 sojourn meets 5.6 s, by Erlang C, computed here
# on its own: P(T > t) = (1 - C) e^{-mu t} + C P(W' + S > t), W' ~ exp(c mu
# - lambda), the last term integrated numerically.  Tolerance: the
# parameters are chosen so that the closed-form p99 at c is at least 8%
# under 5.6 s and at c - 1 at least 8% over it; the simulation's p99 (one
# day, ~690,000 requests, histogram error <= 1%, sampling error ~1-2%) is
# far inside that, so it cannot flip the decision.
cat >mmc.ini <<'INI'
[scenario]
name = mmc
horizon = 1d
seed = 7
metrics_interval = 1h
[pool.p]
gpu = A100-80GB
count = 2
price = 2
[workload.w]
pools = p
arrivals = poisson(rate=8/s)
service = exponential(mean=1s)
INI
erlang=$(python3 - <<'PY'
import math
lam, mu, slo = 8.0, 1.0, 5.6
def erlang_c(c, a):
    s = sum(a**k / math.factorial(k) for k in range(c))
    last = a**c / math.factorial(c) * c / (c - a)
    return last / (s + last)
def tail(c, t):
    th = c * mu - lam
    C = erlang_c(c, lam / mu)
    n = 20000
    h = t / n
    acc = 0.0   # P(W' <= t, W' + S > t), Simpson over w in [0, t]
    for i in range(n + 1):
        w = i * h
        f = th * math.exp(-th * w) * math.exp(-mu * (t - w))
        acc += f * (1 if i in (0, n) else 4 if i % 2 else 2)
    both = math.exp(-th * t) + acc * h / 3
    return (1 - C) * math.exp(-mu * t) + C * both
def p99(c):
    lo, hi = 0.0, 100.0
    for _ in range(60):
        m = (lo + hi) / 2
        lo, hi = (m, hi) if tail(c, m) > 0.01 else (lo, m)
    return hi
c = 9
while p99(c) > slo:
    c += 1
print(c, "%.4f" % p99(c), "%.4f" % p99(c - 1))
PY
)
set -- $erlang
cstar=$1
echo "  Erlang C: c = $cstar (p99 $2 s), c - 1 p99 $3 s, SLO 5.6 s"
checks=$((checks + 1))
python3 -c "import sys; sys.exit(not ($2 <= 0.92 * 5.6 and $3 >= 1.08 * 5.6))" ||
    fail "M/M/c parameters: the closed form is too near the SLO"
expect_exit 0 "plan mmc" -- "$FLEETSIM" plan mmc.ini --slo 'p99<=5.6s' \
    --db mmc.db --format json --purchase on-demand
got=$(python3 -c "import json; d = json.load(open('$TMP/out')); print(d[0]['count'], d[0]['feasible'], d[0]['below']['count'], d[0]['run'])")
set -- $got
expect_eq "$1" "$cstar" "plan chooses Erlang C's smallest c"
expect_eq "$2" "True" "feasible"
expect_eq "$3" "$((cstar - 1))" "count - 1 was simulated"
expect_eq "$4" "plan[gpu=A100-80GB,count=$cstar]" "run name"
# the runs it stored: c meets the SLO, c - 1 does not
p_c=$(sql mmc.db "SELECT l.p99_s <= 5.6 FROM latency l JOIN run r USING (run_id) WHERE r.name = 'plan[gpu=A100-80GB,count=$cstar]'")
p_c1=$(sql mmc.db "SELECT l.p99_s > 5.6 FROM latency l JOIN run r USING (run_id) WHERE r.name = 'plan[gpu=A100-80GB,count=$((cstar - 1))]'")
expect_eq "$p_c" 1 "stored run at c meets p99<=5.6s"
expect_eq "$p_c1" 1 "stored run at c - 1 fails p99<=5.6s"
# on-demand cost: c instances x $2/h x 730 h
cost=$(python3 -c "import json; print('%.2f' % json.load(open('$TMP/out'))[0]['monthly_cost_usd'])")
expect_eq "$cost" "$(python3 -c "print('%.2f' % ($cstar * 2 * 730))")" "on-demand run rate"
# compare works on the stored runs
expect_exit 0 "compare plan runs" -- "$FLEETSIM" compare --db mmc.db \
    "plan[gpu=A100-80GB,count=$cstar]" "plan[gpu=A100-80GB,count=$((cstar - 1))]"
expect_exit 0 "report on plan runs" -- "$FLEETSIM" report --db mmc.db --out plan.md \
    "plan[gpu=A100-80GB,count=$cstar]" "plan[gpu=A100-80GB,count=$((cstar - 1))]"
expect_in plan.md "gpu=A100-80GB,count=$cstar" "report names the plan's run"
expect_exit 0 "export a plan run" -- "$FLEETSIM" export --db mmc.db --format focus \
    --out plan.csv "plan[gpu=A100-80GB,count=$cstar]"

# ---- the same traffic with a p99-wait SLO: P(W > t) = C(c, a) e^{-(c mu -
# lambda) t}, so the p99 wait is ln(100 C) / (c mu - lambda) (0 when C <=
# 1%).  wait_p99 <= 0.5 s: c = 13 gives 0.406 s and c = 12 0.660 s, each
# more than 8% from the SLO (checked below), far beyond the simulation's
# error on a day of ~690,000 requests.
set -- $(python3 - <<'PY'
import math
lam, mu, slo = 8.0, 1.0, 0.5
def erlang_c(c, a):
    s = sum(a**k / math.factorial(k) for k in range(c))
    last = a**c / math.factorial(c) * c / (c - a)
    return last / (s + last)
def w99(c):
    C = erlang_c(c, lam / mu)
    return max(0.0, math.log(100 * C) / (c * mu - lam))
c = 9
while w99(c) > slo:
    c += 1
print(c, "%.4f" % w99(c), "%.4f" % w99(c - 1))
PY
)
wstar=$1
wclosed=$2
echo "  Erlang C wait: c = $wstar (p99 wait $2 s), c - 1: $3 s, SLO 0.5 s"
checks=$((checks + 1))
python3 -c "import sys; sys.exit(not ($2 <= 0.92 * 0.5 and $3 >= 1.08 * 0.5))" ||
    fail "M/M/c wait parameters: the closed form is too near the SLO"
expect_exit 0 "plan mmc wait_p99" -- "$FLEETSIM" plan mmc.ini --slo 'wait_p99<=500ms' \
    --db wait.db --format json --purchase on-demand
set -- $(python3 -c "import json; d = json.load(open('$TMP/out')); print(d[0]['count'], d[0]['below']['count'])")
expect_eq "$1" "$wstar" "plan with a p99-wait SLO chooses Erlang C's smallest c"
expect_eq "$2" "$((wstar - 1))" "and simulated c - 1"
got=$(sql wait.db "SELECT group_concat(printf('%.3f', l.wait_p99_s), ' ') FROM latency l JOIN run r USING (run_id) WHERE r.name IN ('plan[gpu=A100-80GB,count=$wstar]', 'plan[gpu=A100-80GB,count=$((wstar - 1))]') ORDER BY r.name")
echo "  stored p99 waits (c - 1, c): $got"
expect_eq "$(sql wait.db "SELECT abs(l.wait_p99_s - $wclosed) < 0.05 * $wclosed FROM latency l JOIN run r USING (run_id) WHERE r.name = 'plan[gpu=A100-80GB,count=$wstar]'")" 1 "p99 wait at c within 5% of Erlang C's $wclosed s"

# ---- --replications 3: the value judged is the pessimistic end of the 95%
# t interval of the mean over the 3 runs (t(0.975, 2) = 4.302653)
expect_exit 0 "plan replications" -- "$FLEETSIM" plan mmc.ini --set scenario.horizon=6h \
    --slo 'p99<=5.6s' --db rep.db --replications 3 --purchase on-demand --format json
set -- $(python3 -c "import json; e = json.load(open('$TMP/out'))[0]; print(e['run'], '%.9f' % e['slo']['p99'])")
sql rep.db "SELECT l.p99_s FROM latency l JOIN run r USING (run_id) WHERE r.name = '$1'" >reps.txt
got=$(python3 -c "
import math
x = [float(v) for v in open('$TMP/reps.txt')]
m = sum(x) / len(x)
sd = math.sqrt(sum((v - m) ** 2 for v in x) / (len(x) - 1))
print(len(x), '%.9f' % (m + 4.302652729911275 * sd / math.sqrt(len(x))))")
expect_eq "$got" "3 $2" "replications: pessimistic p99 = mean + t sd / sqrt(n)"

# ---- the four formats of the same plan (mmc.db already holds its runs)
expect_exit 0 "plan csv" -- "$FLEETSIM" plan mmc.ini --slo 'p99<=5.6s' --db fmt.db --format csv --purchase on-demand
expect_eq "$(head -1 "$TMP/out" | cut -d, -f1-5)" "rank,gpu,precision,tp,count" "csv header"
expect_eq "$(sed -n 2p "$TMP/out" | cut -d, -f2,5,8)" "A100-80GB,$cstar,1" "csv row: gpu, count, feasible"
expect_exit 0 "plan markdown" -- "$FLEETSIM" plan mmc.ini --slo 'p99<=5.6s' --db fmt.db --format markdown --purchase on-demand
expect_in "$TMP/out" "| rank | gpu" "markdown table"
expect_in "$TMP/out" "**cost-vs-p99 frontier:**" "markdown frontier"
expect_exit 0 "plan table" -- "$FLEETSIM" plan mmc.ini --slo 'p99<=5.6s' --db fmt.db --purchase on-demand
expect_in "$TMP/out" "run rate over a 730-hour month" "table labels its money"
expect_in "$TMP/out" "count=$cstar meets every SLO" "table says what was verified"

# ---- -j 2 (a worker per candidate) gives the plan -j 1 gives, run ids aside
for j in 1 2; do
    "$FLEETSIM" plan mmc.ini --set scenario.horizon=6h --slo 'p99<=5.6s' \
        --gpus A100-80GB,H100-80GB --db "par$j.db" --format json -j $j \
        --purchase on-demand >"par$j.json" 2>/dev/null
done
strip='import json, sys; d = json.load(open(sys.argv[1]))
for e in d:
    for k in ("run_id", "below"): e.pop(k, None)
print(json.dumps(d, sort_keys=True))'
expect_eq "$(python3 -c "$strip" par1.json)" "$(python3 -c "$strip" par2.json)" "-j 2 = -j 1"
expect_eq "$(python3 -c "import json; print(len(json.load(open('$TMP/par2.json'))))")" 2 "-j 2: both candidates"

# ---- memory: llama-3-70b in bf16 on one L4 or one A10G does not fit
cat >llm.ini <<'INI'
[scenario]
name = llm
horizon = 1h
[pool.p]
gpu = H100-80GB
provider = aws
count = 1
[workload.chat]
pools = p
arrivals = poisson(rate=1/s)
service = llm(model=llama-3-70b, precision=bf16, tp=1)
INI
expect_exit 1 "plan llm no fit" -- "$FLEETSIM" plan llm.ini --slo 'p99<=10s' \
    --db llm.db --gpus L4,A10G --format json
for g in L4 A10G; do
    r=$(python3 -c "import json; print([e for e in json.load(open('$TMP/out')) if e['gpu'] == '$g'][0]['reason'])")
    case "$r" in
    "memory: weights 141."*" GB > "*) ;;
    *) fail "memory exclusion on $g: '$r'" ;;
    esac
done
expect_exit 1 "plan llm no fit, table" -- "$FLEETSIM" plan llm.ini \
    --slo 'p99<=10s' --db llm.db --gpus L4 --precision bf16,fp8 --tp 1
expect_in "$TMP/out" "L4 bf16 tp1: memory: weights 141.1 GB" "excluded for memory, table"
expect_in "$TMP/out" "L4 fp8 tp1: memory: weights 70.6 GB" "fp8 excluded too"
expect_in "$TMP/err" "no candidate meets every SLO" "impossible plan says so"

# ---- a mixture of experts: plan searches ep as it searches tp ----------
# DeepSeek-V3 fp8 on one 8 x H200 instance: tp 8 alone, tp 8 with ep 8,
# tp 1 with ep 8 (8 attention copies) are three candidates, each run as
# llm(..., tp=T, ep=N); tp 1 alone does not fit
printf '%s\n' '[scenario]' 'name = dsplan' 'horizon = 10m' '[pool.h200]' \
    'instance = aws:p5en.48xlarge' 'count = 1' '[workload.chat]' 'pools = h200' \
    'arrivals = poisson(rate=2/s)' 'service = llm(model=deepseek-v3, precision=fp8, tp=8)' \
    'tokens_in = const(1000)' 'tokens_out = const(100)' >ds.ini
expect_exit 0 "plan ep" -- "$FLEETSIM" plan ds.ini --slo 'ttft_p99<=2s,tpot_p99<=60ms' \
    --precision fp8 --tp 1,8 --ep 1,8 --db ds.db --purchase on-demand --format json -j 1
got=$(python3 -c "import json; print(' '.join(sorted('%d/%d:%s' % (e['tp'], e['ep'], e['feasible']) for e in json.load(open('$TMP/out')))))")
expect_eq "$got" "1/1:False 1/8:True 8/1:True 8/8:True" "tp and ep searched together; tp 1 alone does not fit"
expect_eq "$(sql ds.db "SELECT count(*) FROM run WHERE name LIKE 'plan[gpu=H200,precision=fp8,tp=1,ep=8,%'")" "1" "the tp 1 ep 8 candidate ran as such"
expect_exit 2 "plan ep 3" -- "$FLEETSIM" plan ds.ini --slo 'ttft_p99<=2s' --ep 3 --db bad.db
expect_in "$TMP/err" "--ep: expected 1, 2, 4 or 8, got '3'" "plan --ep checked"
sed 's/deepseek-v3, precision=fp8, tp=8/llama-3-8b/' ds.ini >dsdense.ini
expect_exit 2 "plan ep dense" -- "$FLEETSIM" plan dsdense.ini --slo 'ttft_p99<=2s' --ep 1,2 --db bad.db
expect_in "$TMP/err" "--ep 2: llama-3-8b has no experts to spread" "plan --ep refused for a dense model"

# ---- LLM: the Azure conversation trace (one hour, traces/sample) at 3x,
# llama-3-8b fp8 on L40S or H100: the cheapest fleet, re-run with `run`,
# meets both SLOs; the same fleet one instance smaller does not.
conv="$SRCDIR/scenarios/llm-azure-conv.ini"
slo='ttft_p99<=500ms,tpot_p99<=50ms'
expect_exit 0 "plan llm" -- "$FLEETSIM" plan "$conv" --set workload.chat.rate_scale=3 \
    --slo "$slo" --db llm.db --gpus L40S,H100-80GB --precision fp8 --format json -j 2
set -- $(python3 -c "
import json
d = json.load(open('$TMP/out'))
e = d[0]
print(e['instance'] or '-', e['count'], e['precision'], e['tp'], e['feasible'], len(d))")
inst=$1 n=$2
expect_eq "$5" True "llm: the first entry is feasible"
expect_eq "$6" 2 "llm: two candidates"
rerun() {
    "$FLEETSIM" run "$conv" --db rerun.db --quiet --name "rerun-$1" \
        --set workload.chat.rate_scale=3 --set "pool.a100.count=$1" \
        --set "workload.chat.service=llm(model=llama-3-8b,precision=fp8,tp=1)" \
        $inst >"$TMP/rerun.err" 2>&1
}
if [ "$inst" = - ]; then inst=; else inst="--set pool.a100.instance=$inst"; fi
checks=$((checks + 1))
if rerun "$n" && rerun $((n - 1)); then
    ok=$(sql rerun.db "SELECT ttft_p99_s <= 0.5 AND tpot_p99_s <= 0.05 FROM latency l JOIN run r USING (run_id) WHERE r.name = 'rerun-$n'")
    bad=$(sql rerun.db "SELECT ttft_p99_s <= 0.5 AND tpot_p99_s <= 0.05 FROM latency l JOIN run r USING (run_id) WHERE r.name = 'rerun-$((n - 1))'")
    expect_eq "$ok" 1 "llm: the cheapest fleet re-run meets every SLO"
    expect_eq "$bad" 0 "llm: one instance fewer does not"
    # the plan's stored run and the re-run agree (same seed, same requests)
    a=$(sql llm.db "SELECT ttft_p99_s FROM latency WHERE run_id = (SELECT run_id FROM run WHERE name LIKE 'plan[gpu=%,precision=fp8,tp=1,count=$n]' ORDER BY run_id LIMIT 1)")
    b=$(sql rerun.db "SELECT ttft_p99_s FROM latency l JOIN run r USING (run_id) WHERE r.name = 'rerun-$n'")
    [ -n "$a" ] && expect_eq "$a" "$b" "llm: plan's run = re-run, bit for bit"
else
    fail "llm: re-run failed: $(head -2 "$TMP/rerun.err")"
fi

# ---- excluded before simulating: a lone request already misses the bound
# llama-3-8b bf16 on an L4, 1,000-token prompts: the roofline's prefill
# alone (with the engine's time off the GPU, and vLLM's output lag: the
# first token handed out one decode step late, at least the batch-1 step
# holding the prompt's KV cache) and its batch-1 decode step are lower
# bounds on every TTFT and TPOT, so no count meets ttft_p99<=150ms or
# tpot_p99<=40ms there and the L4 is excluded without a simulation.  The
# bound is checked against a run at light load (one request at a time:
# TTFT = prefill + the API server's time + the request's own TPOT, TPOT =
# the batch-1 step as its context grows): at most the run's p50, within 2%
# of it.
printf '%s\n' '[scenario]' 'name = lone' 'horizon = 1h' 'seed = 5' '[pool.p]' \
    'gpu = L4' 'provider = aws' 'count = 1' '[workload.chat]' 'pools = p' \
    'arrivals = poisson(rate=0.05/s)' 'service = llm(model=llama-3-8b, precision=bf16)' \
    'tokens_in = const(1000)' 'tokens_out = const(100)' >lone.ini
expect_exit 0 "light load" -- "$FLEETSIM" run lone.ini --db lone.db --quiet --name light
for slo in 'ttft_p99<=150ms:ttft_p50_s' 'tpot_p99<=40ms:tpot_p50_s'; do
    expect_exit 0 "plan ${slo%%:*}" -- "$FLEETSIM" plan lone.ini --slo "${slo%%:*}" \
        --gpus L4,H100-80GB --db lone.db --purchase on-demand --format json -j 1
    set -- $(python3 -c "
import json, re
d = {e['gpu']: e for e in json.load(open('$TMP/out'))}
l4 = d['L4']
v = re.search(r'at least ([0-9.]+)ms', l4['reason']).group(1)
print(l4['simulations'], l4['excluded_before_simulating'], d['H100-80GB']['feasible'], v)")
    expect_eq "$1 $2 $3" "0 True True" "${slo%%:*}: the L4 excluded before simulating, the H100 searched"
    run=$(sql lone.db "SELECT 1000 * (${slo#*:}) FROM latency l JOIN run r USING (run_id) WHERE r.name = 'light'")
    checks=$((checks + 1))
    python3 -c "import sys; b, r = $4, $run; sys.exit(not (b <= r and b >= 0.98 * r))" ||
        fail "${slo%%:*}: bound $4 ms against the light-load run's ${slo#*:} $run ms"
done
expect_exit 0 "plan table, counts" -- "$FLEETSIM" plan lone.ini --slo 'tpot_p99<=40ms' \
    --gpus L4,H100-80GB --db lone.db --purchase on-demand -j 1
expect_in "$TMP/out" "simulations: 1 run for 2 candidates; 1 excluded before simulating (1 by a lone request's bound)" \
    "the simulations and the exclusions counted"
# The answer is the unpruned search's: the Azure conversation trace's
# first 15 minutes on L4 and L40S in bf16 and fp8; --no-prune simulates
# both L4s (their metrics stop moving above the bounds, up to 256 and
# 128 instances) where the bound excludes them at once: the L4 in fp8 by
# its 4,092-token prompts' prefill (497.7 ms) and the output lag's step
# (37.6 ms), 535.3 ms, over 500 ms + 2%.
for prune in "" --no-prune; do
    expect_exit 0 "plan trace $prune" -- "$FLEETSIM" plan "$SRCDIR/scenarios/llm-azure-conv.ini" \
        --set scenario.horizon=15m --slo 'ttft_p99<=500ms,tpot_p99<=50ms' \
        --gpus L4,L40S --precision bf16,fp8 --db "prune$prune.db" --format json -j 1 \
        --purchase on-demand $prune
    cp "$TMP/out" "prune$prune.json"
done
same='import json, sys
strip = lambda d: [(e["gpu"], e["precision"], e["count"], e["feasible"], e["monthly_cost_usd"], e["run"]) for e in d]
a, b = (json.load(open(f)) for f in sys.argv[1:3])
l4 = lambda d: [e for e in d if e["gpu"] == "L4"]
print(strip(a) == strip(b), sum(e["simulations"] for e in a), sum(e["simulations"] for e in b),
      all(e["simulations"] == 0 and e["excluded_before_simulating"] for e in l4(a)),
      min(e["simulations"] for e in l4(b)), len(l4(a)))'
set -- $(python3 -c "$same" prune.json prune--no-prune.json)
expect_eq "$1" True "the pruned plan is the unpruned one"
expect_eq "$2 $3" "5 22" "simulations: 5 pruned (L40S fp8 1, bf16 4), 22 with --no-prune"
expect_eq "$4 $6" "True 2" "pruned: both L4s not simulated, excluded before"
checks=$((checks + 1))
[ "$5" -ge 4 ] || fail "--no-prune: an L4 simulated only $5 times"
expect_eq "$(sql prune.db "SELECT count(*) FROM run WHERE name LIKE 'plan[gpu=L4,%'")" 0 "pruned: no L4 run stored"
# Sound: each bound is at most the TTFT p99 the unpruned search measured
# at the L4's largest count (more instances no longer help there), and
# over the SLO by more than the histogram's error.
for prec in bf16 fp8; do
    bound=$(python3 -c "
import json, re
e = [e for e in json.load(open('prune.json')) if e['gpu'] == 'L4' and e['precision'] == '$prec'][0]
v, u = re.search(r'ttft_p99 at least ([0-9.]+)(ms|s)', e['reason']).groups()
print(float(v) / (1000 if u == 'ms' else 1))")
    most=$(sql prune--no-prune.db "SELECT l.ttft_p99_s FROM latency l JOIN run r USING (run_id) WHERE r.name LIKE 'plan[gpu=L4,precision=$prec,%' ORDER BY r.run_id DESC LIMIT 1")
    checks=$((checks + 1))
    python3 -c "import sys; b, m = $bound, $most; sys.exit(not (0.51 < b <= m))" ||
        fail "L4 $prec: bound $bound s against the unpruned run's ttft_p99 $most s at its largest count"
done
expect_in prune.json "a 4092-token prompt's prefill alone, its first token handed out a 37.6ms decode step late (output_lag)" \
    "the L4 fp8's reason: the prompt and the output lag's step"

# ---- what the scenario makes a choice: routing, spec on or off, P/D ratio
# Multi-turn chat with a prefix cache and a draft model on A10G fp8: plan
# tries least-loaded and prefix-aware routing, each with speculative
# decoding on and off.  Each alternative is then run by `fleetsim run`
# (same seed) at the count plan gives it and one fewer: the first meets
# both SLOs, the second does not, so each alternative's count is its
# smallest; the plan's first is the cheapest of them (count x the A10G's
# price, all on demand), and prefix-aware needs fewer replicas than
# least-loaded (its hit rate is higher).
printf '%s\n' '[scenario]' 'name = rs' 'horizon = 20m' 'seed = 3' '[pool.p]' \
    'gpu = A10G' 'provider = aws' 'count = 2' 'prefix_cache = yes' '[workload.chat]' \
    'pools = p' 'arrivals = poisson(rate=8/s)' 'service = llm(model=llama-3-8b, precision=fp8)' \
    'tokens_in = const(400)' 'tokens_out = const(150)' 'sessions = turns(mean=4, think=20s)' \
    'spec = draft(model=llama-3.2-1b, k=4, acceptance=0.7)' >rs.ini
slo='ttft_p99<=2s,tpot_p99<=60ms'
expect_exit 0 "plan choices" -- "$FLEETSIM" plan rs.ini --slo "$slo" --precision fp8 \
    --max-unfinished 5% --db rs.db --purchase on-demand --format json -j 2
cp "$TMP/out" rs.json
python3 -c "
import json
for e in json.load(open('$TMP/rs.json')):
    print(e['routing'], 'on' if e['spec'] else 'off', e['count'], '%.2f' % e['monthly_cost_usd'])" >rs.txt
expect_eq "$(wc -l <rs.txt | tr -d ' ')" 4 "two routings x spec on and off: four candidates"
# each alternative, run: its count meets both SLOs, one fewer does not
meets() {   # meets ROUTING SPEC COUNT: 1 when that run meets both SLOs
    set -- "$1" "$2" "$3"
    spec=; [ "$2" = off ] && spec="--set workload.chat.spec=none"
    "$FLEETSIM" run rs.ini --db rsrun.db --quiet --name "alt-$1-$2-$3" \
        --set "pool.p.routing=$1" --set "pool.p.count=$3" \
        --set 'workload.chat.service=llm(model=llama-3-8b,precision=fp8,tp=1)' \
        $spec >/dev/null 2>&1 || { echo run-failed; return; }
    sql rsrun.db "SELECT ttft_p99_s <= 2 AND tpot_p99_s <= 0.06 AND (unfinished + dropped) <= 0.05 * arrivals FROM latency l JOIN run r USING (run_id) WHERE r.name = 'alt-$1-$2-$3'"
}
while read -r routing spec count cost; do
    expect_eq "$(meets "$routing" "$spec" "$count")" 1 "$routing spec $spec: meets the SLOs at $count (run)"
    expect_eq "$(meets "$routing" "$spec" $((count - 1)))" 0 "$routing spec $spec: fails at $((count - 1)) (run)"
done <rs.txt
set -- $(python3 -c "
import sys
rows = [l.split() for l in open('$TMP/rs.txt')]
price = float(rows[0][3]) / int(rows[0][2])
cheapest = min(int(r[2]) for r in rows) * price
ll = min(int(r[2]) for r in rows if r[0] == 'least-loaded')
pa = min(int(r[2]) for r in rows if r[0] == 'prefix-aware')
print(abs(float(rows[0][3]) - cheapest) < 0.01, pa < ll, rows[0][0], rows[0][1])")
expect_eq "$1" True "the plan's first is the cheapest alternative that meets the SLOs"
expect_eq "$2 $3" "True prefix-aware" "prefix-aware needs fewer replicas, and is chosen"
expect_eq "$(sql rs.db "SELECT count(*) FROM run WHERE name LIKE 'plan[gpu=A10G,precision=fp8,tp=1,pa,nospec,count=%'")" \
    "$(python3 -c "import json; print([e for e in json.load(open('$TMP/rs.json')) if e['choice'] == 'routing=prefix-aware,spec=off'][0]['simulations'])")" \
    "the choice in the runs' names"
# A prefill pool and a decode pool (llama-3-8b on A100s, 2,000-token
# prompts): plan sizes the prefill pool at each prefill:decode ratio, the
# decode pool following it, and the colocated alternative (the prefill
# pool alone, the decode pool at 0); each checked by a run as above.
printf '%s\n' '[scenario]' 'name = pd' 'horizon = 20m' 'seed = 4' '[pool.pre]' \
    'gpu = A100-80GB' 'provider = aws' 'count = 1' 'role = prefill' 'network_gbps = 100' \
    '[pool.dec]' 'gpu = A100-80GB' 'provider = aws' 'count = 1' 'role = decode' \
    'network_gbps = 100' '[workload.chat]' 'pools = pre, dec' 'arrivals = poisson(rate=6/s)' \
    'service = llm(model=llama-3-8b, precision=bf16)' 'tokens_in = const(2000)' \
    'tokens_out = const(200)' >pd.ini
slo='ttft_p99<=1s,tpot_p99<=30ms'
expect_exit 0 "plan pd ratio" -- "$FLEETSIM" plan pd.ini --slo "$slo" --db pd.db \
    --try pd-ratio=2:1,1:1,colocated --purchase on-demand --format json -j 2
python3 -c "
import json
for e in json.load(open('$TMP/out')):
    print(e['pd_ratio'], e['count'], e.get('partner_count', 0), '%.2f' % e['monthly_cost_usd'])" >pd.txt
expect_eq "$(cut -d' ' -f1 pd.txt | sort | tr '\n' ' ')" "1:1 2:1 colocated " "the ratios asked and colocated"
pdmeets() {   # pdmeets RATIO COUNT PARTNER
    if [ "$1" = colocated ]; then
        sets="--set pool.pre.role=colocated --set pool.dec.role=colocated --set pool.dec.count=0 --set workload.chat.pools=pre"
    else
        sets="--set pool.dec.count=$3"
    fi
    "$FLEETSIM" run pd.ini --db pdrun.db --quiet --name "pd-$1-$2" --set "pool.pre.count=$2" \
        $sets >/dev/null 2>&1 || { echo run-failed; return; }
    sql pdrun.db "SELECT ttft_p99_s <= 1 AND tpot_p99_s <= 0.03 AND (unfinished + dropped) <= 0.01 * arrivals FROM latency l JOIN run r USING (run_id) WHERE r.name = 'pd-$1-$2'"
}
while read -r ratio count partner cost; do
    less=$(python3 -c "import math; r = '$ratio'; print(0 if r == 'colocated' else math.ceil(($count - 1) * int(r.split(':')[1]) / int(r.split(':')[0])))")
    expect_eq "$(pdmeets "$ratio" "$count" "$partner")" 1 "pd $ratio: meets the SLOs at $count+$partner (run)"
    expect_eq "$(pdmeets "$ratio" $((count - 1)) "$less")" 0 "pd $ratio: fails at $((count - 1))+$less (run)"
done <pd.txt
expect_eq "$(python3 -c "
rows = [l.split() for l in open('$TMP/pd.txt')]
print(float(rows[0][3]) <= min(float(r[3]) for r in rows))")" True "P/D: the first is the cheapest alternative"
expect_exit 2 "pd-ratio on a colocated pool" -- "$FLEETSIM" plan lone.ini --slo 'ttft_p99<=1s' \
    --try pd-ratio=1:1 --db bad.db
expect_in "$TMP/err" "--try pd-ratio: workload 'chat' has no such choice (it needs a prefill pool and a decode pool" "--try pd-ratio refused without P/D"
expect_exit 2 "bad pd-ratio" -- "$FLEETSIM" plan pd.ini --slo 'ttft_p99<=1s' --try pd-ratio=1:0 --db bad.db
expect_in "$TMP/err" "--try pd-ratio: expected PREFILL:DECODE" "--try pd-ratio checked"
expect_exit 2 "routing without prefix identity" -- "$FLEETSIM" plan lone.ini --slo 'ttft_p99<=1s' \
    --try routing=prefix-aware --db bad.db
expect_in "$TMP/err" "--try routing: workload 'chat' has no such choice" "--try routing refused without a prefix cache"
expect_exit 2 "unknown choice" -- "$FLEETSIM" plan pd.ini --slo 'ttft_p99<=1s' --try ratio=1:1 --db bad.db
expect_in "$TMP/err" "--try: expected routing=LIST, pd-ratio=LIST or spec=LIST, got 'ratio=1:1'" "--try names a kind"

# ---- diurnal traffic, autoscaled: plan's reserved k = roi's on its run
cat >diurnal.ini <<'INI'
[scenario]
name = diurnal
horizon = 2d
seed = 3
metrics_interval = 1h
[pool.od]
gpu = L4
provider = aws
pricing = on-demand
autoscale = utilization(target=70%)
min = 1
max = 12
autoscale_interval = 1m
cooldown = 10m
provision_delay = 2m
[workload.chat]
pools = od
arrivals = diurnal(peak=4/s, trough=0.5/s, peak_hour=14)
service = exponential(mean=1s)
INI
expect_exit 0 "plan diurnal" -- "$FLEETSIM" plan diurnal.ini --slo 'p99<=20s' \
    --db d.db --purchase on-demand,reserved --format json -j 1
set -- $(python3 -c "import json; e = json.load(open('$TMP/out'))[0]; print(e['run'], e['reserved_count'], e['purchase'], '%.2f' % e['monthly_cost_usd'], e['min'], e['max'])")
run=$1 k=$2
expect_eq "$3" reserved "diurnal: reserving is cheapest"
expect_eq "$5" 1 "autoscaling floor kept"
expect_exit 0 "roi on the plan's run" -- "$FLEETSIM" roi --db d.db "$run" --format json
set -- $(python3 -c "import json; r = json.load(open('$TMP/out'))[0]; print(r['recommended_count'], '%.2f' % r['with_reservation_cost_usd'])") "$4"
expect_eq "$1" "$k" "plan's reserved k = roi's recommended_count"
expect_eq "$2" "$3" "plan's monthly = roi's with_reservation_cost_usd"

# ---- --purchase spot on a fixed fleet: the chosen count re-simulated as a
# spot pool, priced as roi prices that run
sed 's/^autoscale.*//; s/^min = 1//; s/^max = 12/count = 3/; s/^autoscale_interval.*//; s/^cooldown.*//' diurnal.ini >fixed.ini
expect_exit 0 "plan spot" -- "$FLEETSIM" plan fixed.ini --slo 'p99<=20s' \
    --db s.db --purchase on-demand,spot --format json -j 1
set -- $(python3 -c "import json; e = json.load(open('$TMP/out'))[0]; print(e['run'], '%.2f' % e['monthly_cost_by_purchase']['spot'])")
spotrun="${1%]},spot]"
expect_exit 0 "roi on the spot run" -- "$FLEETSIM" roi --db s.db "$spotrun" --format json
got=$(python3 -c "import json; print('%.2f' % json.load(open('$TMP/out'))[0]['with_reservation_cost_usd'])")
expect_eq "$got" "$2" "spot mix = roi's on the spot run"
expect_eq "$(sql s.db "SELECT pricing FROM pool WHERE run_id = (SELECT run_id FROM run WHERE name = '$spotrun')")" spot "the spot run's pool is spot"

# ---- bad input
expect_exit 2 "no slo" -- "$FLEETSIM" plan mmc.ini --db bad.db
expect_in "$TMP/err" "--slo is required" "no slo"
expect_exit 2 "bad slo syntax" -- "$FLEETSIM" plan mmc.ini --db bad.db --slo 'p99=2s'
expect_in "$TMP/err" "expected METRIC<=VALUE" "bad slo syntax"
expect_exit 2 "unknown metric" -- "$FLEETSIM" plan mmc.ini --db bad.db --slo 'p98<=2s'
expect_in "$TMP/err" "unknown metric 'p98' (did you mean" "unknown metric"
expect_exit 2 "bad duration" -- "$FLEETSIM" plan mmc.ini --db bad.db --slo 'p99<=2 parsecs'
expect_in "$TMP/err" "expected a duration" "bad duration"
expect_exit 2 "attainment <=" -- "$FLEETSIM" plan mmc.ini --db bad.db --slo 'attainment<=99%'
expect_exit 2 "unknown gpu" -- "$FLEETSIM" plan mmc.ini --db bad.db --slo 'p99<=6s' --gpus H100-80G
expect_in "$TMP/err" "unknown GPU 'H100-80G'" "unknown gpu"
expect_in "$TMP/err" "did you mean" "unknown gpu suggests"
expect_exit 2 "precision on generic" -- "$FLEETSIM" plan mmc.ini --db bad.db --slo 'p99<=6s' --precision fp8
expect_exit 2 "bad purchase" -- "$FLEETSIM" plan mmc.ini --db bad.db --slo 'p99<=6s' --purchase reservd
expect_in "$TMP/err" "did you mean 'reserved'" "bad purchase suggests"
expect_exit 1 "bad pool" -- "$FLEETSIM" plan mmc.ini --db bad.db --slo 'p99<=6s' --pool q
expect_in "$TMP/err" "--pool q is not a pool of workload 'w'" "bad pool"
expect_exit 2 "bad format" -- "$FLEETSIM" plan mmc.ini --db bad.db --slo 'p99<=6s' --format xml
expect_exit 2 "unknown option" -- "$FLEETSIM" plan mmc.ini --slo 'p99<=6s' --gpu L4
printf '[scenario]\nhorizon = 1h\n[pool.p]\ngpu = L4\ncount = 1\nprice = 1\n' >noload.ini
expect_exit 1 "no workload" -- "$FLEETSIM" plan noload.ini --db bad.db --slo 'p99<=6s'
expect_in "$TMP/err" "no inference workload" "no workload"
expect_exit 1 "unknown workload" -- "$FLEETSIM" plan mmc.ini --db bad.db --slo 'p99<=6s' --workload chat
expect_in "$TMP/err" "no inference workload 'chat'" "unknown workload"
checks=$((checks + 1)); [ ! -e bad.db ] || [ "$(sql bad.db 'SELECT count(*) FROM run')" = 0 ] || fail "bad input stored runs"

report
