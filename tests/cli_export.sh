#!/bin/sh
# cli_export.sh -- showback (cost_allocation) and `fleetsim export`, exact
# to the cent: an on-demand, an all-upfront and a partial-upfront reserved
# pool over 30 days from 2026-01-15 (17 days of January, 13 of February).
#
# Closed forms (billing rules, doc/money.md):
#   od: 1 x $2.00/h x 720 h                       = 1440.00 (816.00 + 624.00)
#   all: 2 x $8760 upfront / 12 months, by month fraction:
#        Jan 1460 x 17/31 = 800.65, Feb 1460 x 13/28 = 677.86; no hourly fee
#   part: 1 x $0.50/h (408 h + 312 h = 360.00) + $4380 / 12 x fraction
#        Jan 204 + 200.16 = 404.16, Feb 156 + 169.46 = 325.46
#   effective (amortized) = sum of cost_monthly          = 3648.13
#   billed = 1440 + 360 + whole upfronts 17520 + 4380    = 23700.00
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/exp.db"
cat >"$TMP/exp.ini" <<'INI'
[scenario]
name = showback
start = 2026-01-15
horizon = 30d
metrics_interval = 10m
[pool.od]
gpu = A100-80GB
count = 1
price = 2.00
tags = team:platform, env:prod
[pool.all]
gpu = A100-80GB
pricing = reserved
upfront = all
upfront_price = 8760
count = 2
tags = team:platform,cc:100
[pool.part]
gpu = A100-80GB
pricing = reserved
upfront = partial
price = 0.50
upfront_price = 4380
count = 1
[workload.search]
pools = all, part, od
arrivals = poisson(rate=0.02/s)
service = exponential(mean=60s)
tags = team:search,app:ranker
INI
expect_exit 0 "run" -- "$FLEETSIM" run "$TMP/exp.ini" --db "$DB" --quiet

expect_eq "$(sql "$DB" "SELECT group_concat(pool || ' ' || month || ' ' || printf('%.2f', cost_usd), '; ') FROM (SELECT * FROM cost_monthly ORDER BY pool, month)")" \
    "all 2026-01 816.00; all 2026-02 624.00; od 2026-01 816.00; od 2026-02 624.00; part 2026-01 408.00; part 2026-02 312.00" \
    "cost_monthly closed forms"

# ---- cost_allocation: allocated + idle = total, per pool and month ----------
expect_eq "$(sql "$DB" "SELECT count(*) FROM cost_monthly c WHERE abs(c.cost_usd - (SELECT sum(a.cost_usd) FROM cost_allocation a WHERE a.run_id = c.run_id AND a.pool = c.pool AND a.month = c.month)) > 0.001")" \
    "0" "allocated + idle = cost_monthly to the cent, every pool-month"
expect_eq "$(sql "$DB" "SELECT count(*) FROM cost_allocation WHERE workload IS NULL")" "6" "one idle row per pool-month"
expect_eq "$(sql "$DB" "SELECT count(*) FROM cost_allocation WHERE abs(cost_usd * 100 - round(cost_usd * 100)) > 1e-6")" "0" "shares in whole cents"
# the busy GPU-hours allocated are the pools' busy GPU-hours
expect_eq "$(sql "$DB" "SELECT abs((SELECT sum(gpu_hours) FROM cost_allocation WHERE workload IS NOT NULL) - (SELECT sum(gpu_hours_busy) FROM pool)) < 1e-6")" \
    "1" "allocated GPU-hours = busy GPU-hours"
# idle + busy GPU-hours = billed GPU-hours (reserved: 2 x 720, 1 x 720)
expect_eq "$(sql "$DB" "SELECT printf('%.6f', sum(gpu_hours)) FROM cost_allocation WHERE pool = 'all'")" "1440.000000" "all: busy + idle = 1440 GPU-hours"
# tags: the pool's merged with the workload's, the workload's value wins
expect_eq "$(sql "$DB" "SELECT tags FROM cost_allocation WHERE pool = 'all' AND workload = 'search' LIMIT 1")" \
    '{"cc":"100","team":"search","app":"ranker"}' "tags merged, workload wins"
