#!/bin/sh
# cli_commit.sh -- `fleetsim commit`: the commitment portfolio of every
# pool at once, one MILP (GLPK), against an independent exhaustive search
# (tests/commit_exhaustive.py, which reads the catalog's rates itself).
#
# tests/commit-day-night.ini: two pools of aws:g4dn.xlarge, `day` busy
# 08:00-20:00 and `night` 20:00-08:00, by windows, so that each hour's
# demand is known exactly.  Catalog rates: $0.526 on demand; 3-year all
# upfront $5,198.00004, $0.197793 an hour over 26,280 h (published).
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/commit.db"
INI="$SRCDIR/tests/commit-day-night.ini"
SEARCH="$SRCDIR/tests/commit_exhaustive.py"
CAT="$SRCDIR/models/catalog"
cost() { sed -n "s/.*\"$1\": \\([^,}]*\\).*/\\1/p" "$2" | head -n 1; }
# run NAME DAY NIGHT: one run of the scenario with those counts
run() {
    expect_exit 0 "run $1" -- "$FLEETSIM" run "$INI" --db "$DB" --quiet \
        --set scenario.name="$1" --set pool.day.count="$2" \
        --set pool.night.count="$3"
}
# search OUT.json SPEC BOUND QUANTILE: the exhaustive search agrees
search() {
    checks=$((checks + 1))
    python3 "$SEARCH" "$CAT" aws:g4dn.xlarge "$2" "$3" "$4" <"$1" \
        >"$TMP/search" 2>&1 || { fail "exhaustive search ($2 $3 $4)"; sed 's/^/    /' "$TMP/search"; }
}
# parts FILE: reservations + savings plans + on demand = the total
parts() {
    near "$(awk -v a="$(cost reservations "$1")" -v b="$(cost savings_plans "$1")" \
        -v c="$(cost on_demand "$1")" 'BEGIN { printf "%.6f", a + b + c }')" \
        "$(cost expected_total "$1")" 1e-6 "$2: the parts add up to the total"
}

# (a) One run, day 3 and night 2: together 3 by day, 2 by night.  The
# portfolio reserves 3 (3-year, all upfront: 0.197793 / 0.526 = 38% of on
# demand, cheaper than on demand for the third instance's 50% use):
# 3 x 0.197793 x 48 h = $28.48.  roi, pool by pool, reserves 3 for day and
# 2 for night: 5 x 0.197793 x 48 = $47.47.  All on demand: 120
# instance-hours x 0.526 = $63.12.
run one 3 2
expect_exit 0 "commit one" -- "$FLEETSIM" commit one --db "$DB" --format json
cp "$TMP/out" "$TMP/one.json"
search "$TMP/one.json" 3:2 - 0.9
near "$(cost expected_total "$TMP/one.json")" 28.4822 0.005 "one: 3 x 0.197793 x 48"
near "$(cost roi_per_pool_sum "$TMP/one.json")" 47.4703 0.005 "one: roi's sum, 5 x 0.197793 x 48"
near "$(cost all_on_demand "$TMP/one.json")" 63.12 0.005 "one: 120 x 0.526"
checks=$((checks + 1))
awk -v s="$(cost saving_vs_roi "$TMP/one.json")" 'BEGIN { exit !(s > 0.01) }' ||
    fail "one: the portfolio is not strictly cheaper than roi's per-pool answers"
parts "$TMP/one.json" one
expect_in "$TMP/one.json" '"count": 3' "one: 3 reserved"

# The same in csv and the table: the same numbers.
expect_exit 0 "commit csv" -- "$FLEETSIM" commit one --db "$DB" --format csv
expect_in "$TMP/out" 'reserved,"aws:g4dn.xlarge",3y,all,3,0.00,15594.00,120.00' "csv row"
expect_in "$TMP/out" 'cost,expected_total,,,,,,,28.4822,,' "csv total"
expect_exit 0 "commit table" -- "$FLEETSIM" commit one --db "$DB"
expect_in "$TMP/out" "expected_total                        28.4822" "table total"

