#!/bin/sh
# cli_roi_owned.sh -- `roi --owned`: buy versus rent, against a hand
# computation to the cent.
# One p5.48xlarge (8 x H100, the catalog's TDP 700 W and idle power) on
# demand for 730 h, one 8-GPU training job of 73 h: utilization 0.1.  Owned
# on server_price $250,000 over 5 years, maintenance 8% a year, colocation
# $150 per kW-month, $0.12 a kWh, PUE 1.56 (the default), host_share 0.82:
#   capex       250000 / (5 x 8760) x 730                = $4,166.67
#   colocation  8 x 700 W x 1.82 = 10.192 kW x $150      = $1,528.80
#   maintenance 0.08 x 250000 x 730 / 8760               = $1,666.67
#   power       8 x 730 GPU-h x (73 + 0.1 (700 - 73)) W x 1.82 x 1.56
#               / 1000 x $0.12                           = $270.00
#               (idle: gpus.csv's measured 73 W, else 15% of TDP,
#               doc/energy.md)
# each part to the cent, the total their sum ($7,632.14), as the bill's
# rows are;
# the parts add up to the total; rent = the run's bill (730 h x $55.04 =
# $40,179.20); break-even utilization u where the owned month equals 730
# h x u on demand; break-even months = 250000 / (rent - power - colocation
# - maintenance).  The same server as a pricing = owned pool over the same
# 730 h, same job, is billed the same month to the cent (one arithmetic).
. "$(dirname "$0")/cli_lib.sh"
cd "$TMP" || exit 1
DB="$TMP/o.db"
printf 'job_id,submit_s,gpus,duration_s\nj1,0,8,262800\n' >jobs.csv
cat >o.ini <<'INI'
[scenario]
name = rent
start = 2026-01-01
horizon = 730h
seed = 1
[pool.p]
instance = aws:p5.48xlarge
pricing = on-demand
count = 1
[workload.t]
kind = training
pools = p
jobs = trace(jobs.csv, format=generic)
INI
TERMS=server_price=250000,depreciation_years=5,maintenance=8%,colocation=150,energy_price=0.12,host_share=0.82
expect_exit 0 "run on demand" -- "$FLEETSIM" run o.ini --db "$DB" --quiet
idle=$(awk -F, 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next } $1 == "H100-80GB" { print $c["idle_w"]; exit }' "$SRCDIR/models/catalog/gpus.csv")
tdp=$(awk -F, 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next } $1 == "H100-80GB" { print $c["tdp_w"]; exit }' "$SRCDIR/models/catalog/gpus.csv")
expect_eq "$tdp" "700" "the H100's TDP"
# no measured idle in gpus.csv: 15% of TDP (doc/energy.md)
[ -n "$idle" ] || idle=$(awk -v t="$tdp" 'BEGIN { print 0.15 * t }')
expect_eq "$idle" "73" "the H100's idle power: gpus.csv's measured 73 W"
hand=$(awk -v i="$idle" 'BEGIN {
    capex = 250000 / (5 * 8760) * 730; colo = 8 * 700 * 1.82 / 1000 * 150
    maint = 0.08 * 250000 * 730 / 8760
    power = 8 * 730 * (i + 0.1 * (700 - i)) * 1.82 * 1.56 / 1000 * 0.12
    c = 0; p = 0; m = 0; w = 0   # each part to the cent, the total their sum
    c = sprintf("%.2f", capex) + 0; p = sprintf("%.2f", power) + 0
    m = sprintf("%.2f", maint) + 0; w = sprintf("%.2f", colo) + 0
    own = c + p + m + w; rent = 730 * 55.04
    u = (capex + colo + maint + 8 * 730 * i * 1.82 * 1.56 / 1000 * 0.12) / (730 * 55.04 - 8 * 730 * (700 - i) * 1.82 * 1.56 / 1000 * 0.12)
    printf "1|0.1000|%.2f|%.2f|%.2f|%.2f|%.2f|%.2f|%.2f|%.4f|%.1f", capex, power, colo, maint, own, rent, rent - own, u, 250000 / (rent - power - colo - maint) }')
expect_exit 0 "roi --owned csv" -- "$FLEETSIM" roi --db "$DB" 1 --owned "$TERMS" --format csv
got=$(awk -F, 'NR == 2 { print $4 "|" $5 "|" $6 "|" $7 "|" $8 "|" $9 "|" $10 "|" $11 "|" $12 "|" $13 "|" $14 }' "$TMP/out")
expect_eq "$got" "$hand" "the owned month, rent, saving and break-evens by hand"
expect_eq "$(echo "$hand" | cut -d'|' -f3-7)" "4166.67|270.00|1528.80|1666.67|7632.14" "capex, power, colocation, maintenance and their sum by hand"
expect_eq "$(awk -F, 'NR == 2 { printf "%.2f", $6 + $7 + $8 + $9 }' "$TMP/out")" "$(echo "$got" | cut -d'|' -f7)" "the parts add up to the total"
expect_exit 0 "roi --owned table" -- "$FLEETSIM" roi --db "$DB" 1 --owned "$TERMS"
expect_in "$TMP/out" "buy versus rent" "the table's heading"
expect_exit 0 "roi --owned json" -- "$FLEETSIM" roi --db "$DB" 1 --owned "$TERMS" --format json
cp "$TMP/out" o.json
expect_exit 0 "json: the same month" -- python3 -c "import json,sys; o=json.load(open('o.json'))['buy_vs_rent'][0]; sys.exit(0 if '%.2f' % o['owned_usd'] == sys.argv[1] else 1)" "$(echo "$got" | cut -d'|' -f7)"
expect_exit 0 "roi --owned markdown" -- "$FLEETSIM" roi --db "$DB" 1 --owned "$TERMS" --format markdown
expect_in "$TMP/out" "| p | H100-80GB | on-demand | 1 | 0.1000 |" "markdown row"

# the same server owned, run: its bill over the 730 h equals roi's month
sed "s/^pricing = on-demand/pricing = owned\n$(echo "$TERMS" | tr ',' '\n' | sed 's/=/ = /' | tr '\n' '#' | sed 's/#$//; s/#/\\n/g')/" o.ini >owned.ini
expect_exit 0 "run owned" -- "$FLEETSIM" run owned.ini --db "$DB" --quiet
expect_eq "$(sql "$DB" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_monthly WHERE run_id = 2")" "$(echo "$got" | cut -d'|' -f7)" "an owned pool's bill = roi's owned month (one arithmetic)"

# bad terms: a usage error naming the key
expect_exit 2 "a missing energy_price" -- "$FLEETSIM" roi --db "$DB" 1 --owned server_price=250000
expect_in "$TMP/err" "--owned: missing energy_price" "names the key"
expect_exit 2 "an unknown key" -- "$FLEETSIM" roi --db "$DB" 1 --owned server_price=1,energy_price=0.1,watts=3
expect_in "$TMP/err" "--owned: watts: not a key of an owned pool" "names the key"
expect_exit 2 "a bad value" -- "$FLEETSIM" roi --db "$DB" 1 --owned server_price=-5,energy_price=0.1
expect_in "$TMP/err" "--owned: server_price" "names the key"
expect_exit 2 "not with --all" -- "$FLEETSIM" roi --db "$DB" 1 --owned "$TERMS" --all
report
