#!/bin/sh
# layers.sh -- draws doc/layers.svg, the picture of the layers, from the
# include graph of the source as it is.
#
#     doc/layers.sh [SRCDIR] > doc/layers.svg      (`make layers`)
#
# Every C file the repository tracks outside tests/ and bench/ is read as
# tests/check_layers.sh reads it (its `#include "..."` lines, written from
# the top of the tree).  A box is a folder, with its file count; an arrow
# from one folder to another is labelled with how many include lines go
# that way.  Nothing is listed by hand: the folders come from the tree, so
# a folder added or split shows at once.  One exception keeps the picture
# readable: the folders of sim/cli/ other than shared/ are the commands
# (one per subcommand, never including each other), drawn as one box.
#
# Rows are the layers as the includes make them: a folder sits one row above
# the highest folder it includes (folders that include no other at the
# bottom), so every arrow points down.  An arrow that cannot (the folders
# include each other round a circle) is drawn dashed in red.  The order in a
# row follows the folders below it (each placed at the mean position of
# what it includes) to keep arrows short.  The output depends only on the
# sources: tests/cli_layers_svg.sh checks that the committed picture is
# what this script draws now.
set -eu
src=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$src"
files=$(git ls-files '*.c' '*.h' | grep -v -e '^tests/' -e '^bench/' | LC_ALL=C sort)
[ -n "$files" ] || { echo "layers.sh: no tracked C files in $src" >&2; exit 1; }

# folder PATH: the box a file belongs to
folder_of() {
    d=$(dirname "$1")
    case $d in
    sim/cli/shared | sim/cli/shared/*) echo "$d" ;;
    sim/cli/*) echo "sim/cli/COMMAND" ;;
    *) echo "$d" ;;
    esac
}

{
    for f in $files; do
        ff=$(folder_of "$f")
        echo "F $ff $f"
        for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
            [ -f "$inc" ] || continue
            echo "E $ff $(folder_of "$inc")"
        done
    done
} | LC_ALL=C awk -v ncmd="$(echo "$files" | grep '^sim/cli/[^/]*/' | grep -v '^sim/cli/shared/' |
                             sed 's|^sim/cli/\([^/]*\)/.*|\1|' | sort -u | wc -l | tr -d ' ')" '
$1 == "F" { if (!($2 in nfiles)) nodes[++nn] = $2; nfiles[$2]++; next }
$1 == "E" && $2 != $3 { k = $2 SUBSEP $3; if (!(k in cnt)) { ef[++ne] = $2; et[ne] = $3 } cnt[k]++ }
$1 == "E" && $2 == $3 { inside[$2]++ }

