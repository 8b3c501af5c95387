#!/bin/sh
# cli_report.sh -- `fleetsim report`: one budget review of two one-day
# runs (an on-demand L4 at $1.00/h and a reserved one; the second run has
# two on-demand L4s and a name with HTML in it), and of a week of diurnal
# demand on an autoscaled pool.  What a reader sees, in headless chromium:
#   - the executive summary first, its figures equal to the store's (run
#     rate, change against the baseline in $ and %, the calendar-month
#     bill), money as $1,234, no raw column name anywhere (horizon_s,
#     cost_per_month_usd, ...), the reserved pool "already reserved",
#     never recommended a reservation;
#   - every chart present: six inline <svg>, each with content;
#   - the reservation table and the ri-breakeven chart agree: the chart's
#     count, monthly savings and percentage are the table's (and roi's), on
#     diurnal demand where the daily-average sizing would choose more;
#   - a run named 'x (a leading quote) draws every chart;
#   - an overloaded run (25% of requests dropped) is flagged;
#   - the top saving of case study 6 (on demand against spot) is moving
#     training to spot, sized from the store's run rates.
# The Markdown has GitHub tables and its charts beside it.  A chart that
# cannot be drawn (ri-breakeven of a run sampled every 2 h) is a note.
# Bad --out exits 2 and writes nothing.
. "$(dirname "$0")/cli_lib.sh"
export FLEETSIM_PLOTS="${FLEETSIM_PLOTS:-$SRCDIR/plots}"
DB="$TMP/report.db"
cd "$TMP" || exit 1
py() { python3 -c "$@"; }

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "cli_report: gnuplot not installed (Debian: gnuplot-nox); skipped"
    exit 77
fi

cp "$SRCDIR/tests/data/two_l4.ini" r.ini
expect_exit 0 "base run" -- "$FLEETSIM" run r.ini --db "$DB" --quiet
expect_exit 0 "second run" -- "$FLEETSIM" run r.ini --db "$DB" --quiet \
    --set pool.od.count=2 --name 'two<b>&od'

# ---- HTML -----------------------------------------------------------------
expect_exit 0 "report html" -- "$FLEETSIM" report --db "$DB" --portfolio \
    --out review.html base 2
checks=$((checks + 1))
[ -s review.html ] && [ ! -e review.html.tmp ] || fail "html: not written"
checks=$((checks + 1))
! grep -qiE 'https?:' review.html || fail "html: references a URL"
checks=$((checks + 1))
# six charts and portfolio-cost (--portfolio): these runs' pools can be
# committed
[ "$(grep -c '<svg' review.html)" -eq 7 ] || fail "html: not seven <svg>"
expect_in review.html 'two&lt;b&gt;&amp;od' "html: the name escaped"
checks=$((checks + 1))
! grep -q 'two<b>' review.html || fail "html: a name not escaped"
expect_in review.html '<td>+$24.00</td><td>+69.18%</td></tr>' \
    "html: total cost delta"
expect_in review.html '<td>$1,785.07</td><td>+$730.00</td>' \
    "html: run-rate delta"
expect_in review.html '<td>2026-01</td><td>on-demand</td><td>$48.00</td>' \
    "html: the calendar-month bill"
# the executive summary opens the review, before every table
checks=$((checks + 1))
[ "$(grep -n 'Executive summary' review.html | cut -d: -f1)" -lt \
  "$(grep -n '<table>' review.html | head -1 | cut -d: -f1)" ] ||
    fail "html: the executive summary is not first"
# the reserved pool: already reserved, never a recommendation to reserve
expect_in review.html '<td>base</td><td>res</td><td class="note" colspan="10">already reserved: no reservation recommended' \
    "html: the reserved pool gets no recommendation"
expect_in review.html 'already reserved' "html: the reserved pool says so"
checks=$((checks + 1))
! grep -q 'Reserve [0-9]* instances\{0,1\} of pool res' review.html ||
    fail "html: a reservation recommended for the reserved pool"
# ... and its realised saving, to the cent the FOCUS export's
# sum(ListCost - EffectiveCost) of the pool (and the summary's saving)
expect_exit 0 "focus of base" -- "$FLEETSIM" export --db "$DB" \
    --format focus --out base_focus.csv base
