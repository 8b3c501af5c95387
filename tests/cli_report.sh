#!/bin/sh
# cli_report.sh -- `fleetsim report`: one budget review of two one-day
# runs (an on-demand L4 at $1.00/h and a reserved one; the second run has
# two on-demand L4s and a name with HTML in it).  The HTML references no
# URL, escapes the name, holds the exact savings ($24.00 total, $730.00
# run-rate: one more GPU at $1.00/h) and six inline <svg> charts;
# chromium renders it (a screenshot that is not blank, a DOM with the
# summary table and six <svg>).  The Markdown has GitHub tables and its
# charts beside it.  A chart that cannot be drawn (ri-breakeven of a pool
# with no GPU-hours) is a note.  The reservation recommendation row is
# `fleetsim roi`'s, and a run sampled every 2 h has a note.  Bad --out
# exits 2 and writes nothing.
. "$(dirname "$0")/cli_lib.sh"
export FLEETSIM_PLOTS="${FLEETSIM_PLOTS:-$SRCDIR/plots}"
DB="$TMP/report.db"
cd "$TMP" || exit 1

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "cli_report: gnuplot not installed (Debian: gnuplot-nox); skipped"
    exit 77
fi

cp "$SRCDIR/tests/data/two_l4.ini" r.ini
expect_exit 0 "base run" -- "$FLEETSIM" run r.ini --db "$DB" --quiet
expect_exit 0 "second run" -- "$FLEETSIM" run r.ini --db "$DB" --quiet \
    --set pool.od.count=2 --name 'two<b>&od'

# ---- HTML -----------------------------------------------------------------
expect_exit 0 "report html" -- "$FLEETSIM" report --db "$DB" \
    --out review.html base 2
checks=$((checks + 1))
[ -s review.html ] && [ ! -e review.html.tmp ] || fail "html: not written"
checks=$((checks + 1))
! grep -qiE 'https?:' review.html || fail "html: references a URL"
checks=$((checks + 1))
[ "$(grep -c '<svg' review.html)" -eq 6 ] || fail "html: not six <svg>"
expect_in review.html 'two&lt;b&gt;&amp;od' "html: the name escaped"
checks=$((checks + 1))
! grep -q 'two<b>' review.html || fail "html: a name not escaped"
expect_in review.html '<td>+24.00</td><td>+69.18%</td></tr>' \
    "html: total cost delta"
expect_in review.html '<td>1,785.15</td><td>+730.00</td>' \
    "html: run-rate delta"
expect_in review.html '<td>2026-01</td><td>on-demand</td><td>48.00</td>' \
    "html: cost_monthly"

# In a real browser.
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
    if [ "${CI:-}" = true ]; then
        fail "chromium not installed (CI installs it: .ci/run)"
    else
        echo "cli_report: chromium not installed; browser checks skipped"
    fi
else
    set -- --headless --no-sandbox --disable-gpu --disable-quic \
        --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync \
        --user-data-dir="$TMP/chrome" --virtual-time-budget=2000
    "$CHROME" "$@" --screenshot="$TMP/shot.png" --window-size=1280,2000 \
        "file://$TMP/review.html" >/dev/null 2>&1
    checks=$((checks + 1))
    if [ -s "$TMP/shot.png" ]; then
        set -- $(python3 "$SRCDIR/tests/png_colours.py" "$TMP/shot.png")
        [ "${1:-0}" -gt 10 ] ||
            fail "screenshot: blank (${1:-?} colours)"
    else
        fail "chromium wrote no screenshot"
    fi
    set -- --headless --no-sandbox --disable-gpu --disable-quic \
        --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync \
        --user-data-dir="$TMP/chrome"
    "$CHROME" "$@" --dump-dom "file://$TMP/review.html" >dom.html \
        2>/dev/null
    checks=$((checks + 1))
    [ "$(grep -o '<svg' dom.html | wc -l)" -eq 6 ] ||
        fail "dom: not six <svg> charts"
    expect_in dom.html '<th>Column</th><th>base</th><th>two&lt;b&gt;&amp;od</th>' \
        "dom: the summary table with the run names"
    checks=$((checks + 1))
    [ "$(grep -o '<table>' dom.html | wc -l)" -eq 6 ] ||
        fail "dom: not six tables"
