#!/bin/sh
# cli_owned.sh -- an owned pool's bill against a hand computation, the
# energy model at its two ends, and the owned option's bad input.
#
# tests/owned-8gpu.ini: one server of 8 x H100-80GB for June 2026 (30
# days, 720 h), bought for $250,000, written off over 5 years, maintenance
# 10% of the price a year, colocation $150 per kW-month, energy $0.10 a
# kWh, PUE 1.3, the rest of the server 0.5 W per W of GPU; one 8-GPU job of
# 240 h, so 1,920 of the 5,760 GPU-hours are busy (utilization 1/3).  The
# H100's datasheet TDP is 700 W (gpus.csv); its idle_w is a published
# measurement, 73 W (nvidia-smi of an idle H100 80GB HBM3, gpus.csv's
# idle_source), not the 15%-of-TDP fallback (105 W) rows without one take
# (models/catalog/SOURCES.md, Power).
. "$(dirname "$0")/cli_lib.sh"
INI="$SRCDIR/tests/owned-8gpu.ini"
DB="$TMP/owned.db"

# The hand computation, written out here apart from the code: every line
# of the bill for the 720 hours, each rounded to the cent, and the month.
hand() {
    awk 'BEGIN {
        hours = 720; price = 250000; years = 5; gpus = 8
        tdp = 700; idle = 73; host = 0.5; pue = 1.3; kwh_usd = 0.10
        gpu_h = gpus * hours; busy_h = 8 * 240
        capex = price / (years * 8760) * hours                # 4109.589041
        maint = 0.10 * price / 8760 * hours                   # 2054.794521
        kw = gpus * tdp * (1 + host) / 1000                   # 8.4 kW rated
        colo = 150 * kw * hours / 730                         # 1242.739726
        kwh = (gpu_h * idle + busy_h * (tdp - idle)) / 1000 * (1 + host) * pue
        power = kwh * kwh_usd                                 # 3167.424 kWh
        c = sprintf("%.2f", capex); p = sprintf("%.2f", power)
        l = sprintf("%.2f", colo); m = sprintf("%.2f", maint)
        printf "%s %s %s %s %.2f %.2f\n", c, p, l, m, c + p + l + m, kwh
    }'
}
set -- $(hand)
h_capex=$1 h_power=$2 h_colo=$3 h_maint=$4 h_month=$5 h_kwh=$6
expect_eq "$h_month" "7723.86" "the hand computation itself (capex + power + colocation + maintenance)"

expect_exit 0 "owned run" -- sh -c "cd '$SRCDIR' && '$FLEETSIM' run tests/owned-8gpu.ini --db '$DB' --quiet"
row() { sql "$DB" "SELECT printf('%.2f', cost_usd) FROM cost_monthly WHERE month = '2026-06' AND pricing = '$1'"; }
expect_eq "$(row owned)" "$h_capex" "capex: the price over 5 x 8,760 h, for 720 h"
expect_eq "$(row owned-power)" "$h_power" "power: the energy at the meter x energy_price"
expect_eq "$(row owned-colocation)" "$h_colo" "colocation: 8.4 kW rated x \$150 a 730-h month, for 720 h"
expect_eq "$(row owned-maintenance)" "$h_maint" "maintenance: 10% of the price a year, for 720 h"
expect_eq "$(sql "$DB" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_monthly WHERE month = '2026-06'")" "$h_month" "June's bill: the hand computation to the cent"
expect_eq "$(sql "$DB" "SELECT count(*) FROM cost_monthly")" "4" "one row a line, one month"
expect_eq "$(sql "$DB" "SELECT printf('%.2f', energy_kwh) FROM pool")" "$h_kwh" "pool.energy_kwh: what the power line bills"
expect_eq "$(sql "$DB" "SELECT gpu_hours_busy FROM pool")" "1920.0" "utilization as built: 1,920 busy GPU-hours"
# the showback shares the whole bill, power and the rest, and the energy:
# the job's 1,920 GPU-hours at 700 W, the idle 3,840 at 73 W, x 1.5 x 1.3
expect_eq "$(sql "$DB" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_allocation")" "$h_month" "showback: the month's bill, every line"
expect_eq "$(sql "$DB" "SELECT printf('%.2f', energy_kwh) FROM cost_allocation WHERE workload = 'train'")" "$(awk 'BEGIN { printf "%.2f", 1920 * 700 * 1.5 * 1.3 / 1000 }')" "showback: the job's energy, busy at TDP"
expect_eq "$(sql "$DB" "SELECT printf('%.2f', sum(energy_kwh)) FROM cost_allocation")" "$h_kwh" "showback: the rows' energy adds up to the pool's"
# the summary says the same, and the monthly figure says which month it is
expect_exit 0 "owned summary" -- sh -c "cd '$SRCDIR' && '$FLEETSIM' run tests/owned-8gpu.ini --db '$TMP/s.db'"
expect_in "$TMP/out" "2026-06   dgx                   owned-power" "the summary's power row"
expect_in "$TMP/out" "monthly run rate (730 h)" "the run rate says its 730 hours"
expect_in "$TMP/out" "0.5499" "summary: kWh a GPU-hour (3,167.424 / 5,760)"

