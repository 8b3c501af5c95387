#!/bin/sh
# cli_money_by_hand.sh -- the money side recomputed independently from the
# stored utilization, the way a checker with sqlite and a calculator
# would, never through fleetsim's own functions:
#   1. roi on three days of diurnal demand on an autoscaled pool ($3.00/h),
#      with a partial-upfront quote ($6,000 + $0.70/h a year): the demand
#      hour by hour (gpus_provisioned over each hour's six 10-minute
#      samples, 1 GPU an instance: instances launched, provisioning
#      included, as `fleetsim help roi` defines it),
#      the count of least cost (reserving k costs k x ($0.70 + 6000/8760)
#      every hour plus $3.00 for each instance-hour above k), the savings,
#      the reservation's utilization (sum min(d, k) / (k x hours)), the
#      break-even month (k x 6000 / the monthly cash saved) and the NPV
#      (month m of 12 discounted by 1.08^(m/12), the upfront in month 0);
#   2. a savings plan on an autoscaled pool (list $2.00/h, commitment
#      $3.00/h, discount 40%): each hour's usage u = $2.00 x its
#      instance-hours; paid min(u, 3 / 0.6) x 0.6 + the rest at list; unused
#      max(0, 3 - 0.6 u); summed to the cent against cost_monthly;
#   3. spot by the second with no minimum, interrupted by a real trace:
#      $0.918 x the instance-hours the pool was up (the utilization
#      integral), to the cent.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/hand.db"

# Each hour's instance-hours of run RUN (COLUMN: gpus_provisioned, what
# is billed from launch and what roi sizes against; instances_up, those
# up, not those still provisioning), from the 10-minute samples (each
# sample's average over its interval: the integral exactly; 1 GPU each).
hourly() {
    sql "$DB" "SELECT CAST((t_s - 1) / 3600 AS INTEGER), sum(${2:-gpus_provisioned} * 600) / 3600.0 FROM utilization WHERE run_id = $1 GROUP BY 1 ORDER BY 1" |
        tr '|' ' '
}

# ---- 1. roi ---------------------------------------------------------------
cat >"$TMP/roi.ini" <<'INI'
[scenario]
name = diurnal
start = 2026-03-02
horizon = 3d
metrics_interval = 10m
seed = 7
[pool.a]
gpu = L4
price = 3.00
autoscale = utilization(target=70%)
min = 1
max = 30
cooldown = 10m
[workload.chat]
pools = a
arrivals = diurnal(peak=10/s, trough=1/s, peak_hour=15)
service = exponential(mean=1s)
INI
expect_exit 0 "diurnal run" -- "$FLEETSIM" run "$TMP/roi.ini" --db "$DB" --quiet
expect_exit 0 "roi with a partial quote" -- "$FLEETSIM" roi --db "$DB" diurnal \
    --format csv --upfront partial --rate 1y:partial=6000+0.70/h
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
     NR == 2 { printf "%d %.2f %.2f %.2f %.2f %.2f %.2f %.4f\n",
               $c["recommended_count"], $c["on_demand_cost_usd"],
               $c["with_reservation_cost_usd"],
               $c["estimated_monthly_savings_usd"], $c["upfront_cost_usd"],
               $c["break_even_months"], $c["npv_usd"],
               $c["estimated_reservation_utilization"] }' "$TMP/out")
want=$(hourly 1 gpus_provisioned | awk '
    { d[n++] = $2; if ($2 > top) top = $2 }
    END {
        od = 3.00; rate = 0.70 + 6000 / 8760; best = -1
        for (k = 0; k <= top + 1; k++) {
            over = 0
            for (h = 0; h < n; h++) over += (d[h] > k ? d[h] - k : 0)
            cost = k * rate * n + od * over
            if (best < 0 || cost < bestc - 1e-9) { best = k; bestc = cost; bover = over }
        }
        all = 0; used = 0
        for (h = 0; h < n; h++) { all += d[h]; used += (d[h] < best ? d[h] : best) }
        m = 730 / n
        odm = all * od * m; withm = bestc * m; save = odm - withm
        up = best * 6000
        cash = save + up / 12          # the monthly cash saved: no amortization
        be = up / cash
        npv = 0
        for (i = 0; i < 12; i++) npv += (cash - (i == 0 ? up : 0)) / (1.08 ^ (i / 12))
        printf "%d %.2f %.2f %.2f %.2f %.2f %.2f %.4f\n", best, odm, withm,
               save, up, be, npv, used / (best * n)
    }')
checks=$((checks + 1))
[ -n "$want" ] && [ "$(echo "$want" | cut -d' ' -f1)" -gt 0 ] ||
    fail "roi by hand: no reservation worth making ($want)"
expect_eq "$got" "$want" "roi = the hour-by-hour computation (count, on demand, with, savings, upfront, break-even, NPV, utilization)"

# ---- 2. savings plan ------------------------------------------------------
sed -e 's/^price = 3.00$/price = 2.00\npricing = savings-plan\ncommitment = 3.00\/h\ndiscount = 0.40/' \
    -e 's/^name = diurnal$/name = plan/' "$TMP/roi.ini" >"$TMP/plan.ini"
expect_exit 0 "savings plan run" -- "$FLEETSIM" run "$TMP/plan.ini" --db "$DB" --quiet
got=$(sql "$DB" "SELECT group_concat(pricing || ' ' || s, '; ') FROM (SELECT pricing, printf('%.2f', sum(cost_usd)) s FROM cost_monthly WHERE run_id = 2 GROUP BY pricing ORDER BY pricing)")
want=$(hourly 2 | awk '
    { u = 2.00 * $2; cover = 3.00 / 0.6
      paid += (u < cover ? u : cover) * 0.6 + (u > cover ? u - cover : 0)
      unused += (3.00 - 0.6 * u > 0 ? 3.00 - 0.6 * u : 0) }
    END { printf "savings-plan %.2f; savings-plan-unused %.2f", paid, unused }')
expect_eq "$got" "$want" "savings plan: used + overflow and unused, hour by hour"
checks=$((checks + 1))
case $want in *"unused 0.00") fail "the plan is never unused: a weak check" ;; esac

# ---- 3. spot --------------------------------------------------------------
TRACE="$SRCDIR/traces/sample/spot/us-east-1f_v100_1.csv"
cat >"$TMP/spot.ini" <<INI
[scenario]
name = spot
start = 2026-03-02
horizon = 3d
metrics_interval = 10m
[pool.s]
gpu = V100-16GB
pricing = spot
price = 0.918
count = 1
provision_delay = 0s
interruption = trace($TRACE)
[workload.w]
pools = s
arrivals = poisson(rate=0.01/s)
service = exponential(mean=10s)
INI
expect_exit 0 "spot run" -- "$FLEETSIM" run "$TMP/spot.ini" --db "$DB" --quiet
expect_eq "$(sql "$DB" "SELECT interruptions > 5 FROM run_summary WHERE run_id = 3")" 1 "the trace interrupts it"
got=$(sql "$DB" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_monthly WHERE run_id = 3 AND pricing = 'spot'")
want=$(sql "$DB" "SELECT printf('%.2f', 0.918 * sum(gpus_provisioned * 600) / 3600.0) FROM utilization WHERE run_id = 3")
expect_eq "$got" "$want" "spot: \$0.918 x the instance-hours up, by the second, no minimum"

report