fi

# ---- Markdown ------------------------------------------------------------
expect_exit 0 "report md" -- "$FLEETSIM" report --db "$DB" --baseline 2 \
    --out review.md base 2
expect_in review.md '| Run | Run-rate (USD/730 h) |' "md: savings table"
expect_in review.md '| base | 1,055.15 | -730.00 | -40.89% | 34.69 | -24.00 | -40.89% |' \
    "md: savings against baseline 2"
expect_in review.md '| two\<b>&od |' "md: the name in the table (< escaped)"
# showback: each workload's row carries the cost cost_allocation gives it
alloc=$(sql "$DB" "SELECT printf('%.2f', total(cost_usd)) FROM cost_allocation WHERE run_id = 1 AND workload IS NOT NULL")
checks=$((checks + 1))
[ "$alloc" != "0.00" ] || fail "the base run allocates no cost to its workload"
expect_in review.md " | $alloc | " "md: the workload's allocated cost ($alloc)"
for c in monthly-cost utilization latency-cdf cost-vs-latency ri-breakeven \
         savings; do
    checks=$((checks + 1))
    head -c 400 "review-$c.svg" 2>/dev/null | grep -q '<svg' ||
        fail "md: review-$c.svg not written"
    expect_in review.md "![$c](review-$c.svg)" "md: links $c"
done

# ---- a chart that cannot be drawn: a note in its place ----------------
# Without on-demand GPUs the run's default ri-breakeven pool (od) has no
# GPU-hours: five charts, and the note naming why.
expect_exit 0 "run without od GPUs" -- "$FLEETSIM" run r.ini --db "$DB" \
    --quiet --set pool.od.count=0 --name zero
expect_exit 0 "report with a note" -- "$FLEETSIM" report --db "$DB" \
    --out zero.html zero
checks=$((checks + 1))
[ "$(grep -c '<svg' zero.html)" -eq 5 ] || fail "note: not five <svg>"
expect_in zero.html '<p class="note">Not drawn for these runs: ri-breakeven: pool od of run 3 provisioned no GPU-hours</p>' \
    "note: ri-breakeven without GPU-hours"
expect_exit 0 "md report with a note" -- "$FLEETSIM" report --db "$DB" \
    --out zero.md zero
expect_in zero.md '*Not drawn for these runs:* ri-breakeven: pool od' \
    "md note"
checks=$((checks + 1))
[ ! -e zero-ri-breakeven.svg ] && [ -e zero-savings.svg ] ||
    fail "md note: wrong chart files"

# ---- the reservation recommendation: what `fleetsim roi` says ---------
# Pool od of run base ($1.00/h on demand, one instance all day): the row's
# recommended count and monthly savings are roi's CSV figures (1 and
# 404.93: $730.00 on demand against $325.07 reserved a month), in HTML and
# Markdown; a run sampled every 2 h gets a note row per pool instead.
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
    [ "$(echo "$row" | cut -d'|' -f7 | tr -d ' ,')" = "$save" ] ||
    fail "md recommendation row '$row' is not roi's ($count, $save)"
expect_in review.md '## Reservation recommendation (1-year, no upfront, hour-by-hour demand)' \
    "md: the recommendation table"
expect_in review.html "<td>base</td><td>od</td><td>$count</td><td>730.00</td><td>325.07</td><td>$save</td><td>55.5%</td>" \
    "html: the recommendation row"
expect_exit 0 "coarse run" -- "$FLEETSIM" run r.ini --db "$DB" --quiet \
    --set scenario.metrics_interval=2h --name coarse
expect_exit 0 "report of a coarse run" -- "$FLEETSIM" report --db "$DB" \
    --out coarse.md coarse
expect_in coarse.md '| coarse | res | — | — | — | — | — | — | — | — | — | not sized: metrics\_interval 2h is over 1 h' \
    "md: a note for a run sampled every 2 h"
expect_exit 0 "html report of a coarse run" -- "$FLEETSIM" report \
    --db "$DB" --out coarse.html coarse
expect_in coarse.html '<td>coarse</td><td>od</td><td>—</td>' \
    "html: the note row"

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
