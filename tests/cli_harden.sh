#!/bin/sh
# cli_harden.sh -- inputs a careless or hostile user tries (issue 20): each
# is refused with one message naming file, line and key, exit status 1,
# nothing half-written; output files are never written through a planted
# name.
. "$(dirname "$0")/cli_lib.sh"

# spot SCN-NAME TRACE COUNT: a spot pool replaying TRACE.
spot() {
    good | sed "s|^gpu = L4|instance = aws:p3.2xlarge\npricing = spot|;
                s|^price = 0.80|interruption = trace($2)|;
                s|^count = 1|count = $3|" >"$TMP/$1.ini"
}

# 1. available unbounded: 1e300 was cast to long (UB) and pushed one birth
# per instance until memory ran out; 1.5 was floored without a word.
printf 't_seconds,available\n0,0\n10,1e300\n20,0\n' >"$TMP/huge.csv"
printf 't_seconds,available\n0,0\n10,1.5\n20,0\n' >"$TMP/frac.csv"
printf 't_seconds,available\n0,1\n10,3\n5000,1\n' >"$TMP/three.csv"
for f in huge frac; do
    expect_exit 1 "trace stats $f" -- "$FLEETSIM" trace stats "$TMP/$f.csv"
    expect_one_line "trace stats $f"
    expect_in "$TMP/err" "$f.csv:3: available" "trace stats $f names file:line"
    expect_in "$TMP/err" "whole number of instances from 0 to 1000000" "$f bound said"
    spot "spot_$f" "$TMP/$f.csv" 4
    bad_run "spot_$f" "spot_$f.ini:8: pool.p.interruption: $TMP/$f.csv:3: available"
done
spot spot_over "$TMP/three.csv" 2
bad_run spot_over "$TMP/three.csv:3: available 3 is more than the pool keeps (count + spot_extra = 2)"
spot spot_fits "$TMP/three.csv" 3
expect_exit 0 "a trace within count" -- "$FLEETSIM" run "$TMP/spot_fits.ini" --db "$TMP/ok.db" --quiet
report
