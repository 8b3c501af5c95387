#!/bin/sh
# cli_plot.sh -- `fleetsim plot`: the six charts as PNG, SVG and PDF for a
# two-run comparison (real files: signature and size), the same bytes for
# the same runs, a run name that tries to inject gnuplot commands, the
# figures the charts print (run-rate step of the savings waterfall, the
# reservation's break-even month), an unknown chart (exit 2 with the list)
# and gnuplot missing from PATH (exit 1, one line).
. "$(dirname "$0")/cli_lib.sh"
export FLEETSIM_PLOTS="${FLEETSIM_PLOTS:-$SRCDIR/plots}"
DB="$TMP/plot.db"
cd "$TMP" || exit 1
# A private TMPDIR: another fleetsim running beside this test (a sweep, a
# second test run) must not be counted as our leftover.
export TMPDIR="$TMP/tmpdir"
mkdir -p "$TMPDIR"

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "cli_plot: gnuplot not installed (Debian: gnuplot-nox); skipped"
    exit 77
fi

# One fixed on-demand L4 at $1.00/h and one reserved L4 (catalog 1y
# rate), one day: the bill is exact.  The second run has two on-demand
# L4s and a name that tries to run a command through gnuplot.
sed 's/^name = base$/name = plotbase/' "$SRCDIR/tests/data/two_l4.ini" >p.ini
EVIL='x"; system("touch owned") # `touch owned2` @x '"'"'y'"'"' \'
expect_exit 0 "base run" -- "$FLEETSIM" run p.ini --db "$DB" --quiet
expect_exit 0 "evil run" -- "$FLEETSIM" run p.ini --db "$DB" --quiet \
    --set pool.od.count=2 --name "$EVIL"

# signature and size of each chart in each format
sig_ok() {   # FILE EXT
    case $2 in
    png) [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '211PNG' ] ;;
    svg) head -c 400 "$1" | grep -q '<svg' ;;
    pdf) [ "$(head -c 4 "$1")" = '%PDF' ] ;;
    esac
}
for c in monthly-cost utilization latency-cdf cost-vs-latency ri-breakeven \
         savings; do
    for e in png svg pdf; do
        expect_exit 0 "plot $c $e" -- "$FLEETSIM" plot --db "$DB" \
            --chart "$c" --out "$c.$e" 1 2 || continue
        checks=$((checks + 1))
        sig_ok "$c.$e" "$e" || fail "$c.$e: not a $e file"
        size=$(wc -c <"$c.$e")
        checks=$((checks + 1))
        [ "$size" -gt 5000 ] || fail "$c.$e: only $size bytes"
        # the same runs: the same bytes
        expect_exit 0 "plot $c $e again" -- "$FLEETSIM" plot --db "$DB" \
            --chart "$c" --out "again.$e" 1 2 &&
            { checks=$((checks + 1)); cmp -s "$c.$e" "again.$e" ||
              fail "$c.$e: different bytes the second time"; }
    done
done
checks=$((checks + 1))
[ ! -e owned ] && [ ! -e owned2 ] || fail "a run name ran a command"
# a name beginning with a quote (issue 20 item 6): names reach gnuplot as
# data, never inside its command text, so every chart draws it as written
expect_exit 0 "quote run" -- "$FLEETSIM" run p.ini --db "$DB" --quiet \
    --set pool.od.count=3 --name "'x"
for c in monthly-cost utilization latency-cdf cost-vs-latency ri-breakeven \
         savings; do
    expect_exit 0 "plot $c with a run named 'x" -- "$FLEETSIM" plot \
        --db "$DB" --chart "$c" --out "quote-$c.svg" 1 3 || continue
    if grep -qF "&apos;x" "quote-$c.svg" || grep -qF "'x" "quote-$c.svg"; then
        checks=$((checks + 1))
    else expect_in "quote-$c.svg" "'x" "$c: the name 'x shown"; fi
