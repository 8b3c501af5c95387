#!/bin/sh
# cli_cases_windows.sh -- the case-study scenarios of training and windows
# (CASES.md cases 1, 3 and 7) say what their comments say, checked against
# exact bills and closed forms:
# - case 1: the 8 x A100 instance ($29.38708/h) billed 4 x 24 h = $2,821.16
#   or 4 x 8 h = $940.39, each weekly 8-GPU job finishing 8 h after its
#   Monday;
# - case 3: real time, 4 x $3.673385 x 24 h = $352.64 at 11.574 x 0.05 / 4
#   = 14.47% utilization (within 2%); in windows, the GPU-hours billed
#   exceed the busy ones (served x 50 ms exactly) by under 3%;
# - case 7: 10 x 336 h x $1.006 = $3,380.16 always up; 10 weekdays x 12 h
#   x 10 = 1,200 GPU-hours in office hours (plus the tasks running at a
#   close, under half a GPU-hour).
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/cases.db"
cd "$SRCDIR/scenarios" || exit 1
for s in case1-eval-24h case1-eval-rightsized case3-moderation-realtime \
         case3-moderation-windows case7-dev-always-on case7-dev-office-hours; do
    expect_exit 0 "$s runs" -- "$FLEETSIM" run "$s.ini" --db "$DB" --quiet
done
q() { sql "$DB" "$1"; }
expect_eq "$(q "SELECT printf('%.2f', total_cost_usd) FROM run_summary WHERE name = 'case1-eval-24h'")" 2821.16 "case 1: 4 x 24 h x \$29.38708"
expect_eq "$(q "SELECT printf('%.2f', total_cost_usd) FROM run_summary WHERE name = 'case1-eval-rightsized'")" 940.39 "case 1: 4 x 8 h"
expect_eq "$(q "SELECT group_concat(end_s - submit_s) FROM job j JOIN run r USING (run_id) WHERE r.name = 'case1-eval-rightsized'")" "28800.0,28800.0,28800.0,28800.0" "case 1: each evaluation takes its 8 h"
expect_eq "$(q "SELECT printf('%.2f', total_cost_usd) FROM run_summary WHERE name = 'case3-moderation-realtime'")" 352.64 "case 3: 4 x 24 h x \$3.673385"
expect_eq "$(q "SELECT abs(utilization - 0.14468) < 0.14468 * 0.02 FROM run_summary WHERE name = 'case3-moderation-realtime'")" 1 "case 3: utilization 14.5%"
expect_eq "$(q "SELECT abs(s.gpu_hours_busy - l.count * 0.05 / 3600) < 0.01 FROM run_summary s JOIN latency l USING (run_id) WHERE s.name = 'case3-moderation-windows'")" 1 "case 3 windows: busy = served x 50 ms"
expect_eq "$(q "SELECT gpu_hours_provisioned < gpu_hours_busy * 1.03 FROM run_summary WHERE name = 'case3-moderation-windows'")" 1 "case 3 windows: up only while there is work"
expect_eq "$(q "SELECT printf('%.2f', total_cost_usd) FROM run_summary WHERE name = 'case7-dev-always-on'")" 3380.16 "case 7: 10 x 336 h x \$1.006"
expect_eq "$(q "SELECT gpu_hours_provisioned >= 1200 AND gpu_hours_provisioned < 1200.5 FROM run_summary WHERE name = 'case7-dev-office-hours'")" 1 "case 7: 10 x 10 days x 12 h"
report
