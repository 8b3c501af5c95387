#!/bin/sh
# cli_commit_block.sh -- `commit` weighs a capacity block for a training
# pool, against hand figures:
# - two p5.48xlarge on demand (the catalog's $55.04 an instance-hour), one
#   training job on both from 24 h to 150 h (126 h): AWS sells blocks in
#   whole days up to 14, so the block is 6 days: 2 x 144 h x the published
#   block rate $39.33 = $11,327.04; the same busy hours on demand 2 x 126 h
#   x $55.04 = $13,870.08; the saving $2,543.04, in every format (table,
#   csv, json, markdown) and as a FOCUS One-Time Purchase row;
# - a 361-hour window (16 days) takes the 7-day step to 21 days:
#   2 x 504 h x $39.33 = $39,644.64 against 2 x 361 h x $55.04 =
#   $39,738.88, a saving of $94.24;
# - a 2-hour job: a 1-day block ($1,887.84) is dearer than the $220.16 its
#   hours cost on demand: shown as capacity-block-dearer, no cost lines,
#   no Purchase row;
# - an instance type without a published block rate: no block.
. "$(dirname "$0")/cli_lib.sh"
cd "$TMP" || exit 1
DB="$TMP/cb.db"
job() { printf 'job_id,submit_s,gpus,duration_s\nj1,86400,16,%s\n' "$1" >jobs.csv; }
cat >tr.ini <<'INI'
[scenario]
name = tr
start = 2026-03-01
horizon = 30d
seed = 1
[pool.od]
instance = aws:p5.48xlarge
pricing = on-demand
count = 2
[workload.t]
kind = training
pools = od
span_instances = yes
jobs = trace(jobs.csv, format=generic)
INI
col() {     # col FILE COLUMN INSTANCE: the catalog's figure
    awk -F, -v c="$2" -v i="$3" 'NR == 1 { for (k = 1; k <= NF; k++) n[$k] = k; next }
        $2 == i { print $n[c]; exit }' "$SRCDIR/models/catalog/$1"
}
od=$(col instances.csv on_demand_usd_h p5.48xlarge)
blk=$(col capacity_blocks.csv block_usd_h p5.48xlarge)
expect_eq "$od|$blk" "55.04|39.33" "the catalog's on-demand and published block rates"
usd() { awk -v n="$1" -v h="$2" -v p="$3" 'BEGIN { printf "%.2f", n * h * p + 1e-9 }'; }
sub2() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b + 1e-9 }'; }
B=$(usd 2 144 "$blk"); O=$(usd 2 126 "$od"); S=$(sub2 "$O" "$B")
expect_eq "$B|$O|$S" "11327.04|13870.08|2543.04" "the hand figures"

job 453600
expect_exit 0 "run: one job 126 h" -- "$FLEETSIM" run tr.ini --db "$DB" --quiet
expect_eq "$(sql "$DB" "SELECT (start_s / 3600) || '-' || (end_s / 3600) FROM job WHERE run_id = 1")" "24.0-150.0" "the job's window"
expect_exit 0 "commit table" -- "$FLEETSIM" commit --db "$DB" 1
expect_in "$TMP/out" "run 1  od           aws:p5.48xlarge    hours 24-150  2 x 6 days at \$39.33/h = \$$B; busy 252.00 instance-hours on demand \$$O, paid \$$O, saving \$$S: recommended" "the table's block line"
expect_in "$TMP/out" "capacity-block  od (aws:p5.48xlarge, run 1, hours 24-150)  6 days  all  2  78.66  $B  252.00  $O" "the portfolio row"
expect_exit 0 "commit csv" -- "$FLEETSIM" commit --db "$DB" --format csv 1
expect_in "$TMP/out" "capacity-block,\"od (aws:p5.48xlarge, run 1, hours 24-150)\",6 days,all,2,78.66,$B,252.00,$O,1.0000,0.8750" "csv: the block row (utilization 252 / 288)"
expect_in "$TMP/out" "cost,capacity_blocks_saving_usd,,,,,,,$S" "csv: the saving"
expect_exit 0 "commit json" -- "$FLEETSIM" commit --db "$DB" --format json 1
cp "$TMP/out" c.json
expect_exit 0 "json: the block's parts add up" -- python3 - c.json "$B" "$O" "$S" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b = d["capacity_blocks"][0]
B, O, S = (float(x) for x in sys.argv[2:5])
ok = (b["pool"] == "od" and b["count"] == 2 and b["days"] == 6 and b["recommended"]
      and round(b["block_usd"], 2) == B and round(b["on_demand_usd"], 2) == O
      and round(b["saving_usd"], 2) == S
      and round(b["count"] * b["days"] * 24 * b["block_usd_h"], 2) == B
      and round(b["on_demand_usd"] - b["block_usd"], 2) == S
      and round(d["cost"]["capacity_blocks_saving_usd"], 2) == S)
