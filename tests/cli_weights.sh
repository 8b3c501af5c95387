#!/bin/sh
# cli_weights.sh -- an LLM's weights stored in object storage and pulled on
# every cold start, as their own cost lines, against hand computation:
# - one spot L4 (aws:g6.xlarge at $0.50/h) serving llama-3-8b in fp8 for 30
#   days from 2026-01-16 (384 h in January, 336 h in February); each
#   instance lives exactly 5 h (a lifetimes file of one row), no notice,
#   replaced at once with no provisioning delay: a relaunch at 5 h, 10 h,
#   ..., 715 h, 143 cold starts, 76 of them in January (5 h .. 380 h) and
#   67 in February (385 h .. 715 h);
# - the weights are llama-3-8b's 8.030 B parameters (models.csv) at one
#   byte each (fp8): 8.03 GB.  weights_from = other-region: each cold start
#   moves them from another AWS region at the published $0.02 a GB
#   (storage.csv): January 76 x 8.03 x 0.02 = $12.21, February 67 x 8.03 x
#   0.02 = $10.76; one copy kept in S3 Standard at $0.023 a GB-month for
#   the horizon: 8.03 x 384 / 730 x 0.023 = $0.10 and 8.03 x 336 / 730 x
#   0.023 = $0.09;
# - the lines add up: the rows to the summary's storage and transfer line,
#   it and the GPU bill to the total; FOCUS Storage and Networking rows
#   with each line's cost; the report's table;
# - internet (AWS's $0.09 a GB out), same-region (free: S3 to EC2 in one
#   region), the workload's own storage_price and transfer_price;
# - no weights_from: no line (as before the key);
# - bad input: weights_from off an llm, an unknown value, storage_price on
#   an inference workload without weights_from, a pool with no provider:
#   file:line:key, exit 1, nothing written.
. "$(dirname "$0")/cli_lib.sh"
cd "$TMP" || exit 1
DB="$TMP/w.db"
printf 't_s\n18000\n' >life.csv
cat >weights.ini <<'INI'
[scenario]
name = weights
start = 2026-01-16
horizon = 30d
seed = 1
metrics_interval = 1h
[pool.g]
instance = aws:g6.xlarge
pricing = spot
price = 0.50
count = 1
interruption = empirical(life.csv)
notice = 0s
replace_delay = 0s
provision_delay = 0s
tags = team:chat
[workload.chat]
pools = g
arrivals = poisson(rate=0.05/s)
service = llm(model=llama-3-8b, precision=fp8)
tokens_in = const(500)
tokens_out = const(100)
weights_from = other-region
INI
expect_exit 0 "llm on spot, weights from another region" -- "$FLEETSIM" run weights.ini --db "$DB"
cp "$TMP/out" summary.txt
expect_eq "$(sql "$DB" "SELECT cold_starts FROM pool")" "143" "143 relaunches, each a cold start, as by hand"
price() {   # price PROVIDER COLUMN: the published figure of storage.csv
    awk -F, -v p="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 == p { print $col[c] }' "$SRCDIR/models/catalog/storage.csv"
}
gb=$(awk -F, '$1 == "llama-3-8b" { print $2 }' "$SRCDIR/models/catalog/models.csv")
expect_eq "$gb" "8.030" "llama-3-8b's published parameters (billions): 8.03 GB in fp8"
s=$(price aws storage_usd_gb_month)
r=$(price aws transfer_region_usd_gb)
i=$(price aws transfer_internet_usd_gb)
expect_eq "$s|$r|$i" "0.023|0.02|0.09" "AWS S3 Standard, inter-region and internet prices as published"
hand() {    # hand GB COUNT PRICE: GB x count x price to the cent
    awk -v g="$1" -v n="$2" -v p="$3" 'BEGIN { printf "%.2f", g * n * p + 1e-9 }'
}
row() {     # row RUN ITEM MONTH: count|quantity|price|cost
    sql "$DB" "SELECT count || '|' || printf('%.6f', quantity) || '|' || unit_price_usd || '|' || printf('%.2f', cost_usd) FROM cost_extra WHERE run_id = $1 AND item = '$2' AND month = '$3'"
}
q() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a * b }'; }
expect_eq "$(row 1 weights-transfer 2026-01)" "76|$(q "$gb" 76)|$r|$(hand "$gb" 76 "$r")" "January: 76 cold starts x 8.03 GB x \$0.02"
expect_eq "$(row 1 weights-transfer 2026-02)" "67|$(q "$gb" 67)|$r|$(hand "$gb" 67 "$r")" "February: 67 cold starts x 8.03 GB x \$0.02"
jan=$(awk -v g="$gb" 'BEGIN { print g * 384 / 730 }'); feb=$(awk -v g="$gb" 'BEGIN { print g * 336 / 730 }')
expect_eq "$(row 1 model-storage 2026-01)" "1|$(q "$jan" 1)|$s|$(hand "$jan" 1 "$s")" "January: 8.03 GB x 384/730 GB-months x \$0.023"
expect_eq "$(row 1 model-storage 2026-02)" "1|$(q "$feb" 1)|$s|$(hand "$feb" 1 "$s")" "February: 8.03 GB x 336/730 GB-months x \$0.023"
expect_eq "$(hand "$gb" 76 "$r") $(hand "$gb" 67 "$r") $(hand "$jan" 1 "$s") $(hand "$feb" 1 "$s")" "12.21 10.76 0.10 0.09" "the hand figures"
expect_eq "$(sql "$DB" "SELECT DISTINCT category || ',' || unit || ',' || tags FROM cost_extra ORDER BY category")" \
    'Networking,GB,{"team":"chat"}
