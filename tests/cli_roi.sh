#!/bin/sh
# cli_roi.sh -- `fleetsim roi`: reserved-instance recommendations from a
# run's hour-by-hour usage, against hand-worked figures from the catalog's
# aws:g5.xlarge prices ($1.006 on demand, $0.63378 1y and $0.43459 3y
# reserved, no upfront: published; 1y all upfront $5,182.0033 published).
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/roi.db"
num() { sed -n "s/.*\"$1\": \\([^,}]*\\).*/\\1/p" "$TMP/out" | head -n 1; }

# (a) 3 instances up every hour of a year, metrics every hour: reserve 3;
# the saving is the catalog's discount, (1.006 - 0.63378) / 1.006 = 37%;
# 3 x 0.37222 x 730 = $815.16 a month; every reserved hour used.
cat >"$TMP/flat.ini" <<'INI'
[scenario]
name = flat
start = 2026-01-01
horizon = 365d
metrics_interval = 1h
[pool.od]
instance = aws:g5.xlarge
count = 3
[workload.w]
pools = od
arrivals = poisson(rate=1/h)
service = exponential(mean=1s)
INI
expect_exit 0 "flat run" -- "$FLEETSIM" run "$TMP/flat.ini" --db "$DB" --quiet
expect_exit 0 "roi json" -- "$FLEETSIM" roi --db "$DB" flat --format json
expect_eq "$(num recommended_count)" 3 "flat: reserve 3"
near "$(num estimated_savings_pct)" "$(awk 'BEGIN { printf "%.12f", (1.006 - 0.63378) / 1.006 * 100 }')" 1e-7 "flat: savings = catalog discount"
expect_eq "$(num estimated_monthly_savings_usd)" 815.16 "flat: monthly savings"
expect_eq "$(num on_demand_cost_usd)" 2203.14 "flat: on demand 3 x 1.006 x 730"
expect_eq "$(num with_reservation_cost_usd)" 1387.98 "flat: reserved 3 x 0.63378 x 730"
expect_eq "$(num estimated_reservation_utilization)" 1 "flat: utilization 100%"
expect_eq "$(num break_even_months)" 0 "flat: no upfront, saves from month 1"
expect_eq "$(num daily_average_count)" 3 "flat: daily average agrees"
expect_in "$TMP/out" '{"month": 12, "usd": 815.16, "amortized_usd": 815.16}' "flat: 12 months of cash flow"
expect_in "$TMP/out" '"rate_basis": "published", "compared_with": "on demand"' "flat: the rate used"
# All upfront, published: 3 x $5,182.0033 = $15,546.01 up front (the
# effective 0.591553 x 8760); cash saved $2,203.14 a month, so break-even
# at 15546.01 / 2203.14 = 7.0563 months (< 12).  The cash view pays it in
# month 1; the amortized view spreads it, 2203.14 - 15546.01 / 12.
expect_exit 0 "roi all upfront" -- "$FLEETSIM" roi --db "$DB" flat --format json --upfront all
expect_eq "$(num upfront_cost_usd)" 15546.01 "all upfront: published payment"
near "$(num break_even_months)" "$(awk 'BEGIN { printf "%.12f", 15546.0099 / 2203.14 }')" 1e-5 "all upfront: break-even inside the term"
expect_in "$TMP/out" '{"month": 1, "usd": -13342.87, "amortized_usd": 907.64}' "all upfront: paid in month 1, amortized beside it"
# A savings plan on the same fleet: the catalog publishes no plan rate for
# g5.xlarge, so the 1-year reserved discount stands in and says so: commit
# the whole usage, 3 x 0.63378 = $1.90134 an hour.
expect_exit 0 "roi savings plan" -- "$FLEETSIM" roi --db "$DB" flat --format json --savings-plan
expect_eq "$(num commitment_usd_h)" 1.90 "flat plan: commit 3 x 0.634"
expect_eq "$(num with_reservation_cost_usd)" 1387.98 "flat plan: as the reservation"
expect_in "$TMP/out" "no Savings Plan rate published for aws:g5.xlarge, the 1-year reserved discount stands in" "flat plan: says the discount is not published"
expect_exit 0 "roi table" -- "$FLEETSIM" roi --db "$DB" flat
expect_in "$TMP/out" "730-hour run rates" "table: run rates labelled"
expect_in "$TMP/out" "reserve 3 x 1y, upfront none" "table: the recommendation"
expect_exit 0 "roi csv" -- "$FLEETSIM" roi --db "$DB" flat --format csv
expect_in "$TMP/out" "od,A10G,reserved,3,,1y,none,0.00,1387.98,2203.14,1387.98,815.16," "csv row"