sys.exit(0 if ok else print(b, d["cost"]) or 1)
PY
expect_exit 0 "commit markdown" -- "$FLEETSIM" commit --db "$DB" --format markdown 1
expect_in "$TMP/out" "| run 1 | od | aws:p5.48xlarge | h 24-150 | 2 | 6 | 39.33 | $B | 252.00 | $O | $O | $S | recommended |" "markdown: the block's row"
expect_exit 0 "commit focus" -- "$FLEETSIM" commit --db "$DB" --format focus 1
cp "$TMP/out" focus.csv
expect_exit 0 "FOCUS: the block as a One-Time Purchase row" -- python3 - focus.csv "$B" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline='')) if r["x_Pricing"] == "capacity-block"]
ok = (len(rows) == 1 and rows[0]["BilledCost"] == sys.argv[2] and rows[0]["ChargeCategory"] == "Purchase"
      and rows[0]["ChargeFrequency"] == "One-Time" and rows[0]["CommitmentDiscountType"] == "Capacity Block"
      and rows[0]["PricingQuantity"] == "288.000000" and rows[0]["ListUnitPrice"] == "39.330000"
      and rows[0]["ChargePeriodStart"] == "2026-03-02T00:00:00Z"
      and round(288 * 39.33, 2) == float(rows[0]["BilledCost"]))
sys.exit(0 if ok else print(rows) or 1)
PY

# 16 days: the 7-day step to 21
job 1299600
expect_exit 0 "run: one job 361 h" -- "$FLEETSIM" run tr.ini --db "$DB" --quiet
B=$(usd 2 504 "$blk"); O=$(usd 2 361 "$od"); S=$(sub2 "$O" "$B")
expect_eq "$B|$O|$S" "39644.64|39738.88|94.24" "the 21-day hand figures"
expect_exit 0 "commit: 21 days" -- "$FLEETSIM" commit --db "$DB" 2
expect_in "$TMP/out" "2 x 21 days at \$39.33/h = \$$B; busy 722.00 instance-hours on demand \$$O, paid \$$O, saving \$$S: recommended" "a 16-day window takes a 21-day block"

# 2 hours: the block is dearer
job 7200
expect_exit 0 "run: one job 2 h" -- "$FLEETSIM" run tr.ini --db "$DB" --quiet
expect_exit 0 "commit: dearer" -- "$FLEETSIM" commit --db "$DB" --format csv 3
expect_in "$TMP/out" "capacity-block-dearer,\"od (aws:p5.48xlarge, run 3, hours 24-26)\",1 day,all,2,78.66,$(usd 2 24 "$blk"),4.00,$(usd 2 2 "$od")" "a 1-day block against 2 h on demand: dearer"
checks=$((checks + 1)); ! grep -q "capacity_blocks_usd" "$TMP/out" || fail "no cost lines for a dearer block"
expect_exit 0 "commit focus: dearer" -- "$FLEETSIM" commit --db "$DB" --format focus 3
checks=$((checks + 1)); ! grep -q "capacity-block" "$TMP/out" || fail "no Purchase row for a dearer block"

# no published block rate
printf 'job_id,submit_s,gpus,duration_s\nj1,86400,1,7200\n' >jobs.csv
expect_exit 0 "run: an L4 pool" -- "$FLEETSIM" run tr.ini --db "$DB" --quiet --set pool.od.instance=aws:g6.xlarge
expect_exit 0 "commit: no block rate" -- "$FLEETSIM" commit --db "$DB" 4
checks=$((checks + 1)); ! grep -q "capacity" "$TMP/out" || fail "no block without a published rate"
report
