#!/bin/sh
# cli_mutate.sh -- a fixed sample of the mutated-scenario run
# (tests/mutate_scenarios.py, issue 26): 100 mutants of the LLM, MIG and
# plan scenarios, drawn with seed 1, each one refused with one message
# naming file:line:key (or the option) and nothing stored, or run soundly;
# never a signal, a sanitizer report, a status other than 0/1/2, a hang or
# accepted nonsense (nan, inf, negative, empty, a typo'd name).  Each
# mutant simulates at most 10 minutes (under a second of CPU); the
# timeout of 120 s per mutant only fires on a genuine hang.
. "${SRCDIR:-$(dirname "$0")/..}/tests/cli_lib.sh"
cd "$TMP" || exit 1

expect_exit 0 "100 mutants" -- python3 "$SRCDIR/tests/mutate_scenarios.py" \
    --fleetsim "$FLEETSIM" --sample 100 --seed 1 --timeout 120 --strict
cat "$TMP/out"
expect_in "$TMP/out" "mutants: 100;" "all 100 ran"
# most mutants are nonsense: a sample that refused none would test nothing
refused=$(sed -n 's/.*refused \([0-9]*\).*/\1/p' "$TMP/out")
checks=$((checks + 1))
[ "${refused:-0}" -ge 50 ] || fail "only ${refused:-0} of 100 mutants refused"
report