expect_eq "$(sql "$DB" "SELECT tags FROM cost_allocation WHERE pool = 'od' AND workload IS NULL LIMIT 1")" \
    '{"team":"platform","env":"prod"}' "idle row: the pool's tags (spaces trimmed)"
expect_eq "$(sql "$DB" "SELECT coalesce(tags, 'NULL') FROM cost_allocation WHERE pool = 'part' AND workload IS NULL LIMIT 1")" \
    '{}' "no tags: an empty object"
# compare shows the idle cost per pool
expect_exit 0 "compare json" -- "$FLEETSIM" compare --db "$DB" --format json 1
expect_in "$TMP/out" '"idle_cost_usd":' "compare: idle_cost_usd per pool"

# ---- export --format focus, hourly and daily --------------------------------
check_focus() {   # FILE ROWS: the FOCUS checks, in python3's csv module
    python3 - "$1" "$2" "$DB" <<'PY'
import csv, json, re, sqlite3, sys
path, want_rows, db = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows = list(csv.DictReader(open(path, newline='')))
bad = []
def check(ok, what):
    if not ok: bad.append(what)
required = ["BilledCost", "EffectiveCost", "ListCost", "ContractedCost",
    "BillingCurrency", "ChargeCategory", "ChargeFrequency", "ChargePeriodStart",
    "ChargePeriodEnd", "BillingPeriodStart", "BillingPeriodEnd",
    "PricingCategory", "CommitmentDiscountId", "CommitmentDiscountType",
    "CommitmentDiscountStatus", "ResourceId", "ResourceType",
    "ServiceCategory", "ServiceName", "ProviderName", "RegionId",
    "ConsumedQuantity", "ConsumedUnit", "Tags"]
cols = list(rows[0].keys())
for c in required: check(c in cols, "column %s missing" % c)
for c in cols: check(c in required or not c.startswith("x") or c.startswith("x_"), "column %s" % c)
check(len(rows) == want_rows, "rows: %d, expected %d" % (len(rows), want_rows))
ts = re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$')
money = re.compile(r'^-?\d+\.\d\d$')
cents = lambda v: int(round(float(v) * 100))
for r in rows:
    for c in ("ChargePeriodStart", "ChargePeriodEnd", "BillingPeriodStart", "BillingPeriodEnd"):
        check(ts.match(r[c]), "timestamp %s=%r" % (c, r[c]))
    for c in ("BilledCost", "EffectiveCost", "ListCost", "ContractedCost"):
        check(money.match(r[c]), "decimal %s=%r" % (c, r[c]))
    check(r["BillingCurrency"] == "USD", "currency")
    check(r["ChargePeriodStart"] < r["ChargePeriodEnd"], "period order")
    check(r["BillingPeriodStart"] <= r["ChargePeriodStart"] and r["ChargePeriodEnd"] <= r["BillingPeriodEnd"], "charge period inside billing period")
    json.loads(r["Tags"])
    pool = r["x_Pool"]
    # a commitment's purchase is not itself committed pricing (FOCUS 1.2)
    want_pc = "Standard" if pool == "od" or r["ChargeCategory"] == "Purchase" else "Committed"
    check(r["PricingCategory"] == want_pc, "PricingCategory %s %s" % (pool, r["PricingCategory"]))
    if r["ChargeCategory"] == "Usage":
        float(r["ConsumedQuantity"])
        check(r["ConsumedUnit"] == "GPU-Hours", "unit")
        want_f = "Usage-Based" if pool == "od" else "Recurring"
        check(r["ChargeFrequency"] == want_f, "ChargeFrequency %s" % pool)
        if pool == "od":
            check(r["CommitmentDiscountId"] == "" and r["CommitmentDiscountStatus"] == "", "od: no commitment")
        else:
            check(r["CommitmentDiscountStatus"] in ("Used", "Unused") and r["CommitmentDiscountType"] == "Reserved Instance", "commitment status")
    else:
        check(r["ChargeCategory"] == "Purchase" and r["ChargeFrequency"] == "One-Time", "purchase row")
        check(cents(r["EffectiveCost"]) == 0, "purchase: EffectiveCost 0")
        check(r["BillingPeriodStart"] == "2026-01-01T00:00:00Z", "purchase in the first month")
purchases = sorted((r["x_Pool"], r["BilledCost"]) for r in rows if r["ChargeCategory"] == "Purchase")
check(purchases == [("all", "17520.00"), ("part", "4380.00")], "purchases %r" % purchases)
check(sum(cents(r["BilledCost"]) for r in rows) == 2370000, "sum(BilledCost) %d" % sum(cents(r["BilledCost"]) for r in rows))
check(sum(cents(r["EffectiveCost"]) for r in rows) == 360000, "sum(EffectiveCost) %d" % sum(cents(r["EffectiveCost"]) for r in rows))
# per pool and month, to cost_monthly
con = sqlite3.connect(db)
for pool, month, usd in con.execute("SELECT pool, month, cost_usd FROM cost_monthly"):
    got = sum(cents(r["EffectiveCost"]) for r in rows if r["x_Pool"] == pool and r["BillingPeriodStart"].startswith(month))
    check(got == int(round(usd * 100)), "%s %s: effective %d, cost_monthly %.2f" % (pool, month, got, usd))
# the first hour, the last hour
starts = sorted(r["ChargePeriodStart"] for r in rows)
ends = sorted(r["ChargePeriodEnd"] for r in rows)
check(starts[0] == "2026-01-15T00:00:00Z" and ends[-1] == "2026-02-14T00:00:00Z", "span %s %s" % (starts[0], ends[-1]))
check(json.loads([r for r in rows if r["x_Pool"] == "od"][0]["Tags"]) == {"team": "platform", "env": "prod"}, "Tags")
for b in bad[:10]: print("FAIL", b)
sys.exit(1 if bad else 0)
PY
}
expect_exit 0 "export focus hourly" -- "$FLEETSIM" export --db "$DB" --format focus --out "$TMP/focus.csv" 1
expect_exit 0 "focus hourly checks" -- check_focus "$TMP/focus.csv" $((3 * 720 + 2))
cat "$TMP/out"
expect_exit 0 "export focus daily" -- "$FLEETSIM" export --db "$DB" --format focus --granularity day --out "$TMP/daily.csv" showback
expect_exit 0 "focus daily checks" -- check_focus "$TMP/daily.csv" $((3 * 30 + 2))
cat "$TMP/out"

