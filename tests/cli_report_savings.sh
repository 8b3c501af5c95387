#!/bin/sh
# cli_report_savings.sh -- the report's top savings attribute one run's
# difference to the baseline per change, each saving once (case study 1,
# scenarios/case1-before.ini against case1-after.ini, with the serving
# rate scaled by the files' "test-set" lines; the bills do not move).
#   - before/after alone: the listed savings add up to the baseline-to-run
#     difference (730-hour run rates from the stored cost_monthly rows),
#     no idle cost among them, the four changes named;
#   - with four runs that each make one of case1-after's changes (training
#     to spot, MIG serving, the reservation, the evaluation window), each
#     change's line carries its own run's difference to the dollar, the
#     lines add up to the difference, and the reservation, which overlaps
#     MIG on the serving pool, gets what is left after MIG (the serving
#     pool's before-to-after difference less MIG's), its own run's figure
#     beside it;
#   - a pool's idle cost appears once, as a CEILING, apart from the list
#     and never in it, with the advice to run plan (no plan run stored),
#     and where a stored plan run of that pool meets the SLO, beside
#     what it achieves;
#   - report --levers makes the single-change runs itself (same seed),
#     stores them, and attributes to the dollar as the hand-made ones.
# Markdown and HTML both.
. "$(dirname "$0")/cli_lib.sh"
export FLEETSIM_PLOTS="${FLEETSIM_PLOTS:-$SRCDIR/plots}"
DB="$TMP/savings.db"
cd "$SRCDIR" || exit 1
py() { python3 -c "$@"; }

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "cli_report_savings: gnuplot not installed (Debian: gnuplot-nox); skipped"
    exit 77
fi

tests_sets() {   # the test-set lines of case1-before.ini as --set options
    for s in $(sed -n 's/^; test-set: //p' scenarios/case1-before.ini); do
        printf ' --set %s' "$s"
    done
}
TS=$(tests_sets)
run1() {   # run1 NAME SETS...: case1-before with SETS, named NAME
    name=$1
    shift
    # shellcheck disable=SC2086
    expect_exit 0 "run $name" -- "$FLEETSIM" run scenarios/case1-before.ini \
        --db "$DB" --quiet $TS --name "$name" "$@"
}
# shellcheck disable=SC2086
expect_exit 0 "case1-before" -- "$FLEETSIM" run scenarios/case1-before.ini --db "$DB" --quiet $TS
# shellcheck disable=SC2086
expect_exit 0 "case1-after" -- "$FLEETSIM" run scenarios/case1-after.ini --db "$DB" --quiet $TS

# The four changes of case1-after.ini, one run each.
spot=""
for t in team1 team2 team3; do
    spot="$spot --set pool.$t.instance=aws:p3.2xlarge --set pool.$t.pricing=spot"
    spot="$spot --set pool.$t.count=2 --set pool.$t.interruption=weibull(shape=0.582,scale=3515s)"
    spot="$spot --set pool.$t.notice=2m --set pool.$t.replace_delay=exponential(mean=10m)"
    spot="$spot --set pool.$t.provision_delay=5m --set workload.$t.checkpoint_interval=30m"
    spot="$spot --set workload.$t.checkpoint_cost=1m --set workload.$t.restore_cost=3m"
done
# shellcheck disable=SC2086
run1 only-spot $spot
run1 only-mig --set pool.serving.gpus_per_instance=4 --set 'pool.serving.mig=3g.20gb*2'
run1 only-reserve --set pool.serving.pricing=reserved --set pool.serving.term=1y
run1 only-eval --set window.weekly.duration=8h

# A run's 730-hour run rate, and a pool's, from the stored bills.
rate() {
    sql "$DB" "SELECT printf('%.4f', total(c.cost_usd) * 730 * 3600 / r.horizon_s) FROM run r LEFT JOIN cost_monthly c USING (run_id) WHERE r.name = '$1' ${2:+AND c.pool = '$2'}"
}
diff_of() { py "print('%.4f' % ($(rate case1-before "${2:-}") - $(rate "$1" "${2:-}")))"; }
# whole dollars, as the summary writes them: $12,345
dollars() { py "v = round($1); print(('-' if v < 0 else '') + '\$' + format(abs(v), ','))"; }

# The figures of the top savings' list: the first "saves $X" (or "costs $X
# more") of each numbered line, in dollars; FORMAT md or html.
figures() {
    py 'import re, sys, html
text = open(sys.argv[1]).read()
if sys.argv[2] == "html":
    m = re.search(r"<h3>Top savings</h3>(.*?)<h[34]>", text, re.S)
    items = [html.unescape(x) for x in re.findall(r"<li>(.*?)</li>", re.search(r"<ol class=\"savings\">(.*?)</ol>", m.group(1), re.S).group(1), re.S)]
else:
    m = re.search(r"### Top savings\n(.*?)\n#", text, re.S)
    items = re.findall(r"^\d+\. (.*)$", m.group(1), re.M)
for it in items:
    f = re.search(r"(saves|costs) \$([0-9,.]+)", it)
    v = float(f.group(2).replace(",", ""))
    print(-v if f.group(1) == "costs" else v, "|", it)' "$1" "$2"
}
sum_of() { figures "$1" "$2" | py 'import sys; print("%.2f" % sum(float(l.split("|")[0]) for l in sys.stdin))'; }

