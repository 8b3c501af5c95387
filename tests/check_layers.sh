#!/bin/sh
# check_layers.sh -- the folders are layers, and no include goes up or
# round in a circle.
#
# Layers, lowest first: sim/base, sim/engine, models/ and traces/ (side by
# side: neither includes the other), sim/scenario, sim/fleet, sim/store,
# sim/cli (and plots/ beside it).  A file may include its own layer or a
# lower one.  Include cycles are found with tsort(1) over every
# "file includes file" edge of the library.  doc/ARCHITECTURE.md explains.
. "$(dirname "$0")/cli_lib.sh"
cd "$SRCDIR"

rank() {
    case $1 in
    sim/base/*) echo 0 ;;
    sim/engine/*) echo 1 ;;
    models/*) echo 2 ;;
    traces/*) echo 3 ;;
    sim/scenario/*) echo 4 ;;
    sim/fleet/*) echo 5 ;;
    sim/store/*) echo 6 ;;
    sim/cli/* | plots/*) echo 7 ;;
    *) echo 9 ;;
    esac
}

edges="$TMP/edges"
: >"$edges"
for f in $(git ls-files 'sim/*.[ch]' 'models/*.[ch]' 'traces/*.[ch]' 'plots/*.[ch]' 2>/dev/null ||
           find sim models traces plots -name '*.[ch]' 2>/dev/null); do
    rf=$(rank "$f")
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        [ -f "$inc" ] || { checks=$((checks + 1)); fail "$f includes '$inc', which is not a path from the top of the tree"; continue; }
        echo "$f $inc" >>"$edges"
        ri=$(rank "$inc")
        checks=$((checks + 1))
        # models (2) and traces (3) are side by side: neither includes the other
        if [ "$ri" -gt "$rf" ] || { [ "$rf" = 2 ] && [ "$ri" = 3 ]; }; then
            fail "$f (layer $(dirname "$f")) includes $inc, a higher layer"
        fi
    done
done
checks=$((checks + 1))
# a header's own .c including it makes no cycle; tsort reports real loops
if ! tsort "$edges" >/dev/null 2>"$TMP/loops"; then
    fail "include cycle:"
    sed 's/^/    /' "$TMP/loops" | head -20
fi
report
