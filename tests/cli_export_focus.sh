#!/bin/sh
# cli_export_focus.sh -- `fleetsim export --format focus` against FOCUS 1.2:
# every column checked against the spec's machine-readable column list
# (tests/data/focus-1.2/columns.csv: presence, type, allowed values,
# nulls), the spec's cross-column rules, and the commitment figures in
# closed form; and CSV formula injection in every CSV writer.
#
# A test catalog prices one instance type (so that the figures do not move
# with the real catalog): aws:g5.xlarge, 1 x A10G, on-demand $2.00/h, spot
# $0.80/h.  20 days (480 h) from 2026-01-20, each pool always up:
#   ri:   2 reserved, all upfront $8,760 each for 1 year: rate 8760 / 8760
#         h = $1.00/h (ContractedUnitPrice); list 2 x 480 h x $2.00 =
#         $1,920.00; billed: one Purchase row of $17,520.00, usage rows 0.
#   sp:   savings plan, commitment $2.10/h, discount 40%: one instance's
#         hour is worth $2.00 at list, $1.20 at the plan's rate; used $1.20
#         x 480 = $576.00, unused $0.90 x 480 = $432.00 (42.9% of the
#         commitment unused); list $960.00; saving 960 - 1008 = -$48.00.
#   spot: $0.80 x 480 = $384.00, list $960.00: PricingCategory Dynamic.
#   od:   $2.00 x 480 = $960.00 = its list cost: Standard.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/focus.db"
COLUMNS_CSV="$SRCDIR/tests/data/focus-1.2/columns.csv"
SUBCATS_CSV="$SRCDIR/tests/data/focus-1.2/service_subcategories.csv"
mkdir "$TMP/cat"
cp "$SRCDIR/models/catalog/gpus.csv" "$TMP/cat/gpus.csv"
cat >"$TMP/cat/instances.csv" <<'CSV'
provider,instance,gpu,gpus,on_demand_usd_h,spot_usd_h,reserved_1y_usd_h,reserved_3y_usd_h,region,as_of,source
aws,g5.xlarge,A10G,1,2.00,0.80,1.30,0.90,us-east-1,2026-11-24,test prices
CSV
cat >"$TMP/focus.ini" <<'INI'
[scenario]
name = focus
catalog = cat
start = 2026-01-20
horizon = 20d
metrics_interval = 10m
[pool.ri]
instance = aws:g5.xlarge
pricing = reserved
upfront = all
upfront_price = 8760
count = 2
[pool.sp]
instance = aws:g5.xlarge
pricing = savings-plan
commitment = 2.10/h
discount = 0.40
count = 1
[pool.spot]
instance = aws:g5.xlarge
pricing = spot
count = 1
[pool.od]
instance = aws:g5.xlarge
count = 1
[workload.w]
pools = ri, sp, spot, od
arrivals = poisson(rate=0.01/s)
service = exponential(mean=60s)
INI
expect_exit 0 "run" -- "$FLEETSIM" run "$TMP/focus.ini" --db "$DB"
cp "$TMP/out" "$TMP/summary.txt"
expect_eq "$(sql "$DB" "SELECT group_concat(pool || ' ' || printf('%.2f %.6f %.2f %d', list_price_usd_h, coalesce(contracted_price_usd_h, -1), coalesce(commitment_usd_h, -1), gpus_per_instance), '; ') FROM pool")" \
    "ri 2.00 1.000000 2.00 1; sp 2.00 1.200000 2.10 1; spot 2.00 -1.000000 -1.00 1; od 2.00 -1.000000 -1.00 1" \
    "pool: list price, commitment rate, commitment \$/h, GPUs per instance (schema 6)"
expect_eq "$(sql "$DB" "SELECT group_concat(pricing || ' ' || printf('%.2f', s), '; ') FROM (SELECT pricing, sum(cost_usd) s FROM cost_monthly WHERE pool = 'sp' GROUP BY pricing ORDER BY pricing)")" \
    "savings-plan 576.00; savings-plan-unused 432.00" "savings plan: used and unused in closed form"

