#!/bin/sh
# cli_commit_risk.sh -- `fleetsim commit --horizon --risk`: the risk bound
# holds over the horizon's demand, each run grown by the rate it drew,
# recomputed independently (tests/commit_risk_horizon.py, which reads the
# catalog's rates itself and grows the demand in closed form).
#
# tests/commit-day-night.ini (day 3 instances by day, night 2 by night,
# one instance type, 48 hours) with growth = 5%/month ± 3%: 5
# replications, each its own rate.  Over 3 years the portfolio without a
# bound reserves for the grown demand of the later months and leaves a
# large share of it unused early on (over 10% in the slower runs); with
# unused<=10%@p90 it must buy less, and with unused<=3%@p90 less again,
# each time at a higher expected cost, and the recomputed unused share at
# p90 (linear interpolation between the 5 runs, as GSL) is within each.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/r.db"
INI="$SRCDIR/tests/commit-day-night.ini"
CHECK="$SRCDIR/tests/commit_risk_horizon.py"
CAT="$SRCDIR/models/catalog"
RUNS="1 2 3 4 5"
num() { sed -n "s/.*\"$1\": \\([^,}]*\\).*/\\1/p" "$2" | head -n 1; }
# recompute FILE BOUND [MONTHS]: the independent check of commit's json
recompute() {
    checks=$((checks + 1))
    python3 "$CHECK" "$CAT" aws:g4dn.xlarge "${3:-36}" "$2" 0.9 "$1" "$TMP/f.json" \
        >"$TMP/check" 2>&1 || { fail "recomputed unused ($2)"; sed 's/^/    /' "$TMP/check"; }
}
# what the portfolio buys, one line
buys() {
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s/%s/%s:%s" % (r["kind"], r["term"], r["upfront"],
                                r["count"] if r["count"] is not None
                                else round(r["usd_h"], 6))
               for r in d["portfolio"] if r["kind"] != "plan-pool"))' "$1"
}
expect_exit 0 "5 replications" -- "$FLEETSIM" run "$INI" --db "$DB" --quiet \
    --set scenario.name=g --set scenario.seed=7 --set scenario.replications=5 \
    --set 'workload.w.growth=5%/month ± 3%'
expect_exit 0 "forecast" -- "$FLEETSIM" forecast $RUNS --db "$DB" --months 1 --format json
cp "$TMP/out" "$TMP/f.json"
checks=$((checks + 1))
python3 -c 'import json, sys
g = [r["growth_month"] for r in json.load(open(sys.argv[1]))["runs"]]
sys.exit(len(set(g)) != 5)' "$TMP/f.json" || fail "the 5 runs did not draw 5 rates"

# no bound: the unused share at p90 is over 10% (the bound binds below)
expect_exit 0 "no bound" -- "$FLEETSIM" commit $RUNS --db "$DB" --horizon 3y --format json
cp "$TMP/out" "$TMP/none.json"
recompute "$TMP/none.json" -
checks=$((checks + 1))
awk -v s="$(num unused_share_p90 "$TMP/none.json")" 'BEGIN { exit !(s > 0.10) }' ||
    fail "no bound: unused share at p90 $(num unused_share_p90 "$TMP/none.json"), expected over 0.10"

for b in 10 3; do
    expect_exit 0 "bound $b%" -- "$FLEETSIM" commit $RUNS --db "$DB" --horizon 3y \
        --risk "unused<=$b%@p90" --format json
    cp "$TMP/out" "$TMP/b$b.json"
    recompute "$TMP/b$b.json" "$(awk -v b=$b 'BEGIN { print b / 100 }')"
done
checks=$((checks + 1))
[ "$(buys "$TMP/none.json")" != "$(buys "$TMP/b10.json")" ] ||
    fail "the 10% bound did not change the portfolio ($(buys "$TMP/b10.json"))"
checks=$((checks + 1))
[ "$(buys "$TMP/b10.json")" != "$(buys "$TMP/b3.json")" ] ||
    fail "tightening 10% to 3% did not change the portfolio ($(buys "$TMP/b3.json"))"
checks=$((checks + 1))
awk -v a="$(num expected_total "$TMP/none.json")" -v b="$(num expected_total "$TMP/b10.json")" \
    -v c="$(num expected_total "$TMP/b3.json")" 'BEGIN { exit !(a < b && b < c) }' ||
    fail "a tighter bound must cost more: $(num expected_total "$TMP/none.json") < $(num expected_total "$TMP/b10.json") < $(num expected_total "$TMP/b3.json")"

# A 1-year horizon: a 3-year term is paid for 36 months against 12 of
# demand, two thirds of it unused whatever the growth, so under a 10%
# bound only 1-year terms are bought (measured on the run's 48 hours
# alone, as before this bound held over the horizon, the 3-year ones were).
expect_exit 0 "1y, bound 10%" -- "$FLEETSIM" commit $RUNS --db "$DB" --horizon 1y \
    --risk 'unused<=10%@p90' --format json
cp "$TMP/out" "$TMP/y1.json"
recompute "$TMP/y1.json" 0.1 12
checks=$((checks + 1))
case $(buys "$TMP/y1.json") in
*/3y/*) fail "1y horizon: a 3-year term bought ($(buys "$TMP/y1.json"))" ;;
*/1y/*) ;;
*) fail "1y horizon: nothing bought ($(buys "$TMP/y1.json"))" ;;
esac
report
