#!/bin/sh
# cli_commit_horizon.sh -- `fleetsim commit --horizon`: commitments
# weighed against the demand of a term longer than the run, grown by the
# run's growth, with each term's NPV and break-even month.
#
# tests/commit-day-night.ini, day 3 and night 2 instances of
# aws:g4dn.xlarge ($0.526 on demand; 3-year all upfront $5,198.00004 per
# instance, published): 2.5 instances on average, every hour.
# (a) Flat, 3 years (36 x 730 = 26,280 h): 3 reservations, $15,594.00012,
#     nothing on demand; they cover 2.5 x 26,280 = 65,700 instance-hours
#     worth 65,700 x 0.526 = $34,558.20 on demand: NPV $18,964.19988; a
#     month's worth is 730 x 2.5 x 0.526 = $959.95, so the upfront is paid
#     back in month ceil(15,594.00012 / 959.95) = 17.  At 8% a year
#     (monthly, (1.08)^(-k/12)) the NPV is 959.95 x sum_k<36 of that
#     factor less the upfront, paid at once.
# (b) 5%/month growth: more 3-year reservations than flat; all on demand
#     over the horizon is the closed form: the run's 48 h at its level,
#     then 2.5 x (1.05)^(t/730) instance-hours an hour to 26,280 h, over
#     the run's mean factor, at $0.526.
# (c) The program's size: the run's 48 hours exactly, then at most 12
#     duration-curve steps a month (here the run's distinct hours), not
#     26,280 hours; the parts add up; bad input is refused.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/h.db"
INI="$SRCDIR/tests/commit-day-night.ini"
cost() { sed -n "s/^cost,$1,,,,,,,\\([^,]*\\),,\$/\\1/p" "$2"; }
count3y() { awk -F, '$1 == "reserved" && $3 == "3y" { n += $5 } END { print n + 0 }' "$1"; }
parts() {
    near "$(awk -v a="$(cost reservations "$1")" -v b="$(cost savings_plans "$1")" \
        -v c="$(cost on_demand "$1")" 'BEGIN { printf "%.6f", a + b + c }')" \
        "$(cost expected_total "$1")" 2e-4 "$2: the parts add up to the total (each line rounded to 4 decimals)"
}
expect_exit 0 "flat run" -- "$FLEETSIM" run "$INI" --db "$DB" --quiet --set scenario.name=flat
expect_exit 0 "grown run" -- "$FLEETSIM" run "$INI" --db "$DB" --quiet \
    --set scenario.name=grown --set workload.w.growth=5%/month

# (a) flat
expect_exit 0 "flat 3y" -- "$FLEETSIM" commit flat --db "$DB" --horizon 3y --format csv
cp "$TMP/out" "$TMP/flat.csv"
expect_eq "$(count3y "$TMP/flat.csv")" 3 "flat: 3 three-year reservations"
near "$(cost expected_total "$TMP/flat.csv")" 15594.00012 0.005 "flat: 3 x 5198.00004"
near "$(cost all_on_demand "$TMP/flat.csv")" 34558.20 0.005 "flat: 65,700 x 0.526"
near "$(cost npv_3y "$TMP/flat.csv")" 18964.19988 0.005 "flat: NPV, undiscounted"
expect_eq "$(cost breakeven_month_3y "$TMP/flat.csv")" 17.0000 "flat: break-even month"
expect_eq "$(cost npv_1y "$TMP/flat.csv")" "" "flat: no 1-year term bought, no NPV"
parts "$TMP/flat.csv" flat
expect_exit 0 "flat 8%" -- "$FLEETSIM" commit flat --db "$DB" --horizon 3y --discount-rate 8% --format csv
want=$(awk 'BEGIN { for (k = 0; k < 36; k++) s += 959.95 * exp(-k / 12 * log(1.08)); printf "%.4f", s - 15594.00012 }')
near "$(cost npv_3y "$TMP/out")" "$want" 0.005 "flat: NPV at 8% a year"
near "$(cost expected_total "$TMP/out")" 15594.00012 0.005 "flat 8%: the upfront, paid at once"
parts "$TMP/out" "flat 8%"

# (b) growth
expect_exit 0 "grown 3y" -- "$FLEETSIM" commit grown --db "$DB" --horizon 3y --format csv
cp "$TMP/out" "$TMP/grown.csv"
checks=$((checks + 1))
[ "$(count3y "$TMP/grown.csv")" -gt "$(count3y "$TMP/flat.csv")" ] ||
    fail "5%/month: $(count3y "$TMP/grown.csv") three-year reservations, not more than flat's $(count3y "$TMP/flat.csv")"
want=$(awk 'BEGIN { a = log(1.05) / 730; mf = (exp(a * 48) - 1) / (a * 48);
    printf "%.4f", 0.526 * 2.5 * (48 + (exp(a * 26280) - exp(a * 48)) / a / mf) }')
near "$(cost all_on_demand "$TMP/grown.csv")" "$want" 0.01 "grown: all on demand over 3 years, closed form"
near "$(cost growth_mean "$TMP/grown.csv")" 0.05 1e-9 "grown: the run's rate"
parts "$TMP/grown.csv" grown
checks=$((checks + 1))
awk -v t="$(cost expected_total "$TMP/grown.csv")" -v o="$(cost all_on_demand "$TMP/grown.csv")" \
    'BEGIN { exit !(t < o) }' || fail "grown: the portfolio costs less than all on demand"

# (c) size: 48 exact hours + at most 12 steps for each of the 37 stretches
slots=$(cost slots "$TMP/grown.csv")
checks=$((checks + 1))
awk -v s="$slots" 'BEGIN { exit !(s > 48 && s <= 48 + 12 * 37) }' ||
    fail "slots: $slots, expected 48 < slots <= 492 (not 26,280 hours)"
expect_exit 0 "--lp" -- "$FLEETSIM" commit grown --db "$DB" --horizon 3y --lp "$TMP/h.lp"
checks=$((checks + 1))
awk -v n="$(grep -c '^ *share_' "$TMP/h.lp")" -v s="$slots" 'BEGIN { exit !(n > 0 && n <= s) }' ||
    fail "--lp: the sharing rows, one a slot of the one group, not $slots"
# without --horizon, nothing changes (tests/cli_commit.sh checks the rest)
expect_exit 0 "no horizon" -- "$FLEETSIM" commit flat --db "$DB" --format csv
near "$(cost expected_total "$TMP/out")" 28.4822 0.005 "no horizon: 3 x 0.197793 x 48"
expect_exit 0 "risk with horizon" -- "$FLEETSIM" commit grown --db "$DB" --horizon 1y --risk 'unused<=10%@p100' --format csv
parts "$TMP/out" "risk, 1y"

# bad input
for h in 0y 5x 121m 3; do
    expect_exit 1 "--horizon $h" -- "$FLEETSIM" commit flat --db "$DB" --horizon "$h"
    expect_in "$TMP/err" "--horizon" "--horizon $h named"
    expect_one_line "--horizon $h"
done
expect_exit 1 "--discount-rate 150%" -- "$FLEETSIM" commit flat --db "$DB" --horizon 1y --discount-rate 150%
expect_in "$TMP/err" "--discount-rate" "bad rate named"
expect_exit 0 "long run" -- "$FLEETSIM" run "$INI" --db "$DB" --quiet --set scenario.name=long --set scenario.horizon=35d
expect_exit 1 "horizon shorter than the run" -- "$FLEETSIM" commit long --db "$DB" --horizon 1m
expect_in "$TMP/err" "shorter than run" "horizon shorter than the run"
report