# The realised saving the run summary prints (fs_store_pool_savings'
# figure): list cost - every cost_monthly row of the pool.
RI_EFF=$(sql "$DB" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_monthly WHERE pool = 'ri'")
RI_SAVE=$(python3 -c "print('%.2f' % (1920 - float('$RI_EFF')))")
expect_in "$TMP/summary.txt" "committed pool" "summary: the committed pools' table"
summary_saving() {   # POOL: the saving column of its line
    awk -v p="$1" '$1 == p && $2 ~ /^\$/ { gsub(/[$,]/, "", $4); print $4 }' "$TMP/summary.txt"
}
expect_eq "$(summary_saving ri)" "$RI_SAVE" "summary: ri saves \$1,920.00 - its effective cost"
expect_eq "$(summary_saving sp)" "-48.00" "summary: sp saves 960 - 576 - 432 = -\$48.00"

check_focus() {   # FILE: FOCUS 1.2 conformance, then the closed forms
    python3 - "$1" "$COLUMNS_CSV" "$SUBCATS_CSV" "$RI_SAVE" <<'PY'
import csv, json, re, sys
path, spec_path, subcat_path, ri_save = sys.argv[1:5]
spec = {c["column_id"]: c for c in csv.DictReader(open(spec_path, newline=''))}
pairs = {(r["service_category"], r["service_subcategory"]) for r in csv.DictReader(open(subcat_path, newline=''))}
reader = csv.DictReader(open(path, newline=''))
header = reader.fieldnames
rows = list(reader)
bad = []
def check(ok, what):
    if not ok: bad.append(what)
check(len(spec) == 57, "the spec lists 57 columns")
# presence: every Mandatory column, and the Conditional ones whose
# condition a simulated bill with commitments meets
applies = {
    "commitment discounts": ["CommitmentDiscountCategory", "CommitmentDiscountId",
        "CommitmentDiscountName", "CommitmentDiscountQuantity", "CommitmentDiscountStatus",
        "CommitmentDiscountType", "CommitmentDiscountUnit"],
    "the measurement of usage": ["ConsumedQuantity", "ConsumedUnit"],
    "negotiated pricing": ["ContractedUnitPrice"],
    "unit prices exclusive of discounts": ["ListUnitPrice"],
    "more than one pricing category": ["PricingCategory"],
    "provisioned resources": ["ResourceId", "ResourceName", "ResourceType"],
    "price lists": ["SkuId", "SkuMeter", "SkuPriceDetails", "SkuPriceId"],
    "tags": ["Tags"],
    "a sub account": ["SubAccountId", "SubAccountName"],
}
for why, cols in applies.items():
    for c in cols:
        check(spec[c]["feature_level"] == "Conditional", "%s is Conditional" % c)
        check(c in header, "Conditional %s (%s) missing" % (c, why))
for c, s in spec.items():
    if s["feature_level"] == "Mandatory":
        check(c in header, "Mandatory %s missing" % c)
# custom columns: x_, after every FOCUS column
last_focus = max(i for i, c in enumerate(header) if c in spec)
for i, c in enumerate(header):
    check(c in spec or (c.startswith("x_") and i > last_focus), "column %s: not FOCUS, not x_ after them" % c)
check(len(header) == len(set(header)), "duplicate columns")
if bad:   # the value checks below read these columns
    for b in bad[:12]: print("FAIL", b)
    sys.exit(1)
# values: type, format, allowed values, nulls (an empty field is null)
decimal = re.compile(r'^-?(\d+(\.\d*)?|\.\d+)(E-?\d+|e-?\d+)?$')
stamp = re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$')
for n, r in enumerate(rows):
    for c in header:
        if c not in spec:
            continue
        s, v = spec[c], r[c]
        if v == "":
            check(s["allows_nulls"] == "True", "row %d: %s is null" % (n, c))
            continue
        t = s["data_type"]
        if t == "Decimal":
            check(decimal.match(v) is not None, "row %d: %s=%r not a decimal" % (n, c, v))
        elif t == "Date/Time":
            check(stamp.match(v) is not None, "row %d: %s=%r not UTC" % (n, c, v))
        elif t == "JSON":
            o = json.loads(v)
            check(isinstance(o, dict) and all(not isinstance(x, (dict, list)) for x in o.values()), "row %d: %s not a flat object" % (n, c))
        if s["allowed_values"]:
            check(v in s["allowed_values"].split("|"), "row %d: %s=%r not allowed" % (n, c, v))
        if s["value_format"] == "Currency Format":
            check(re.match(r'^[A-Z]{3}$', v) is not None, "row %d: %s=%r" % (n, c, v))
        if c in ("ListUnitPrice", "ContractedUnitPrice"):
            check(float(v) >= 0, "row %d: %s negative" % (n, c))
        check(v.strip() == v and v != "", "row %d: %s has spaces" % (n, c))
# cross-column rules (FOCUS 1.2 column requirements)
f = lambda r, c: float(r[c])
cents = lambda v: int(round(float(v) * 100))
for n, r in enumerate(rows):
    cat = r["ChargeCategory"]
    check(f(r, "ListCost") >= f(r, "EffectiveCost"), "row %d: ListCost %s < EffectiveCost %s" % (n, r["ListCost"], r["EffectiveCost"]))
    check(abs(f(r, "ListUnitPrice") * f(r, "PricingQuantity") - f(r, "ListCost")) <= 0.005 + 1e-9, "row %d: ListUnitPrice x PricingQuantity != ListCost" % n)
    check(abs(f(r, "ContractedUnitPrice") * f(r, "PricingQuantity") - f(r, "ContractedCost")) <= 0.005 + 1e-9, "row %d: ContractedUnitPrice x PricingQuantity != ContractedCost" % n)
    for c in ("PricingQuantity", "ListUnitPrice", "ContractedUnitPrice", "PricingCategory", "SkuId", "SkuPriceId", "SkuMeter"):
        check(r[c] != "", "row %d (%s): %s null" % (n, cat, c))
    check((r["PricingUnit"] == "") == (r["PricingQuantity"] == ""), "row %d: PricingUnit null iff PricingQuantity" % n)
    check((r["CommitmentDiscountUnit"] == "") == (r["CommitmentDiscountQuantity"] == ""), "row %d: CommitmentDiscountUnit iff Quantity" % n)
    check((r["CommitmentDiscountId"] != "") == (r["CommitmentDiscountQuantity"] != ""), "row %d: CommitmentDiscountQuantity iff a commitment" % n)
    check((r["CommitmentDiscountStatus"] != "") == (cat == "Usage" and r["CommitmentDiscountId"] != ""), "row %d: status on commitment usage only" % n)
    check((r["ConsumedUnit"] == "") == (r["ConsumedQuantity"] == ""), "row %d: ConsumedUnit iff ConsumedQuantity" % n)
    check((r["ServiceCategory"], r["ServiceSubcategory"]) in pairs, "row %d: ServiceSubcategory of its category" % n)
    check(r["BillingPeriodStart"][8:] == "01T00:00:00Z" and r["BillingPeriodEnd"][8:] == "01T00:00:00Z", "row %d: billing period a calendar month" % n)
    check(r["BillingPeriodStart"] <= r["ChargePeriodStart"] < r["ChargePeriodEnd"] <= r["BillingPeriodEnd"], "row %d: charge period inside its billing period" % n)
    check(all(k.startswith("x_") for k in json.loads(r["SkuPriceDetails"])), "row %d: SkuPriceDetails keys x_" % n)
    if cat == "Purchase":
        check(r["ChargeFrequency"] == "One-Time" and cents(r["EffectiveCost"]) == 0 and r["PricingCategory"] != "Committed", "row %d: a purchase" % n)
    if r["CommitmentDiscountStatus"] == "Unused":
        check(r["ResourceId"] == r["CommitmentDiscountId"] and r["ConsumedQuantity"] == "", "row %d: unused row names the commitment" % n)
# closed forms, per pool
def rows_of(pool, cat="Usage", status=None):
    return [r for r in rows if r["x_Pool"] == pool and r["ChargeCategory"] == cat and (status is None or r["CommitmentDiscountStatus"] == status)]
def total(rs, c):
    return sum(cents(r[c]) for r in rs)
def expect(got, want, what):
    check(got == want, "%s: %r, expected %r" % (what, got, want))
ri = rows_of("ri")
expect({r["CommitmentDiscountCategory"] for r in ri}, {"Usage"}, "reserved: CommitmentDiscountCategory")
expect({r["PricingCategory"] for r in ri}, {"Committed"}, "reserved: PricingCategory")
expect({r["CommitmentDiscountStatus"] for r in ri}, {"Used"}, "reserved, always up: Used")
expect(total(ri, "ListCost"), 192000, "ri: ListCost = 2 x 480 h x $2.00")
expect(total(ri, "BilledCost"), 0, "ri: all upfront, usage billed 0")
expect(total(ri, "ContractedCost"), 96000, "ri: ContractedCost = 960 h x $1.00")
expect(round(sum(f(r, "CommitmentDiscountQuantity") for r in ri), 6), 960.0, "ri: 960 instance-hours used")
expect({r["ContractedUnitPrice"] for r in ri}, {"1.000000"}, "ri: ContractedUnitPrice")
expect(total(ri, "ListCost") - total(ri, "EffectiveCost"), cents(ri_save), "ri: sum(ListCost - EffectiveCost) = the summary's realised saving")
buy = rows_of("ri", "Purchase")
expect([(r["BilledCost"], r["CommitmentDiscountQuantity"], r["ChargePeriodStart"]) for r in buy],
       [("17520.00", "17520.000000", "2026-01-20T00:00:00Z")], "ri: one Purchase row, paid at the start")
sp_used, sp_unused = rows_of("sp", status="Used"), rows_of("sp", status="Unused")
expect({r["CommitmentDiscountCategory"] for r in sp_used + sp_unused}, {"Spend"}, "savings plan: Spend")
expect(total(sp_used, "EffectiveCost"), 57600, "sp: used $576.00")
expect(total(sp_unused, "EffectiveCost"), 43200, "sp: Unused rows sum to the unused commitment $432.00")
expect(total(sp_unused, "BilledCost"), 43200, "sp: unused is billed")
expect(total(sp_used, "ListCost"), 96000, "sp: ListCost = 480 h x $2.00")
expect(round(sum(f(r, "CommitmentDiscountQuantity") for r in sp_used), 4), 576.0, "sp: $576 of commitment used")
expect(round(sum(f(r, "CommitmentDiscountQuantity") for r in sp_unused), 4), 432.0, "sp: $432 unused")
expect({r["CommitmentDiscountUnit"] for r in sp_used + sp_unused}, {"USD"}, "sp: commitment in USD")
expect(total(sp_used, "ListCost") - total(sp_used, "EffectiveCost") - total(sp_unused, "EffectiveCost"), -4800, "sp: saving = used rows' List - Effective - unused")
expect({r["ContractedUnitPrice"] for r in sp_used}, {"1.200000"}, "sp: ContractedUnitPrice = $2.00 x (1 - 40%)")
spot = rows_of("spot")
expect({r["PricingCategory"] for r in spot}, {"Dynamic"}, "spot: Dynamic")
expect((total(spot, "EffectiveCost"), total(spot, "ListCost")), (38400, 96000), "spot: $384.00, list $960.00")
od = rows_of("od")
expect({r["PricingCategory"] for r in od}, {"Standard"}, "on-demand: Standard")
expect((total(od, "EffectiveCost"), total(od, "ListCost")), (96000, 96000), "on-demand: ListCost = EffectiveCost")
expect(total(rows, "BilledCost"), 1752000 + 57600 + 43200 + 38400 + 96000, "sum(BilledCost)")
for b in bad[:12]: print("FAIL", b)
sys.exit(1 if bad else 0)
PY
}
expect_exit 0 "export focus daily" -- "$FLEETSIM" export --db "$DB" --format focus --granularity day --out "$TMP/daily.csv" focus
expect_exit 0 "FOCUS 1.2, daily" -- check_focus "$TMP/daily.csv"
cat "$TMP/out"
expect_exit 0 "export focus hourly" -- "$FLEETSIM" export --db "$DB" --format focus --out "$TMP/hourly.csv" focus
expect_exit 0 "FOCUS 1.2, hourly" -- check_focus "$TMP/hourly.csv"
cat "$TMP/out"

# The check fails on what it should catch: a missing Mandatory column, a
# value of the wrong type, a ListCost below its EffectiveCost.
python3 - "$TMP/hourly.csv" "$TMP" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
def write(name, rows, drop=None):
    cols = [c for c in rows[0] if c != drop]
    with open(sys.argv[2] + "/" + name, "w", newline='') as f:
        w = csv.DictWriter(f, cols, extrasaction='ignore')
        w.writeheader()
        w.writerows(rows)
write("no-pq.csv", rows, drop="PricingQuantity")
bad = [dict(r) for r in rows]
bad[3]["ChargePeriodStart"] = bad[3]["ChargePeriodStart"].replace("T", " ")
write("bad-time.csv", bad)
bad = [dict(r) for r in rows]
bad[5]["ListCost"] = "0.00"
write("low-list.csv", bad)
PY
expect_exit 1 "the check refuses a missing column" -- check_focus "$TMP/no-pq.csv"
expect_in "$TMP/out" "FAIL Mandatory PricingQuantity missing" "names the missing column"
expect_exit 1 "the check refuses a local time" -- check_focus "$TMP/bad-time.csv"
expect_in "$TMP/out" "FAIL row 3: ChargePeriodStart=" "names the bad value"
expect_exit 1 "the check refuses ListCost < EffectiveCost" -- check_focus "$TMP/low-list.csv"
expect_in "$TMP/out" "FAIL row 5: ListCost 0.00 < EffectiveCost" "names the row"

# ---- a reservation whose instances are down part of the day ---------------
# 2 reserved instances at $1.50/h for 4 days (192 reserved instance-hours,
# $288.00), up 10 hours a day (schedule): the hours they were down are the
# reservation's Unused rows, with their share of the cost.
cat >"$TMP/sched.ini" <<'INI'
[scenario]
catalog = cat
start = 2026-01-30
horizon = 4d
metrics_interval = 10m
[pool.r]
instance = aws:g5.xlarge
pricing = reserved
price = 1.50
count = 2
schedule = day
[window.day]
every = 1d
open = 08:00
duration = 10h
[workload.w]
pools = r
arrivals = poisson(rate=0.001/s)
service = const(60s)
INI
expect_exit 0 "scheduled reserved run" -- "$FLEETSIM" run "$TMP/sched.ini" --db "$TMP/sched.db" --quiet
expect_exit 0 "its export" -- "$FLEETSIM" export --db "$TMP/sched.db" --format focus --granularity day --out "$TMP/sched.csv" 1
UP=$(sql "$TMP/sched.db" "SELECT gpu_hours_provisioned FROM pool")
expect_eq "$(python3 - "$TMP/sched.csv" "$UP" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
up = float(sys.argv[2])
used = [r for r in rows if r["CommitmentDiscountStatus"] == "Used"]
unused = [r for r in rows if r["CommitmentDiscountStatus"] == "Unused"]
c = lambda rs, k: sum(int(round(float(r[k]) * 100)) for r in rs)
q = lambda rs: sum(float(r["CommitmentDiscountQuantity"]) for r in rs)
print(len(used), len(unused), c(used, "EffectiveCost") + c(unused, "EffectiveCost"),
      "%.4f" % (q(used) + q(unused)), "%.4f" % abs(q(unused) - (192 - up)),
      all(float(r["ListCost"]) >= float(r["EffectiveCost"]) for r in rows),
      abs(c(unused, "EffectiveCost") - (192 - up) * 150) <= len(unused))
PY
)" "4 4 28800 192.0000 0.0000 True True" "reserved, down 14 h a day: Used + Unused = \$288.00 and 192 h, Unused = the hours down"

