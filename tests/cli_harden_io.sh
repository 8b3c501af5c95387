#!/bin/sh
# cli_harden_io.sh -- faults and nonsense of issue 26 around files,
# processes and bounds: database readers given a FIFO, a device or a
# directory; a database whose schema version was lowered by hand; rate
# quotes beyond any price; empty MIG terms; plan and sweep killed; an
# overloaded queue's memory.  Each bad input is refused with one message
# naming it, exit status 1 (2 for usage), and nothing written.
. "$(dirname "$0")/cli_lib.sh"

good >"$TMP/good.ini"
"$FLEETSIM" run "$TMP/good.ini" --db "$TMP/r.db" --quiet ||
    fail "the good scenario does not run"
runs_in() { sql "$1" "SELECT count(*) FROM run"; }

# 7. Database readers refuse what is not a regular file by name: a FIFO
# blocked SQLite's open for a writer that never came (timeout: a
# regression fails instead of hanging), /dev/zero read as "empty".
mkfifo "$TMP/f.db"
mkdir "$TMP/dir.db"
for target in f.db dir.db zero; do
    db=$TMP/$target
    [ "$target" = zero ] && db=/dev/zero
    kind="is a directory, not a results database"
    [ "$target" = zero ] && kind="not a regular file (a character device)"
    [ "$target" = f.db ] && kind="not a regular file (a FIFO)"
    for cmd in "merge $TMP/r.db $db" "merge $TMP/new.db $db" "import $db --db $TMP/r.db" \
               "runs --db $db" "run $TMP/good.ini --quiet --db $db" "compare 1 2 --db $db" \
               "report 1 --db $db --out $TMP/x.html" "roi 1 --db $db" "rm 1 --db $db" \
               "export 1 --format csv --out $TMP/x.csv --db $db" \
               "plot 1 --chart monthly-cost --out $TMP/x.png --db $db"; do
        expect_exit 1 "$cmd" -- timeout 60 $FLEETSIM $cmd
        expect_one_line "$cmd"
        expect_in "$TMP/err" "$db: $kind" "$cmd names the file"
    done
done
checks=$((checks + 1))
[ ! -e "$TMP/new.db" ] && [ ! -e "$TMP/x.html" ] && [ ! -e "$TMP/x.csv" ] &&
    [ ! -e "$TMP/x.png" ] || fail "a refused reader wrote a file"
expect_eq "$(runs_in "$TMP/r.db")" 1 "runs after refused merges"

# 12. A database whose user_version was lowered by hand: its tables are
# a later version's, so a migration fails.  The message names the part and
# the cause, never our temporary copy or SQLite's words.
cp "$TMP/r.db" "$TMP/low.db"
sql "$TMP/low.db" "PRAGMA user_version = 3" >/dev/null
TMPDIR=$TMP expect_exit 1 "merge of a lowered user_version" -- \
    "$FLEETSIM" merge "$TMP/m.db" "$TMP/low.db"
expect_one_line "merge of a lowered user_version"
expect_in "$TMP/err" "$TMP/low.db: cannot migrate it: its schema version 3 does not match its tables" \
    "lowered user_version said"
checks=$((checks + 1))
grep -q "fleetsim-merge-\|duplicate column" "$TMP/err" && fail "temporary path or SQL error in the message"
checks=$((checks + 1))
[ ! -e "$TMP/m.db" ] || fail "merge of a lowered user_version wrote the target"
checks=$((checks + 1))
[ -z "$(ls "$TMP" | grep fleetsim-merge-)" ] || fail "merge left its temporary copy"

report
