#!/bin/sh
# cli_cases.sh -- the case-study scenarios of scenarios/ (CASES.md) say what
# their comments say, checked against closed forms and exact bills rather
# than against the articles' claims:
# - case 2, before: four GPUs at 100/s of exactly 10 ms: utilization
#   100 x 0.010 / 4 = 25% (within 2%: 360,000 requests, the count's
#   relative sd is 0.17%); the bill is 4 x $3.673 x 1 h to the cent;
# - case 2, after: the same requests (common random numbers) on one GPU,
#   which costs a quarter; its busy time is exactly the batches' time,
#   requests x (9 ms / mean batch + 1 ms), within 0.5%; p99 under the
#   article's 100 ms;
# - case 8: fleetsim roi on 8 always-up V100s reserves 8 and saves
#   1 - 2.088/3.06 = 31.7647% (1 year) and 1 - 1.132/3.06 = 63.0065%
#   (3 years), the catalog's rates.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/cases.db"
cd "$SRCDIR/scenarios" || exit 1

for s in case2-batching-before case2-batching-after case8-reserved-v100; do
    expect_exit 0 "$s runs" -- "$FLEETSIM" run "$s.ini" --db "$DB" --quiet
done

q() { sql "$DB" "$1"; }
before="name = 'case2-batching-before'"
after="name = 'case2-batching-after'"
expect_eq "$(q "SELECT abs(utilization - 0.25) < 0.25 * 0.02 FROM run_summary WHERE $before")" 1 \
    "case 2 before: utilization 25%"
expect_eq "$(q "SELECT printf('%.2f', total_cost_usd) FROM run_summary WHERE $before")" 14.69 \
    "case 2 before: 4 x 3.673 x 1 h"
expect_eq "$(q "SELECT printf('%.2f', total_cost_usd) FROM run_summary WHERE $after")" 3.67 \
    "case 2 after: 1 x 3.673 x 1 h"
expect_eq "$(q "SELECT a.requests = b.requests FROM run_summary a, run_summary b WHERE a.$before AND b.$after")" 1 \
    "case 2: the same requests before and after"
expect_eq "$(q "SELECT abs(s.utilization * 3600 - l.count * (0.009 / l.mean_batch_size + 0.001))
                       < 0.005 * s.utilization * 3600
                FROM run_summary s JOIN latency l USING (run_id) WHERE s.$after")" 1 \
    "case 2 after: busy time = the batches' time"
expect_eq "$(q "SELECT latency_p99_s < 0.1 FROM run_summary WHERE $after")" 1 \
    "case 2 after: p99 under 100 ms"

expect_exit 0 "case 8 roi 1y" -- "$FLEETSIM" roi --db "$DB" case8-reserved-v100 --format csv
expect_in "$TMP/out" "v100,V100-16GB,reserved,8,,1y,none,0.00,12193.92,17870.40,12193.92,5676.48,31.7647," \
    "case 8: reserve 8 for a year, 31.8% off"
expect_exit 0 "case 8 roi 3y" -- "$FLEETSIM" roi --db "$DB" case8-reserved-v100 --term 3y --format csv
expect_in "$TMP/out" ",reserved,8,,3y,none,0.00,6610.88,17870.40,6610.88,11259.52,63.0065," \
    "case 8: reserve 8 for three years, 63.0% off"
report
