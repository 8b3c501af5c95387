# cli_lib.sh -- shared helpers of the shell tests that drive the fleetsim
# binary.  Each check prints "FAIL ..." when it fails; `report` prints the
# tally and exits non-zero if anything failed.
set -u
: "${FLEETSIM:=$(pwd)/fleetsim}"
: "${SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
export FLEETSIM_CATALOG="${FLEETSIM_CATALOG:-$SRCDIR/models/catalog}"
checks=0
failed=0
TMP=$(mktemp -d /tmp/fleetsim-cli.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

fail() { failed=$((failed + 1)); echo "FAIL $*"; }
pass() { :; }

# expect_exit CODE DESCRIPTION -- COMMAND...: runs it, output in $TMP/out
# and $TMP/err, checks the exit status.
expect_exit() {
    local want=$1 what=$2
    shift 3
    checks=$((checks + 1))
    "$@" >"$TMP/out" 2>"$TMP/err"
    local got=$?
    if [ "$got" != "$want" ]; then
        fail "$what: exit $got, expected $want"
        sed 's/^/    stderr: /' "$TMP/err" | head -5
        return 1
    fi
    return 0
}

# expect_in FILE TEXT DESCRIPTION: FILE contains TEXT (fixed string).
expect_in() {
    checks=$((checks + 1))
    if ! grep -qF -- "$2" "$1"; then
        fail "$3: '$2' not found in $(basename "$1")"
        sed 's/^/    | /' "$1" | head -8
    fi
}

# expect_eq GOT WANT DESCRIPTION
expect_eq() {
    checks=$((checks + 1))
    [ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
}

# near GOT WANT TOL WHAT: |GOT - WANT| <= TOL (GOT not empty).
near() {   # near GOT WANT TOL WHAT
    checks=$((checks + 1))
    awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= t) }' ||
        fail "$4: got '$1', expected $2 +- $3"
}

# Counts the lines of stderr: a bad input gets exactly one message.
expect_one_line() {
    checks=$((checks + 1))
    local n
    n=$(wc -l <"$TMP/err")
    [ "$n" -eq 1 ] || { fail "$1: $n lines on stderr, expected 1"; head -5 "$TMP/err"; }
}

# A busy timeout: two queries at once (a pipeline's two sides) would
# otherwise see "database is locked" while the other, closing last,
# checkpoints the WAL away.
sql() { sqlite3 -batch -noheader -cmd ".timeout 60000" "$@"; }

# bad_run NAME FRAGMENT: $TMP/NAME.ini is refused: exit 1, one line on
# stderr containing FRAGMENT, and no database written.
bad_run() {
    name=$1
    expect_exit 1 "$name" -- "$FLEETSIM" run "$TMP/$name.ini" --db "$TMP/bad.db" --quiet
    expect_one_line "$name"
    expect_in "$TMP/err" "$2" "$name"
    checks=$((checks + 1)); [ ! -e "$TMP/bad.db" ] || fail "$name wrote a database"
}

# good: a small valid scenario (one L4 for an hour, Poisson arrivals), on
# stdout, for tests that break one thing of it.
good() {
    cat <<'INI'
[scenario]
name = good
horizon = 1h
[pool.p]
gpu = L4
count = 1
price = 0.80
[workload.w]
pools = p
arrivals = poisson(rate=0.5/s)
service = exponential(mean=1s)
INI
}

report() {
    echo "$(basename "$0" .sh): $checks checks, $failed failed"
    [ "$failed" -eq 0 ] && [ "$checks" -gt 0 ]
}
