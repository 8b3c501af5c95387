#!/bin/sh
# cli_forecast.sh -- growth with its uncertainty (`growth = G ± S`, drawn
# per replication) and `fleetsim forecast`.
#
# 1. The draw: 400 replications of 1%/month ± 3% draw from a normal
#    truncated at 0, whose mean is mu + sigma phi(a) / (1 - Phi(a)), a =
#    -mu / sigma: 0.02796 (closed form; an untruncated normal gives 0.01, a
#    clamp at 0 gives 0.01763).  Standard error 0.0200 / sqrt(400) = 0.001;
#    tolerance 0.004.  No draw is below 0; the drawn rate is stored and
#    shown in the summary.
# 2. The forecast of one run without spread is the closed form: the run
#    rate times the mean of (1 + g)^(t / 730 h) over the month over its
#    mean over the run (to the cent).
# 3. Fresh replications: tests/forecast-growth.ini (an autoscaled pool,
#    5%/month ± 3%) is run for one month in 8 replications and forecast
#    3 months ahead at 90%; then 10 fresh replications (another seed) are
#    simulated over the four months, and each one's bill of months 1..3
#    (instances up x $1/h, from the hourly utilization) is checked against
#    the interval.  A 90% prediction interval holds each with probability
#    0.9: at least 24 of the 30 (P(fewer) = 0.026 by the binomial).  The
#    same check on fresh replications at 20%/month ± 3% must fail most of
#    them (at most 6 inside), so the interval is not merely wide.
. "$(dirname "$0")/cli_lib.sh"
INI="$SRCDIR/tests/forecast-growth.ini"

# ---- 1. the draw ----
good | sed 's/^horizon = 1h/horizon = 1m/; s/^service = .*/&\ngrowth = 1%\/month ± 3%/' >"$TMP/g.ini"
expect_exit 0 "400 draws" -- "$FLEETSIM" run "$TMP/g.ini" --db "$TMP/g.db" \
    --set scenario.replications=400 --quiet
near "$(sql "$TMP/g.db" 'SELECT avg(growth) FROM run_growth')" 0.02796 0.004 \
    "mean of the truncated normal"
expect_eq "$(sql "$TMP/g.db" 'SELECT count(*) FROM run_growth WHERE growth < 0 OR growth_mean != 0.01 OR growth_spread != 0.03')" 0 "no draw below 0; the law stored"
expect_eq "$(sql "$TMP/g.db" 'SELECT count(DISTINCT growth) FROM run_growth')" 400 "each replication its own rate"
expect_exit 0 "summary" -- "$FLEETSIM" run "$TMP/g.ini" --db "$TMP/g1.db"
expect_in "$TMP/out" "growth of w: drew $(sql "$TMP/g1.db" "SELECT printf('%.4g', growth * 100) FROM run_growth")%/month (1%/month ± 3%" "the summary shows the drawn rate"
# the same seed draws the same rate; +- is ±
sed 's/± 3%/+- 3%\/month/' "$TMP/g.ini" >"$TMP/g2.ini"
expect_exit 0 "+-" -- "$FLEETSIM" run "$TMP/g2.ini" --db "$TMP/g2.db" --quiet
expect_eq "$(sql "$TMP/g2.db" 'SELECT growth FROM run_growth')" "$(sql "$TMP/g1.db" 'SELECT growth FROM run_growth')" "same seed, same draw"
for bad in '5%/month ± x' '5%/month ± 200%' '5% ± 3%' '5%/month ± -1%'; do
    sed "s|^growth = .*|growth = $bad|" "$TMP/g.ini" >"$TMP/bad.ini"
    bad_run bad "bad.ini:"
    expect_in "$TMP/err" "workload.w.growth" "bad growth '$bad' names the key"
done

