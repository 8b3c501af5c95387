#!/bin/sh
# fuzz.sh -- build the libFuzzer harnesses and fuzz every reader: the
# scenario parser (scenario), request and jobs traces (trace), spot
# availability/preemption/price traces and empirical() lifetimes (spot),
# the catalog CSVs (catalog), and --set/--vary values with windows and
# time zones (values).
#
#   tests/fuzz.sh [SECONDS] [HARNESS|all]          fuzz each for SECONDS (600)
#   tests/fuzz.sh --replay                         run the seeds and the saved
#                                                  reproducers once, no fuzzing
#
# Needs clang with libFuzzer (Debian: clang and libclang-rt-14-dev or the
# matching version).  Everything is built apart, in build-fuzz/ (override
# with FUZZ_BUILD=DIR), with -fsanitize=fuzzer,address,undefined: the
# autotools build is not touched.  Seeds come from scenarios/, tests/data/
# and the head of each sample trace; the corpus grows in build-fuzz/.  A
# crash, sanitizer report, leak, timeout (10 s) or memory blow-up (2 GB) is
# written to build-fuzz/artifacts/ and the script exits non-zero: save the
# input under tests/data/fuzz-crashes/ with a test that pins the fix.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
OUT=${FUZZ_BUILD:-$SRC/build-fuzz}
CC=${FUZZ_CC:-clang}
seconds=600
which=all
replay=0
for a in "$@"; do
    case $a in
    --replay) replay=1 ;;
    scenario|trace|spot|catalog|values|all) which=$a ;;
    *[!0-9]*|'') echo "usage: tests/fuzz.sh [SECONDS] [scenario|trace|spot|catalog|values|all] | --replay" >&2; exit 2 ;;
    *) seconds=$a ;;
    esac
done
command -v "$CC" >/dev/null 2>&1 || { echo "fuzz.sh: $CC not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }

mkdir -p "$OUT/obj" "$OUT/artifacts"
CFLAGS="-std=c11 -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
 -D_GNU_SOURCE -I$SRC -DFS_SRCDIR=\"$SRC\" -DFS_SRC_CATALOG_DIR=\"$SRC/models/catalog\"
 $(pkg-config --cflags gsl sqlite3)"
LIBS="$(pkg-config --libs gsl sqlite3) -lcsv -linih -lm"

# The schema snapshot the build makes (Makefile.am): its generator, run.
snap="$OUT/store_snapshot.c"
if [ ! -f "$snap" ] || [ "$SRC/sim/store/store_migrations.c" -nt "$snap" ]; then
    # shellcheck disable=SC2086
    cc -std=c11 -D_GNU_SOURCE -I"$SRC" $(pkg-config --cflags sqlite3) \
        "$SRC/sim/store/schema_snapshot_gen.c" "$SRC/sim/store/store_migrations.c" \
        $(pkg-config --libs sqlite3) -o "$OUT/schema_snapshot_gen"
    "$OUT/schema_snapshot_gen" >"$snap.tmp" && mv "$snap.tmp" "$snap"
fi

# The library: every source but main and the build's own programs and
# products (*_gen.c, store_snapshot.c: made above), rebuilt when newer
# than its object (sim/cli's commands sit one folder deeper, in
# sim/cli/COMMAND/, sim/fleet's and models' families in their folders).
objs=""
for c in "$SRC"/sim/*/*.c "$SRC"/sim/*/*/*.c "$SRC"/models/*/*.c "$SRC"/traces/*.c "$SRC"/plots/*.c "$snap"; do
    [ -f "$c" ] || continue
    case $(basename "$c") in main.c|*_gen.c) continue ;; esac
    [ "$c" = "$SRC/sim/store/store_snapshot.c" ] && continue
    o="$OUT/obj/$(echo "${c#"$SRC"/}" | tr / _ | sed 's/\.c$/.o/; s/^_//')"
    if [ ! -f "$o" ] || [ "$c" -nt "$o" ] || [ -n "$(find "$SRC/sim" "$SRC/models" "$SRC/traces" "$SRC/plots" -name '*.h' -newer "$o" 2>/dev/null | head -1)" ]; then
        # shellcheck disable=SC2086
        $CC $CFLAGS -c "$c" -o "$o"
    fi
    objs="$objs $o"
done
build() {
    # shellcheck disable=SC2086
    $CC $CFLAGS -fsanitize=fuzzer "$SRC/tests/fuzz_$1.c" $objs $LIBS -o "$OUT/fuzz_$1"
}

# Seeds: small real inputs of each kind.
seed() {
    mkdir -p "$OUT/seeds_$1"
    case $1 in
    scenario)
        cp "$SRC"/scenarios/*.ini "$OUT/seeds_scenario/"
        [ -d "$SRC/tests/data/fuzz-seeds" ] && cp "$SRC"/tests/data/fuzz-seeds/*.ini "$OUT/seeds_scenario/" 2>/dev/null || : ;;
    trace)
        cp "$SRC"/tests/data/*.csv "$OUT/seeds_trace/"
        for t in "$SRC"/traces/sample/*.csv; do
            head -n 40 "$t" >"$OUT/seeds_trace/head_$(basename "$t")"
        done ;;
    spot)
        for t in "$SRC"/traces/sample/spot/*.csv; do
            head -n 60 "$t" >"$OUT/seeds_spot/head_$(basename "$t")"
        done
        cp "$SRC"/tests/data/fuzz-seeds/spot-*.csv "$OUT/seeds_spot/" ;;
    catalog)
        head -n 20 "$SRC/models/catalog/gpus.csv" >"$OUT/seeds_catalog/gpus.csv"
        head -n 20 "$SRC/models/catalog/instances.csv" >"$OUT/seeds_catalog/instances.csv" ;;
    values)
        cp "$SRC"/tests/data/fuzz-seeds/values-*.txt "$OUT/seeds_values/" ;;
    esac
    [ -d "$SRC/tests/data/fuzz-crashes" ] && find "$SRC/tests/data/fuzz-crashes" -name "$1-*" -type f -exec cp {} "$OUT/seeds_$1/" \; || :
}

status=0
for h in scenario trace spot catalog values; do
    [ "$which" = all ] || [ "$which" = "$h" ] || continue
    build "$h"
    seed "$h"
    mkdir -p "$OUT/corpus_$h"
    cd "$OUT"
    if [ "$replay" = 1 ]; then
        echo "fuzz.sh: replaying the $h seeds and reproducers"
        "./fuzz_$h" -runs=0 -timeout=10 -rss_limit_mb=2048 "seeds_$h" || status=1
    else
        echo "fuzz.sh: fuzzing the $h readers for ${seconds}s"
        "./fuzz_$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
            -max_len=65536 -print_final_stats=1 \
            -artifact_prefix="$OUT/artifacts/$h-" "corpus_$h" "seeds_$h" || status=1
    fi
    cd "$SRC"
done
[ "$status" = 0 ] && echo "fuzz.sh: no crash, hang or leak" || echo "fuzz.sh: found a problem: see $OUT/artifacts/" >&2
exit $status
