#!/bin/sh
# cli_billing.sh -- monthly costs in the database, exact to the cent, for
# on-demand and reserved pools over January and February 2026 (744 h and
# 672 h), and over a partial February; and the monthly run rate of a
# 5-minute run scaled from its cost before rounding (3.67 x 730 =
# $2,679.10, where its $0.31 bill would give $2,715.60), in the summary,
# run_summary and plan's "as run" column.
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/bill.db"
cat >"$TMP/bill.ini" <<'INI'
[scenario]
name = jan-feb
start = 2026-01-01
horizon = 59d
metrics_interval = 1h
[pool.od]
gpu = A100-80GB
count = 2
price = 4.10
[pool.resv]
gpu = A100-80GB
gpus_per_instance = 8
pricing = reserved
term = 1y
upfront = partial
price = 1.50
upfront_price = 6000
count = 3
[workload.w]
pools = resv, od
arrivals = poisson(rate=2/s)
service = exponential(mean=1s)
INI
expect_exit 0 "billing run" -- "$FLEETSIM" run "$TMP/bill.ini" --db "$DB" --quiet
q() { sql "$DB" "SELECT printf('%.2f', cost_usd) FROM cost_monthly WHERE pool = '$1' AND month = '$2'"; }
# on-demand: 2 x 744 x 4.10 and 2 x 672 x 4.10
expect_eq "$(q od 2026-01)" 6100.80 "on-demand January"
expect_eq "$(q od 2026-02)" 5510.40 "on-demand February"
# reserved: the upfront by the hour, 6000 / 8760 h:
# 3 x (744 x 1.50 + 6000 x 744 / 8760) and 3 x (672 x 1.50 + 6000 x 672 / 8760)
expect_eq "$(q resv 2026-01)" 4876.77 "reserved January"
expect_eq "$(q resv 2026-02)" 4404.82 "reserved February"
expect_eq "$(sql "$DB" "SELECT pricing FROM cost_monthly WHERE pool = 'resv' LIMIT 1")" reserved "pricing column"
expect_eq "$(sql "$DB" "SELECT printf('%.1f', gpu_hours) FROM cost_monthly WHERE pool = 'resv' AND month = '2026-01'")" 17856.0 "reserved GPU-hours (3 x 8 x 744)"
expect_eq "$(sql "$DB" "SELECT printf('%.2f', total_cost_usd) FROM run_summary")" 20892.79 "total"
# the monthly run rate: the horizon's cost scaled to 730 h (59 d = 1416 h)
expect_eq "$(sql "$DB" "SELECT printf('%.2f', cost_per_month_usd) FROM run_summary")" 10771.00 "run rate: 20892.79 x 730 / 1416"

# Partial month: 45 days end on 15 February: half of February's hours and
# the upfront's share of those 336 hours.
expect_exit 0 "partial run" -- "$FLEETSIM" run "$TMP/bill.ini" --db "$DB" --quiet --set scenario.horizon=45d --name partial
q2() { sql "$DB" "SELECT printf('%.2f', cost_usd) FROM cost_monthly c JOIN run r USING (run_id) WHERE r.name = 'partial' AND pool = '$1' AND month = '$2'"; }
expect_eq "$(q2 od 2026-02)" 2755.20 "on-demand 14 days of February"
expect_eq "$(q2 resv 2026-02)" 2202.41 "reserved 14 days of February (3 x (336 x 1.5 + 6000 x 336 / 8760))"
expect_eq "$(sql "$DB" "SELECT months FROM run WHERE name = 'partial'")" 1.5 "1.5 calendar months"