# depth(n): 0 without includes of other folders, else 1 + the deepest it
# includes; an edge back into the path being walked closes a circle and is
# left out (drawn as such)
function depth(n,   i, d, m) {
    if (n in dep) return dep[n]
    if (n in walking) return -1
    walking[n] = 1; m = 0
    for (i = 1; i <= ne; i++) if (ef[i] == n) {
        d = depth(et[i])
        if (d < 0) back[i] = 1
        else if (d + 1 > m) m = d + 1
    }
    delete walking[n]
    return dep[n] = m
}
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
function label(n) { return n == "sim/cli/COMMAND" ? "sim/cli/COMMAND/" : n "/" }
function sublabel(n) {
    return (n == "sim/cli/COMMAND" ? ncmd " command folders, " : "") nfiles[n] " files" \
        (n in inside ? ", " inside[n] " includes within" : "")
}
END {
    # nodes sorted by name, so the order of reading never matters
    for (i = 1; i <= nn; i++) for (j = i + 1; j <= nn; j++) if (nodes[j] < nodes[i]) { t = nodes[i]; nodes[i] = nodes[j]; nodes[j] = t }
    top = 0
    for (i = 1; i <= nn; i++) { d = depth(nodes[i]); if (d > top) top = d }
    for (i = 1; i <= ne; i++) if (!(i in back) && dep[ef[i]] <= dep[et[i]]) back[i] = 1
    CH = 7.2; BH = 44; GAP = 28; ROWH = 120; BOW = 40
    for (i = 1; i <= nn; i++) {
        n = nodes[i]; w1 = length(label(n)) * CH; w2 = length(sublabel(n)) * CH * 11 / 12
        bw[n] = (w1 > w2 ? w1 : w2) + 24
    }
    # room along the bottom for the count of each arrow that leaves
    for (e = 1; e <= ne; e++) outs[ef[e]]++
    for (i = 1; i <= nn; i++) { n = nodes[i]; if (bw[n] < outs[n] * 24 + 24) bw[n] = outs[n] * 24 + 24 }
    # rows, bottom up: row 0 by name; each higher row by the mean centre of
    # the folders it includes (ties by name)
    for (r = 0; r <= top; r++) {
        m = 0
        for (i = 1; i <= nn; i++) if (dep[nodes[i]] == r) {
            n = nodes[i]; s = 0; c = 0
            for (e = 1; e <= ne; e++) if (ef[e] == n && !(e in back)) { s += cx[et[e]]; c++ }
            key[n] = c ? s / c : 0; row[r, ++m] = n
        }
        rown[r] = m
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) {
            a = row[r, i]; b = row[r, j]
            if (key[b] < key[a] || (key[b] == key[a] && b < a)) { row[r, i] = b; row[r, j] = a }
        }
        # place left to right near the wanted centres, never overlapping
        x = 0
        for (i = 1; i <= m; i++) {
            n = row[r, i]; want = r ? key[n] - bw[n] / 2 : x
            bx[n] = want > x ? want : x; x = bx[n] + bw[n] + GAP; cx[n] = bx[n] + bw[n] / 2
        }
    }
    W = 0; MARGIN = 100 + (top > 1 ? (top - 1) * BOW * 0.75 : 0)
    lo = 1e9; for (i = 1; i <= nn; i++) if (bx[nodes[i]] < lo) lo = bx[nodes[i]]
    for (i = 1; i <= nn; i++) { n = nodes[i]; bx[n] += MARGIN - lo; cx[n] = bx[n] + bw[n] / 2 }
    for (i = 1; i <= nn; i++) { n = nodes[i]; if (bx[n] + bw[n] > W) W = bx[n] + bw[n] }
    W += 40 + (top > 1 ? (top - 1) * BOW * 0.75 : 0); H = (top + 1) * ROWH + 100
    for (i = 1; i <= nn; i++) { n = nodes[i]; by[n] = 70 + (top - dep[n]) * ROWH }

    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans Mono, monospace\" font-size=\"12\">\n", W, H, W, H
    print "<title>fleetsim: folders as layers, arrows are include lines between folders (doc/layers.sh)</title>"
    print "<defs><marker id=\"a\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#555\"/></marker>"
    print "<marker id=\"r\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#c00\"/></marker></defs>"
    print "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>"
    printf "<text x=\"20\" y=\"28\" font-size=\"15\" font-weight=\"bold\">fleetsim: the folders as layers; an arrow is the include lines from one folder into another</text>\n"
    printf "<text x=\"20\" y=\"48\" fill=\"#555\">drawn by doc/layers.sh from the sources; a folder sits one row above the highest folder it includes</text>\n"
    printf "<text x=\"20\" y=\"%d\" fill=\"#555\">a dashed red arrow: two folders include each other (a circle at folder level, not between files)</text>\n", H - 16
    for (r = 0; r <= top; r++) printf "<text x=\"20\" y=\"%d\" fill=\"#888\">layer %d</text>\n", 70 + (top - r) * ROWH + BH / 2 + 4, r
    # arrows: each leaves the bottom of its folder and enters the top of
    # the other, the ends spread along the box in the order of the other ends
    for (e = 1; e <= ne; e++) ins[et[e]]++
    for (e = 1; e <= ne; e++) {
        ko = 0; ki = 0
        for (f = 1; f <= ne; f++) {
            if (ef[f] == ef[e] && (cx[et[f]] < cx[et[e]] || (cx[et[f]] == cx[et[e]] && f < e))) ko++
            if (et[f] == et[e] && (cx[ef[f]] < cx[ef[e]] || (cx[ef[f]] == cx[ef[e]] && f < e))) ki++
        }
        x1 = bx[ef[e]] + bw[ef[e]] * (ko + 1) / (outs[ef[e]] + 1); y1 = by[ef[e]] + BH
        x2 = bx[et[e]] + bw[et[e]] * (ki + 1) / (ins[et[e]] + 1); y2 = by[et[e]]
        if (e in back) { y1 = by[ef[e]]; y2 = by[et[e]] + BH }
        col = (e in back) ? "#c00" : "#555"
        # an arrow over more than one row bows out to a side (alternating
        # by its place among the arrows of its folder) so that it passes beside
        # the folders between, not through them
        span = dep[ef[e]] - dep[et[e]]; bow = span > 1 ? (span - 1) * BOW : 0
        if (ko % 2) bow = -bow
        c1x = x1 - bow; c2x = x2 - bow; c1y = y1 + (y2 - y1) / 3; c2y = y2 - (y2 - y1) / 3
        printf "<path d=\"M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"none\" stroke=\"%s\" stroke-opacity=\"0.6\" stroke-width=\"1.2\"%s marker-end=\"url(#%s)\"/>\n", x1, y1, c1x, c1y, c2x, c2y, x2, y2, col, (e in back) ? " stroke-dasharray=\"5,3\"" : "", (e in back) ? "r" : "a"
        # the count just past the folder it leaves, beside the start of its
        # arrow, where the arrows of a folder are spread along its edge
        lx = x1; ly = (e in back) ? y1 - 14 : y1 + 14
        # drawn last, over the arrows and boxes
        labels = labels sprintf("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\" font-weight=\"bold\" fill=\"%s\" stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">%d</text>\n", lx, ly + 4, col, cnt[ef[e], et[e]])
    }
    for (i = 1; i <= nn; i++) {
        n = nodes[i]
        printf "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" rx=\"6\" fill=\"#eef3fb\" stroke=\"#3b5b92\"/>\n", bx[n], by[n], bw[n], BH
        printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\">%s</text>\n", cx[n], by[n] + 18, esc(label(n))
        printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555\">%s</text>\n", cx[n], by[n] + 35, esc(sublabel(n))
    }
    printf "%s", labels
    print "</svg>"
}'