# ---- a reservation past its term, and one renewed ---------------------------
# 1 reserved g5.xlarge, all upfront $8,760 for 1 year ($1.00/h), from
# 2026-01-01.  Over 730 days without renew: one Purchase row ($8,760.00,
# 2026-01-01), the reservation's rows in year 1 only (EffectiveCost
# $8,760.00), and the instance in year 2 at the on-demand $2.00/h as
# Standard rows: 8,760 h x $2.00 = $17,520.00 (List = Effective = Billed).
# Over 740 days with renew = yes: a Purchase row at each term's start
# (2026-01-01, 2027-01-01, 2028-01-01) in the charge period it is paid,
# and the usage rows of every term used: 17,760 instance-hours, $17,760.00.
cat >"$TMP/term.ini" <<'INI'
[scenario]
catalog = cat
start = 2026-01-01
horizon = 730d
metrics_interval = 1h
[pool.r]
instance = aws:g5.xlarge
pricing = reserved
upfront = all
upfront_price = 8760
count = 1
[workload.w]
pools = r
arrivals = poisson(rate=0.0001/s)
service = const(60s)
INI
term_check() {   # FILE RENEW
    python3 - "$1" "$2" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
renew = sys.argv[2] == "yes"
c = lambda rs, k: sum(int(round(float(r[k] or 0) * 100)) for r in rs)
buy = [(r["ChargePeriodStart"], r["BilledCost"]) for r in rows if r["ChargeCategory"] == "Purchase"]
committed = [r for r in rows if r["ChargeCategory"] == "Usage" and r["PricingCategory"] == "Committed"]
standard = [r for r in rows if r["PricingCategory"] == "Standard" and r["ChargeCategory"] == "Usage"]
print(buy)
print(len(committed), c(committed, "EffectiveCost"), c(committed, "BilledCost"),
      round(sum(float(r["CommitmentDiscountQuantity"]) for r in committed), 4),
      max(r["ChargePeriodEnd"] for r in committed))
print(len(standard), c(standard, "EffectiveCost"), c(standard, "BilledCost"), c(standard, "ListCost"),
      {r["x_Pricing"] for r in standard}, min([r["ChargePeriodStart"] for r in standard] or [""]),
      round(sum(float(r["PricingQuantity"]) for r in standard), 4))
print(all(float(r["ListCost"]) >= float(r["EffectiveCost"]) for r in rows if r["ChargeCategory"] == "Usage"),
      c(rows, "ListCost") - c(rows, "EffectiveCost") - c([r for r in rows if r["ChargeCategory"] == "Purchase"], "ListCost"))
PY
}
expect_exit 0 "a reservation past its term" -- "$FLEETSIM" run "$TMP/term.ini" --db "$TMP/term.db" --quiet
expect_exit 0 "its export" -- "$FLEETSIM" export --db "$TMP/term.db" --format focus --granularity day --out "$TMP/term.csv" 1
expect_eq "$(term_check "$TMP/term.csv" no)" "[('2026-01-01T00:00:00Z', '8760.00')]
365 876000 0 8760.0 2027-01-01T00:00:00Z
365 1752000 1752000 1752000 {'on-demand'} 2027-01-01T00:00:00Z 8760.0
True 876000" "past the term: the reservation in year 1, the instance on demand in year 2"
expect_eq "$(sql "$TMP/term.db" "SELECT group_concat(pricing || ' ' || s, '; ') FROM (SELECT pricing, printf('%.2f', sum(cost_usd)) s FROM cost_monthly GROUP BY pricing ORDER BY pricing)")" \
    "on-demand 17520.00; reserved 8760.00" "past the term: cost_monthly"
