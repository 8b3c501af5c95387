#!/bin/sh
# cli_layers_svg.sh -- doc/layers.svg, the picture of the layers that opens
# doc/ARCHITECTURE.md, is what doc/layers.sh draws from the sources now.
#
# A file moved to another folder, a folder added or split, or an include
# added between folders changes the picture: this test fails until `make
# layers` has redrawn it (commit the result).  It also checks, apart from
# the script, that every folder holding C sources has its box, so that a
# script which lost folders would fail too.  The sources are the files git
# tracks: outside a git checkout (a release tarball) the test is skipped.
. "$(dirname "$0")/cli_lib.sh"
SVG="$SRCDIR/doc/layers.svg"
if ! git -C "$SRCDIR" ls-files --error-unmatch doc/layers.sh >/dev/null 2>&1; then
    echo "cli_layers_svg: $SRCDIR is not a git checkout: skipped"
    exit 77
fi
checks=$((checks + 1))
[ -s "$SVG" ] || fail "doc/layers.svg is missing: run \`make layers\`"
checks=$((checks + 1))
if "$SRCDIR/doc/layers.sh" "$SRCDIR" >"$TMP/layers.svg" 2>"$TMP/err"; then
    cmp -s "$SVG" "$TMP/layers.svg" ||
        fail "doc/layers.svg is out of date with the includes of the sources: run \`make layers\` and commit it"
else
    fail "doc/layers.sh failed: $(cat "$TMP/err")"
fi
# every folder of tracked C sources (the commands' folders of sim/cli/ as one box)
git -C "$SRCDIR" ls-files '*.c' '*.h' | grep -v -e '^tests/' -e '^bench/' | sed 's|/[^/]*$||' |
    sed 's|^sim/cli/shared$|&|; t; s|^sim/cli/.*|sim/cli/COMMAND|' | sort -u >"$TMP/folders"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/folders")" -ge 8 ] || fail "only $(wc -l <"$TMP/folders") source folders found"
while read -r d; do
    expect_in "$SVG" ">$d/</text>" "doc/layers.svg has a box for $d/"
done <"$TMP/folders"
# the sum of the arrows' counts is the number of include lines between folders
# (its parts add up to the whole)
total=0
for f in $(git -C "$SRCDIR" ls-files '*.c' '*.h' | grep -v -e '^tests/' -e '^bench/'); do
    fd=$(dirname "$f"); case $fd in sim/cli/shared) ;; sim/cli/*) fd=sim/cli/COMMAND ;; esac
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$SRCDIR/$f"); do
        [ -f "$SRCDIR/$inc" ] || continue
        id=$(dirname "$inc"); case $id in sim/cli/shared) ;; sim/cli/*) id=sim/cli/COMMAND ;; esac
        [ "$fd" = "$id" ] || total=$((total + 1))
    done
done
drawn=$(sed -n 's/.*font-weight="bold" fill="#[0-9a-f]*" stroke="#fff"[^>]*>\([0-9]*\)<\/text>/\1/p' "$SVG" |
        awk '{ s += $1 } END { print s + 0 }')
expect_eq "$drawn" "$total" "the arrows' counts add up to the include lines between folders"
report
