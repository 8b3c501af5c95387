#!/bin/sh
# man-update.sh -- rewrites the generated parts of the man page.
#
#     doc/man-update.sh FLEETSIM IN OUT
#
# copies IN to OUT, replacing what lies between each line
#     .\" BEGIN GENERATED TOPIC
# and the next
#     .\" END GENERATED TOPIC
# with the output of `FLEETSIM help --man TOPIC` (TOPIC: keys, columns),
# the listings generated from the tables in the source.  `make man` runs it
# on doc/fleetsim.1; tests/cli_docs.sh runs it into a scratch file and
# fails if the page differs.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 FLEETSIM IN OUT" >&2; exit 2; }
fleetsim=$1 in=$2 out=$3
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
awk -v fleetsim="$fleetsim" '
    /^\.\\" BEGIN GENERATED / {
        print
        topic = $4
        cmd = "\"" fleetsim "\" help --man " topic
        n = 0
        while ((cmd | getline line) > 0) { print line; n++ }
        if (close(cmd) != 0 || n == 0) {
            print "man-update.sh: `" cmd "` failed" > "/dev/stderr"
            exit 1
        }
        skipping = 1
        next
    }
    /^\.\\" END GENERATED / { skipping = 0 }
    !skipping { print }
    END { if (skipping) { print "man-update.sh: no END GENERATED line" > "/dev/stderr"; exit 1 } }
' "$in" >"$tmp"
mv "$tmp" "$out"
trap - EXIT
