#!/bin/sh
# cli_commit_focus.sh -- `fleetsim commit --format focus`: the recommended
# buys as FOCUS 1.2 Purchase rows.  The One-Time rows add up to the
# portfolio's upfront and each buy's Recurring rows to its $ an hour x the
# term's hours (8760 a year), to the cent; the header is export's FOCUS
# header; every row is a Purchase.
#
# tests/commit-day-night.ini (tests/cli_commit.sh): two pools of
# aws:g4dn.xlarge, `day` busy 08:00-20:00 and `night` 20:00-08:00.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/focus.db"
INI="$SRCDIR/tests/commit-day-night.ini"
# sums FILE: "ONE-TIME RECURRING ROWS FIRST_START LAST_END" of the rows,
# read with Python's csv module (descriptions hold commas)
sums() {
    python3 - "$1" <<'PY'
import csv, sys
from decimal import Decimal
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
one = sum(Decimal(r["BilledCost"]) for r in rows if r["ChargeFrequency"] == "One-Time")
rec = sum(Decimal(r["BilledCost"]) for r in rows if r["ChargeFrequency"] == "Recurring")
bad = [r for r in rows if r["ChargeCategory"] != "Purchase" or r["EffectiveCost"] != "0.00"]
rec_rows = [r for r in rows if r["ChargeFrequency"] == "Recurring"]
print(one, rec, len(rec_rows), rec_rows[0]["ChargePeriodStart"] if rec_rows else "-",
      rec_rows[-1]["ChargePeriodEnd"] if rec_rows else "-", len(bad))
PY
}

# (a) A quoted 3-year partial-upfront reservation, $1000 + $0.05 an hour
# (amortized $0.0881/h, below the published all-upfront $0.197793): the
# portfolio buys 3, upfront 3 x 1000 = $3,000.00 and 3 x 0.05 = $0.15 an
# hour, $3,942.00 over the term's 26,280 hours, in 37 calendar months
# from 2026-01-05 (the run's start) to 2029-01-04.
expect_exit 0 "run" -- "$FLEETSIM" run "$INI" --db "$DB" --quiet \
    --set scenario.name=q --set pool.day.reserved_3y_partial=1000+0.05/h \
    --set pool.night.reserved_3y_partial=1000+0.05/h
expect_exit 0 "commit csv" -- "$FLEETSIM" commit q --db "$DB" --format csv
expect_in "$TMP/out" 'reserved,"aws:g4dn.xlarge",3y,partial,3,0.15,3000.00,' "the portfolio: 3 partial"
expect_exit 0 "commit focus" -- "$FLEETSIM" commit q --db "$DB" --format focus
cp "$TMP/out" "$TMP/q.csv"
expect_eq "$(sums "$TMP/q.csv")" "3000.00 3942.00 37 2026-01-05T00:00:00Z 2029-01-04T00:00:00Z 0" "upfront, 0.15 x 26280 h, 37 months"
expect_in "$TMP/q.csv" "fleetsim/commit/reserved/aws:g4dn.xlarge/36m/partial" "CommitmentDiscountId"
expect_in "$TMP/q.csv" ",One-Time," "a One-Time row"
# the header is export's (sim/app/focus.h), which cli_export_focus.sh
# checks against the spec
expect_exit 0 "export focus" -- "$FLEETSIM" export q --db "$DB" --format focus --out "$TMP/bill.csv"
expect_eq "$(head -n 1 "$TMP/q.csv")" "$(head -n 1 "$TMP/bill.csv")" "the FOCUS header of export"

# (b) Eleven runs under --risk unused<=5%@p90 (tests/cli_commit.sh (c)):
# one 3-year all-upfront reservation and a 3-year savings plan.  Its
# upfront is the portfolio's upfront_usd, the plan's Recurring rows its
# usd_h x 26,280 h to the cent.
SPEC="3:2,2:2,3:1,1:2,4:2,3:3,2:1,3:2,1:1,4:3,2:3"
i=0
for r in $(echo "$SPEC" | tr , ' '); do
    i=$((i + 1))
    expect_exit 0 "run dn$i" -- "$FLEETSIM" run "$INI" --db "$DB" --quiet \
        --set scenario.name="dn$i" --set pool.day.count="${r%:*}" \
        --set pool.night.count="${r#*:}"
done
RUNS="dn1 dn2 dn3 dn4 dn5 dn6 dn7 dn8 dn9 dn10 dn11"
expect_exit 0 "commit risk json" -- "$FLEETSIM" commit $RUNS --db "$DB" --risk "unused<=5%@p90" --format json
set -- $(python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["portfolio"]
print("%.2f" % sum(r["upfront_usd"] for r in p if r["kind"] == "reserved"),
      "%.9f" % sum(r["usd_h"] for r in p if r["kind"] == "savings-plan"))' "$TMP/out")
up=$1 plan=$2
checks=$((checks + 1))
awk -v p="$plan" 'BEGIN { exit !(p > 0) }' || fail "risk: no savings plan bought ($plan)"
expect_exit 0 "commit risk focus" -- "$FLEETSIM" commit $RUNS --db "$DB" --risk "unused<=5%@p90" --format focus
cp "$TMP/out" "$TMP/r.csv"
want=$(awk -v p="$plan" 'BEGIN { printf "%.2f", p * 26280 }')
set -- $(sums "$TMP/r.csv")
expect_eq "$1" "$up" "One-Time rows = the portfolio's upfront_usd"
expect_eq "$2" "$want" "the plan's Recurring rows = usd_h x 26280 h"
expect_eq "$6" "0" "every row a Purchase with EffectiveCost 0"
expect_in "$TMP/r.csv" "Savings Plan" "CommitmentDiscountType"
expect_in "$TMP/r.csv" "fleetsim/commit/savings-plan/36m" "the plan's id"

# Bad: an unknown format names focus among the choices.
expect_exit 1 "bad format" -- "$FLEETSIM" commit q --db "$DB" --format xml
expect_in "$TMP/err" "markdown, focus" "focus listed"
report
