#!/bin/sh
# cli_fuzz_replay.sh -- every fuzzing reproducer in tests/data/fuzz-crashes/
# replayed through the fleetsim binary (built with the sanitizers by
# `./configure --enable-sanitizers`): each must end in a result or one
# clear refusal, within 60 s, with no sanitizer report.  The harnesses
# themselves (tests/fuzz.sh, clang) are not needed; `tests/fuzz.sh
# --replay` replays the same files through them.
#   scenario-*  fleetsim run FILE
#   spot-*      fleetsim trace stats FILE (availability) and as a price trace
#   trace-*     as a request trace: arrivals = trace(FILE, format=generic)
#   values-*    its first line as --set of each key the harness uses
#   catalog-*   as a scenario's catalog_gpus and as its catalog_instances
#   models-*    one line: an llm workload's model = custom(LINE); more: its
#               scenario's models file
#   mig-*       its first line as a pool's mig and a workload's mig_profile
#   quotes-*    its first line (after any '=') as each reserved_* key of an
#               instance's pool
#   merge-*     a database merged into a new one
. "$(dirname "$0")/cli_lib.sh"
DIR="$SRCDIR/tests/data/fuzz-crashes"

# clean WHAT -- COMMAND...: exit 0 or 1, no sanitizer report, no timeout.
clean() {
    what=$1
    shift 2
    checks=$((checks + 1))
    timeout 60 "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    rc=$?
    if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
        fail "$what: exit $rc"
        head -5 "$TMP/err"
    elif grep -q "Sanitizer\|runtime error" "$TMP/err"; then
        fail "$what: sanitizer report"
        head -5 "$TMP/err"
    fi
}

# llm: an llm workload on one H100 (for models-*)
llm() {
    good | sed 's/^gpu = L4/gpu = H100-80GB/; s/^service = .*/service = llm(model=llama-3-8b, precision=bf16)\ntokens_in = const(500)\ntokens_out = const(50)/'
}

n=0
for f in "$DIR"/*; do
    b=$(basename "$f")
    case $b in
    scenario-*)
        clean "$b" -- "$FLEETSIM" run "$f" --db "$TMP/r.db" --quiet --max-events 1e6 ;;
    spot-*)
        clean "$b" -- "$FLEETSIM" trace stats "$f"
        good | sed "s|^gpu = L4|instance = aws:p3.2xlarge\npricing = spot|;
                    s|^price = 0.80|interruption = trace($f, repeat=yes)\nprice_trace = $f|" >"$TMP/spot.ini"
        clean "$b as a scenario's traces" -- "$FLEETSIM" run "$TMP/spot.ini" --db "$TMP/r.db" --quiet --max-events 1e6 ;;
    trace-*)
        good | sed "s|^arrivals = .*|arrivals = trace($f, format=generic)|" >"$TMP/trace.ini"
        clean "$b" -- "$FLEETSIM" run "$TMP/trace.ini" --db "$TMP/r.db" --quiet --max-events 1e6 ;;
    catalog-*)
        for k in catalog_gpus catalog_instances; do
            good | sed "s|^horizon = 1h|horizon = 1h\n$k = $f|" >"$TMP/catalog.ini"
            clean "$b as $k" -- "$FLEETSIM" run "$TMP/catalog.ini" --db "$TMP/r.db" --quiet --max-events 1e6
        done ;;
    values-*)
        v=$(head -n 1 "$f")
        good >"$TMP/values.ini"
        for k in scenario.timezone scenario.start scenario.horizon pool.p.count workload.w.arrivals; do
            clean "$b as $k" -- "$FLEETSIM" run "$TMP/values.ini" --db "$TMP/r.db" --quiet --max-events 1e6 --set "$k=$v"
        done ;;
    models-*)
        llm | sed "s|^horizon = 1h|horizon = 1h\nmodels = $f|" >"$TMP/models.ini"
        if [ "$(wc -l <"$f")" = 0 ]; then
            llm | sed "s|model=llama-3-8b|model=custom|" >"$TMP/models.ini"
            printf 'model = custom(%s)\n' "$(cat "$f")" >>"$TMP/models.ini"
        fi
        clean "$b" -- "$FLEETSIM" run "$TMP/models.ini" --db "$TMP/r.db" --quiet --max-events 1e6 ;;
    mig-*)
        v=$(head -n 1 "$f")
        good | sed "s|^gpu = L4|gpu = A100-80GB\nmig = 3g.40gb*2|" >"$TMP/mig.ini"
        for k in pool.p.mig workload.w.mig_profile; do
            clean "$b as $k" -- "$FLEETSIM" run "$TMP/mig.ini" --db "$TMP/r.db" --quiet --max-events 1e6 --set "$k=$v"
        done ;;
    quotes-*)
        v=$(head -n 1 "$f" | sed 's/^[^=]*=//')
        good | sed "s|^gpu = L4|instance = aws:g6.xlarge|; /^price = /d" >"$TMP/quotes.ini"
        for k in reserved_1y reserved_1y_partial reserved_1y_all reserved_3y reserved_3y_partial reserved_3y_all; do
            clean "$b as $k" -- "$FLEETSIM" run "$TMP/quotes.ini" --db "$TMP/r.db" --quiet --max-events 1e6 --set "pool.p.$k=$v"
        done ;;
    merge-*)
        rm -f "$TMP/m.db"
        clean "$b" -- "$FLEETSIM" merge "$TMP/m.db" "$f" ;;
    *) continue ;;
    esac
    n=$((n + 1))
done
expect_eq "$([ "$n" -gt 0 ] && echo some)" some "reproducers found in $DIR"
report