done
# the name, XML-escaped, in the legend / labels of the SVGs
esc=$(printf '%s' "$EVIL" | sed -e 's/&/\&amp;/g' -e 's/"/\&quot;/g' \
      -e "s/'/\&apos;/g" -e 's/</\&lt;/g' -e 's/>/\&gt;/g')
for c in monthly-cost utilization latency-cdf cost-vs-latency savings; do
    if grep -qF -- "$esc" "$c.svg"; then checks=$((checks + 1))
    else expect_in "$c.svg" "$EVIL" "$c: the injection name shown"; fi
done
# no temporary directory left behind
checks=$((checks + 1))
left=$(find "$TMPDIR" -maxdepth 1 -name 'fleetsim-plot.*' | wc -l)
[ "$left" -eq 0 ] || fail "$left fleetsim-plot.* temporary directories left"

# savings: run rates 730 x (1.00 + r) and 730 x (2.00 + r): one step of
# +$730, +730 / (730 (1 + r)) percent
r=$(awk -F, '$1 == "gcp" && $2 == "g2-standard-4" { print $7 }' \
    "$FLEETSIM_CATALOG/instances.csv")
pct=$(awk -v r="$r" 'BEGIN { printf "+%.1f%%", 100 / (1 + r) }')
expect_in savings.svg "+\$730 ($pct)" "savings: the step, +\$730"
# ri-breakeven draws what roi recommends, from roi's own figures: pool od
# ($1.00/h, 1 instance all day): reserve 1 at r an hour, $730 a month on
# demand, 730 r with it; the chart's legend gives roi's count and savings
# to the cent, the same as `fleetsim roi --format json`.
expect_exit 0 "roi json" -- "$FLEETSIM" roi --db "$DB" 1 --pool od --format json
want=$(py 'import json,sys
r = json.load(open(sys.argv[1]))[0]
print("od (L4): reserve %d (roi), saves $%s a month (%.1f%%) of $%s on demand" % (
    r["recommended_count"], format(r["estimated_monthly_savings_usd"], ",.2f"),
    r["estimated_savings_pct"], format(r["on_demand_cost_usd"], ",.2f")))' "$TMP/out")
expect_in ri-breakeven.svg "$want" "ri-breakeven: roi's count and savings"
expect_eq "$(py 'import sys; print(round(730 * (1 - float(sys.argv[1])), 2))' "$r")" \
    "$(py 'import json,sys; print(json.load(open(sys.argv[1]))[0]["estimated_monthly_savings_usd"])' "$TMP/out")" \
    "roi's saving: 730 x (1 - r)"

# a run given twice (the same names twice) and a baseline that is not
# the first run
for c in utilization latency-cdf ri-breakeven monthly-cost; do
    expect_exit 0 "$c: a run twice" -- "$FLEETSIM" plot --db "$DB" \
        --chart "$c" --out twice.svg 1 1
done
expect_exit 0 "savings --baseline 2" -- "$FLEETSIM" plot --db "$DB" \
    --chart savings --baseline 2 --out base2.svg 1 2
expect_in base2.svg "-\$730 (" "savings from run 2: a -\$730 step"
expect_exit 0 "ri-breakeven --pool res --term 3y" -- "$FLEETSIM" plot \
    --db "$DB" --chart ri-breakeven --pool res --term 3y --out res.svg 1
expect_in res.svg "36-month term" "ri-breakeven: the 3-year term"
expect_in res.svg "already reserved" "ri-breakeven: a reserved pool says so"
expect_exit 1 "ri-breakeven: no such pool" -- "$FLEETSIM" plot --db "$DB" \
    --chart ri-breakeven --pool nope --out nope.svg 1
expect_in "$TMP/err" "run 1 has no pool 'nope'" "no such pool named"
checks=$((checks + 1))
[ ! -e nope.svg ] || fail "a failed chart wrote its file"

# usage errors and a missing gnuplot
expect_exit 2 "unknown chart" -- "$FLEETSIM" plot --db "$DB" \
    --chart pie --out x.png 1
expect_in "$TMP/err" "unknown chart 'pie'" "unknown chart named"
expect_in "$TMP/err" "monthly-cost, utilization, latency-cdf, cost-vs-latency, ri-breakeven, savings" \
    "unknown chart: the list"
expect_exit 2 "bad extension" -- "$FLEETSIM" plot --db "$DB" \
    --chart savings --out x.gif 1
expect_exit 1 "no such run" -- "$FLEETSIM" plot --db "$DB" \
    --chart savings --out x.png 1 99
expect_one_line "no such run"
mkdir nognuplot
expect_exit 1 "gnuplot missing" -- env PATH="$TMP/nognuplot" \
    "$FLEETSIM" plot --db "$DB" --chart savings --out nog.png 1 2
expect_one_line "gnuplot missing"
expect_in "$TMP/err" \
    "fleetsim: gnuplot not found: install the Debian package gnuplot-nox" \
    "gnuplot missing: the message"
checks=$((checks + 1))
[ ! -e nog.png ] || fail "gnuplot missing: an output file was written"
# ---- readable for a 20-point sweep -----------------------------------------
# 4 fleet sizes x 5 arrival rates, 2 hours each.  Every chart draws the 20
# runs with no two pieces of text printed over each other (svg_text.py),
# every run named in a legend (none dropped for want of room); the
# latency axes are logarithmic, labelled in time units (never a negative
# latency); the series differ in colour and in dash pattern.
cat >grid.ini <<'INI'
[scenario]
name = g
start = 2026-01-01
horizon = 2h
metrics_interval = 10m
seed = 4
[pool.gpu]
gpu = L4
count = 2
price = 0.80
[workload.chat]
pools = gpu
arrivals = poisson(rate=1.5/s)
service = exponential(mean=1s)
slo_p99 = 10s
INI
expect_exit 0 "20-point sweep" -- "$FLEETSIM" sweep grid.ini --db grid.db \
    --quiet -j 2 --vary pool.gpu.count=2,3,4,5 \
    --vary 'workload.chat.arrivals=poisson(rate=1.5/s),poisson(rate=2/s),poisson(rate=2.5/s),poisson(rate=3/s),poisson(rate=3.5/s)'
runs=$(sql grid.db "SELECT group_concat(run_id, ' ') FROM run")
for c in monthly-cost utilization latency-cdf cost-vs-latency ri-breakeven \
         savings; do
    # shellcheck disable=SC2086
    expect_exit 0 "20 runs: $c" -- "$FLEETSIM" plot --db grid.db \
        --chart "$c" --out "grid-$c.svg" $runs || continue
    python3 "$SRCDIR/tests/svg_text.py" "grid-$c.svg" >"grid-$c.txt"
    checks=$((checks + 1))
    ! grep -q '^OVERLAP' "grid-$c.txt" ||
        fail "20 runs: $c prints text over text: $(grep -m3 '^OVERLAP' "grid-$c.txt" | tr '\n' ' ')"
    checks=$((checks + 1))
    named=$(grep -o 'g\[count=[0-9],arrivals=poisson(rate=[0-9.]*/s)\]' "grid-$c.svg" | sort -u | wc -l)
    [ "$named" -eq 20 ] || fail "20 runs: $c names $named of the 20 runs"
done
for c in latency-cdf cost-vs-latency; do
    expect_in "grid-$c.svg" "<text>10 s</text>" "$c: a log latency axis in time units"
    checks=$((checks + 1))
    ! grep -q '<text>-[0-9]' "grid-$c.svg" || fail "$c: a negative tic"
done
checks=$((checks + 1))
colours=$(grep -o "stroke='rgb([^)]*)'" grid-latency-cdf.svg | sort -u | wc -l)
dashes=$(grep -o "stroke-dasharray='[^']*'" grid-latency-cdf.svg | tr -d ' ' | sort -u | wc -l)
[ "$colours" -ge 10 ] && [ "$dashes" -ge 4 ] ||
    fail "latency-cdf: $colours colours and $dashes dash patterns for 20 series"

report