expect_exit 0 "a renewed reservation" -- "$FLEETSIM" run "$TMP/term.ini" --db "$TMP/term.db" --quiet --set pool.r.renew=yes --set scenario.horizon=740d
expect_exit 0 "its export" -- "$FLEETSIM" export --db "$TMP/term.db" --format focus --granularity day --out "$TMP/renew.csv" 2
expect_eq "$(term_check "$TMP/renew.csv" yes)" "[('2026-01-01T00:00:00Z', '8760.00'), ('2027-01-01T00:00:00Z', '8760.00'), ('2028-01-01T00:00:00Z', '8760.00')]
740 1776000 0 17760.0 2028-01-11T00:00:00Z
0 0 0 0 set()  0
True 1776000" "renewed: a Purchase row at each term's start, every term's hours used"

# ---- every row's products, invoices, totals: five purchase options ---------
# The real catalog's prices (aws:g5.xlarge $1.006/h: 3 instances an hour
# list at $3.018, a fraction of a cent the rows cannot all round the same
# way and still add up), an autoscaled on-demand pool, a partial-upfront
# reservation, an autoscaled savings plan, spot, and a MIG pool, across a
# month's end.  On every row with a unit price: ListCost = ListUnitPrice x
# PricingQuantity and ContractedCost = ContractedUnitPrice x
# PricingQuantity to the cent (FOCUS 1.2), figures as written; InvoiceId
# fleetsim-RUN-YYYYMM of its billing period; each pool's EffectiveCost
# adds up to its cost_monthly rows and its ListCost (its used rows': an
# unused commitment lists at what it cost) to its list cost.
cat >"$TMP/five.ini" <<'INI'
[scenario]
name = five
start = 2026-01-30
horizon = 3d
seed = 7
[pool.od]
instance = aws:g5.xlarge
autoscale = queue(target=4)
min = 1
max = 8
[pool.ri]
instance = aws:g5.xlarge
pricing = reserved
upfront = partial
count = 3
[pool.sp]
instance = aws:g5.xlarge
pricing = savings-plan
commitment = 2.50/h
discount = 0.28
autoscale = queue(target=4)
min = 1
max = 8
[pool.spot]
instance = aws:g5.xlarge
pricing = spot
count = 2
[pool.mig]
instance = azure:Standard_NC24ads_A100_v4
mig = 1g.10gb*7
count = 2
[workload.a]
pools = od
arrivals = diurnal(peak=5/s, trough=0.5/s, peak_hour=14)
service = exponential(mean=1s)
[workload.b]
pools = ri
arrivals = poisson(rate=1/s)
service = exponential(mean=1s)
[workload.c]
pools = sp
arrivals = diurnal(peak=5/s, trough=0.5/s, peak_hour=10)
service = exponential(mean=1s)
[workload.d]
pools = spot
arrivals = poisson(rate=1/s)
service = exponential(mean=1s)
[workload.e]
pools = mig
arrivals = diurnal(peak=6/s, trough=1/s, peak_hour=14)
service = exponential(mean=1s)
INI
expect_exit 0 "five options run" -- "$FLEETSIM" run "$TMP/five.ini" --db "$TMP/five.db" --quiet
# per pool: cost_monthly in cents; list cents as fs_store_pool_savings
# reads them (Standard pools: their effective cost)
sql "$TMP/five.db" "SELECT p.pool, (SELECT sum(round(c.cost_usd * 100)) FROM cost_monthly c WHERE c.pool = p.pool),
    CASE WHEN p.pricing = 'on-demand' THEN -1 ELSE round(p.list_price_usd_h * p.gpu_hours_provisioned / p.gpus_per_instance * 100) END
    FROM pool p" >"$TMP/five.tot"