D=$(diff_of case1-after)
D_SERVE=$(diff_of case1-after serving)
for fmt in md html; do
    # ---- before and after only ---------------------------------------------
    expect_exit 0 "report $fmt" -- "$FLEETSIM" report --db "$DB" --baseline case1-before \
        --out "$TMP/two.$fmt" case1-before case1-after
    s=$(sum_of "$TMP/two.$fmt" $fmt)
    expect_eq "$(py "print(abs($s - $D) <= 0.5)")" True \
        "$fmt: the one combined line is the whole difference ($s against $D)"
    expect_eq "$(figures "$TMP/two.$fmt" $fmt | wc -l)" 1 "$fmt: one combined line"
    expect_in "$TMP/two.$fmt" "makes 4 changes against the baseline" "$fmt: four changes found"
    checks=$((checks + 1))
    ! figures "$TMP/two.$fmt" $fmt | grep -qi 'idle' || fail "$fmt: idle cost in the list"

    # ---- with the four single-change runs -----------------------------------
    expect_exit 0 "report $fmt with singles" -- "$FLEETSIM" report --db "$DB" \
        --baseline case1-before --out "$TMP/five.$fmt" case1-before only-spot \
        only-mig only-reserve only-eval case1-after
    figures "$TMP/five.$fmt" $fmt >"$TMP/lines"
    expect_eq "$(wc -l <"$TMP/lines")" 4 "$fmt: one line per change"
    s=$(sum_of "$TMP/five.$fmt" $fmt)
    expect_eq "$(py "print($s <= $D + 2 and abs($s - $D) <= 2)")" True \
        "$fmt: the four lines add up to the difference ($s against $D)"
    for run in only-spot only-mig only-eval; do
        want=$(dollars "$(diff_of $run)")
        got=$(grep "run $run," "$TMP/lines" | cut -d'|' -f1)
        expect_eq "$(dollars "$got")" "$want" "$fmt: the line of $run is its own difference"
    done
    # the reservation overlaps MIG on the serving pool: what is left
    want=$(dollars "$(py "print($D_SERVE - $(diff_of only-mig serving))")")
    got=$(grep "run only-reserve saves $(dollars "$(diff_of only-reserve)") a month" "$TMP/lines" | cut -d'|' -f1)
    expect_eq "$(dollars "${got:-0}")" "$want" \
        "$fmt: the reservation gets the serving pool's difference less MIG's, its own run's beside it"
done
# the issue's figures (730-hour run rates, seed 1): spot $25,225, MIG
# $53,631, the reservation after MIG $19,844, the evaluation $2,043
expect_eq "$(cut -d'|' -f1 "$TMP/lines" | py 'import sys; print(" ".join("%.0f" % float(l) for l in sys.stdin))')" \
    "53631 25225 19844 2043" "the four lines, largest first"

# ---- ceilings --------------------------------------------------------------
# The baseline alone: the serving pool (80% idle) is a ceiling, once, even
# though both runs show it idle, and never in the list.
for fmt in md html; do
    expect_exit 0 "report $fmt spot only" -- "$FLEETSIM" report --db "$DB" \
        --baseline case1-before --out "$TMP/spot.$fmt" case1-before only-spot
    expect_eq "$(grep -o 'CEILING, not a saving: pool serving' "$TMP/spot.$fmt" | wc -l)" 1 \
        "$fmt: the serving pool's idle cost once"
    expect_in "$TMP/spot.$fmt" "Run fleetsim plan to size it" "$fmt: the advice to plan"
    idle=$(dollars "$(sql "$DB" "SELECT total(a.cost_usd) * 730 * 3600 / r.horizon_s FROM cost_allocation a JOIN run r USING (run_id) WHERE r.name = 'only-spot' AND a.pool = 'serving' AND a.workload IS NULL")")
    expect_in "$TMP/spot.$fmt" "pool serving of run only-spot pays $idle a month" \
        "$fmt: the ceiling is the stored idle cost ($idle)"
    checks=$((checks + 1))
    ! figures "$TMP/spot.$fmt" $fmt | grep -q 'CEILING' || fail "$fmt: a ceiling in the list"
done