Storage,GB-Month,{"team":"chat"}' "categories, units, the pool's tags"
# the summary's lines add up to its total
line() { sed -n "s/^  $1 *\\\$\\([0-9,.]*\\)\$/\\1/p" summary.txt | tr -d ,; }
expect_eq "$(line 'storage and transfer')|$(line 'GPU bill (above)')|$(line 'total with storage and transfer')" \
    "23.16|360.00|383.16" "summary: storage and transfer, GPU bill (720 h x \$0.50), total"
expect_eq "$(awk -v a="$(line 'storage and transfer')" -v b="$(line 'GPU bill (above)')" -v t="$(line 'total with storage and transfer')" 'BEGIN { print (a + b == t) }')" 1 "the summary's parts add up"
expect_eq "$(sql "$DB" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_extra WHERE run_id = 1")" "$(line 'storage and transfer')" "the rows add up to the line"
expect_in summary.txt "2026-01   g               chat            weights-transfer          76" "the summary's transfer row"
# FOCUS 1.2: Storage and Networking usage rows, the bill's total with them
expect_exit 0 "export focus" -- "$FLEETSIM" export --db "$DB" --format focus --out focus.csv 1
expect_exit 0 "FOCUS storage and networking rows" -- python3 - focus.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
x = [r for r in rows if r["ServiceCategory"] != "Compute"]
bad = []
want = {("Storage", "2026-01"): "0.10", ("Storage", "2026-02"): "0.09",
        ("Networking", "2026-01"): "12.21", ("Networking", "2026-02"): "10.76"}
got = {(r["ServiceCategory"], r["BillingPeriodStart"][:7]): r["BilledCost"] for r in x}
if got != want:
    bad.append("rows %r" % got)
for r in x:
    if not r["ResourceId"].endswith("/pool/g/workload/chat/weights"):
        bad.append("ResourceId %s" % r["ResourceId"])
    if r["ServiceCategory"] == "Networking" and "cold starts pulling the weights" not in r["ChargeDescription"]:
        bad.append("ChargeDescription %s" % r["ChargeDescription"])
    if round(float(r["ListUnitPrice"]) * float(r["PricingQuantity"]), 2) != float(r["BilledCost"]):
        bad.append("price x quantity %r" % r)