# The horizon cuts the bill: instances still up at the end are billed to
# the horizon, without the 60 s minimum (that is for terminations).  Two
# instances at $36/h for a 30 s horizon: 2 x $0.30, not 2 x $0.60.
expect_exit 0 "30 s horizon" -- "$FLEETSIM" run "$TMP/bill.ini" --db "$DB" --quiet --set scenario.horizon=30s --set pool.od.price=36 --set pool.resv.count=0 --name short
expect_eq "$(sql "$DB" "SELECT printf('%.2f', cost_usd) FROM cost_monthly c JOIN run r USING (run_id) WHERE r.name = 'short' AND pool = 'od'")" 0.60 "30 s horizon bills 30 s per instance"
# Reserved upfront is charged once.  All upfront: no hourly rate, the
# $3,000 spread over 8,760 hours = $254.79 in January's 744 (it billed $581.31: the
# catalog's no-upfront $0.445304/h x 744 h on top).  Same from gpu = L4,
# and on a type the catalog has no reserved rate for (none is needed).
cat >"$TMP/ri.ini" <<'INI'
[scenario]
start = 2026-01-01
horizon = 31d
metrics_interval = 1d
[pool.r]
instance = gcp:g2-standard-4
pricing = reserved
upfront = all
upfront_price = 3000
[workload.w]
pools = r
arrivals = poisson(rate=0.01/s)
service = const(1s)
INI
ri() { sql "$DB" "SELECT printf('%.2f', cost_usd) FROM cost_monthly c JOIN run r USING (run_id) WHERE r.name = '$1' AND month = '2026-01'"; }
expect_exit 0 "all upfront" -- "$FLEETSIM" run "$TMP/ri.ini" --db "$DB" --quiet --name ri-all
expect_eq "$(ri ri-all)" 254.79 "all upfront: 3000 x 744 / 8760, no hourly rate"
sed 's/^instance = .*/gpu = L4/' "$TMP/ri.ini" >"$TMP/ri-gpu.ini"
expect_exit 0 "all upfront, gpu = L4" -- "$FLEETSIM" run "$TMP/ri-gpu.ini" --db "$DB" --quiet --name ri-gpu
expect_eq "$(ri ri-gpu)" 254.79 "all upfront priced from gpu = L4"
expect_exit 0 "all upfront, no catalog RI rate" -- "$FLEETSIM" run "$TMP/ri.ini" --db "$DB" --quiet --name ri-g6 --set pool.r.instance=aws:g6.xlarge
expect_eq "$(ri ri-g6)" 254.79 "all upfront needs no catalog reserved rate"
# Partial with its hourly rate: 744 x 0.20 + 1500 x 744 / 8760 = 148.80 + 127.40.
expect_exit 0 "partial upfront" -- "$FLEETSIM" run "$TMP/ri.ini" --db "$DB" --quiet --name ri-partial --set pool.r.upfront=partial --set pool.r.upfront_price=1500 --set pool.r.price=0.20
expect_eq "$(ri ri-partial)" 276.20 "partial upfront: hourly rate + upfront share"
# Partial without its hourly rate: the catalog has no partial-upfront rate,
# and the no-upfront one would charge the term twice.
expect_exit 1 "partial upfront without price" -- "$FLEETSIM" run "$TMP/ri.ini" --db "$DB" --quiet --set pool.r.upfront=partial
expect_one_line "partial upfront without price"
expect_in "$TMP/err" "ri.ini:6: pool.r: missing price (upfront = partial with upfront_price needs the partial-upfront hourly rate" "partial without price names the key"
# A catalog that publishes the upfront options (tests/data/catalog_published,
# made-up figures): they are taken as they are, not derived.  January:
# partial 1y = 2000 x 744 / 8760 + 1.10 x 744 h = 988.26; all 3y = 20000 x
# 744 / 26280 = 566.21; one GPU of the 2-GPU type pays half: 1000 x 744 /
# 8760 + 0.55 x 744 = 494.13.  The summary says "published", never "derived".
cat >"$TMP/pub.ini" <<INI
[scenario]
start = 2026-01-01
horizon = 31d
metrics_interval = 1d
catalog = $SRCDIR/tests/data/catalog_published
[pool.r]
instance = test:l4-box
pricing = reserved
upfront = partial
[workload.w]
pools = r
arrivals = poisson(rate=0.01/s)
service = const(1s)
INI
expect_exit 0 "published partial" -- "$FLEETSIM" run "$TMP/pub.ini" --db "$DB" --name pub-partial
expect_eq "$(ri pub-partial)" 988.26 "published partial upfront: 2000 x 744 / 8760 + 1.10 x 744"
expect_in "$TMP/out" "catalog test:l4-box, partial upfront published" "the summary names the published option"
checks=$((checks + 1)); ! grep -q derived "$TMP/out" || fail "a published option is not derived"
expect_exit 0 "published all 3y" -- "$FLEETSIM" run "$TMP/pub.ini" --db "$DB" --quiet --name pub-all --set pool.r.upfront=all --set pool.r.term=3y
expect_eq "$(ri pub-all)" 566.21 "published all upfront: 20000 x 744 / 26280"
sed 's/^instance = .*/gpu = L4\nprovider = test\ngpus_per_instance = 1/' "$TMP/pub.ini" >"$TMP/pub1.ini"
expect_exit 0 "published, one GPU" -- "$FLEETSIM" run "$TMP/pub1.ini" --db "$DB" --quiet --name pub-one
expect_eq "$(ri pub-one)" 494.13 "published partial, per GPU: 1000 x 744 / 8760 + 0.55 x 744"
# all has no hourly rate to give.
expect_exit 1 "all upfront with a price" -- "$FLEETSIM" run "$TMP/ri.ini" --db "$DB" --quiet --set pool.r.price=0.30
expect_one_line "all upfront with a price"
expect_in "$TMP/err" "pool.r.price: upfront = all pays the whole term up front and has no hourly rate" "all with price"
# upfront = none (or no upfront key) with an upfront_price: refused, naming
# both keys.
grep -v '^upfront = ' "$TMP/ri.ini" >"$TMP/ri-none.ini"
expect_exit 1 "upfront_price without upfront" -- "$FLEETSIM" run "$TMP/ri-none.ini" --db "$DB" --quiet
expect_one_line "upfront_price without upfront"
expect_in "$TMP/err" "ri-none.ini:8: pool.r.upfront_price: there is no upfront payment with upfront = none" "upfront_price with upfront = none (default)"
expect_exit 1 "upfront_price with upfront = none" -- "$FLEETSIM" run "$TMP/ri.ini" --db "$DB" --quiet --set pool.r.upfront=none
expect_in "$TMP/err" "pool.r.upfront_price: there is no upfront payment with upfront = none" "upfront_price with upfront = none"
expect_eq "$(sql "$DB" "SELECT count(*) FROM run")" 10 "refused runs store nothing (7 + the 3 published-option runs)"

