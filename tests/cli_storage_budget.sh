#!/bin/sh
# cli_storage_budget.sh -- the costs beside the GPU hour and budgets as
# guardrails, from the command line, against hand computation:
# - one 12 h training job checkpointing every 2 h of work (no checkpoint or
#   restore time) on one spot L4 (aws:g6.xlarge at $0.50/h) whose instances
#   each live exactly 5 h (a lifetimes file of one row), no notice, replaced
#   at once.  By hand: run 1 saves at 2 h and 4 h and is taken at 5 h (4 h
#   saved); run 2 saves at 7 h and 9 h (8 h saved) and is taken at 10 h;
#   run 3 saves at 12 h (10 h saved) and ends the job at 14 h.  5
#   checkpoints written, 2 restores (the restarts, each with a checkpoint
#   to read).  A 140 GB checkpoint kept a month (730 h) at S3 Standard's
#   published $0.023 per GB-month: 140 x 5 x 0.023 = $16.10; each restore
#   from another zone moves 140 GB at $0.01 out + $0.01 in: 140 x 2 x 0.02
#   = $5.60.  The prices are read here from models/catalog/storage.csv (the
#   published figures, with their sources), the counts are the hand ones;
#   GCP's $0.020 and $0.01 give $14.00 and $2.80;
# - the parts add up: storage + transfer + the GPU bill = the summary's
#   total with storage and transfer, and the rows' sum = the two lines;
# - budgets: the 2-day run's bill $24.00 (48 h x $0.50) + $21.70 = $45.70
#   is a 730-hour run rate of 45.70 x 730 / 48 = $695.02; a tagged budget
#   of $100/month for team:ml (the pool's tag) is over by $595.02: exit 3
#   with a Markdown table naming the tag and the overrun; --budget 1000
#   alone is within: exit 0, no table;
# - bad budgets (negative, NaN, a tag without KEY:VALUE, another period)
#   are refused at file:line:key, exit 1, no database written; a bad
#   --budget is a usage error (exit 2).
. "$(dirname "$0")/cli_lib.sh"
cd "$TMP" || exit 1
DB="$TMP/sb.db"
printf 'job_id,submit_s,gpus,duration_s\nft,0,1,43200\n' >job.csv
printf 't_s\n18000\n' >life.csv
cat >ckpt.ini <<'INI'
[scenario]
name = ckpt
start = 2026-01-01
horizon = 2d
seed = 1
metrics_interval = 1h
[pool.spot]
instance = aws:g6.xlarge
pricing = spot
price = 0.50
count = 1
interruption = empirical(life.csv)
notice = 0s
replace_delay = 0s
provision_delay = 0s
tags = team:ml
[workload.ft]
kind = training
pools = spot
jobs = job.csv
checkpoint_interval = 2h
checkpoint_cost = 0s
restore_cost = 0s
checkpoint_size = 140
checkpoint_transfer = zone
INI
expect_exit 0 "checkpointed spot job" -- "$FLEETSIM" run ckpt.ini --db "$DB"
cp "$TMP/out" summary.txt
expect_eq "$(sql "$DB" "SELECT status, end_s / 3600 FROM job")" "finished|14.0" "the job ends at 14 h, as by hand"
price() {   # price PROVIDER COLUMN: the published figure of storage.csv
    awk -F, -v p="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 == p { print $col[c] }' "$SRCDIR/models/catalog/storage.csv"
}
hand() {    # hand GB COUNT PRICE: GB x count x price to the cent
    awk -v g="$1" -v n="$2" -v p="$3" 'BEGIN { printf "%.2f", g * n * p + 1e-9 }'
}
s=$(price aws storage_usd_gb_month)
z=$(price aws transfer_zone_usd_gb)
expect_eq "$s|$z" "0.023|0.02" "AWS S3 Standard and inter-zone prices as published"
row() { sql "$DB" "SELECT count || '|' || printf('%.2f', cost_usd) FROM cost_extra WHERE run_id = $1 AND item = '$2'"; }
expect_eq "$(row 1 checkpoint-storage)" "5|$(hand 140 5 "$s")" "storage: 140 GB x 5 checkpoints x \$0.023"
expect_eq "$(row 1 checkpoint-transfer)" "2|$(hand 140 2 "$z")" "transfer: 140 GB x 2 restores x \$0.02"
expect_eq "$(hand 140 5 "$s")|$(hand 140 2 "$z")" "16.10|5.60" "the hand figures"
expect_eq "$(sql "$DB" "SELECT category || ',' || unit || ',' || quantity FROM cost_extra WHERE run_id = 1 ORDER BY category")" \
    "Networking,GB,280.0