# (b) Eleven runs (scenarios of the fleet: day:night counts below), one
# portfolio for all, the expected cost their mean: the exhaustive optimum.
SPEC="3:2,2:2,3:1,1:2,4:2,3:3,2:1,3:2,1:1,4:3,2:3"
i=0
for r in $(echo "$SPEC" | tr , ' '); do
    i=$((i + 1))
    run "dn$i" "${r%:*}" "${r#*:}"
done
RUNS="dn1 dn2 dn3 dn4 dn5 dn6 dn7 dn8 dn9 dn10 dn11"
expect_exit 0 "commit 11" -- "$FLEETSIM" commit $RUNS --db "$DB" --format json
cp "$TMP/out" "$TMP/free.json"
search "$TMP/free.json" "$SPEC" - 0.9
parts "$TMP/free.json" "11 runs"

# (c) The risk bound: unused commitment <= 5% of it at p90 (over 11 runs,
# linear interpolation: the 10th smallest share must be within it, one
# run may exceed it), <= 20% at p90, none at all (p100), <= 10% at p50.
# Each: the exhaustive optimum under the same bound, the bound holds, and
# it costs at least the unbounded portfolio.
for risk in "5 90 0.05 0.90" "20 90 0.20 0.90" "0 100 0 1.00" "10 50 0.10 0.50"; do
    set -- $risk
    expect_exit 0 "risk $1%@p$2" -- "$FLEETSIM" commit $RUNS --db "$DB" \
        --risk "unused<=$1%@p$2" --format json
    cp "$TMP/out" "$TMP/risk.json"
    search "$TMP/risk.json" "$SPEC" "$3" "$4"
    parts "$TMP/risk.json" "risk $1%@p$2"
    checks=$((checks + 1))
    awk -v u="$(cost unused_share_at_risk_quantile "$TMP/risk.json")" -v b="$3" \
        'BEGIN { exit !(u != "" && u <= b + 1e-9) }' ||
        fail "risk $1%@p$2: unused share over the bound"
    checks=$((checks + 1))
    awk -v r="$(cost expected_total "$TMP/risk.json")" -v f="$(cost expected_total "$TMP/free.json")" \
        'BEGIN { exit !(r >= f - 1e-9) }' || fail "risk $1%@p$2: cheaper than unbounded"
done
# the 5% bound binds: the unbounded portfolio leaves half unused at p90
checks=$((checks + 1))
awk -v u="$(cost unused_share_p90 "$TMP/free.json")" 'BEGIN { exit !(u > 0.05) }' ||
    fail "unbounded: the 5% bound would not bind"

# (d) --lp writes the model in CPLEX LP format; same inputs, same output.
expect_exit 0 "commit --lp" -- "$FLEETSIM" commit one --db "$DB" --lp "$TMP/m.lp" --format json
expect_in "$TMP/m.lp" "Minimize" "lp: objective"
expect_in "$TMP/m.lp" "Generals" "lp: integer reservations"
expect_in "$TMP/m.lp" "share_0_0_0" "lp: the pools share a reservation"
checks=$((checks + 1))
cmp -s "$TMP/out" "$TMP/one.json" || fail "commit is not deterministic"

# (e) Bad inputs: one message, exit 1.
expect_exit 1 "unknown run" -- "$FLEETSIM" commit nosuchrun --db "$DB"
expect_one_line "unknown run"
expect_in "$TMP/err" "nosuchrun" "unknown run named"
expect_exit 1 "no runs" -- "$FLEETSIM" commit --db "$DB"
expect_in "$TMP/err" "which runs?" "no runs"
expect_one_line "no runs"
for bad in "unused<10%@p90" "unused<=10%" "unused<=abc@p90" "unused<=10%@p0" "unused<=10%@p90x" "unused<=150%@p90"; do
    expect_exit 1 "--risk $bad" -- "$FLEETSIM" commit one --db "$DB" --risk "$bad"
    expect_in "$TMP/err" "--risk: '$bad'" "--risk $bad named"
    expect_one_line "--risk $bad"
done
expect_exit 1 "bad format" -- "$FLEETSIM" commit one --db "$DB" --format xml
report