# Energy per GPU-hour at 0% and 100% utilization: idle and TDP times PUE
# (host_share 0: the GPU alone).  No job: idle all month; a 720-h job: busy
# all month.  A cloud pool of the same GPUs: PUE 1.
printf 'job_id,submit_s,gpus,duration_s\nall,0,8,2592000\n' >"$TMP/full.csv"
per_gh() {   # per_gh DB: kWh a provisioned GPU-hour of the run's pool
    sql "$1" "SELECT printf('%.6f', energy_kwh / gpu_hours_provisioned) FROM pool"
}
# the job is submitted after the horizon: nothing runs in June
printf 'job_id,submit_s,gpus,duration_s\nlate,2600000,8,3600\n' >"$TMP/late.csv"
expect_exit 0 "owned idle" -- sh -c "cd '$SRCDIR' && '$FLEETSIM' run tests/owned-8gpu.ini --db '$TMP/idle.db' --quiet --set pool.dgx.host_share=0 --set 'workload.train.jobs=trace($TMP/late.csv, format=generic)'"
expect_eq "$(sql "$TMP/idle.db" "SELECT gpu_hours_busy FROM pool")" "0.0" "no GPU busy"
expect_eq "$(per_gh "$TMP/idle.db")" "$(awk 'BEGIN { printf "%.6f", 73 * 1.3 / 1000 }')" "0% utilization: the sourced idle (73 W) x PUE 1.3 a GPU-hour"
# A GPU with no published idle (A100 80GB: idle_w empty) takes the
# documented fallback, 15% of its 400 W TDP: 60 W, and its catalog row says so.
expect_exit 0 "owned idle, fallback rule" -- sh -c "cd '$SRCDIR' && '$FLEETSIM' run tests/owned-8gpu.ini --db '$TMP/idle-a100.db' --quiet --set pool.dgx.host_share=0 --set pool.dgx.gpu=A100-80GB --set 'workload.train.jobs=trace($TMP/late.csv, format=generic)'"
expect_eq "$(per_gh "$TMP/idle-a100.db")" "$(awk 'BEGIN { printf "%.6f", 0.15 * 400 * 1.3 / 1000 }')" "0% utilization, no measured idle: 15% of the 400 W TDP x PUE 1.3"
expect_eq "$(grep -c '^A100-80GB,.*,,not measured here: 15% of tdp_w' "$SRCDIR/models/catalog/gpus.csv")" "1" "the fallback row says it is the rule"
expect_exit 0 "owned busy" -- sh -c "cd '$SRCDIR' && '$FLEETSIM' run tests/owned-8gpu.ini --db '$TMP/full.db' --quiet --set pool.dgx.host_share=0 --set 'workload.train.jobs=trace($TMP/full.csv, format=generic)'"
expect_eq "$(sql "$TMP/full.db" "SELECT gpu_hours_busy = gpu_hours_provisioned FROM pool")" "1" "the 720-h job keeps every GPU busy"
expect_eq "$(per_gh "$TMP/full.db")" "$(awk 'BEGIN { printf "%.6f", 700 * 1.3 / 1000 }')" "100% utilization: TDP (700 W) x PUE 1.3 a GPU-hour"
cat >"$TMP/cloud.ini" <<INI
[scenario]
name = cloud-8gpu
start = 2026-06-01
horizon = 30d
[pool.p5]
instance = aws:p5.48xlarge
count = 1
[workload.train]
kind = training
pools = p5
jobs = trace($TMP/full.csv, format=generic)
INI
expect_exit 0 "cloud busy" -- "$FLEETSIM" run "$TMP/cloud.ini" --db "$TMP/cloud.db" --quiet
expect_eq "$(per_gh "$TMP/cloud.db")" "0.700000" "a cloud pool busy: its GPUs' TDP at PUE 1, as information"
expect_eq "$(sql "$TMP/cloud.db" "SELECT count(*) FROM cost_monthly WHERE pricing LIKE '%power%'")" "0" "a cloud pool bills no power"
expect_exit 0 "compare shows energy" -- "$FLEETSIM" compare --db "$TMP/cloud.db" 1 --format csv
expect_in "$TMP/out" "energy_kwh_per_gpu_hour" "compare: energy a GPU-hour"