Storage,GB-Month,700.0" "categories, units and quantities"
expect_eq "$(sql "$DB" "SELECT tags FROM cost_extra WHERE run_id = 1 LIMIT 1")" '{"team":"ml"}' "the pool's tags"
# the summary's lines add up to its total
line() { sed -n "s/^  $1 *\\\$\\([0-9,.]*\\)\$/\\1/p" summary.txt | tr -d ,; }
expect_eq "$(line 'storage and transfer')|$(line 'GPU bill (above)')|$(line 'total with storage and transfer')" \
    "21.70|24.00|45.70" "summary: storage and transfer, GPU bill, total"
expect_eq "$(awk -v a="$(line 'storage and transfer')" -v b="$(line 'GPU bill (above)')" -v t="$(line 'total with storage and transfer')" 'BEGIN { print (a + b == t) }')" 1 "the summary's parts add up"
expect_eq "$(sql "$DB" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_extra WHERE run_id = 1")" "$(line 'storage and transfer')" "the rows add up to the line"
# FOCUS 1.2: the two lines as Storage and Networking usage rows, each its
# unit price x quantity to the cent; the export adds up to the bill plus
# the lines
expect_exit 0 "export focus" -- "$FLEETSIM" export --db "$DB" --format focus --out focus.csv 1
expect_exit 0 "FOCUS storage and networking rows" -- python3 - focus.csv "$(hand 140 5 "$s")" "$(hand 140 2 "$z")" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
x = {r["ServiceCategory"]: r for r in rows if r["ServiceCategory"] != "Compute"}
want = {"Storage": ("Object Storage", "GB-Month", "700.000000", "0.023000", sys.argv[2], "Amazon Simple Storage Service"),
        "Networking": ("Network Connectivity", "GB", "280.000000", "0.020000", sys.argv[3], "AWS Data Transfer")}
bad = []
for cat, (sub, unit, q, p, cost, svc) in want.items():
    r = x.get(cat)
    got = r and (r["ServiceSubcategory"], r["PricingUnit"], r["PricingQuantity"], r["ListUnitPrice"], r["BilledCost"], r["ServiceName"])
    if got != (sub, unit, q, p, cost, svc):
        bad.append("%s: %r" % (cat, got))
    elif not (r["ChargeCategory"] == "Usage" and r["PricingCategory"] == "Standard" and r["ConsumedUnit"] == unit
              and r["EffectiveCost"] == r["ListCost"] == r["ContractedCost"] == cost
              and round(float(p) * float(q), 2) == float(cost) and r["x_Pool"] == "spot"):
        bad.append("%s: columns %r" % (cat, r))
total = sum(round(float(r["BilledCost"]) * 100) for r in rows)
if total != 2400 + 1610 + 560:
    bad.append("sum(BilledCost) %d cents, expected $24.00 + $16.10 + $5.60" % total)
for b in bad: print("FAIL", b)
sys.exit(1 if bad else 0)
PY
cat "$TMP/out"

# GCP's published prices on the same hand counts
expect_exit 0 "on gcp" -- "$FLEETSIM" run ckpt.ini --db "$DB" --quiet --set pool.spot.instance=gcp:g2-standard-4
gs=$(price gcp storage_usd_gb_month); gz=$(price gcp transfer_zone_usd_gb)
expect_eq "$(row 2 checkpoint-storage)|$(row 2 checkpoint-transfer)" "5|$(hand 140 5 "$gs")|2|$(hand 140 2 "$gz")" "gcp: 140 x 5 x \$$gs and 140 x 2 x \$$gz"
expect_eq "$(hand 140 5 "$gs")|$(hand 140 2 "$gz")" "14.00|2.80" "gcp hand figures"