# Amortized by the hour over the term: an all-upfront $12,000 one-year
# reservation over exactly its 365 days costs $12,000.00; over two years
# without renewal year 2 costs nothing for it; renew = yes buys the next
# term (another $12,000.00 in year 2), and the pool row says so.
cat >"$TMP/year.ini" <<'INI'
[scenario]
start = 2026-01-01
horizon = 365d
metrics_interval = 1d
[pool.r]
gpu = L4
pricing = reserved
upfront = all
upfront_price = 12000
[workload.w]
pools = r
arrivals = poisson(rate=0.0001/s)
service = const(1s)
INI
yr() { sql "$DB" "SELECT printf('%.2f', coalesce(sum(cost_usd), 0)) FROM cost_monthly c JOIN run r USING (run_id) WHERE r.name = '$1' AND month $2"; }
expect_exit 0 "365 days" -- "$FLEETSIM" run "$TMP/year.ini" --db "$DB" --quiet --name y365
expect_eq "$(yr y365 "LIKE '2026-%'")" 12000.00 "all upfront over its 365 days: exactly the upfront"
expect_eq "$(yr y365 "= '2026-01'")" 1019.18 "January: 12000 x 744 / 8760"
# Past the term without renewal the reservation charges nothing, and its
# instances, still running, are billed at the catalog's on-demand rate of
# the pool's instance type (as the providers do when a reservation
# expires): on-demand rows, rate x 8,760 h in year 2, to the cent.  The
# run says so.  A pool the catalog cannot give an on-demand rate for (L4
# is sold by several providers) is refused at `term`.
expect_exit 1 "two years, no renewal, no on-demand rate" -- "$FLEETSIM" run "$TMP/year.ini" --db "$DB" --quiet --name y2 --set scenario.horizon=730d
expect_one_line "two years, no on-demand rate"
expect_in "$TMP/err" "year.ini:6: pool.r: the 1-year term ends inside the horizon and the instances then run at the on-demand rate, which the catalog cannot give for this pool" "no on-demand rate after the term: refused"
expect_in "$TMP/err" "set renew = yes, or a horizon within the term (365 days)" "no on-demand rate after the term: what to do"
expect_exit 0 "two years, no renewal" -- "$FLEETSIM" run "$TMP/year.ini" --db "$DB" --name y2 --set scenario.horizon=730d --set pool.r.instance=gcp:g2-standard-4
cp "$TMP/out" "$TMP/y2.out"
od_rate=$(sql "$DB" "SELECT p.list_price_usd_h FROM pool p JOIN run r USING (run_id) WHERE r.name = 'y2'")
want_y2=$(awk -v r="$od_rate" 'BEGIN { printf "%.2f", r * 8760 }')
checks=$((checks + 1))
[ "$want_y2" != 0.00 ] || fail "g2-standard-4 has no on-demand list price"
ry() { sql "$DB" "SELECT printf('%.2f', coalesce(sum(cost_usd), 0)) || ' ' || coalesce(sum(gpu_hours), 0) FROM cost_monthly c JOIN run r USING (run_id) WHERE r.name = 'y2' AND pricing = '$1' AND month LIKE '$2-%'"; }
expect_eq "$(ry reserved 2026)" "12000.00 8760.0" "year 1 of 2: the reservation, exactly its upfront"
expect_eq "$(ry reserved 2027)" "0.00 0" "year 2 without renewal: nothing for the reservation"
expect_eq "$(ry on-demand 2027)" "$want_y2 8760.0" "year 2: the instance at the on-demand rate ($od_rate x 8760 h)"
expect_eq "$(ry on-demand 2026)" "0.00 0" "year 1: nothing on demand"
expect_in "$TMP/y2.out" "pool r: its 12-month reserved term expired on 2027-01-01 00:00 UTC; its instances ran on at the on-demand rate, 8760.0 GPU-hours billed as on-demand rows: \$$(python3 -c "print('{:,.2f}'.format($want_y2))")" "the run says the reservation expired"
expect_exit 0 "two years, renew" -- "$FLEETSIM" run "$TMP/year.ini" --db "$DB" --quiet --name y2r --set scenario.horizon=730d --set pool.r.renew=yes
expect_eq "$(yr y2r "LIKE '2027-%'")" 12000.00 "year 2 with renew = yes: the next term"
expect_eq "$(sql "$DB" "SELECT p.renew || ',' || p.term_months || ',' || printf('%.2f', p.upfront_usd) FROM pool p JOIN run r USING (run_id) WHERE r.name = 'y2r'")" "1,12,12000.00" "pool row: renew, term, upfront"
expect_eq "$(sql "$DB" "SELECT p.renew FROM pool p JOIN run r USING (run_id) WHERE r.name = 'y2'")" 0 "pool row: no renewal"
grep -v upfront "$TMP/year.ini" >"$TMP/year-od.ini"
expect_exit 1 "renew on an on-demand pool" -- "$FLEETSIM" run "$TMP/year-od.ini" --db "$DB" --quiet --set pool.r.pricing=on-demand --set pool.r.renew=yes
expect_in "$TMP/err" "pool.r.renew: applies to reserved pools only" "renew is a reserved pool's key"
# ---- a run rate from the unrounded cost: one $3.67/h instance for 5
# minutes costs $0.3058333 (billed $0.31); x 730 h / (5/60) h = $2,679.10
cat >"$TMP/five.ini" <<'INI'
[scenario]
name = five-minutes
horizon = 5m
metrics_interval = 1m
[pool.a]
gpu = L4
price = 3.67
count = 1
provision_delay = 0s
[workload.w]
pools = a
arrivals = poisson(rate=0.01/s)
service = const(1s)
INI
expect_exit 0 "a 5-minute run" -- "$FLEETSIM" run "$TMP/five.ini" --db "$DB"
expect_in "$TMP/out" "monthly run rate (730 h)                         \$2,679.10" "summary: run rate 3.67 x 730"
expect_eq "$(sql "$DB" "SELECT printf('%.2f|%.2f', s.total_cost_usd, s.cost_per_month_usd) FROM run_summary s WHERE s.name = 'five-minutes'")" "0.31|2679.10" \
    "run_summary: the bill to the cent, the run rate from the unrounded cost"
expect_eq "$(sql "$DB" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_monthly c JOIN run r USING (run_id) WHERE r.name = 'five-minutes'")" 0.31 "the bill stays rounded to the cent"
expect_exit 0 "plan on 5 minutes" -- "$FLEETSIM" plan "$TMP/five.ini" --slo 'p99<=5s' --db "$TMP/five-plan.db" --format csv --purchase on-demand
expect_eq "$(python3 -c "import csv; r = next(csv.DictReader(open('$TMP/out'))); print('%.2f' % float(r['as_run_monthly_usd']))")" 2679.10 "plan: as run 3.67 x 730"
report