# (b) Diurnal demand, written into the utilization table: 10 instances for
# the 12 day hours, 2 for the 12 night hours, two days.  1y ($0.63378, 63%
# of on demand): instances 3-10 are busy half the day, so reserving them
# loses: reserve 2, $126.99744 a day = $3,862.84 a month.  The daily
# average is 6: reserving 6 costs $139.55232 a day = $4,244.72 on the same
# demand.  3y ($0.43459, 43%): reserve 10, $104.3016 a day = $3,172.51;
# daily average 6: $110.86896 = $3,372.26.
cat >"$TMP/day.ini" <<'INI'
[scenario]
name = day
start = 2026-01-01
horizon = 2d
metrics_interval = 1h
[pool.od]
instance = aws:g5.xlarge
count = 10
[workload.w]
pools = od
arrivals = poisson(rate=1/h)
service = exponential(mean=1s)
INI
expect_exit 0 "diurnal run" -- "$FLEETSIM" run "$TMP/day.ini" --db "$DB" --quiet
sql "$DB" "DELETE FROM utilization WHERE run_id = (SELECT max(run_id) FROM run);
WITH RECURSIVE h(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM h WHERE i < 47)
INSERT INTO utilization (run_id, pool, t_s, instances_up, gpus_provisioned, gpus_busy, queue_len)
SELECT (SELECT max(run_id) FROM run), 'od', 3600 * (i + 1), CASE WHEN i % 24 < 12 THEN 10 ELSE 2 END, CASE WHEN i % 24 < 12 THEN 10 ELSE 2 END, 0, 0 FROM h;"
expect_exit 0 "diurnal roi" -- "$FLEETSIM" roi --db "$DB" day --format json
expect_eq "$(num recommended_count)" 2 "diurnal 1y: reserve 2"
expect_eq "$(num with_reservation_cost_usd)" 3862.84 "diurnal 1y: its cost"
expect_eq "$(num daily_average_count)" 6 "diurnal 1y: daily average says 6"
expect_eq "$(num daily_average_cost_usd)" 4244.72 "diurnal 1y: which costs more"
expect_eq "$(num on_demand_cost_usd)" 4406.28 "diurnal: all on demand (144 x 1.006 / 24 x 730)"
expect_exit 0 "diurnal roi 3y" -- "$FLEETSIM" roi --db "$DB" day --format json --term 3y
expect_eq "$(num recommended_count)" 10 "diurnal 3y: reserve 10"
expect_eq "$(num with_reservation_cost_usd)" 3172.51 "diurnal 3y: its cost"
expect_eq "$(num daily_average_count)" 6 "diurnal 3y: daily average says 6"
expect_eq "$(num daily_average_cost_usd)" 3372.26 "diurnal 3y: which costs more"
near "$(num estimated_reservation_utilization)" 0.6 1e-9 "diurnal 3y: 144 of 240 reserved hours a day used"
expect_exit 0 "diurnal table" -- "$FLEETSIM" roi --db "$DB" day
expect_in "$TMP/out" "reserve 2 x 1y" "table: hour-by-hour choice"
expect_in "$TMP/out" "reserve 6: \$4,244.72" "table: daily-average choice beside it"
# The last day only (--lookback 1d): the same day again.
expect_exit 0 "lookback 1d" -- "$FLEETSIM" roi --db "$DB" day --format json --lookback 1d
expect_eq "$(num demand_hours)" 24 "lookback: 24 hours"
expect_eq "$(num with_reservation_cost_usd)" 3862.84 "lookback: same cost"

# Savings plan on the diurnal demand at 25% off: spends are $10.06 (12 h)
# and $2.012 (12 h) an hour.  Covering the day hours ($7.545 commitment)
# saves 12 x 2.515 and wastes 12 x 5.533: no; covering the night hours
# ($1.509) saves 24 x 0.503: commit $1.51.
expect_exit 0 "savings plan" -- "$FLEETSIM" roi --db "$DB" day --format json --savings-plan --discount 25%
expect_eq "$(num commitment_usd_h)" 1.51 "plan: commit the night's spend"
expect_eq "$(num recommended_count)" null "plan: no count"