for g in hour day; do
    expect_exit 0 "five: export by $g" -- "$FLEETSIM" export --db "$TMP/five.db" --format focus --granularity $g --out "$TMP/five-$g.csv" 1
    expect_eq "$(python3 - "$TMP/five-$g.csv" "$TMP/five.tot" <<'PY'
import csv, sys
from decimal import Decimal as D
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
tot = {l.split("|")[0]: [int(float(x)) for x in l.strip().split("|")[1:]] for l in open(sys.argv[2])}
out = []
for n, r in enumerate(rows):
    for cost, unit in (("ListCost", "ListUnitPrice"), ("ContractedCost", "ContractedUnitPrice")):
        if abs(D(r[unit]) * D(r["PricingQuantity"]) - D(r[cost])) > D("0.005"):
            out.append("row %d (%s): %s %s x %s != %s" % (n, r["x_Pool"], cost, r[unit], r["PricingQuantity"], r[cost]))
    if r["InvoiceId"] != "fleetsim-%s-%s" % (r["x_RunId"], r["BillingPeriodStart"][:7].replace("-", "")):
        out.append("row %d: InvoiceId %r" % (n, r["InvoiceId"]))
cents = lambda rs, k: sum(int(round(float(r[k]) * 100)) for r in rs)
for pool, (eff, lst) in sorted(tot.items()):
    rs = [r for r in rows if r["x_Pool"] == pool]
    usage = [r for r in rs if r["ChargeCategory"] == "Usage"]
    if cents(usage, "EffectiveCost") != eff:
        out.append("%s: EffectiveCost %d != cost_monthly %d" % (pool, cents(usage, "EffectiveCost"), eff))
    used = [r for r in usage if r["CommitmentDiscountStatus"] != "Unused"]
    if cents(used, "ListCost") != (eff if lst < 0 else lst):
        out.append("%s: ListCost %d != list cost %d" % (pool, cents(used, "ListCost"), lst))