saved=$(py 'import csv, sys
s = sum(round(float(r["ListCost"]) * 100) - round(float(r["EffectiveCost"]) * 100)
        for r in csv.DictReader(open(sys.argv[1])) if r["x_Pool"] == "res")
print("%s$%d.%02d" % ("-" if s < 0 else "", abs(s) // 100, abs(s) % 100))' base_focus.csv)
checks=$((checks + 1))
[ "$saved" != '$0.00' ] || fail "focus: the reserved pool saved nothing"
expect_in review.html "already reserved: no reservation recommended; realised saving $saved over the run" \
    "html: the realised saving is the export's ($saved)"

# The summary's figures, from the store: run rates, the change, the bill.
rate1=$(sql "$DB" "SELECT cost_per_month_usd FROM run_summary WHERE run_id = 1")
rate2=$(sql "$DB" "SELECT cost_per_month_usd FROM run_summary WHERE run_id = 2")
bill1=$(sql "$DB" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_monthly WHERE run_id = 1 AND month = '2026-01'")
want_head=$(py 'import sys
r1, r2 = float(sys.argv[1]), float(sys.argv[2])
print("base (the baseline) runs at $%s a month" % format(round(r1), ","))' "$rate1" "$rate2")
want_change=$(py 'import sys
r1, r2 = float(sys.argv[1]), float(sys.argv[2])
print("+$%.2f (%+.1f%%)" % (r2 - r1, 100 * (r2 - r1) / r1))' "$rate1" "$rate2")

# ---- what a reader sees: chromium -----------------------------------------
CHROME=$(command -v chromium || command -v chromium-browser || true)
chrome() {   # chromium with a fresh profile, no network
    rm -rf "$TMP/chrome"
    "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic \
        --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync \
        --user-data-dir="$TMP/chrome" "$@" 2>/dev/null
}
# seen DOM: the document's text (what a reader reads, the charts' text
# included), one line per element, and a check that every <svg> has
# content (at least 20 drawn elements: paths, texts, lines)
seen() {
    python3 - "$1" <<'PY'
import sys, re, html
dom = open(sys.argv[1], encoding="utf-8").read()
svgs = re.findall(r"<svg\b.*?</svg>", dom, re.S)
drawn = [len(re.findall(r"<(path|text|line|rect|polyline|polygon|circle)\b", s)) for s in svgs]
text = html.unescape(re.sub(r"<[^>]+>", "\n", re.sub(r"<style.*?</style>", "", dom, flags=re.S)))
open("seen.txt", "w").write("\n".join(l.strip() for l in text.split("\n") if l.strip()) + "\n")
print(len(svgs), min(drawn) if drawn else 0)
PY
}
if [ -z "$CHROME" ]; then
    if [ "${CI:-}" = true ]; then
        fail "chromium not installed (CI installs it: .ci/run)"
    else
        echo "cli_report: chromium not installed; browser checks skipped"
    fi
else
    chrome --screenshot="$TMP/shot.png" --window-size=1280,2000 \
        --virtual-time-budget=2000 "file://$TMP/review.html" >/dev/null
    checks=$((checks + 1))
    if [ -s "$TMP/shot.png" ]; then
        set -- $(python3 "$SRCDIR/tests/png_colours.py" "$TMP/shot.png")
        [ "${1:-0}" -gt 10 ] ||
            fail "screenshot: blank (${1:-?} colours)"
    else
        fail "chromium wrote no screenshot"
    fi
    chrome --dump-dom "file://$TMP/review.html" >dom.html
    set -- $(seen dom.html)
    expect_eq "${1:-0}" 7 "dom: seven charts (portfolio-cost the seventh)"
    checks=$((checks + 1))
    [ "${2:-0}" -ge 20 ] || fail "dom: a chart without content (${2:-0} elements)"
    expect_in dom.html '<th>Figure</th><th>base</th><th>two&lt;b&gt;&amp;od</th>' \
        "dom: the figures table with the run names"
    checks=$((checks + 1))
    [ "$(grep -o '<table>' dom.html | wc -l)" -eq 9 ] ||
        fail "dom: not nine tables (at a glance, six, the portfolio's two)"
    expect_in seen.txt "Commitment portfolio" "seen: the portfolio's buys"
    expect_in seen.txt "Expected total (mean over the runs)" \
        "seen: the portfolio's expected cost"
    expect_in seen.txt "Cost of the commitment portfolio against the" \
        "seen: the portfolio-cost chart's title"
    expect_in seen.txt "$want_head" "seen: the baseline's run rate ($rate1)"
    expect_in seen.txt "$want_change" "seen: the change against the baseline"
    expect_in seen.txt "2026-01: \$$bill1 (1 of 31 days run)" \
        "seen: the calendar-month bill ($bill1)"
    expect_in seen.txt "Monthly run rate (730 h)" "seen: the run rate labelled"
    # no raw column name of the store anywhere a reader looks
    for c in run_id horizon_s total_cost_usd cost_per_month_usd \
             gpu_hours_provisioned gpu_hours_busy requests_dropped \
             latency_mean_s latency_p50_s latency_p99_s wait_mean_s \
             slo_attainment jobs_missed_deadline requests_unfinished \
             unfinished_share p50_s p99_s slo_s cost_usd; do
        checks=$((checks + 1))
        ! grep -q "$c" seen.txt || fail "seen: the raw column name $c"
    done
fi

# ---- readable in a browser: chart text, every workload, no exponent ------
# Rendered by chromium at 1024 px wide: no chart text under 11 px (its font
# size times the scale the page draws the chart at, measured by a script
# added to a copy of the page); every workload of each run in the showback
# table, case study 6's training teams included; no duration with an
# exponent, a mean wait of 30 us included (it read 2.998e-05 s).
cat >tiny.ini <<'INI'
[scenario]
name = tiny
start = 2026-01-01
horizon = 1d
metrics_interval = 1h
seed = 3
[pool.p]
gpu = L4
count = 2
price = 1.00
[workload.w]
pools = p
arrivals = poisson(rate=1/s)
service = exponential(mean=50ms)
slo_p99 = 1s
INI
expect_exit 0 "a run that hardly waits" -- "$FLEETSIM" run tiny.ini --db "$DB" --quiet
wait=$(sql "$DB" "SELECT l.wait_mean_s > 0 AND l.wait_mean_s < 1e-4 FROM latency l JOIN run r USING (run_id) WHERE r.name = 'tiny'")
expect_eq "$wait" 1 "tiny: a mean wait under 100 us"
expect_exit 0 "report of base, two, tiny" -- "$FLEETSIM" report --db "$DB" \
    --out readable.html base 'two<b>&od' tiny
expect_in readable.html "<td>29.98 us</td>" "html: the mean wait in microseconds"
if [ -n "$CHROME" ]; then
    readable() {   # readable PAGE DB RUN...: problems a reader would see
        page=$1; shift
        python3 "$SRCDIR/tests/report_readable.py" inject "$page" "m-$page"
        chrome --window-size=1024,3000 --virtual-time-budget=3000 \
            --dump-dom "file://$TMP/m-$page" >"m-$page.dom"
        python3 "$SRCDIR/tests/report_readable.py" check "m-$page.dom" "$@"
    }
    got=$(readable readable.html "$DB" base 'two<b>&od' tiny)
    checks=$((checks + 1))
    case $got in
    "texts "*" min "*) echo "$got" | grep '^PROBLEM' | sed 's/^/FAIL readable: /' ;;
    *) fail "readable: no measurement ($got)" ;;
    esac
    echo "$got" | grep -q '^PROBLEM' && failed=$((failed + 1))
fi

# ---- the reservation table and the ri-breakeven chart agree ------------
# A week of diurnal demand (2 to 12 requests/s) on an autoscaled L4 pool:
# roi reserves fewer than the daily average would; the chart draws roi's
# count, with its savings to the cent, as the table gives them.
cat >diurnal.ini <<'INI'
[scenario]
name = diurnal
start = 2026-01-01
horizon = 7d
metrics_interval = 1h
seed = 2
[pool.a]
instance = gcp:g2-standard-4
pricing = on-demand
autoscale = utilization(target=70%)
min = 1
max = 40
cooldown = 10m
[workload.chat]
pools = a
arrivals = diurnal(peak=12/s, trough=2/s, peak_hour=14)
service = exponential(mean=1s)
INI
expect_exit 0 "diurnal run" -- "$FLEETSIM" run diurnal.ini --db "$DB" --quiet
expect_exit 0 "report of the diurnal run" -- "$FLEETSIM" report --db "$DB" \
    --out diurnal.html diurnal
agree=$(python3 - <<'PY'
import re, html
dom = open("diurnal.html", encoding="utf-8").read()
head, rest = dom.split("Reservation recommendation", 1)
row = re.search(r"<tr><td>diurnal</td><td>a</td>(.*?)</tr>", rest).group(1)
cells = [html.unescape(c) for c in re.findall(r"<td>(.*?)</td>", row)]
count, od, with_, save, pct, daily = cells[0], cells[1], cells[2], cells[3], cells[4], cells[7]
svg = re.search(r"<figcaption>ri-breakeven.*?</figure>", dom, re.S).group(0)
text = html.unescape(" ".join(re.findall(r">([^<]*)<", svg)))
m = re.search(r"reserve (\d+) \(roi\), saves (\$[\d,.]+) a month \(([\d.]+%)\) of (\$[\d,.]+ \(all on demand\))", text)
print(count == m.group(1), save == m.group(2), pct == m.group(3),
      od == m.group(4), with_ != "" and daily != "", int(count) < int(daily),
      count, save, daily)
PY
)
case $agree in
"True True True True True True "*) checks=$((checks + 1)) ;;
*) checks=$((checks + 1)); fail "ri-breakeven and the table disagree: $agree" ;;
esac
roi=$("$FLEETSIM" roi --db "$DB" diurnal --format csv | sed -n 2p)
expect_eq "$(echo "$roi" | cut -d, -f4)" "$(echo "$agree" | cut -d' ' -f7)" \
    "the table's count is roi's"

# ---- a name beginning with a quote, and an overloaded run -------------
seq 0 2 3590 | awk 'BEGIN { print "t" } { print; print }' >pairs.csv
cat >over.ini <<'INI'
[scenario]
name = over
start = 2026-01-01
horizon = 1h
metrics_interval = 10m
[pool.od]
gpu = L4
count = 1
price = 1.00
[workload.w]
pools = od
arrivals = trace(pairs.csv, format=generic, time=t)
service = const(1.2s)
queue_max = 1
INI
expect_exit 0 "overloaded run" -- "$FLEETSIM" run over.ini --db "$DB" \
    --quiet --name "'x"
expect_exit 0 "report of 'x" -- "$FLEETSIM" report --db "$DB" \
    --portfolio --out quote.html base "'x"
checks=$((checks + 1))
[ "$(grep -c '<svg' quote.html)" -eq 7 ] ||
    fail "'x: not seven charts ($(grep -c '<svg' quote.html))"
expect_in quote.html "898 (25.00%), overloaded" "overloaded: flagged at a glance"
expect_in quote.html "Unfinished work: run &#39;x left 898 requests (25.00%" \
    "overloaded: a risk, named"
expect_in quote.html "  'x (overloaded)</text>" "overloaded: marked in cost-vs-latency"

# ---- the top savings name what a cheaper run changes ----------------------
# Case study 6: the same fine-tunes on demand and on spot.  The summary's
# first saving names the change, the pool's purchase option moved to spot,
# sized as the store's run rates differ (whole dollars); the per-change
# attribution is tests/cli_report_savings.sh's.
(cd "$SRCDIR" && "$FLEETSIM" run scenarios/case6-finetune-a100-on-demand.ini \
    --db "$TMP/c6.db" --quiet && "$FLEETSIM" run \
    scenarios/case6-finetune-a100-spot.ini --db "$TMP/c6.db" --quiet) >/dev/null
expect_exit 0 "report of case 6" -- "$FLEETSIM" report --db c6.db \
    --out c6.md 1 2
save=$(sql c6.db "SELECT printf('%,d', round(a.cost_per_month_usd - b.cost_per_month_usd)) FROM run_summary a, run_summary b WHERE a.run_id = 1 AND b.run_id = 2")
expect_in c6.md "1. Purchase option of pool gpu: pricing on-demand → spot" \
    "summary: the move to spot named"
expect_in c6.md "saves \$$save a month (together, the changes of run case6-finetune-a100-spot" \
    "summary: moving training to spot, \$$save a month"

# ---- Markdown ------------------------------------------------------------
expect_exit 0 "report md" -- "$FLEETSIM" report --db "$DB" --baseline 2 \
    --out review.md base 2
expect_in review.md '## Executive summary' "md: the executive summary"
expect_in review.md '| Run | Monthly run rate (730 h) |' "md: savings table"
expect_in review.md '| base | $1,055.07 | -$730.00 | -40.89% | $34.69 | -$24.00 | -40.89% |' \
    "md: savings against baseline 2"
expect_in review.md '| two\<b>&od |' "md: the name in the table (< escaped)"
# showback: each workload's row carries the cost cost_allocation gives it
alloc=$(sql "$DB" "SELECT printf('%.2f', total(cost_usd)) FROM cost_allocation WHERE run_id = 1 AND workload IS NOT NULL")
checks=$((checks + 1))
[ "$alloc" != "0.00" ] || fail "the base run allocates no cost to its workload"
expect_in review.md " | \$$alloc | " "md: the workload's allocated cost ($alloc)"
for c in monthly-cost utilization latency-cdf cost-vs-latency ri-breakeven \
         savings; do
    checks=$((checks + 1))
    head -c 400 "review-$c.svg" 2>/dev/null | grep -q '<svg' ||
        fail "md: review-$c.svg not written"
    expect_in review.md "![$c](review-$c.svg)" "md: links $c"
done
# the one-day runs' month is partial, and their run rate stands beside it;
# the utilization lines are drawn at their values, never shifted apart
expect_in review-monthly-cost.svg "base 2026-01 (1 of 31 days)" \
    "monthly-cost: the partial month labelled"
expect_in review-monthly-cost.svg "base run rate (730 h)" \
    "monthly-cost: the run rate beside it"
checks=$((checks + 1))
! grep -q "shifted" review-utilization.svg || fail "utilization: lines shifted"

# ---- the reservation recommendation: what `fleetsim roi` says ---------
# Pool od of run base ($1.00/h on demand, one instance all day): the row's
# recommended count and monthly savings are roi's CSV figures (1 and
# 404.93: $730.00 on demand against $325.07 reserved a month), in HTML and
# Markdown; a run sampled every 2 h gets a note row per pool instead, and
# its ri-breakeven chart a note.
roi=$("$FLEETSIM" roi --db "$DB" base --pool od --format csv | sed -n 2p)
count=$(echo "$roi" | cut -d, -f4)
save=$(echo "$roi" | cut -d, -f12)
checks=$((checks + 1))
[ "$count" = 1 ] && [ "$save" = 404.93 ] ||
    fail "roi csv: count $count, savings $save (want 1, 404.93)"
row=$(awk '/^## Reservation recommendation/ { on = 1 }
           on && /^\| base \| od \|/ { print; exit }' review.md)
checks=$((checks + 1))
[ "$(echo "$row" | cut -d'|' -f4 | tr -d ' ')" = "$count" ] &&
    [ "$(echo "$row" | cut -d'|' -f7 | tr -d ' ,$')" = "$save" ] ||
    fail "md recommendation row '$row' is not roi's ($count, $save)"
expect_in review.md '## Reservation recommendation (1-year, no upfront, hour-by-hour demand)' \
    "md: the recommendation table"
expect_in review.html "<td>base</td><td>od</td><td>$count</td><td>\$730.00 (all on demand)</td><td>\$325.07</td><td>\$$save</td><td>55.5%</td>" \
    "html: the recommendation row"
expect_exit 0 "coarse run" -- "$FLEETSIM" run r.ini --db "$DB" --quiet \
    --set scenario.metrics_interval=2h --name coarse
expect_exit 0 "report of a coarse run" -- "$FLEETSIM" report --db "$DB" \
    --out coarse.md coarse
expect_in coarse.md '| coarse | res | — | — | — | — | — | — | — | — | — | not sized: metrics\_interval 2h is over 1 h' \
    "md: a note for a run sampled every 2 h"
expect_in coarse.md '*Not drawn for these runs:* ri-breakeven: run ' \
    "md: the chart that cannot be drawn is a note"
checks=$((checks + 1))
[ ! -e coarse-ri-breakeven.svg ] && [ -e coarse-savings.svg ] ||
    fail "md note: wrong chart files"
expect_exit 0 "html report of a coarse run" -- "$FLEETSIM" report \
    --db "$DB" --out coarse.html coarse
expect_in coarse.html '<td>coarse</td><td>od</td><td class="note" colspan="10">not sized: metrics_interval 2h' \
    "html: the note row"
checks=$((checks + 1))
[ "$(grep -c '<svg' coarse.html)" -eq 5 ] || fail "note: not five <svg>"
expect_in coarse.html '<p class="note">Not drawn for these runs: ri-breakeven: run ' \
    "html: the note in the chart's place"

# ---- the tables of case study 6: training, spot, nothing to reserve -------
# Each run's training workload is in the showback table with its cost
# (cost_allocation's, to the cent); the spot pool's bill reads as spot (its
# purchase option's label), never "on demand"; roi reserves nothing there,
# and the row says so instead of a break-even.
expect_exit 0 "tables of case 6" -- "$FLEETSIM" report --db c6.db \
    --out c6t.md 1 2
for run in 1 2; do
    name=$(sql c6.db "SELECT name FROM run WHERE run_id = $run")
    cost=$(py 'import sys; print(format(float(sys.argv[1]), ",.2f"))' "$(sql c6.db "SELECT total(cost_usd) FROM cost_allocation WHERE run_id = $run AND workload = 'finetune'")")
    expect_in c6t.md "| $name | finetune | training: 1 of 1 jobs finished | – | " \
        "showback: run $run's training workload"
    expect_in c6t.md "| \$$cost | – |" "showback: its cost ($cost)"
done
spot=$(sql c6.db "SELECT name FROM run WHERE run_id = 2")
row=$(grep "^| $spot | gpu | " c6t.md | tail -1)
checks=$((checks + 1))
case $row in
*"| 0 | "*"(all on spot, as paid) |"*"| — (nothing to reserve) |"*) ;;
*) fail "spot pool's recommendation row: '$row'" ;;
esac
checks=$((checks + 1))
! grep -q "on spot.*not within the" c6t.md || fail "a break-even for a reservation of 0"
checks=$((checks + 1))
! grep "^| $spot | gpu | " c6t.md | grep -q "on demand" || fail "the spot bill labelled on demand"
expect_exit 0 "html tables of case 6" -- "$FLEETSIM" report --db c6.db \
    --out c6t.html 1 2
if [ -n "$CHROME" ]; then
    got=$(readable c6t.html c6.db "$(sql c6.db "SELECT name FROM run WHERE run_id = 1")" "$spot")
    checks=$((checks + 1))
    case $got in
    "texts "*" min "*) echo "$got" | grep '^PROBLEM' | sed 's/^/FAIL c6 readable: /' ;;
    *) fail "c6 readable: no measurement ($got)" ;;
    esac
    echo "$got" | grep -q '^PROBLEM' && failed=$((failed + 1))