# A pool the catalog has no reserved rate for (azure NC24ads A100 v4) is
# named on stderr and skipped; the other pool is still reported.
cat >"$TMP/two.ini" <<'INI'
[scenario]
name = two
start = 2026-01-01
horizon = 1d
metrics_interval = 1h
[pool.g5]
instance = aws:g5.xlarge
count = 2
[pool.g6]
instance = azure:Standard_NC24ads_A100_v4
count = 1
[workload.w]
pools = g5, g6
arrivals = poisson(rate=1/h)
service = exponential(mean=1s)
INI
expect_exit 0 "two pools" -- "$FLEETSIM" run "$TMP/two.ini" --db "$DB" --quiet
expect_exit 0 "roi skips the unpriced pool" -- "$FLEETSIM" roi --db "$DB" two --format json
expect_in "$TMP/err" "pool g6 skipped: the catalog's 1-year reservation with none upfront for azure:Standard_NC24ads_A100_v4 is not found (give your quote: --rate 1y:none=2.10/h)" "skip says why"
expect_eq "$(grep -c '"pool"' "$TMP/out")" 1 "one object: g5"
expect_eq "$(num recommended_count)" 2 "g5: reserve 2"
expect_exit 1 "only the unpriced pool" -- "$FLEETSIM" roi --db "$DB" two --pool g6
expect_in "$TMP/err" "no pool of run" "nothing to report"

# (d) bad input
expect_exit 2 "lookback too long" -- "$FLEETSIM" roi --db "$DB" day --lookback 3d
expect_in "$TMP/err" "--lookback 3d is longer than run" "lookback message"
for lb in 1s 59m 0s; do
    expect_exit 2 "lookback $lb" -- "$FLEETSIM" roi --db "$DB" day --lookback $lb
    expect_in "$TMP/err" "--lookback: '$lb' is shorter than an hour" "lookback $lb: why"
done
# --rate: each bad value a clear usage message (exit 2).
for bad in "2y:none=2/h|'2y' is not a term" "1y:some=2/h|'some' is not an upfront option" \
    "1y:none=2.10|'2.10' is no hourly rate" "3y:all=40000/h|is an hourly rate, but this option's price is the upfront" \
    "1y:partial=0.70/h|partial upfront is UPFRONT+HOURLY" "1y:none|is not TERM:OPTION=PRICE" \
    "1y:none=-2/h|must not be negative" "1y:all=lots|expected an amount in dollars" "1y:none=0/h|costs nothing"; do
    expect_exit 2 "--rate ${bad%%|*}" -- "$FLEETSIM" roi --db "$DB" day --rate "${bad%%|*}"
    expect_in "$TMP/err" "${bad#*|}" "--rate ${bad%%|*}: why"
done
expect_exit 1 "no such pool" -- "$FLEETSIM" roi --db "$DB" day --pool nope
expect_in "$TMP/err" "--pool nope" "pool message"
expect_exit 2 "bad term" -- "$FLEETSIM" roi --db "$DB" day --term 2y
expect_in "$TMP/err" "--term" "term message"
expect_exit 0 "coarse run" -- "$FLEETSIM" run "$TMP/day.ini" --db "$DB" --quiet --set scenario.metrics_interval=2h --name coarse
expect_exit 1 "coarse metrics" -- "$FLEETSIM" roi --db "$DB" coarse
expect_in "$TMP/err" "metrics_interval <= 1h" "coarse: says to rerun"

