#!/bin/sh
# cli_pool_growth.sh -- `growth =` in a pool's section: that pool's
# demand over the long view (commit --horizon, forecast) grows by its own
# rate, overriding the workloads'; stored in run_growth with the pool.
#
# tests/commit-two-growth.ini: pool grow (aws:g4dn.xlarge, $0.526 on
# demand) and pool flat (aws:g4dn.2xlarge), 2 instances each, every hour
# of 48; each its own reservation group.  3-year all upfront (published):
# $5,198.00004 and $7,431.01164 an instance.
# (a) Both flat: 2 + 2 three-year reservations, nothing on demand; all on
#     demand over 36 x 730 = 26,280 h is 2 x 26,280 x (0.526 + od_flat).
# (b) pool.grow.growth = 5%/month: all on demand over the horizon is the
#     closed form, grow's 48 h at 2, then 2 x (1.05)^(t/730) over the
#     run's mean factor to 26,280 h, plus flat's unchanged; grow gets more
#     3-year reservations than 2, flat keeps exactly 2 and covers exactly
#     2 x 26,280 instance-hours.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/p.db"
INI="$SRCDIR/tests/commit-two-growth.ini"
CAT="$SRCDIR/models/catalog"
od() { awk -F, -v i="$1" 'NR == 1 { for (c = 1; c <= NF; c++) if ($c == "on_demand_usd_h") k = c }
    $1 == "aws" && $2 == i { print $k }' "$CAT/instances.csv"; }
cost() { sed -n "s/^cost,$1,,,,,,,\\([^,]*\\),,\$/\\1/p" "$2"; }
count3y() { awk -F, -v i="\"$2\"" '$1 == "reserved" && $2 == i && $3 == "3y" { n += $5 } END { print n + 0 }' "$1"; }
covered() { awk -F, -v i="\"$2\"" '$1 == "reserved" && $2 == i { n += $8 } END { printf "%.2f", n }' "$1"; }
ODG=$(od g4dn.xlarge)
ODF=$(od g4dn.2xlarge)
expect_eq "$ODG" 0.526 "catalog: g4dn.xlarge on demand"

expect_exit 0 "flat run" -- "$FLEETSIM" run "$INI" --db "$DB" --quiet --set scenario.name=flat
expect_exit 0 "grown run" -- "$FLEETSIM" run "$INI" --db "$DB" --quiet \
    --set scenario.name=grown --set pool.grow.growth=5%/month
expect_eq "$(sql "$DB" "SELECT pool || ' ' || growth_mean || ' ' || growth FROM run_growth WHERE run_id = 2")" \
    "grow 0.05 0.05" "run_growth: the pool's row"
expect_eq "$(sql "$DB" "SELECT count(*) FROM run_growth WHERE run_id = 1")" 0 "run_growth: no row without growth"

# (a)
expect_exit 0 "flat 3y" -- "$FLEETSIM" commit flat --db "$DB" --horizon 3y --format csv
cp "$TMP/out" "$TMP/flat.csv"
expect_eq "$(count3y "$TMP/flat.csv" aws:g4dn.xlarge)" 2 "flat: grow's 2"
expect_eq "$(count3y "$TMP/flat.csv" aws:g4dn.2xlarge)" 2 "flat: flat's 2"
near "$(cost all_on_demand "$TMP/flat.csv")" \
    "$(awk -v a="$ODG" -v b="$ODF" 'BEGIN { printf "%.4f", 2 * 26280 * (a + b) }')" 0.005 \
    "flat: all on demand, 2 x 26,280 x both prices"

# (b)
expect_exit 0 "grown 3y" -- "$FLEETSIM" commit grown --db "$DB" --horizon 3y --format csv
cp "$TMP/out" "$TMP/grown.csv"
want=$(awk -v a="$ODG" -v b="$ODF" 'BEGIN { k = log(1.05) / 730; mf = (exp(k * 48) - 1) / (k * 48);
    grow = 2 * (48 + (exp(k * 26280) - exp(k * 48)) / k / mf);
    printf "%.4f", a * grow + b * 2 * 26280 }')
near "$(cost all_on_demand "$TMP/grown.csv")" "$want" 0.01 \
    "grown: all on demand, grow's demand x (1.05)^(t/730) in closed form, flat's flat"
checks=$((checks + 1))
[ "$(count3y "$TMP/grown.csv" aws:g4dn.xlarge)" -gt 2 ] ||
    fail "grown: grow's 3-year reservations $(count3y "$TMP/grown.csv" aws:g4dn.xlarge), not more than 2"
expect_eq "$(count3y "$TMP/grown.csv" aws:g4dn.2xlarge)" 2 "grown: flat keeps 2"
expect_eq "$(covered "$TMP/grown.csv" aws:g4dn.2xlarge)" 52560.00 "grown: flat's demand, 2 x 26,280, not grown"

# forecast: grow's part of the bill (its stored cost over the 48 h, to the
# cent: 2 x $0.526 x 48 = $50.50, per 730 h) grows by its own rate, the
# rest (flat's) not: month m (from 48 + 730 (m - 1) h) is that part x
# the mean factor over the month over its mean over the run, plus the
# rest, in closed form, to the cent
expect_exit 0 "forecast grown" -- "$FLEETSIM" forecast grown --db "$DB" --months 12 --format csv
cp "$TMP/out" "$TMP/fc.csv"
part=$(sql "$DB" "SELECT sum(cost_usd) * 730 / 48 FROM cost_monthly WHERE run_id = 2 AND pool = 'grow'")
bill=$(sql "$DB" "SELECT cost_per_month_usd FROM run_summary WHERE run_id = 2")
near "$part" "$(awk -v a="$ODG" 'BEGIN { printf "%.4f", 2 * a * 730 }')" 0.2 "grow's part: 2 x 0.526 x 730, but for the cent it was rounded to"
for m in 1 6 12; do
    want=$(awk -v m="$m" -v p="$part" -v b="$bill" 'function mf(x, y) { k = log(1.05) / 730; return (exp(k * y) - exp(k * x)) / (k * (y - x)) }
        BEGIN { f = 48 + 730 * (m - 1); printf "%.2f", p * mf(f, f + 730) / mf(0, 48) + b - p }')
    near "$(awk -F, -v m="$m" '$1 == m { print $4 }' "$TMP/fc.csv")" "$want" 0.005 "forecast month $m: grow's part grown, flat's not"
done
expect_exit 0 "forecast flat" -- "$FLEETSIM" forecast flat --db "$DB" --months 12 --format csv
near "$(awk -F, '$1 == 12 { print $4 }' "$TMP/out")" \
    "$(awk -v a="$ODG" -v b="$ODF" 'BEGIN { printf "%.2f", 2 * 730 * (a + b) }')" 0.005 "forecast flat: month 12 as month 0"

# a spread: each replication draws the pool's own rate, from its own stream
expect_exit 0 "spread" -- "$FLEETSIM" run "$INI" --db "$DB" --quiet --set scenario.name=spread \
    --set scenario.replications=3 --set 'pool.grow.growth=5%/month ± 3%'
expect_eq "$(sql "$DB" "SELECT count(DISTINCT growth) FROM run_growth r JOIN run USING (run_id) WHERE name = 'spread' AND pool = 'grow'")" \
    3 "spread: three rates drawn"
expect_eq "$(sql "$DB" "SELECT count(*) FROM run_growth r JOIN run USING (run_id) WHERE name = 'spread' AND (growth < 0 OR growth > 1 OR growth_spread != 0.03)")" \
    0 "spread: each within 0..100%, the spread stored"
# the simulated traffic is the workloads': the same requests as without
expect_eq "$(sql "$DB" "SELECT count(DISTINCT requests) FROM run_summary WHERE run_id IN (1, 2)")" 1 \
    "the pool's growth leaves the simulation alone"

# bad input: file:line:key
expect_exit 1 "bad growth" -- "$FLEETSIM" run "$INI" --db "$DB" --quiet --set pool.grow.growth=5%
expect_in "$TMP/err" "growth" "bad growth named"
expect_one_line "bad growth"
report