print("\n".join(out[:8]) or "ok", len({r["InvoiceId"] for r in rows}), sorted({r["x_Pricing"] for r in rows}))
PY
)" "ok 2 ['on-demand', 'reserved', 'savings-plan', 'spot']" "five by $g: every product to the cent, an invoice a month, totals reconcile"
done
# The list price stays as published on most rows: a row is written with a
# finer unit price only where its share of the pool's list cost was rounded
# the other way (ri: 3 x 1.006 = 3.018 an hour, 3.02 on most hours, 3.01 on
# as many as the total needs).
expect_eq "$(python3 -c "
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline='')) if r['x_Pool'] == 'ri' and r['ChargeCategory'] == 'Usage']
print(len(rows), sum(r['ListUnitPrice'] == '1.006000' for r in rows), sorted({r['ListCost'] for r in rows}))" "$TMP/five-hour.csv")" \
    "72 58 ['3.01', '3.02']" "five: ri lists 72 h at 3.018: 58 rows at 3.02 and the published price, 14 at 3.01 (217.30 in all)"

# ---- CSV formula injection (OWASP): every CSV writer ------------------------
EVIL="=cmd|' /C calc'!A0"
expect_exit 0 "a run named like a formula" -- "$FLEETSIM" run "$TMP/focus.ini" --db "$DB" --name "$EVIL" --set scenario.horizon=2d --quiet
csv_cells() {   # FILE: every cell, one a line, as a spreadsheet reads it
    python3 -c "
import csv, sys
for row in csv.reader(open(sys.argv[1], newline='')):
    for cell in row: print(cell)" "$1"
}
for fmt in focus csv; do
    expect_exit 0 "export $fmt of it" -- "$FLEETSIM" export --db "$DB" --format $fmt --granularity day --out "$TMP/evil.$fmt" 2
    expect_eq "$(csv_cells "$TMP/evil.$fmt" | grep -c "^'$EVIL\$")" "$(($(wc -l <"$TMP/evil.$fmt") - 1))" "export $fmt: the name as text on every row"
    expect_eq "$(csv_cells "$TMP/evil.$fmt" | grep -c '^[=+@]')" "0" "export $fmt: no cell starts a formula"
done
expect_exit 0 "compare csv of it" -- "$FLEETSIM" compare --db "$DB" --format csv 1 2
cp "$TMP/out" "$TMP/cmp.csv"
expect_eq "$(csv_cells "$TMP/cmp.csv" | grep -c "^'$EVIL")" "2" "compare csv: the run's label and name as text"
expect_eq "$(csv_cells "$TMP/cmp.csv" | grep -c '^[=+@]')" "0" "compare csv: no cell starts a formula"
# numbers stay numbers: a negative delta is written as it is
expect_exit 0 "compare csv with a baseline" -- "$FLEETSIM" compare --db "$DB" --format csv --baseline 1 1 2
expect_in "$TMP/out" ",-" "compare csv: negative numbers unquoted"
report