# (c) Savings plan billing: 3 aws:g5.xlarge up every hour of 2 days
# ($3.018 of on-demand usage an hour), commitment $1.50/h at 30% off: it
# covers 1.50 / 0.7 = $2.142857 of usage an hour; the rest, $0.875143, at
# on demand: $2.375143 an hour, 48 x 2.375143 = $114.01, none unused.
cat >"$TMP/sp.ini" <<'INI'
[scenario]
name = sp
start = 2026-01-01
horizon = 2d
metrics_interval = 1h
[pool.sp]
instance = aws:g5.xlarge
pricing = savings-plan
commitment = 1.50/h
discount = 0.30
count = 3
[workload.w]
pools = sp
arrivals = poisson(rate=1/h)
service = exponential(mean=1s)
INI
expect_exit 0 "savings plan run" -- "$FLEETSIM" run "$TMP/sp.ini" --db "$DB" --quiet
spq() { sql "$DB" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_monthly c JOIN run r USING (run_id) WHERE r.name = '$1' AND pricing = '$2'"; }
expect_eq "$(spq sp savings-plan)" 114.01 "plan: 48 x (1.50 + 3.018 - 1.50 / 0.7)"
expect_eq "$(sql "$DB" "SELECT count(*) FROM cost_monthly c JOIN run r USING (run_id) WHERE r.name = 'sp' AND pricing = 'savings-plan-unused'")" 0 "plan: nothing unused"
expect_eq "$(sql "$DB" "SELECT printf('%.1f', gpu_hours) FROM cost_monthly c JOIN run r USING (run_id) WHERE r.name = 'sp' AND pricing = 'savings-plan'")" 144.0 "plan: 3 x 48 GPU-hours"
# Committing $5/h, more than the usage's $2.1126 discounted: $101.40 paid
# for usage (48 x 3.018 x 0.7) and $138.60 unused (48 x (5 - 2.1126));
# together 48 x 5 = $240.00.
expect_exit 0 "over-committed plan" -- "$FLEETSIM" run "$TMP/sp.ini" --db "$DB" --quiet --set pool.sp.commitment=5/h --name sp5
expect_eq "$(spq sp5 savings-plan)" 101.40 "over-committed: usage at the discount"
expect_eq "$(spq sp5 savings-plan-unused)" 138.60 "over-committed: unused commitment shown"
expect_eq "$(sql "$DB" "SELECT printf('%.2f', total_cost_usd) FROM run_summary WHERE name = 'sp5'")" 240.00 "over-committed: total = commitment x hours"

# (d) a commitment must be more than $0 an hour
expect_exit 1 "negative commitment" -- "$FLEETSIM" run "$TMP/sp.ini" --db "$DB" --quiet --set pool.sp.commitment=-5/h
expect_in "$TMP/err" "pool.sp.commitment" "negative commitment: names the key"
expect_exit 1 "zero commitment" -- "$FLEETSIM" run "$TMP/sp.ini" --db "$DB" --quiet --set pool.sp.commitment=0
expect_in "$TMP/err" "pool.sp.commitment: must be more than \$0" "zero commitment: names the key"
sed '/^commitment/d' "$TMP/sp.ini" >"$TMP/sp-none.ini"
expect_exit 1 "missing commitment" -- "$FLEETSIM" run "$TMP/sp-none.ini" --db "$DB" --quiet
expect_in "$TMP/err" "missing commitment" "missing commitment"
expect_exit 1 "discount out of range" -- "$FLEETSIM" run "$TMP/sp.ini" --db "$DB" --quiet --set pool.sp.discount=1.5
expect_in "$TMP/err" "pool.sp.discount" "bad discount names the key"
expect_exit 1 "commitment on an on-demand pool" -- "$FLEETSIM" run "$TMP/sp.ini" --db "$DB" --quiet --set pool.sp.pricing=on-demand
expect_in "$TMP/err" "applies to savings-plan pools only" "commitment is a savings-plan key"
# A catalog that publishes upfront options and plan discounts
# (tests/data/catalog_published, made-up figures): 2 x test:l4-box up for
# 30 days.  Partial 1y: 2 x $2,000 up front, 2 x 1.10 x 730 = $1,606.00 a
# month, + 4000 / 12 = $1,939.33 with the upfront spread.  All 3y: 2 x
# $20,000, 40000 / 36 = $1,111.11 a month.  The plan: the published 25%
# off, so $3.00/h buys the $4.00/h of usage.
cat >"$TMP/pub.ini" <<INI
[scenario]
name = pub
start = 2026-01-01
horizon = 30d
metrics_interval = 1h
catalog = $SRCDIR/tests/data/catalog_published
[pool.od]
instance = test:l4-box
pricing = on-demand
count = 2
[workload.w]
pools = od
arrivals = poisson(rate=0.01/s)
service = const(1s)
INI
expect_exit 0 "published catalog run" -- "$FLEETSIM" run "$TMP/pub.ini" --db "$DB" --quiet
export FLEETSIM_CATALOG="$SRCDIR/tests/data/catalog_published"
expect_exit 0 "roi, published partial" -- "$FLEETSIM" roi --db "$DB" pub --upfront partial --format csv
expect_in "$TMP/out" "od,L4,reserved,2,,1y,partial,4000.00,1606.00,2920.00,1939.33," "published partial upfront"
expect_exit 0 "roi, published all 3y" -- "$FLEETSIM" roi --db "$DB" pub --upfront all --term 3y --format csv
expect_in "$TMP/out" "od,L4,reserved,2,,3y,all,40000.00,0.00,2920.00,1111.11," "published all upfront"
expect_exit 0 "roi, published plan discount" -- "$FLEETSIM" roi --db "$DB" pub --savings-plan --format csv
expect_in "$TMP/out" "od,L4,savings-plan,,3.00,1y,none,0.00,2190.00,2920.00,2190.00,730.00,25.0000," "published plan discount"
expect_exit 0 "roi table, published" -- "$FLEETSIM" roi --db "$DB" pub --upfront partial
expect_in "$TMP/out" "catalog test:l4-box, partial upfront published" "the price source says published"
# A savings-plan pool with no discount key takes the published 25%: a
# $1.50/h commitment buys 1.50 / 0.75 = $2.00/h of the $4.00/h of usage,
# the other $2.00/h is on demand: 3.50 x 720 h = $2,520.00 (the reserved
# discount, 30%, would give $2,417.14).
expect_exit 0 "plan pool, published discount" -- "$FLEETSIM" run "$TMP/pub.ini" --db "$DB" --quiet --name pub-plan --set pool.od.pricing=savings-plan --set pool.od.commitment=1.50/h
expect_eq "$(sql "$DB" "SELECT printf('%.2f', total_cost_usd) FROM run_summary WHERE name = 'pub-plan'")" 2520.00 "savings plan at the published discount"
unset FLEETSIM_CATALOG
# (e) Pools the catalog could not price before, priced from published
# rates: an autoscaled A100-80GB pool on aws:p4de.24xlarge: no, partial and
# all upfront each differ as published (partial: the published effective
# $16.57278/h split by AWS's rule, half up front), and on
# gcp:a2-ultragpu-1g (a published 1-year CUD; GCP sells no upfront option:
# not sold, never derived).
cat >"$TMP/a100.ini" <<'INI'
[scenario]
name = a100
start = 2026-01-01
horizon = 2d
metrics_interval = 1h
[pool.a]
instance = aws:p4de.24xlarge
autoscale = utilization(target=60%)
min = 1
max = 4
[workload.w]
pools = a
arrivals = diurnal(peak=20/s, trough=2/s)
service = exponential(mean=1s)
INI
expect_exit 0 "p4de run" -- "$FLEETSIM" run "$TMP/a100.ini" --db "$DB" --quiet --name p4de
expect_exit 0 "p4de roi none" -- "$FLEETSIM" roi --db "$DB" p4de --format json
expect_eq "$(num recommended_count)" 2 "p4de: reserve 2"
expect_in "$TMP/out" '"reserved_usd_h": 17.401365' "p4de: published 1y no upfront"
expect_in "$TMP/out" '"rate_basis": "published"' "p4de none: published"
n1=$(num with_reservation_cost_usd)
expect_exit 0 "p4de roi partial" -- "$FLEETSIM" roi --db "$DB" p4de --format json --upfront partial
expect_eq "$(num upfront_cost_usd)" 145177.55 "p4de partial: 2 x 16.57278 x 8760 / 2"
expect_in "$TMP/out" '"rate_basis": "derived"' "p4de partial: derived by rule"
expect_in "$TMP/out" "partial upfront derived (split by rule)" "p4de partial: says how"
n2=$(num with_reservation_cost_usd)
expect_exit 0 "p4de roi all" -- "$FLEETSIM" roi --db "$DB" p4de --format json --upfront all
expect_eq "$(num upfront_cost_usd)" 284548.00 "p4de all: 2 x the published 16.241324 x 8760"
n3=$(num with_reservation_cost_usd)
checks=$((checks + 1))
awk -v a="$n1" -v b="$n2" -v c="$n3" 'BEGIN { exit !(a > b && b > c) }' || fail "p4de: none $n1 > partial $n2 > all $n3"
# The three differ by exactly the published effective rates' difference
# on the two reserved instances' 730 hours.
near "$(awk -v a="$n1" -v c="$n3" 'BEGIN { print a - c }')" "$(awk 'BEGIN { printf "%.4f", 2 * (17.401365 - 16.241324) * 730 }')" 0.011 "p4de: none - all = the published rates' difference"
expect_exit 0 "a2 ultra run" -- "$FLEETSIM" run "$TMP/a100.ini" --db "$DB" --quiet --name a2u --set pool.a.instance=gcp:a2-ultragpu-1g --set pool.a.max=16
expect_exit 0 "a2 ultra roi" -- "$FLEETSIM" roi --db "$DB" a2u --format json
expect_in "$TMP/out" '"reserved_usd_h": 4.199690411' "a2 ultra: published 1y CUD"
# An option the provider does not sell is an answer, not a failure: said
# on the table (stderr for csv/json, which list no row), exit status 0.
expect_exit 0 "a2 ultra all upfront" -- "$FLEETSIM" roi --db "$DB" a2u --upfront all
expect_in "$TMP/out" "pool a: not sold: the catalog's 1-year reservation with all upfront for gcp:a2-ultragpu-1g is not sold (the provider does not sell it" "a2 ultra: all upfront not sold"
expect_exit 0 "a2 ultra partial, json" -- "$FLEETSIM" roi --db "$DB" a2u --upfront partial --format json
expect_eq "$(tr -d ' \n' <"$TMP/out")" "[]" "a2 ultra partial, json: no row"
expect_in "$TMP/err" "pool a skipped: the catalog's 1-year reservation with partial upfront for gcp:a2-ultragpu-1g is not sold" "a2 ultra partial: said on stderr"
# Your quote prices what the catalog does not (and stands in for it).
expect_exit 0 "quote, unpriced pool" -- "$FLEETSIM" roi --db "$DB" two --pool g6 --format json --rate 1y:none=2.10/h
expect_in "$TMP/out" '"rate_basis": "quote"' "quote: used and said"
expect_in "$TMP/out" "reserved: your quote (--rate 1y:none)" "quote: in the price source"
expect_eq "$(num recommended_count)" 1 "quote: reserve the one instance at 2.10 < 3.673"
expect_eq "$(num with_reservation_cost_usd)" 1533.00 "quote: 2.10 x 730"
expect_exit 0 "quote all upfront" -- "$FLEETSIM" roi --db "$DB" two --pool g6 --format json --rate 3y:all=40000 --term 3y --upfront all
expect_eq "$(num upfront_cost_usd)" 40000.00 "quote: 3y all upfront"
expect_eq "$(num with_reservation_cost_usd)" 1111.11 "quote: 40000 / 36 a month"
# The same quote as a pool key (reserved_1y), stored with the run; --rate
# wins over it.  A bad quote key is refused naming file, line and key.
expect_exit 0 "two, quoted" -- "$FLEETSIM" run "$TMP/two.ini" --db "$DB" --quiet --name twoq --set pool.g6.reserved_1y=2.10/h --set pool.g6.reserved_3y_all=40000
expect_eq "$(sql "$DB" "SELECT rate_quotes FROM pool p JOIN run r USING (run_id) WHERE r.name = 'twoq' AND pool = 'g6'")" "1y:none=2.10/h 3y:all=40000" "quote keys stored"
expect_exit 0 "quote key, unpriced pool" -- "$FLEETSIM" roi --db "$DB" twoq --pool g6 --format json
expect_in "$TMP/out" "reserved: your quote (pool key reserved_1y)" "quote key: said"
expect_eq "$(num with_reservation_cost_usd)" 1533.00 "quote key: 2.10 x 730"
expect_exit 0 "quote key 3y all" -- "$FLEETSIM" roi --db "$DB" twoq --pool g6 --format json --term 3y --upfront all
expect_eq "$(num upfront_cost_usd)" 40000.00 "quote key: 3y all"
expect_exit 0 "--rate over the key" -- "$FLEETSIM" roi --db "$DB" twoq --pool g6 --format json --rate 1y:none=3.00/h
expect_eq "$(num with_reservation_cost_usd)" 2190.00 "--rate wins: 3.00 x 730"
expect_exit 1 "bad quote key" -- "$FLEETSIM" run "$TMP/two.ini" --db "$DB" --quiet --set pool.g6.reserved_1y_all=40000/h
expect_in "$TMP/err" "pool.g6.reserved_1y_all: '40000/h' is an hourly rate" "bad quote key: file, key, why"
expect_exit 1 "bad quote key, none" -- "$FLEETSIM" run "$TMP/two.ini" --db "$DB" --quiet --set pool.g6.reserved_3y=40000
expect_in "$TMP/err" "pool.g6.reserved_3y: '40000' is no hourly rate" "bad quote key: hourly needs /h"
expect_exit 0 "quote partial" -- "$FLEETSIM" roi --db "$DB" p4de --format json --upfront partial --rate 1y:partial=60000+7/h
expect_eq "$(num upfront_cost_usd)" "$(awk -v k="$(num recommended_count)" 'BEGIN { printf "%.2f", k * 60000 }')" "quote partial: count x the quoted upfront"
expect_in "$TMP/out" '"rate_basis": "quote"' "quote partial: used"

# (f) A spot pool is weighed against what it paid on spot (its interruptions
# included), never against an on-demand price it did not pay: reserving
# p3.2xlarge at $2.088/h against spot at about $0.40/h saves nothing.
(cd "$SRCDIR/scenarios" && "$FLEETSIM" run spot-serving.ini --db "$DB" --quiet --name spot >/dev/null 2>&1)
expect_exit 0 "roi on spot" -- "$FLEETSIM" roi --db "$DB" spot --pool east --format json
expect_eq "$(num recommended_count)" 0 "spot: reserve none"
expect_in "$TMP/out" '"compared_with": "spot bill"' "spot: compared with the spot bill"
paid=$(sql "$DB" "SELECT sum(cost_usd) FROM cost_monthly c JOIN run r USING (run_id) WHERE r.name = 'spot' AND pool = 'east'")
near "$(num on_demand_cost_usd)" "$(awk -v p="$paid" 'BEGIN { printf "%.2f", p * 730 / 168 }')" 0.006 "spot: the alternative is the spot bill (730-h run rate)"
expect_exit 0 "roi on spot, table" -- "$FLEETSIM" roi --db "$DB" spot --pool east
expect_in "$TMP/out" "as run on spot / month (730 h)" "spot: table says spot"
expect_in "$TMP/out" "not against on demand" "spot: the note"
expect_exit 0 "roi on spot, csv" -- "$FLEETSIM" roi --db "$DB" spot --pool east --format csv
expect_in "$TMP/out" ",spot bill" "spot: csv says so"
expect_exit 0 "roi on spot, markdown" -- "$FLEETSIM" roi --db "$DB" spot --pool east --format markdown
expect_in "$TMP/out" "as run on spot" "spot: markdown says so"
# (g) An autoscaled pool: the "all on demand" baseline is the run's own
# bill for those hours, provisioning included.  queue(target=4) over a
# diurnal load launches and stops instances all day; each launch bills its
# 3-minute provision_delay, so instances up alone fall well short of it.
cat >"$TMP/as.ini" <<'INI'
[scenario]
name = as
start = 2026-01-01
horizon = 2d
seed = 3
[pool.od]
instance = aws:g5.xlarge
autoscale = queue(target=4)
min = 1
max = 12
[workload.w]
pools = od
arrivals = diurnal(peak=6/s, trough=0.5/s, peak_hour=14)
service = exponential(mean=1s)
INI
expect_exit 0 "autoscaled run" -- "$FLEETSIM" run "$TMP/as.ini" --db "$DB" --quiet
billed=$(sql "$DB" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_monthly c JOIN run r USING (run_id) WHERE r.name = 'as'")
upbill=$(sql "$DB" "SELECT printf('%.2f', sum(u.instances_up * 300) / 3600 * 1.006) FROM utilization u JOIN run r USING (run_id) WHERE r.name = 'as'")
checks=$((checks + 1))
awk -v b="$billed" -v u="$upbill" 'BEGIN { exit !(b - u > 10) }' ||
    fail "autoscaled: provisioning must weigh (bill $billed, instances up $upbill)"
expect_exit 0 "roi autoscaled" -- "$FLEETSIM" roi --db "$DB" as --format json
expect_eq "$(num on_demand_run_usd)" "$billed" "autoscaled: baseline = the run's bill (cost_monthly)"
expect_eq "$(num run_billed_usd)" "$billed" "autoscaled: the bill beside it"
# The run rate is the unrounded bill x 730 / 48; the stored bill is in
# cents, so they agree within half a cent x 730 / 48.
near "$(num on_demand_cost_usd)" "$(awk -v b="$billed" 'BEGIN { printf "%.4f", b * 730 / 48 }')" 0.077 "autoscaled: run rate of the bill"
expect_exit 0 "roi autoscaled, table" -- "$FLEETSIM" roi --db "$DB" as
expect_in "$TMP/out" "all on demand, the 48 h sized          \$$billed: the run's bill for this pool, provisioning included" "autoscaled: the table says so"
expect_exit 0 "roi autoscaled, csv" -- "$FLEETSIM" roi --db "$DB" as --format csv
expect_in "$TMP/out" ",on demand,$billed,$billed" "autoscaled: csv baseline and bill"
expect_exit 0 "roi autoscaled, lookback" -- "$FLEETSIM" roi --db "$DB" as --format json --lookback 1d
expect_eq "$(num run_billed_usd)" null "lookback: no whole-run bill to compare"
# (h) --all: every term and payment option and the savings plan, one table
# per pool, cheapest first; each figure the single-option call's.
expect_exit 0 "roi --all json" -- "$FLEETSIM" roi --db "$DB" as --all --format json
cp "$TMP/out" "$TMP/all.json"
expect_eq "$(python3 -c "
import json, sys
a = json.load(open(sys.argv[1]))
print(len(a), sorted((o['pricing'], o['term'], o['upfront']) for o in a) == sorted(
    [('reserved', t, u) for t in ('1y', '3y') for u in ('none', 'partial', 'all')] +
    [('savings-plan', t, 'none') for t in ('1y', '3y')]),
    [o['rank'] for o in a] == list(range(1, 9)),
    all(a[i]['with_reservation_cost_usd'] <= a[i + 1]['with_reservation_cost_usd'] for i in range(7)))" "$TMP/all.json")" \
    "8 True True True" "--all: six reservation options and two plans, ranked cheapest first"
for opt in "1y none" "1y partial" "1y all" "3y none" "3y partial" "3y all" "1y plan" "3y plan"; do
    set -- $opt
    if [ "$2" = plan ]; then
        expect_exit 0 "single $opt" -- "$FLEETSIM" roi --db "$DB" as --format json --term "$1" --savings-plan
        sel="o['pricing'] == 'savings-plan' and o['term'] == '$1'"
    else
        expect_exit 0 "single $opt" -- "$FLEETSIM" roi --db "$DB" as --format json --term "$1" --upfront "$2"
        sel="o['pricing'] == 'reserved' and o['term'] == '$1' and o['upfront'] == '$2'"
    fi
    expect_eq "$(python3 -c "
import json, sys
one = json.load(open(sys.argv[1]))[0]
o = [o for o in json.load(open(sys.argv[2])) if $sel][0]
keys = ['recommended_count', 'commitment_usd_h', 'upfront_cost_usd', 'on_demand_cost_usd', 'with_reservation_cost_usd',
        'estimated_monthly_savings_usd', 'estimated_savings_pct', 'break_even_months', 'npv_usd', 'rate_basis']
print([k for k in keys if one.get(k) != o.get(k)])" "$TMP/out" "$TMP/all.json")" "[]" "--all: $opt as its own call"
done
expect_exit 0 "roi --all table" -- "$FLEETSIM" roi --db "$DB" as --all
expect_in "$TMP/out" "the 48 h sized: \$$billed, the run's bill for this pool" "--all: the baseline is the bill"
expect_in "$TMP/out" "reserved 1y partial upfront derived" "--all: each with its rate basis"
expect_exit 0 "roi --all csv" -- "$FLEETSIM" roi --db "$DB" as --all --format csv
expect_eq "$(tail -n +2 "$TMP/out" | cut -d, -f3 | tr '\n' ' ')" "1 2 3 4 5 6 7 8 " "--all csv: eight ranked rows"
expect_exit 0 "roi --all markdown" -- "$FLEETSIM" roi --db "$DB" as --all --format markdown
expect_in "$TMP/out" "| option | rate | buys | upfront | per month | saves/month | saves | break-even | NPV |" "--all markdown: the table"
# A spot pool has no savings plan (it discounts on-demand usage): the table
# says so after the options it prices; csv and json say it on stderr.
expect_exit 0 "roi --all on spot" -- "$FLEETSIM" roi --db "$DB" spot --pool east --all
expect_in "$TMP/out" "savings plan 1y             not priced: a savings plan discounts on-demand usage" "--all spot: the plan not priced, said why"
expect_exit 0 "roi --all on spot, json" -- "$FLEETSIM" roi --db "$DB" spot --pool east --all --format json
expect_eq "$(grep -c '"rank"' "$TMP/out")" 6 "--all spot json: six reservation rows"
expect_in "$TMP/err" "pool east: 3y savings plan not priced" "--all spot json: stderr says why"
for bad in "--term 3y|drop --term" "--upfront all|drop --upfront" "--savings-plan|drop --savings-plan"; do
    expect_exit 2 "--all with ${bad%%|*}" -- "$FLEETSIM" roi --db "$DB" as --all ${bad%%|*}
    expect_in "$TMP/err" "${bad#*|}" "--all with ${bad%%|*}: why"
done
report