# A measured idle_w in a user's gpus.csv replaces the rule; one above the
# TDP is refused at its file, line and column.
mkdir -p "$TMP/cat"
cp "$SRCDIR"/models/catalog/*.csv "$TMP/cat/"
sed 's/^\(H100-80GB,.*\),73,[^,]*\(,[^,]*,[^,]*\)$/\1,60,a measurement\2/' "$SRCDIR/models/catalog/gpus.csv" >"$TMP/cat/gpus.csv"
expect_exit 0 "measured idle" -- sh -c "cd '$SRCDIR' && FLEETSIM_CATALOG='$TMP/cat' '$FLEETSIM' run tests/owned-8gpu.ini --db '$TMP/idle60.db' --quiet --set pool.dgx.host_share=0 --set 'workload.train.jobs=trace($TMP/late.csv, format=generic)'"
expect_eq "$(per_gh "$TMP/idle60.db")" "$(awk 'BEGIN { printf "%.6f", 60 * 1.3 / 1000 }')" "0% utilization with a measured 60 W idle"
line=$(grep -n '^H100-80GB,' "$TMP/cat/gpus.csv" | cut -d: -f1)
sed -i 's/^\(H100-80GB,.*\),60,a measurement\(,[^,]*,[^,]*\)$/\1,800,too much\2/' "$TMP/cat/gpus.csv"
expect_exit 1 "idle above the TDP" -- sh -c "cd '$SRCDIR' && FLEETSIM_CATALOG='$TMP/cat' '$FLEETSIM' run tests/owned-8gpu.ini --db '$TMP/bad-idle.db' --quiet"
expect_one_line "idle above the TDP"
expect_in "$TMP/err" "gpus.csv:$line: idle_w: expected watts from 0 to the row's tdp_w (700)" "idle above the TDP: file:line:column"

# Bad input: one file:line:key message, exit 1, no database.
bad() {   # bad NAME SED FRAGMENT
    sed "$2" "$INI" >"$TMP/$1.ini"
    sed -i "s#data/owned_job_240h.csv#$SRCDIR/tests/data/owned_job_240h.csv#" "$TMP/$1.ini"
    bad_run "$1" "$3"
}
bad neg_price 's/^server_price = .*/server_price = -250000/' "neg_price.ini:17: pool.dgx.server_price: an amount must not be negative"
bad low_pue 's/^pue = .*/pue = 0.95/' "low_pue.ini:22: pool.dgx.pue: expected a number from 1 to 5"
bad zero_years 's/^depreciation_years = .*/depreciation_years = 0/' "zero_years.ini:18: pool.dgx.depreciation_years: expected years above 0"
bad no_price '/^server_price/d' "no_price.ini:13: pool.dgx: missing server_price"
bad no_energy '/^energy_price/d' "missing energy_price"
bad hourly 's/^server_price = .*/&\nprice = 4/' "pool.dgx.price: an owned pool is paid by server_price"
bad autoscaled 's/^count = 1/autoscale = utilization(target=0.6)\nmin = 1\nmax = 4/' "owned pools have a fixed count"
bad on_cloud 's/^pricing = owned/pricing = on-demand/' "applies to owned pools only"

report