# ---- a ceiling beside what a stored plan run achieves -----------------------
# Eight L4s at $1.00/h for a load one of them nearly carries: 87% idle, a
# ceiling.  `plan` stores its runs; the cheapest that meets the SLO (two
# L4s) is what is achievable: 6 x $1.00 x 730 h = $4,380 a month.
cat >"$TMP/idle.ini" <<'INI'
[scenario]
name = idle
horizon = 1d
seed = 1
[pool.p]
gpu = L4
count = 8
price = 1.00
[workload.w]
pools = p
arrivals = poisson(rate=1/s)
service = exponential(mean=1s)
slo_p99 = 10s
INI
P="$TMP/plan.db"
expect_exit 0 "idle run" -- "$FLEETSIM" run "$TMP/idle.ini" --db "$P" --quiet
idle=$(dollars "$(sql "$P" "SELECT total(cost_usd) * 730 * 3600 / 86400 FROM cost_allocation WHERE pool = 'p' AND workload IS NULL")")
for fmt in md html; do
    expect_exit 0 "report $fmt before plan" -- "$FLEETSIM" report --db "$P" --out "$TMP/idle.$fmt" idle
    expect_in "$TMP/idle.$fmt" "CEILING, not a saving: pool p of run idle pays $idle a month" \
        "$fmt: the idle pool is a ceiling ($idle, its stored idle cost)"
    expect_in "$TMP/idle.$fmt" "Run fleetsim plan to size it" "$fmt: no plan run: the advice"
done
expect_exit 0 "plan" -- "$FLEETSIM" plan "$TMP/idle.ini" --slo 'p99<=10s' --db "$P" --quiet
expect_eq "$(sql "$P" "SELECT r.name FROM run r JOIN latency l USING (run_id) WHERE r.name LIKE 'plan[%' AND l.slo_attainment >= 0.99 ORDER BY r.run_id LIMIT 1")" \
    "plan[gpu=L4,count=2]" "plan: two L4s meet the SLO"
for fmt in md html; do
    expect_exit 0 "report $fmt after plan" -- "$FLEETSIM" report --db "$P" --out "$TMP/idle2.$fmt" idle
    expect_in "$TMP/idle2.$fmt" "count 8 → 2, every SLO met): \$4,380 a month." \
        "$fmt: what the plan run achieves, 6 x \$1.00 x 730 h"
    expect_eq "$(grep -o 'CEILING' "$TMP/idle2.$fmt" | wc -l)" 1 "$fmt: the ceiling once"
done

# ---- --levers ----------------------------------------------------------------
# Before and after alone in a database of their own: --levers makes the
# four single-change runs (same seed and replication), and each line is
# what the hand-made run of that change gives, to the dollar.
L="$TMP/levers.db"
sql "$DB" ".backup '$L'"
expect_exit 0 "rm the single-change runs" -- "$FLEETSIM" rm --db "$L" only-spot only-mig only-reserve only-eval
before=$(sql "$L" "SELECT count(*) FROM run")
expect_exit 0 "report --levers" -- "$FLEETSIM" report --db "$L" --levers \
    --baseline case1-before --out "$TMP/levers.md" case1-before case1-after
expect_eq "$(sql "$L" "SELECT count(*) FROM run") $(sql "$L" "SELECT count(DISTINCT seed || '/' || replication) FROM run")" \
    "$((before + 4)) 1" "--levers: four runs made, each with the baseline's seed and replication"
figures "$TMP/levers.md" md >"$TMP/llines"
cut -d'|' -f1 "$TMP/llines" >"$TMP/l1"
cut -d'|' -f1 "$TMP/lines" >"$TMP/l2"
expect_eq "$(cat "$TMP/l1" | tr '\n' ' ')" "$(cat "$TMP/l2" | tr '\n' ' ')" \
    "--levers: the same four figures as the hand-made runs"
expect_in "$TMP/levers.md" "run case1-before+pool.serving:capacity, which makes only this change" \
    "--levers: the line names the run made"
# a second report makes nothing new
expect_exit 0 "report --levers again" -- "$FLEETSIM" report --db "$L" --levers \
    --baseline case1-before --out "$TMP/levers2.md" case1-before case1-after
expect_eq "$(sql "$L" "SELECT count(*) FROM run")" "$((before + 4))" "--levers: the stored runs are used again"
# the baseline's file must be found as it was run (a relative path)
expect_exit 0 "rm the levers' runs" -- "$FLEETSIM" rm --db "$L" \
    $(sql "$L" "SELECT run_id FROM run WHERE name LIKE 'case1-before+%'")
expect_exit 1 "--levers elsewhere" -- sh -c "cd '$TMP' && '$FLEETSIM' report --db '$L' --levers --baseline case1-before --out x.md case1-before case1-after"
expect_one_line "--levers elsewhere"
expect_in "$TMP/err" "scenarios/case1-before.ini" "--levers elsewhere: names the file"
checks=$((checks + 1))
[ ! -e "$TMP/x.md" ] || fail "--levers elsewhere: a review was written"

report
