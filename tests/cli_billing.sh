#!/bin/sh
# cli_billing.sh -- monthly costs in the database, exact to the cent, for
# on-demand and reserved pools over January and February 2026 (744 h and
# 672 h), and over a partial February.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/bill.db"
cat >"$TMP/bill.ini" <<'INI'
[scenario]
name = jan-feb
start = 2026-01-01
horizon = 59d
metrics_interval = 1h
[pool.od]
gpu = A100-80GB
count = 2
price = 4.10
[pool.resv]
gpu = A100-80GB
gpus_per_instance = 8
pricing = reserved
term = 1y
upfront = partial
price = 1.50
upfront_price = 6000
count = 3
[workload.w]
pools = resv, od
arrivals = poisson(rate=2/s)
service = exponential(mean=1s)
INI
expect_exit 0 "billing run" -- "$FLEETSIM" run "$TMP/bill.ini" --db "$DB" --quiet
q() { sql "$DB" "SELECT printf('%.2f', cost_usd) FROM cost_monthly WHERE pool = '$1' AND month = '$2'"; }
# on-demand: 2 x 744 x 4.10 and 2 x 672 x 4.10
expect_eq "$(q od 2026-01)" 6100.80 "on-demand January"
expect_eq "$(q od 2026-02)" 5510.40 "on-demand February"
# reserved: 3 x (744 x 1.50 + 6000/12) and 3 x (672 x 1.50 + 500)
expect_eq "$(q resv 2026-01)" 4848.00 "reserved January"
expect_eq "$(q resv 2026-02)" 4524.00 "reserved February"
expect_eq "$(sql "$DB" "SELECT pricing FROM cost_monthly WHERE pool = 'resv' LIMIT 1")" reserved "pricing column"
expect_eq "$(sql "$DB" "SELECT printf('%.1f', gpu_hours) FROM cost_monthly WHERE pool = 'resv' AND month = '2026-01'")" 17856.0 "reserved GPU-hours (3 x 8 x 744)"
expect_eq "$(sql "$DB" "SELECT printf('%.2f', total_cost_usd) FROM run_summary")" 20983.20 "total"
expect_eq "$(sql "$DB" "SELECT printf('%.2f', cost_per_month_usd) FROM run_summary")" 10491.60 "per month over 2 months"

# Partial month: 45 days end on 15 February: half of February's hours and
# half of its upfront share.
expect_exit 0 "partial run" -- "$FLEETSIM" run "$TMP/bill.ini" --db "$DB" --quiet --set scenario.horizon=45d --name partial
q2() { sql "$DB" "SELECT printf('%.2f', cost_usd) FROM cost_monthly c JOIN run r USING (run_id) WHERE r.name = 'partial' AND pool = '$1' AND month = '$2'"; }
expect_eq "$(q2 od 2026-02)" 2755.20 "on-demand 14 days of February"
expect_eq "$(q2 resv 2026-02)" 2262.00 "reserved 14 days of February (3 x (336 x 1.5 + 250))"
expect_eq "$(sql "$DB" "SELECT months FROM run WHERE name = 'partial'")" 1.5 "1.5 calendar months"

# The horizon cuts the bill: instances still up at the end are billed to
# the horizon, without the 60 s minimum (that is for terminations).  Two
# instances at $36/h for a 30 s horizon: 2 x $0.30, not 2 x $0.60.
expect_exit 0 "30 s horizon" -- "$FLEETSIM" run "$TMP/bill.ini" --db "$DB" --quiet --set scenario.horizon=30s --set pool.od.price=36 --set pool.resv.count=0 --name short
expect_eq "$(sql "$DB" "SELECT printf('%.2f', cost_usd) FROM cost_monthly c JOIN run r USING (run_id) WHERE r.name = 'short' AND pool = 'od'")" 0.60 "30 s horizon bills 30 s per instance"
report
