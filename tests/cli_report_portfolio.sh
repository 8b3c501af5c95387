#!/bin/sh
# cli_report_portfolio.sh -- the report's commitment portfolio, asked
# for with --portfolio (or commit's --risk/--horizon/--discount-rate,
# passed to the same solve): its tables hold what `fleetsim commit RUN...
# --format csv` with the same options answers on the same runs, to the
# cent; its parts add up to the expected total; the portfolio-cost chart
# draws each run; a report without them has neither section nor chart;
# runs with no pool a commitment could cover leave the section and the
# chart out.
#
# tests/commit-day-night.ini (see tests/cli_commit.sh): two pools of
# aws:g4dn.xlarge, `day` busy 08:00-20:00 and `night` 20:00-08:00.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/pf.db"
INI="$SRCDIR/tests/commit-day-night.ini"
cd "$TMP" || exit 1
run() {
    expect_exit 0 "run $1" -- "$FLEETSIM" run "$INI" --db "$DB" --quiet \
        --set scenario.name="$1" --set pool.day.count="$2" \
        --set pool.night.count="$3"
}
run one 3 2
run two 4 1
run three 2 2
expect_exit 0 "commit csv" -- "$FLEETSIM" commit one two three --db "$DB" \
    --format csv
cp "$TMP/out" commit.csv
expect_exit 0 "report md" -- "$FLEETSIM" report --db "$DB" --out pf.md \
    --portfolio one two three
expect_exit 0 "report html" -- "$FLEETSIM" report --db "$DB" --out pf.html \
    --portfolio one two three
expect_in pf.md "## Commitment portfolio" "md: the portfolio table"
expect_in pf.md "## Portfolio cost" "md: the cost table"
expect_in pf.html "Commitment portfolio" "html: the portfolio table"

# The report's amount of cost line NAME (by its label), without "$" and
# thousands commas.
label() {
    case $1 in
    expected_total) echo "Expected total (mean over the runs)" ;;
    reservations) echo "Reservations (upfront amortized)" ;;
    savings_plans) echo "Savings plans" ;;
    on_demand) echo "On demand (the rest)" ;;
    p10|p50|p90) echo "$1 across the runs" ;;
    all_on_demand) echo "All on demand" ;;
    roi_per_pool_sum) echo "roi's per-pool answers, summed" ;;
    saving_vs_on_demand) echo "Saving against all on demand" ;;
    saving_vs_roi) echo "Saving against roi's per-pool answers" ;;
    npv_3y) echo "NPV of the 3-year commitments" ;;
    unused_share_p90) echo "Unused share of the commitment, p90" ;;
    unused_share_at_risk_quantile) echo "Unused share at the bound's percentile" ;;
    breakeven_month_3y) echo "Break-even month, 3-year" ;;
    esac
}
# got NAME [FILE.md]: the report's amount
got() {
    l=$(label "$1")
    awk -F' [|] ' -v l="| $l" '$1 == l { print $2 }' "${2:-pf.md}" |
        sed 's/ |$//' | tr -d '$,' | head -n 1
}
# want NAME [FILE.csv] [FMT]: commit's, rounded as the report prints it
# (to the cent).
want() {
    awk -F, -v n="$1" -v f="${3:-%.2f}" '$1 == "cost" && $2 == n { printf f, $9 }' "${2:-commit.csv}"
}
for c in expected_total reservations savings_plans on_demand p10 p50 p90 \
         all_on_demand roi_per_pool_sum saving_vs_on_demand saving_vs_roi; do
    w=$(want "$c")
    checks=$((checks + 1))
    [ -n "$w" ] || fail "commit csv: no $c"
    expect_eq "$(got "$c")" "$w" "report $c = commit's, to the cent"
done
# The parts add up: three amounts each rounded to the cent, so within
# 1.5 cents of the rounded total.
near "$(awk -v a="$(got reservations)" -v b="$(got savings_plans)" \
    -v c="$(got on_demand)" 'BEGIN { printf "%.2f", a + b + c }')" \
    "$(got expected_total)" 0.015 "reservations + plans + on demand = total"
# The portfolio is strictly cheaper than roi's per-pool sum and all on
# demand on these runs (pools busy at different hours share reservations).
checks=$((checks + 1))
awk -v s="$(got saving_vs_roi)" -v o="$(got saving_vs_on_demand)" \
    'BEGIN { exit !(s > 0 && o > 0) }' || fail "the portfolio saves nothing"

# Each buy of commit's csv is a row of the report's table: kind, item,
# term, upfront, count, $ an hour and covered instance-hours alike.
checks=$((checks + 1))
awk -F, 'NR > 1 && $1 != "cost" { gsub(/"/, "", $2);
    printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }' \
    commit.csv >buys.txt
[ -s buys.txt ] || fail "commit csv: no buy"
while IFS= read -r line; do
    expect_in pf.md "$line" "md: commit's buy"
done <buys.txt

# The chart: one group of bars per run, in the report and through plot.
expect_in pf.md "portfolio-cost.svg" "md: the portfolio-cost chart"
expect_exit 0 "plot portfolio-cost" -- "$FLEETSIM" plot --db "$DB" \
    --chart portfolio-cost --out pf.svg one two three
