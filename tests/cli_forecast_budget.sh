#!/bin/sh
# cli_forecast_budget.sh -- `fleetsim forecast` against budgets, by hand.
#
# Two fixed on-demand pools at $1/h for one 730-hour month: ml (1
# instance, tags team:ml) and web (3, team:web); the workload on ml grows
# 10%/month without spread.  The bill is 4 x 730 = $2,920 a month, team:ml's
# run rate $730 (its share 1/4).  With a horizon of exactly 730 h the
# forecast's closed form is simple: month m's factor is the mean of
# (1.1)^(t / 730) over [730 m, 730 (m + 1)] over its mean over [0, 730],
# which is 1.1^m.  So team:ml's forecast is 730 x 1.1^m = $803.00, $883.30,
# $971.63 and the whole run's 2920 x 1.1^m = $3,212.00, $3,533.20,
# $3,886.52.
# - the scenario's team:ml=900/month is within the run (730 < 900: run
#   exits 0) and breached by the forecast only in month 3, by 971.63 - 900
#   = $71.63 (8.0%): exit 3, a Markdown table naming team:ml, month 3 and
#   the overrun, and no row for months 1 and 2;
# - forecast --budget 3800 (the whole run's): month 3 only, by $86.52;
#   --budget 5000 with team:ml=1000 (never breached): exit 0, "within";
# - JSON carries the same figures; a bad --budget is a usage error (exit 2,
#   as run's), nothing printed on stdout.
. "$(dirname "$0")/cli_lib.sh"
cd "$TMP" || exit 1
cat >fb.ini <<'INI'
[scenario]
name = fb
start = 2026-01-01
horizon = 730h
seed = 3
metrics_interval = 1h
budgets = team:ml=900/month
[pool.ml]
gpu = L4
price = $1/h
pricing = on-demand
count = 1
tags = team:ml
[pool.web]
gpu = L4
price = $1/h
pricing = on-demand
count = 3
tags = team:web
[workload.w]
pools = ml
arrivals = poisson(rate=0.001/s)
service = exponential(mean=10m)
growth = 10%/month
INI
# hand figures: rate x 1.1^m, to the cent
hand() { awk -v r="$1" -v m="$2" 'BEGIN { printf "%.2f", r * 1.1 ^ m }'; }

expect_exit 0 "the run is within its budget" -- "$FLEETSIM" run fb.ini --db fb.db --quiet
expect_eq "$(sql fb.db "SELECT scope, limit_usd, spend_usd, overrun_usd FROM budget")" "team:ml|900.0|730.0|0.0" "the run's stored budget"
expect_eq "$(sql fb.db "SELECT cost_per_month_usd FROM run_summary")" "2920.0" "the bill a month"

# ---- the stored tag budget, breached in month 3 only ----
expect_exit 3 "over in month 3" -- "$FLEETSIM" forecast 1 --db fb.db
cp out md.txt
over=$(awk -v f="$(hand 730 3)" 'BEGIN { printf "%.2f", f - 900 }')
expect_eq "$over" "71.63" "hand overrun"
expect_in md.txt "### fleetsim forecast budget check: over budget" "the heading"
expect_in md.txt "| team:ml | 3 | \$900.00 | \$$(hand 730 3) | **\$$over** (8.0% over) |" "month 3 named with the overrun"
expect_eq "$(grep -c '^| team:ml |' md.txt)" 1 "months 1 and 2 within: one row"
expect_in md.txt "       3          2190          2920       $(hand 2920 3)" "the bill of month 3"

# ---- forecast --budget: the whole run's ----
expect_exit 3 "--budget 3800" -- "$FLEETSIM" forecast 1 --db fb.db --budget 3800/month --format markdown
over=$(awk -v f="$(hand 2920 3)" 'BEGIN { printf "%.2f", f - 3800 }')
expect_in out "| whole run (forecast --budget) | 3 | \$3,800.00 | \$3,886.52 | **\$$over** (2.3% over) |" "the whole run over in month 3"
expect_eq "$(grep -c '^| whole run' out)" 1 "only month 3 over 3800"

# ---- never breached: exit 0 ----
sed 's/team:ml=900/team:ml=1000/' fb.ini >fine.ini
expect_exit 0 "fine run" -- "$FLEETSIM" run fine.ini --db fine.db --quiet
expect_exit 0 "never breached" -- "$FLEETSIM" forecast 1 --db fine.db --budget 5000
expect_in out "budget check: within budget" "within"
expect_in out "| team:ml | 3 (highest) | \$1,000.00 | \$971.63 | within |" "the highest month shown"
expect_in out "| whole run (forecast --budget) | 3 (highest) | \$5,000.00 | \$3,886.52 | within |" "the whole run within"

# ---- JSON: the same figures, and the exit status ----
expect_exit 3 "json" -- "$FLEETSIM" forecast 1 --db fb.db --format json
near "$(tr -d ' \n' <out | sed 's/.*"month":3,"forecast_usd":\([0-9.]*\),"overrun_usd":\([0-9.]*\).*/\1 \2/' | cut -d' ' -f2)" 71.63 0.005 "json overrun"
expect_exit 3 "csv: exit status only" -- "$FLEETSIM" forecast 1 --db fb.db --format csv
expect_eq "$(wc -l <out | tr -d ' ')" 4 "csv: the months alone"

# ---- bad --budget: usage error ----
for bad in -5 0 nan 100/week abc; do
    expect_exit 2 "bad --budget $bad" -- "$FLEETSIM" forecast 1 --db fb.db --budget "$bad"
    expect_in "$TMP/err" "--budget" "bad --budget '$bad' named"
    expect_eq "$(wc -c <"$TMP/out" | tr -d ' ')" 0 "nothing printed for '$bad'"
done
report