# ---- export --format csv ----------------------------------------------------
expect_exit 0 "export csv" -- "$FLEETSIM" export --db "$DB" --format csv --out "$TMP/plain.csv" 1
expect_eq "$(head -1 "$TMP/plain.csv")" "run_id,run,pool,pricing,period_start,period_end,gpu_hours,gpu_hours_busy,billed_usd,effective_usd,list_usd" "csv header"
expect_eq "$(python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
c = lambda k: sum(int(round(float(r[k]) * 100)) for r in rows)
print(len(rows), c('billed_usd'), c('effective_usd'))" "$TMP/plain.csv")" "2162 2370000 360000" "csv: rows, billed and effective cents"

# ---- refusals ---------------------------------------------------------------
expect_exit 2 "export without --format" -- "$FLEETSIM" export --db "$DB" --out "$TMP/x.csv" 1
expect_exit 2 "export --granularity week" -- "$FLEETSIM" export --db "$DB" --format csv --granularity week --out "$TMP/x.csv" 1
expect_exit 1 "export of no such run" -- "$FLEETSIM" export --db "$DB" --format csv --out "$TMP/x.csv" 99
expect_eq "$(ls "$TMP" | grep -c '^x\.csv')" "0" "a failed export writes no file"

for bad in "team:" ":search" "team" "team:a,,env:b" "team:a,team:b" "te am:a" 'team:"a"'; do
    sed "s/^tags = team:search,app:ranker/tags = $bad/" "$TMP/exp.ini" >"$TMP/bad.ini"
    expect_exit 1 "tags = $bad refused" -- "$FLEETSIM" run "$TMP/bad.ini" --db "$TMP/bad.db" --quiet
    expect_in "$TMP/err" "bad.ini:29: workload.search.tags: " "tags = $bad: file:line:key"
    expect_one_line "tags = $bad: one message"