fi

# ---- serving: prefix cache, P/D, cold starts, speculative decoding --------
# A table only where runs have them: each cell is the store's figure
# (prefix_cache, kv_transfer, pool.cold_starts and load_s, spec_decode);
# the reviews above, of runs without any, have no such table.
printf '%s\n' '[scenario]' 'name = srv' 'start = 2026-01-01' 'horizon = 10m' 'seed = 3' \
    '[pool.p]' 'gpu = A10G' 'provider = aws' 'count = 2' 'prefix_cache = yes' \
    '[workload.chat]' 'pools = p' 'arrivals = poisson(rate=2/s)' \
    'service = llm(model=llama-3-8b, precision=fp8)' 'tokens_in = const(400)' \
    'tokens_out = const(150)' 'sessions = turns(mean=4, think=20s)' \
    'spec = draft(model=llama-3.2-1b, k=4, acceptance=0.7)' >srv.ini
printf '%s\n' '[scenario]' 'name = srvpd' 'start = 2026-01-01' 'horizon = 10m' 'seed = 4' \
    '[pool.pre]' 'gpu = A100-80GB' 'provider = aws' 'count = 1' 'role = prefill' \
    'network_gbps = 100' '[pool.dec]' 'gpu = A100-80GB' 'provider = aws' 'count = 1' \
    'role = decode' 'network_gbps = 100' '[workload.chat]' 'pools = pre, dec' \
    'arrivals = poisson(rate=2/s)' 'service = llm(model=llama-3-8b, precision=bf16)' \
    'tokens_in = const(2000)' 'tokens_out = const(200)' >srvpd.ini