total = sum(round(float(r["BilledCost"]) * 100) for r in rows)
if total != 36000 + 2316:
    bad.append("sum(BilledCost) %d cents, expected $360.00 + $23.16" % total)
for b in bad: print("FAIL", b)
sys.exit(1 if bad else 0)
PY
cat "$TMP/out"
expect_exit 0 "report" -- "$FLEETSIM" report --db "$DB" --out review.md 1
expect_in review.md "| weights | weights-transfer (Networking, 76) | chat on g | 2026-01 |" "report: the transfer line"
expect_eq "$(awk -F' [|] ' '/^[|] weights [|] (storage and transfer|GPU bill|total with)/ { gsub(/[$, |]/, "", $NF); print $NF }' review.md | tr '\n' ' ')" \
    "23.16 360.00 383.16 " "report: storage and transfer + GPU bill = total"

# where the weights come from: the internet (another cloud's egress, taken
# as AWS's $0.09 here), the same region (free), the workload's own prices
expect_exit 0 "internet" -- "$FLEETSIM" run weights.ini --db "$DB" --quiet --set workload.chat.weights_from=internet
expect_eq "$(row 2 weights-transfer 2026-01)" "76|$(q "$gb" 76)|$i|$(hand "$gb" 76 "$i")" "internet: 76 x 8.03 GB x \$0.09"
expect_eq "$(hand "$gb" 76 "$i")" "54.93" "internet hand figure"
expect_exit 0 "same region" -- "$FLEETSIM" run weights.ini --db "$DB" --quiet --set workload.chat.weights_from=same-region
expect_eq "$(row 3 weights-transfer 2026-02)" "67|$(q "$gb" 67)|0.0|0.00" "same region: the pulls counted, free"
expect_eq "$(row 3 model-storage 2026-02)" "1|$(q "$feb" 1)|$s|0.09" "same region: the storage all the same"
expect_exit 0 "own prices" -- "$FLEETSIM" run weights.ini --db "$DB" --quiet --set workload.chat.storage_price=0.5 --set workload.chat.transfer_price=0.1
expect_eq "$(row 4 weights-transfer 2026-01)|$(row 4 model-storage 2026-01)" \
    "76|$(q "$gb" 76)|0.1|$(hand "$gb" 76 0.1)|1|$(q "$jan" 1)|0.5|$(hand "$jan" 1 0.5)" "storage_price and transfer_price replace the catalog's"
sed '/^weights_from/d' weights.ini >none.ini
expect_exit 0 "no weights_from" -- "$FLEETSIM" run none.ini --db "$DB" --quiet
expect_eq "$(sql "$DB" "SELECT count(*) FROM cost_extra WHERE run_id = 5")|$(sql "$DB" "SELECT cold_starts FROM pool WHERE run_id = 5")" "0|143" "no weights_from: the cold starts, no line"

# bad input: file:line:key, exit 1, nothing written
cat >"$TMP/notllm.ini" <<'INI'
[scenario]
name = notllm
horizon = 1h
[pool.g]
instance = aws:g6.xlarge
count = 1
[workload.w]
pools = g
arrivals = poisson(rate=1/s)
service = exponential(mean=100ms)
weights_from = same-region
INI
bad_run notllm "notllm.ini:11: workload.w.weights_from: applies to workloads with service = llm(...) only"
sed 's/^weights_from = other-region$/weights_from = moon/' weights.ini >"$TMP/value.ini"
bad_run value "value.ini:23: workload.chat.weights_from"
sed 's/^weights_from = other-region$/storage_price = 0.02/' weights.ini >"$TMP/stray.ini"
bad_run stray "stray.ini:23: workload.chat.storage_price: prices a training workload's checkpoints or an llm workload's weights: give weights_from ="
sed 's/^instance = aws:g6.xlarge$/gpu = L4\nload_time = 60s/' weights.ini >"$TMP/noprov.ini"
bad_run noprov "noprov.ini:24: workload.chat.weights_from: pool g has no provider: the catalog's storage.csv cannot price its model weights; give storage_price"
report