# ---- 2. the closed form of one run ----
sed 's/^growth = .*/growth = 4%\/month/' "$TMP/g.ini" >"$TMP/flat.ini"
expect_exit 0 "one run" -- "$FLEETSIM" run "$TMP/flat.ini" --db "$TMP/f.db" --quiet
expect_exit 0 "forecast one run" -- "$FLEETSIM" forecast 1 --db "$TMP/f.db" --months 2 --format csv
rate=$(sql "$TMP/f.db" 'SELECT cost_per_month_usd FROM run_summary')
H=$(sql "$TMP/f.db" 'SELECT horizon_s / 3600.0 FROM run')
want=$(awk -v b="$rate" -v H="$H" 'function f(x,y){a=log(1.04)/730; return (exp(a*y)-exp(a*x))/(a*(y-x))} BEGIN { printf "%.2f", b * f(H+730, H+1460) / f(0, H) }')
near "$(awk -F, 'NR==3 { printf "%.2f", $4 }' "$TMP/out")" "$want" 0.005 "month 2 = run rate x growth factor"
expect_eq "$(awk -F, 'NR==2 { print $5 $6 }' "$TMP/out")" "" "no interval without a spread"

# ---- 3. fresh replications at the stated rate ----
expect_exit 0 "base runs" -- "$FLEETSIM" run "$INI" --db "$TMP/base.db" --quiet
expect_exit 0 "forecast" -- "$FLEETSIM" forecast 1 2 3 4 5 6 7 8 --db "$TMP/base.db" --months 3 --format csv
cp "$TMP/out" "$TMP/fc.csv"
# inside DB: how many fresh (run, month) bills fall in the interval
inside() {
    for m in 1 2 3; do
        lo=$(awk -F, -v m=$m 'NR == m + 1 { print $5 }' "$TMP/fc.csv")
        hi=$(awk -F, -v m=$m 'NR == m + 1 { print $6 }' "$TMP/fc.csv")
        sql "$1" "SELECT sum(instances_up) FROM utilization WHERE t_s > $m * 730 * 3600 AND t_s <= ($m + 1) * 730 * 3600 GROUP BY run_id" |
            awk -v lo="$lo" -v hi="$hi" '$1 >= lo && $1 <= hi'
    done | wc -l
}
fresh() {
    expect_exit 0 "fresh $2" -- "$FLEETSIM" run "$INI" --db "$1" --quiet \
        --set scenario.seed=99 --set scenario.horizon=2920h \
        --set scenario.replications=10 --set "workload.w.growth=$2"
}
fresh "$TMP/fresh.db" "5%/month ± 3%"
n=$(inside "$TMP/fresh.db")
checks=$((checks + 1)); [ "$n" -ge 24 ] || fail "fresh bills inside the 90% interval: $n of 30, expected at least 24"
fresh "$TMP/fast.db" "20%/month ± 3%"
n=$(inside "$TMP/fast.db")
checks=$((checks + 1)); [ "$n" -le 6 ] || fail "bills at 20%/month inside the 5% interval: $n of 30, expected at most 6"
# the formats agree
expect_exit 0 "json" -- "$FLEETSIM" forecast 1 2 3 4 5 6 7 8 --db "$TMP/base.db" --months 3 --format json
near "$(sed -n 's/.*"high_usd": \([0-9.]*\).*/\1/p' "$TMP/out" | tail -1)" "$(awk -F, 'NR == 4 { print $6 }' "$TMP/fc.csv")" 0.01 "json = csv"
expect_exit 0 "table" -- "$FLEETSIM" forecast 1 2 --db "$TMP/base.db"
expect_in "$TMP/out" "730 hours" "the table says what a month is"

# ---- bad input ----
expect_exit 1 "no run" -- "$FLEETSIM" forecast --db "$TMP/base.db"
expect_one_line "no run"
expect_exit 1 "unknown run" -- "$FLEETSIM" forecast 99 --db "$TMP/base.db"
expect_one_line "unknown run"
expect_exit 1 "bad level" -- "$FLEETSIM" forecast 1 --db "$TMP/base.db" --level 120%
expect_in "$TMP/err" "--level" "bad level named"
expect_exit 1 "bad format" -- "$FLEETSIM" forecast 1 --db "$TMP/base.db" --format xml
report