# budgets
expect_exit 3 "a breached tag budget exits 3" -- "$FLEETSIM" run ckpt.ini --db "$DB" --set "scenario.budgets=team:ml=100/month"
expect_in "$TMP/out" "### fleetsim budget check: over budget" "the Markdown heading"
expect_in "$TMP/out" "| team:ml | \$100.00 | \$695.02 | **\$595.02** (595.0% over) |" "the Markdown row names the tag and the overrun"
expect_eq "$(sql "$DB" "SELECT scope || '|' || limit_usd || '|' || printf('%.2f', spend_usd) || '|' || overrun_usd FROM budget WHERE run_id = 3")" \
    "team:ml|100.0|695.02|595.02" "stored: 45.70 x 730 / 48 = 695.02, over by 595.02"
expect_exit 3 "--budget breached" -- "$FLEETSIM" run ckpt.ini --db "$DB" --budget 500
expect_in "$TMP/out" "| whole run (--budget) | \$500.00 | \$695.02 | **\$195.02** (39.0% over) |" "--budget's row"
# the report: the lines with the bill and their total (adding up), and
# the budget exceeded among the risks
expect_exit 0 "report" -- "$FLEETSIM" report --db "$DB" --out review.md 3
expect_in review.md "| ckpt | checkpoint-storage (Storage, 5) | ft on spot | 2026-01 | 700.0 GB-Month | \$0.023 per GB-Month | \$16.10 |" "report: the storage line"
expect_eq "$(awk -F' [|] ' '/^[|] ckpt [|] (storage and transfer|GPU bill|total with)/ { gsub(/[$, |]/, "", $NF); print $NF }' review.md | tr '\n' ' ')" \
    "21.70 24.00 45.70 " "report: storage and transfer + GPU bill = total"
expect_in review.md "Budget exceeded: run ckpt, tag team:ml: \$695.02 a month (730-hour run rate) against a budget of \$100.00, over by \$595.02" "report: the breach among the risks"
expect_exit 0 "--budget within" -- "$FLEETSIM" run ckpt.ini --db "$DB" --budget 1000/month
checks=$((checks + 1)); ! grep -q "budget check" "$TMP/out" || fail "no Markdown when within"
expect_in "$TMP/out" "whole run (--budget)" "the summary lists the budget within"
expect_exit 0 "scenario budget within" -- "$FLEETSIM" run ckpt.ini --db "$DB" --quiet --set scenario.budget=695.03

# bad budgets: file:line:key, exit 1, nothing written
mk() { sed "s|^seed = 1\$|seed = 1\n$2|" ckpt.ini >"$TMP/$1.ini"; }
mk neg 'budget = -5/month';         bad_run neg "neg.ini:6: scenario.budget: '-5/month'"
mk nan 'budget = nan';              bad_run nan "nan.ini:6: scenario.budget: 'nan'"
mk zero 'budget = 0';               bad_run zero "must be above \$0"
mk week 'budget = 100/week';        bad_run week "730-hour month"
mk notag 'budgets = team=5/month';  bad_run notag "notag.ini:6: scenario.budgets: 'team=5/month': expected TAG:VALUE=AMOUNT/month"
mk twice 'budgets = team:a=5, team:a=6'; bad_run twice "a second budget for team:a"
mk tagnan 'budgets = team:ml=nan/month'; bad_run tagnan "tagnan.ini:6: scenario.budgets: 'nan/month'"
expect_exit 2 "--budget -1 is a usage error" -- "$FLEETSIM" run ckpt.ini --db "$TMP/bad.db" --budget -1
checks=$((checks + 1)); [ ! -e "$TMP/bad.db" ] || fail "--budget -1 wrote a database"
# a pool no catalog prices: the key asks for the price
sed 's|^instance = aws:g6.xlarge$|gpu = L4|' ckpt.ini >noprov.ini

bad_run noprov "noprov.ini:24: workload.ft.checkpoint_size: pool spot has no provider"
report