expect_in pf.svg "roi's per-pool answers" "chart: the legend"
expect_in pf.svg "three" "chart: the runs named"

# Without --portfolio (nor commit's options) the report solves nothing:
# neither the section nor the chart.
expect_exit 0 "report without --portfolio" -- "$FLEETSIM" report --db "$DB" \
    --out plain.md one two three
checks=$((checks + 1))
! grep -q "Commitment portfolio\|Portfolio cost\|portfolio-cost" plain.md ||
    fail "plain: a portfolio without --portfolio"
checks=$((checks + 1))
[ ! -e plain-portfolio-cost.svg ] || fail "plain: the portfolio-cost chart drawn"

# --horizon and --risk: the report passes them to commit's solve.  Runs
# growing 5%/month +- 3% (each its own rate), over 3 years: every line
# of the report equals commit's with the same options, to the cent.
for n in g1 g2 g3; do
    expect_exit 0 "run $n" -- "$FLEETSIM" run "$INI" --db "$DB" --quiet \
        --set scenario.name="$n" --set scenario.seed="${n#g}" \
        --set 'workload.w.growth=5%/month ± 3%'
done
# same OUT.md OPTIONS...: the report with OPTIONS against commit with them
same() {
    out=$1
    shift
    expect_exit 0 "commit $*" -- "$FLEETSIM" commit g1 g2 g3 --db "$DB" \
        --format csv "$@"
    cp "$TMP/out" "$out.csv"
    expect_exit 0 "report $*" -- "$FLEETSIM" report --db "$DB" --out "$out.md" \
        "$@" g1 g2 g3
    for c in expected_total reservations savings_plans on_demand p10 p50 p90 \
             all_on_demand saving_vs_on_demand npv_3y; do
        w=$(want "$c" "$out.csv")
        checks=$((checks + 1))
        [ -n "$w" ] || fail "$out: commit csv: no $c"
        expect_eq "$(got "$c" "$out.md")" "$w" "$out: report $c = commit's, to the cent"
    done
    expect_eq "$(got unused_share_p90 "$out.md")" \
        "$(want unused_share_p90 "$out.csv" %.4f)" "$out: unused share at p90"
    expect_eq "$(got breakeven_month_3y "$out.md")" \
        "$(want breakeven_month_3y "$out.csv" %.0f)" "$out: break-even month"
    expect_eq "$(got roi_per_pool_sum "$out.md")" "" "$out: roi's sum left out over a horizon"
    expect_in "$out.md" "$out-portfolio-cost.svg" "$out: the chart"
    expect_in "$out-portfolio-cost.svg" "36 months of 730 h" "$out: the chart over the horizon"
}
same hz --horizon 3y
same hzrisk --horizon 3y --risk 'unused<=10%@p90'
expect_eq "$(got unused_share_at_risk_quantile hzrisk.md)" \
    "$(want unused_share_at_risk_quantile hzrisk.csv %.4f)" "hzrisk: unused share at the bound"
checks=$((checks + 1))
awk -v a="$(got expected_total hz.md)" -v b="$(got expected_total hzrisk.md)" \
    'BEGIN { exit !(b > a) }' || fail "the risk bound costs nothing over the horizon"
# a bad option: one line naming it, exit 1, nothing written
for bad in "--horizon 5x" "--risk unused<=200%@p90" "--discount-rate 150%"; do
    # shellcheck disable=SC2086
    expect_exit 1 "report $bad" -- "$FLEETSIM" report --db "$DB" --out bad.md $bad g1
    expect_in "$TMP/err" "${bad%% *}" "report $bad: named"
    expect_one_line "report $bad"
    checks=$((checks + 1))
    [ ! -e bad.md ] || fail "report $bad: a file written"
done

# A run sampled daily: no hourly demand for commit to weigh a commitment
# against, so the report leaves the section and chart out.
cat >own.ini <<'INI'
[scenario]
name = own
start = 2026-01-01
horizon = 2d
metrics_interval = 1d
seed = 3
[pool.p]
gpu = L4
count = 2
price = 1.00
[workload.w]
pools = p
arrivals = poisson(rate=1/s)
service = exponential(mean=50ms)
INI
expect_exit 0 "run own" -- "$FLEETSIM" run own.ini --db "$DB" --quiet
expect_exit 1 "commit own" -- "$FLEETSIM" commit own --db "$DB"
expect_exit 0 "report own" -- "$FLEETSIM" report --db "$DB" --out own.md \
    --portfolio own
checks=$((checks + 1))
! grep -q "Commitment portfolio\|Portfolio cost\|portfolio-cost" own.md ||
    fail "own: the portfolio section not left out"
expect_exit 1 "plot portfolio-cost own" -- "$FLEETSIM" plot --db "$DB" \
    --chart portfolio-cost --out own.svg own
expect_in "$TMP/err" "nothing these runs could commit: run" "plot: why not"
expect_in "$TMP/err" "hourly demand cannot be read" "plot: the reason"
report