done
long=$(python3 -c "print('k:' + 'v' * 128)")
expect_exit 1 "a 128-byte tag value refused" -- "$FLEETSIM" run "$TMP/exp.ini" --db "$TMP/bad.db" --set "pool.od.tags=$long" --quiet
expect_in "$TMP/err" "pool.od.tags: " "long tag: names the key"
expect_eq "$(ls "$TMP" | grep -c '^bad\.db')" "0" "refused scenarios write nothing"
# ---- periods on the UTC clock when the start is not midnight ---------------
# 18:30 on 31 January for 2 days: 5.5 h of January, 24 h of 1 February,
# 18.5 h of 2 February; the hours cut at :00, the days at midnight.
cat >"$TMP/late.ini" <<'INI'
[scenario]
start = 2026-01-31 18:30
horizon = 2d
[pool.od]
gpu = A100-80GB
count = 1
price = 1.00
[workload.w]
pools = od
arrivals = poisson(rate=0.01/s)
service = const(10s)
INI
expect_exit 0 "late run" -- "$FLEETSIM" run "$TMP/late.ini" --db "$TMP/late.db" --quiet
expect_exit 0 "late export by day" -- "$FLEETSIM" export --db "$TMP/late.db" --format csv --granularity day --out "$TMP/late.csv" 1
expect_eq "$(cut -d, -f5,6,9 "$TMP/late.csv" | tail -n +2 | tr '\n' ' ')" \
    "2026-01-31T18:30:00Z,2026-02-01T00:00:00Z,5.50 2026-02-01T00:00:00Z,2026-02-02T00:00:00Z,24.00 2026-02-02T00:00:00Z,2026-02-02T18:30:00Z,18.50 " \
    "days cut at UTC midnight, \$1/h x hours"
expect_exit 0 "late export by hour" -- "$FLEETSIM" export --db "$TMP/late.db" --format csv --out "$TMP/late-h.csv" 1
expect_eq "$(sed -n 2p "$TMP/late-h.csv" | cut -d, -f5,6,9),$(sed -n 3p "$TMP/late-h.csv" | cut -d, -f5,6,9)" \
    "2026-01-31T18:30:00Z,2026-01-31T19:00:00Z,0.50,2026-01-31T19:00:00Z,2026-01-31T20:00:00Z,1.00" "hours cut at :00"
# ---- cost_allocation in closed form -----------------------------------------
# One reserved GPU at $1.00/h for 10 h = $10.00.  Workload a: 10 requests of
# 360 s, 400 s apart (1 busy GPU-hour: $1.00); b: 5 of them after ($0.50);
# idle: 8.5 GPU-hours, $8.50.
{ echo time; for i in 0 1 2 3 4 5 6 7 8 9; do echo $((i * 400)); done; } >"$TMP/a.csv"
{ echo time; for i in 0 1 2 3 4; do echo $((5000 + i * 400)); done; } >"$TMP/b.csv"
cat >"$TMP/alloc.ini" <<'INI'
[scenario]
start = 2026-03-01
horizon = 10h
[pool.r]
gpu = A100-80GB
pricing = reserved
price = 1.00
count = 1
[workload.a]
pools = r
arrivals = trace(a.csv, format=generic)
service = const(360s)
[workload.b]
pools = r
arrivals = trace(b.csv, format=generic)
service = const(360s)
INI
expect_exit 0 "alloc run" -- "$FLEETSIM" run "$TMP/alloc.ini" --db "$TMP/alloc.db" --quiet
expect_eq "$(sql "$TMP/alloc.db" "SELECT group_concat(coalesce(workload, 'idle') || ' ' || printf('%.2f %.4f', cost_usd, gpu_hours), '; ') FROM cost_allocation")" \
    "a 1.00 1.0000; b 0.50 0.5000; idle 8.50 8.5000" "allocation: a, b and idle in closed form"
expect_exit 0 "rm the alloc run" -- "$FLEETSIM" rm --db "$TMP/alloc.db" 1
expect_eq "$(sql "$TMP/alloc.db" "SELECT count(*) FROM cost_allocation")" "0" "rm takes its cost_allocation rows along"
report
