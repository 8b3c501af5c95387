#!/bin/sh
# cli_calendar_budget.sh -- budgets per calendar month (AMOUNT/calendar-
# month), judged on each calendar month's own bill, against hand figures:
# - one L4 on demand at a $0.40/h quote, up the whole run, from
#   2026-01-01 for 59 days: January's bill is 31 x 24 = 744 h x $0.40 =
#   $297.60, February's 28 x 24 = 672 h x $0.40 = $268.80; the 730-hour
#   run rate is 566.40 x 730 / 1416 = $292.00;
# - a tag budget of $280 a calendar month is over in January only, by
#   $17.60, within in February: exit 3, the Markdown names the month;
# - a whole-run budget of $295 a calendar month is over in January by
#   $2.60 while $295 a 730-hour month (the run rate, $292.00) is within:
#   the period decides;
# - a bad period is refused at file:line:key (exit 1, nothing written);
#   --budget takes no calendar month (a usage error, exit 2).
. "$(dirname "$0")/cli_lib.sh"
cd "$TMP" || exit 1
DB="$TMP/cal.db"
cat >cal.ini <<'INI'
[scenario]
name = cal
start = 2026-01-01
horizon = 59d
seed = 1
metrics_interval = 1h
budgets = team:ml=280/calendar-month
[pool.od]
gpu = L4
pricing = on-demand
price = 0.40
count = 1
tags = team:ml
[workload.w]
kind = inference
pools = od
arrivals = poisson(rate=0.01)
service = exponential(mean=1s)
INI
hand() { awk -v h="$1" -v p="$2" 'BEGIN { printf "%.2f", h * p + 1e-9 }'; }
jan=$(hand 744 0.40); feb=$(hand 672 0.40)
expect_eq "$jan|$feb" "297.60|268.80" "the hand bills: 744 h and 672 h at \$0.40"
expect_exit 3 "a calendar month over budget exits 3" -- "$FLEETSIM" run cal.ini --db "$DB"
expect_eq "$(sql "$DB" "SELECT month || '|' || printf('%.2f', sum(cost_usd)) FROM cost_monthly WHERE run_id = 1 GROUP BY month ORDER BY month" | tr '\n' ' ')" \
    "2026-01|$jan 2026-02|$feb " "the bill by calendar month"
expect_eq "$(sql "$DB" "SELECT scope || '|' || source || '|' || printf('%.2f', spend_usd) || '|' || printf('%.2f', overrun_usd) FROM budget WHERE run_id = 1 ORDER BY source" | tr '\n' ' ')" \
    "team:ml|calendar-month 2026-01|$jan|17.60 team:ml|calendar-month 2026-02|$feb|0.00 " \
    "each month's own bill: January over by 297.60 - 280 = 17.60, February within"
expect_in "$TMP/out" "| team:ml, calendar month 2026-01 | \$280.00 | \$297.60 | **\$17.60** (6.3% over) |" "the Markdown row names the month and the overrun"
expect_in "$TMP/out" "| team:ml, calendar month 2026-02 | \$280.00 | \$268.80 | within |" "February within"
expect_in "$TMP/out" "tag team:ml, 2026-01 bill" "the summary names the month"
# the period decides: $295 a calendar month is over in January, $295 a
# 730-hour month (run rate $292.00) is within
expect_exit 3 "whole run per calendar month" -- "$FLEETSIM" run cal.ini --db "$DB" --quiet \
    --set scenario.budgets=team:ml=295/month --set scenario.budget=295/calendar-month
expect_eq "$(sql "$DB" "SELECT coalesce(scope, '') || '|' || source || '|' || printf('%.2f', spend_usd) || '|' || printf('%.2f', overrun_usd) FROM budget WHERE run_id = 2 ORDER BY source" | tr '\n' ' ')" \
    "|calendar-month 2026-01|$jan|2.60 |calendar-month 2026-02|$feb|0.00 team:ml|scenario|292.00|0.00 " \
    "whole run: January over by 2.60; the tag's run rate 566.40 x 730 / 1416 = 292.00 within"
expect_in "$TMP/out" "| whole run (scenario), calendar month 2026-01 | \$295.00 | \$297.60 | **\$2.60** (0.9% over) |" "the whole run's row"
expect_exit 0 "within every month" -- "$FLEETSIM" run cal.ini --db "$DB" --quiet --set scenario.budgets=team:ml=297.60/calendar-month
# the report names the month among the risks
expect_exit 0 "report" -- "$FLEETSIM" report --db "$DB" --out review.md 1
expect_in review.md "Budget exceeded: run cal, tag team:ml: \$297.60 in calendar month 2026-01 (its bill) against a budget of \$280.00, over by \$17.60" "report: the month's breach"
# a forecast judges 730-hour budgets only: run 3's calendar budget within
expect_exit 0 "forecast leaves calendar-month rows to run" -- "$FLEETSIM" forecast --db "$DB" --months 2 3
# bad periods
mk() { sed "s|^budgets = .*\$|$2|" cal.ini >"$TMP/$1.ini"; }
mk week 'budgets = team:ml=280/calendar-week'; bad_run week "week.ini:7: scenario.budgets: '280/calendar-week'"
mk twice 'budgets = team:ml=280/calendar-month, team:ml=300/calendar-month'; bad_run twice "a second budget for team:ml a calendar month"
expect_exit 0 "a tag may have both periods" -- "$FLEETSIM" run cal.ini --db "$TMP/both.db" --quiet --set "scenario.budgets=team:ml=300/calendar-month, team:ml=300/month"
expect_exit 2 "--budget per calendar month is a usage error" -- "$FLEETSIM" run cal.ini --db "$TMP/bad.db" --budget 280/calendar-month
checks=$((checks + 1)); [ ! -e "$TMP/bad.db" ] || fail "--budget per calendar month wrote a database"
report
