#!/bin/sh
# check_names.sh -- the seams are closed: an implementation's name (a
# purchase option, a serving engine, a chart) appears as a string in no
# .c file but its own and its registration line.
#
# The upper layers ask a purchase option for its properties
# (models/purchase/purchase.h: commitment, interruptible, list_priced,
# roi_own_rate, label), never compare its name; so adding an option, an
# engine or a chart is its own file and one registration line.  The names
# are read from the registries themselves: each option's `.name = "..."`,
# the engine column of models/catalog/engines.csv, the charts[] table of
# plots/plot.c.  Tests, benchmarks and the docs are not scanned.
#
# KNOWN below lists the places that name one for another reason (data,
# another meaning of the word) or that wait for their owner, each with its
# reason; a new occurrence anywhere else fails.
. "$(dirname "$0")/cli_lib.sh"
cd "$SRCDIR"

# "file name": allowed, with why
KNOWN='
sim/cli/catalog/cmd_catalog.c on-demand   the catalog listing'"'"'s price column headings (a price kind of instances.csv)
sim/cli/catalog/cmd_catalog.c spot        the catalog listing'"'"'s price column headings
models/catalog/catalog_commit.c savings-plan  the kind column of commitments.csv (data)
sim/fleet/pool/pool.c spot                the pool concern of interruptions (parts[]), not the option
sim/fleet/pool/spot.c spot                the pool concern of interruptions, its own name
sim/scenario/keys.c on-demand             the documented default of pricing = (key table)
sim/cli/commit/commit_out.c utilization  a column heading of the portfolio (the use of a commitment), not the chart
models/llm/llm_bench.c vllm               published benchmark rows (data, cited)
models/llm/llm_bench.c sglang             published benchmark rows (data, cited)
models/llm/llm_bench.c trt-llm            published benchmark rows (data, cited)
models/llm/measure_vllm.c vllm            the vLLM benchmark output format, not the engine
models/llm/llm_engine.c vllm              the engine registry (engines.csv reader): the default engine
sim/cli/roi/cmd_roi.c savings-plan        the --savings-plan flag of roi (a command-line option name)
sim/cli/roi/cmd_roi.c owned               the --owned flag of roi (a command-line option name)
sim/app/summary.c utilization             the run summary column heading (a metric, not the chart)
'

options=$(sed -n 's/^ *\.name = "\([^"]*\)",.*/\1/p' models/purchase/purchase_*.c)
engines=$(tail -n +2 models/catalog/engines.csv | cut -d, -f1 | sort -u)
charts=$(sed -n '/^static const fs_chart charts\[\]/,/^};/s/^ *{"\([^"]*\)".*/\1/p' plots/plot.c)

checks=$((checks + 1))
[ "$(echo "$options" | wc -w)" -ge 4 ] && [ "$(echo "$engines" | wc -w)" -ge 3 ] &&
    [ "$(echo "$charts" | wc -w)" -ge 6 ] ||
    fail "registries not read: options '$options', engines '$engines', charts '$charts'"

# scan KIND NAME OWNFILE FILES...: every "NAME" in FILES but OWNFILE and KNOWN
scan() {
    kind=$1 name=$2 own=$3
    shift 3
    for f in $(grep -l -F "\"$name\"" "$@" 2>/dev/null); do
        [ "$f" = "$own" ] && continue
        checks=$((checks + 1))
        echo "$KNOWN" | grep -q "^$f $name " && continue
        fail "$f names the $kind '$name' ($(grep -n -F "\"$name\"" "$f" | head -1 | cut -d: -f1)): ask its table for the property instead"
    done
}

code=$(git ls-files '*.c' 2>/dev/null | grep -v '^tests/\|^bench/' ||
       find sim models traces plots -name '*.c')
for o in $options; do
    own=$(grep -l "^ *\.name = \"$o\"," models/purchase/purchase_*.c)
    scan "purchase option" "$o" "$own" $code
done
for e in $engines; do
    scan engine "$e" models/llm/llm_engine.c $code
done
# chart names are also table words (utilization, savings): looked for where
# a chart would be named, the commands, the application and plots/
upper=$(echo "$code" | grep '^sim/cli/\|^sim/app/\|^plots/')
for c in $charts; do
    scan chart "$c" plots/plot.c $upper
done
report