printf '%s\n' '[scenario]' 'name = srvcold' 'start = 2026-01-01' 'horizon = 2h' 'seed = 2' \
    '[pool.g]' 'instance = aws:g6.xlarge' 'autoscale = queue(target=32)' 'min = 1' \
    'max = 6' 'cooldown = 5m' 'provision_delay = 1m' '[workload.chat]' 'pools = g' \
    'arrivals = mmpp(high=6/s, low=0.5/s, high_for=20m, low_for=20m)' \
    'service = llm(model=llama-3-8b, precision=fp8)' 'tokens_in = const(500)' \
    'tokens_out = const(100)' >srvcold.ini
for f in srv srvpd srvcold; do
    expect_exit 0 "serving run $f" -- "$FLEETSIM" run $f.ini --db serving.db --quiet
done
expect_exit 0 "report serving md" -- "$FLEETSIM" report --db serving.db --out serving.md srv srvpd srvcold
want=$(sql serving.db "SELECT printf('| srv | workload chat | %.2f%% |', 100 * token_hit_rate) FROM prefix_cache WHERE run_id = 1 AND pool IS NULL")
expect_in serving.md "$want" "serving: the workload's token hit rate is the store's"
want=$(sql serving.db "SELECT printf('| %.3f | %.3f |', accepted_mean, expected_mean) FROM spec_decode WHERE run_id = 1")
expect_in serving.md "$want" "serving: the tokens a speculative step emits, and the law's"
want=$(sql serving.db "SELECT printf('| srvpd | workload chat | – | – | %,d |', transfers) FROM kv_transfer WHERE run_id = 2")
expect_in serving.md "$want" "serving: the KV caches the prefill pool sent"
cold=$(sql serving.db "SELECT cold_starts FROM pool WHERE run_id = 3")
checks=$((checks + 1))
[ "${cold:-0}" -gt 0 ] || fail "the autoscaled pool had no cold start"
expect_in serving.md "| srvcold | pool g | – | – | – | – | – | $cold | " "serving: the pool's cold starts"
# cached input tokens and the pool's hit rate: cached of all, each pool
want=$(sql serving.db "SELECT printf('| srv | pool p | %.2f%% | %,d of %,d |', 100 * token_hit_rate, tokens_cached, tokens_in) FROM prefix_cache WHERE run_id = 1 AND workload IS NULL")
expect_in serving.md "$want" "serving: the pool's cached input tokens"
checks=$((checks + 1))
! grep -q "## Serving" review.md || fail "a review of runs without serving figures has the serving table"
expect_exit 0 "report serving html" -- "$FLEETSIM" report --db serving.db --out serving.html srv srvpd srvcold
if [ -n "$CHROME" ]; then
    chrome --dump-dom "file://$TMP/serving.html" >serving.dom
    seen serving.dom >/dev/null
    expect_in seen.txt "Serving: prefix cache, disaggregation, cold starts, speculative decoding" \
        "seen: the serving table"
    expect_in seen.txt "Tokens a step (speculative)" "seen: its columns in words"
    checks=$((checks + 1))
    # and the portfolio's tables (tests/cli_report_portfolio.sh), where
    # these runs' pools can be committed
    pf=$(grep -c '<h2>Commitment portfolio</h2>\|<h2>Portfolio cost</h2>' serving.dom)
    [ "$(grep -o '<table>' serving.dom | wc -l)" -eq $((8 + pf)) ] ||
        fail "dom: not eight tables (at a glance, six and serving) and $pf"
fi

# ---- bad use --------------------------------------------------------------
expect_exit 2 "report .txt" -- "$FLEETSIM" report --db "$DB" \
    --out review.txt base
checks=$((checks + 1))
[ ! -e review.txt ] || fail "bad --out: a file was written"
expect_exit 1 "report of no run" -- "$FLEETSIM" report --db "$DB" \
    --out missing.html nosuch
checks=$((checks + 1))
[ ! -e missing.html ] && [ ! -e missing.html.tmp ] ||
    fail "missing run: a file was written"
report
