#!/bin/sh
# check_layers.sh -- the folders are layers, and no include or call goes
# up or round in a circle.
#
# Layers, lowest first: sim/base, sim/engine, models/ and traces/ (side by
# side: neither includes the other), sim/scenario, sim/fleet, sim/store,
# sim/app (the application: running scenarios, prices, summaries, ROI,
# the queries the commands need), sim/cli (and plots/ beside it).  A file
# may include its own layer or a lower one.  No SQL above sim/app: no file
# of sim/cli/ or plots/ includes sqlite3.h or names an sqlite3_ function.  Include cycles are found with tsort(1) over every
# "file includes file" edge of the library.
#
# Calls likewise, from the built objects of libfleetsim.a (run from the
# build directory, as `make check` does): nm(1) lists what each object
# defines and what it uses.  A file that uses a symbol another file
# defines depends on it: no such use may go up a layer, and no call (a use
# of a function: a call or its address in a table) may go round a circle
# of files (tsort again).  A registry's table naming an implementation's
# const table is data, not a call: that is how a seam registers.  With
# --graph it prints the file-level call graph ("caller callee" lines) and
# exits.  doc/ARCHITECTURE.md explains.
#
# Inside the top layer, sim/cli/ holds one folder per command (sim/cli/run/,
# sim/cli/compare/, ...) and sim/cli/shared/ for what several commands use;
# main.c and commands.h sit at sim/cli/ itself.  A command's folder
# includes and uses its own files, sim/cli/shared/ and the top's headers,
# never another command's folder; sim/cli/shared/ uses only itself; plots/
# (beside the cli, used by plot and report) never reaches into sim/cli/.
#
# Inside sim/fleet/ and models/, each folder is a family (one concern), and
# the families are ranked as well (family_rank below): a file includes and
# uses its own family or one of a lower rank, never one of its own rank or
# above, so no two families lean on each other.  Lowest first:
#   sim/fleet/  run, capacity | serve | training | pool | world
#   models/     catalog, dist | purchase, llm | service
# (families of one rank, such as run and capacity, are side by side:
# neither includes the other).  Every file of sim/fleet/ and models/ lies
# in one of these folders; a new family gets its rank here and a line in
# doc/ARCHITECTURE.md.
. "$(dirname "$0")/cli_lib.sh"
BUILDDIR=$(pwd)
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
    sim/app/*) echo 7 ;;
    sim/cli/* | plots/*) echo 8 ;;
    *) echo 9 ;;
    esac
}

# "LAYER RANK" of the family a file of sim/fleet/ or models/ is in, "-" for
# other files, "? ?" for a file of those layers outside every family
family_rank() {
    case $1 in
    sim/fleet/run/* | sim/fleet/capacity/*) echo "fleet 0" ;;
    sim/fleet/serve/*) echo "fleet 1" ;;
    sim/fleet/training/*) echo "fleet 2" ;;
    sim/fleet/pool/*) echo "fleet 3" ;;
    sim/fleet/world/*) echo "fleet 4" ;;
    models/catalog/* | models/dist/*) echo "models 0" ;;
    models/purchase/* | models/llm/*) echo "models 1" ;;
    models/service/*) echo "models 2" ;;
    sim/fleet/* | models/*) echo "? ?" ;;
    *) echo - ;;
    esac
}
# 0 when file $1 may include or use file $2 by the ranks of their families
family_may_use() {
    set -- "$1" "$2" "$(family_rank "$1")" "$(family_rank "$2")"
    [ "$3" = - ] || [ "$4" = - ] || [ "${3% *}" != "${4% *}" ] && return 0
    [ "${1%/*}" = "${2%/*}" ] && return 0
    [ "${4#* }" != "?" ] && [ "${3#* }" != "?" ] && [ "${4#* }" -lt "${3#* }" ]
}

# The folder of sim/cli a path is in: a command's (run, compare, ...),
# shared, top (sim/cli/main.c, commands.h), plots; "-" for the rest.
cli_folder() {
    case $1 in
    sim/cli/*/*) set -- "${1#sim/cli/}"; echo "${1%%/*}" ;;
    sim/cli/*) echo top ;;
    plots/*) echo plots ;;
    *) echo - ;;
    esac
}
# 0 when a file of folder $1 may include or use one of folder $2
cli_may_use() {
    [ "$1" = "$2" ] || [ "$2" = shared ] || [ "$2" = top ] || [ "$2" = plots ] || [ "$2" = - ] ||
        [ "$1" = top ] || [ "$1" = - ]
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
        checks=$((checks + 1))
        family_may_use "$f" "$inc" ||
            fail "$f (family $(dirname "$f"), rank $(family_rank "$f")) includes $inc (family $(dirname "$inc"), rank $(family_rank "$inc")): a family includes only its own folder or a lower-ranked family's"
        case $f in plots/*) case $inc in sim/cli/*)
            checks=$((checks + 1))
            fail "$f (plots/) includes $inc: plots/ sits beside the cli and reaches the application through sim/app/, never sim/cli/"
        esac ;; esac
        case $f in sim/cli/*) case $inc in sim/cli/*)
            checks=$((checks + 1))
            ff=$(cli_folder "$f") fi=$(cli_folder "$inc")
            cli_may_use "$ff" "$fi" ||
                fail "$f (sim/cli folder $ff) includes $inc, of the folder of another command ($fi): move what both use into sim/cli/shared/"
        esac ;; esac
    done
done
# no SQL above the application layer: the commands and the charts ask
# sim/store/ or sim/app/ by name, never SQLite itself
for f in $(git ls-files 'sim/cli/*.[ch]' 'plots/*.[ch]' 2>/dev/null ||
           find sim/cli plots -name '*.[ch]' 2>/dev/null); do
    checks=$((checks + 1))
    if grep -n -e '#include <sqlite3\.h>' -e 'sqlite3_' "$f" >"$TMP/sql" 2>/dev/null; then
        fail "$f uses SQLite directly (line $(head -1 "$TMP/sql" | cut -d: -f1)): put the query behind a named function of sim/store/ or sim/app/"
    fi
done
# every file of sim/fleet/ and models/ is in a ranked family's folder
for f in $(git ls-files 'sim/fleet/*.[ch]' 'models/*.[ch]' 2>/dev/null ||
           find sim/fleet models -name '*.[ch]' 2>/dev/null); do
    checks=$((checks + 1))
    [ "$(family_rank "$f")" = "? ?" ] &&
        fail "$f is in no family of $(echo "$f" | cut -d/ -f1-2 | sed 's#^models/.*#models#'): put it in one (tests/check_layers.sh family_rank, doc/ARCHITECTURE.md)"
done
checks=$((checks + 1))
# a header's own .c including it makes no cycle; tsort reports real loops
if ! tsort "$edges" >/dev/null 2>"$TMP/loops"; then
    fail "include cycle:"
    sed 's/^/    /' "$TMP/loops" | head -20
fi

# ---- calls: the objects of libfleetsim.a ---------------------------------

NM=${NM:-nm}
# gcc-nm reads the objects of an LTO build (GIMPLE) as well as plain ones
[ "$NM" = nm ] && command -v gcc-nm >/dev/null 2>&1 && NM=gcc-nm
sources=$(sed -n '/^libfleetsim_a_SOURCES/,/^[[:space:]]*$/p' Makefile.am |
          tr ' \t\\' '\n\n\n' | grep '\.c$')
syms="$TMP/syms"
: >"$syms"
checks=$((checks + 1))
nobj=0
for s in $sources; do
    o="$BUILDDIR/${s%.c}.o"
    if [ ! -f "$o" ]; then
        fail "no object $o for $s: build first (make), then run from the build directory"
        break
    fi
    nobj=$((nobj + 1))
    # "D symbol file kind" for each definition, "U symbol file" for each use
    $NM -g --defined-only "$o" | awk -v f="$s" 'NF == 3 { print "D", $3, f, $2 }' >>"$syms"
    $NM -u "$o" | awk -v f="$s" '{ print "U", $NF, f }' >>"$syms"
done
[ "$nobj" -gt 100 ] || fail "only $nobj objects of libfleetsim.a read"

# "user definer symbol kind" for each use of a symbol another file defines
awk '$1 == "D" { def[$2] = $3; kind[$2] = $4; next }
     { use[++n] = $3 " " $2 }
     END { for (i = 1; i <= n; i++) { split(use[i], u, " ")
             if ((u[2] in def) && def[u[2]] != u[1])
                 print u[1], def[u[2]], u[2], kind[u[2]] } }' "$syms" |
    sort -u >"$TMP/uses"
# functions (T, W: calls, or a function's address in a table) make edges
awk '$4 == "T" || $4 == "W" { print $1, $2 }' "$TMP/uses" | sort -u >"$TMP/calls"
if [ "${1:-}" = --graph ]; then
    cat "$TMP/calls"
    exit 0
fi
ncalls=$(wc -l <"$TMP/calls")
checks=$((checks + 1))
[ "$ncalls" -gt 300 ] || fail "only $ncalls calls between files found (nm: $NM)"

# every use, functions and data, stays in its layer or goes down (rank()
# above, in awk: one process, however many uses)
awk 'function rank(f) {
         if (f ~ /^sim\/base\//) return 0
         if (f ~ /^sim\/engine\//) return 1
         if (f ~ /^models\//) return 2
         if (f ~ /^traces\//) return 3
         if (f ~ /^sim\/scenario\//) return 4
         if (f ~ /^sim\/fleet\//) return 5
         if (f ~ /^sim\/store\//) return 6
         if (f ~ /^sim\/app\//) return 7
         if (f ~ /^(sim\/cli|plots)\//) return 8
         return 9 }
     { ru = rank($1); rd = rank($2)
       if (rd > ru || (ru == 2 && rd == 3)) print $1, $3, $2 }' "$TMP/uses" >"$TMP/up"
checks=$((checks + $(wc -l <"$TMP/uses")))
while read -r user sym definer; do
    fail "$user (layer $(dirname "$user")) uses $sym of $definer, a higher layer"
done <"$TMP/up"

# and inside sim/fleet/ and models/, by the ranks of their families
# (family_rank above, in awk)
awk 'function fam(f) {
         if (f ~ /^sim\/fleet\/(run|capacity)\//) return "fleet 0"
         if (f ~ /^sim\/fleet\/serve\//) return "fleet 1"
         if (f ~ /^sim\/fleet\/training\//) return "fleet 2"
         if (f ~ /^sim\/fleet\/pool\//) return "fleet 3"
         if (f ~ /^sim\/fleet\/world\//) return "fleet 4"
         if (f ~ /^models\/(catalog|dist)\//) return "models 0"
         if (f ~ /^models\/(purchase|llm)\//) return "models 1"
         if (f ~ /^models\/service\//) return "models 2"
         if (f ~ /^(sim\/fleet|models)\//) return "? ?"
         return "-" }
     function dir(f) { sub(/\/[^\/]*$/, "", f); return f }
     { fu = fam($1); fd = fam($2)
       if (fu == "-" || fd == "-" || dir($1) == dir($2)) next
       split(fu, u, " "); split(fd, d, " ")
       if (u[1] != d[1]) next
       if (u[2] == "?" || d[2] == "?" || d[2] + 0 >= u[2] + 0)
           print $1, $3, $2, fu, fd }' "$TMP/uses" >"$TMP/families"
checks=$((checks + 1))
while read -r user sym definer fu ru fd rd; do
    fail "$user (family $(dirname "$user"), rank $ru) uses $sym of $definer (family $(dirname "$definer"), rank $rd): a family uses only its own folder or a lower-ranked family's"
done <"$TMP/families"

# and inside the top layer, by sim/cli's folders (cli_folder above)
awk 'function folder(f,   r) {
         if (f ~ /^sim\/cli\/[^\/]+\//) { r = substr(f, 9); return substr(r, 1, index(r, "/") - 1) }
         if (f ~ /^sim\/cli\//) return "top"
         if (f ~ /^plots\//) return "plots"
         return "-" }
     { fu = folder($1); fd = folder($2)
       if (fu == "plots" && fd != "plots" && fd != "-")
           print $1, $3, $2, fu, fd
       else if (!(fu == fd || fd == "shared" || fd == "top" || fd == "plots" || fd == "-" ||
             fu == "top" || fu == "-"))
           print $1, $3, $2, fu, fd }' "$TMP/uses" >"$TMP/across"
checks=$((checks + 1))
while read -r user sym definer fu fd; do
    fail "$user (sim/cli folder $fu) uses $sym of $definer, the folder of another command ($fd): move it into sim/cli/shared/"
done <"$TMP/across"
# the folders are there and seen: every command's, and shared
nfolders=$(printf '%s\n' $sources | sed -n 's#^sim/cli/\([^/]*\)/.*#\1#p' | sort -u | wc -l)
checks=$((checks + 1))
[ "$nfolders" -ge 10 ] && printf '%s\n' $sources | grep -q '^sim/cli/shared/' ||
    fail "only $nfolders folders of sim/cli/ among the library's sources, or no sim/cli/shared/"
# at sim/cli/ itself only main.c and commands.h: a file there would be
# "top", which every folder may use, and so slip past the check above
for f in $(printf '%s\n' $sources; git ls-files 'sim/cli/*.h' 2>/dev/null); do
    case $f in sim/cli/*/*) continue ;; sim/cli/commands.h | sim/cli/main.c) continue ;; sim/cli/*) ;; *) continue ;; esac
    checks=$((checks + 1))
    fail "$f is at sim/cli/ itself: put it in its command's folder, sim/cli/NAME/, or in sim/cli/shared/"
done

checks=$((checks + 1))
if ! tsort "$TMP/calls" >/dev/null 2>"$TMP/call_loops"; then
    fail "call circle between files (each calls the next; tests/check_layers.sh --graph prints every call):"
    sed -e 's/^tsort: .*: input contains a loop:$/  circle:/' \
        -e 's/^tsort: /    /' "$TMP/call_loops" | head -40
fi
report
