#!/bin/sh
# cli_golden.sh -- same scenario, same seed, same numbers, across changes to
# the code.  Every results table of each golden scenario (the files in
# scenarios/ and a few in tests/golden/) is dumped with every REAL at full
# precision (sqlite3's quote mode prints 20 significant digits, enough to
# round-trip a double) and hashed; tests/golden/expected.txt holds the hashes
# taken before a change.  A refactor must leave them all unchanged; a change
# that is meant to move numbers regenerates the file with
#     tests/cli_golden.sh --update
# and says in its commit which figures changed and why.
. "$(dirname "$0")/cli_lib.sh"
EXPECTED="$SRCDIR/tests/golden/expected.txt"
update=0
[ "${1:-}" = "--update" ] && update=1

# The tables and the order that makes their rows deterministic; run-identity
# columns that hold wall-clock times or paths are left out.
dump_tables() {
    db=$1
    for q in \
        "run|SELECT name, seed, replication FROM run ORDER BY run_id" \
        "cost_monthly|SELECT * FROM cost_monthly ORDER BY run_id, month, pool" \
        "latency|SELECT * FROM latency ORDER BY run_id, workload" \
        "utilization|SELECT * FROM utilization ORDER BY run_id, pool, t_s" \
        "job|SELECT * FROM job ORDER BY run_id, workload, job_id" \
        "run_summary|SELECT * FROM run_summary ORDER BY run_id"; do
        table=${q%%|*}
        sqlite3 -batch "$db" ".mode quote" "${q#*|}" >"$TMP/$table.dump" 2>/dev/null || : >"$TMP/$table.dump"
        echo "$table rows=$(wc -l <"$TMP/$table.dump") sha256=$(sha256sum <"$TMP/$table.dump" | cut -c1-64)"
    done
}

out="$TMP/got.txt"
: >"$out"
for ini in "$SRCDIR"/scenarios/*.ini "$SRCDIR"/tests/golden/*.ini; do
    [ -f "$ini" ] || continue
    rel=${ini#"$SRCDIR"/}
    db="$TMP/$(echo "$rel" | tr '/.' '__').db"
    # A scenario too big for the suite says how to shrink it: its
    # "; test-set: SECTION.KEY=VALUE" comment lines become --set options.
    set --
    for s in $(sed -n 's/^; test-set: //p' "$ini"); do set -- "$@" --set "$s"; done
    (cd "$SRCDIR" && "$FLEETSIM" run "$rel" --db "$db" --quiet "$@" >/dev/null 2>"$TMP/err") ||
        { fail "$rel: run failed"; sed 's/^/    /' "$TMP/err" | head -3; continue; }
    dump_tables "$db" | sed "s#^#$rel #" >>"$out"
done

if [ "$update" = 1 ]; then
    cp "$out" "$EXPECTED"
    echo "wrote $EXPECTED"
    exit 0
fi
checks=$((checks + 1))
if ! diff -u "$EXPECTED" "$out" >"$TMP/diff"; then
    fail "results differ from tests/golden/expected.txt (same scenario and seed must give the same numbers)"
    sed 's/^/    /' "$TMP/diff" | head -40
fi
report
