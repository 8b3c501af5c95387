#!/bin/sh
# cli_keys_doc.sh -- doc/scenario-keys.md is the key tables, as they are now.
#
# The page is generated (doc/keys-md.sh, `make keys-doc`) from the tables
# the parser reads, through `fleetsim help keys` and `help scenario`.  Here
# it must be exactly what the generator writes now (a key added, renamed,
# re-described or re-defaulted in a table without `make keys-doc` fails),
# and every key of the tables must have its row in its section, with its
# type and default, so that a generator that dropped rows fails too.
. "$(dirname "$0")/cli_lib.sh"
PAGE="$SRCDIR/doc/scenario-keys.md"

checks=$((checks + 1))
[ -s "$PAGE" ] || fail "doc/scenario-keys.md is missing: run \`make keys-doc\`"
checks=$((checks + 1))
if "$SRCDIR/doc/keys-md.sh" "$FLEETSIM" "$TMP/keys.md" 2>"$TMP/err"; then
    diff -u "$PAGE" "$TMP/keys.md" >"$TMP/diff" ||
        { fail "doc/scenario-keys.md is out of date with the key tables: run \`make keys-doc\`"; head -20 "$TMP/diff"; }
else
    fail "doc/keys-md.sh failed: $(cat "$TMP/err")"
fi

# every key, in its own section (## [section] up to the next ## heading;
# a pool's purchase-option keys sit in ### subsections of [pool.NAME])
expect_exit 0 "help keys" -- "$FLEETSIM" help keys && cp "$TMP/out" "$TMP/keys"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/keys")" -ge 40 ] || fail "help keys: only $(wc -l <"$TMP/keys") keys"
n=0
while IFS="$(printf '\t')" read -r id type def help; do
    sec=${id%%.*} key=${id#*.}
    case $sec in scenario) head="## \`[scenario]\`" ;; *) head="## \`[$sec.NAME]\`" ;; esac
    HEAD=$head awk '$0 == ENVIRON["HEAD"] { on = 1; next } on && /^## / { exit } on' "$PAGE" >"$TMP/sec"
    checks=$((checks + 1))
    row=$(grep -F "| \`$key\` | " "$TMP/sec" | head -1)
    if [ -z "$row" ]; then
        fail "doc/scenario-keys.md: $id has no row under $head"
        continue
    fi
    n=$((n + 1))
    # the row holds the table's default (cells escape | * _ and <)
    want=$(printf '%s' "$def" | sed 's/[|*_]/\\&/g; s/</\&lt;/g')
    checks=$((checks + 1))
    case $row in *" | $want | "*) ;; *) fail "doc/scenario-keys.md: $id's row lacks its default '$def': $row" ;; esac
done <"$TMP/keys"
expect_eq "$n" "$(wc -l <"$TMP/keys" | tr -d ' ')" "every key of help keys has its row"
# and no row names a key the tables do not have
grep -o '^| `[a-z_0-9]*` |' "$PAGE" | sed 's/^| `\(.*\)` |$/\1/' | sort >"$TMP/rows"
cut -f1 "$TMP/keys" | sed 's/^[^.]*\.//' | sort >"$TMP/names"
checks=$((checks + 1))
extra=$(comm -23 "$TMP/rows" "$TMP/names")
[ -z "$extra" ] || fail "doc/scenario-keys.md lists keys the tables do not have: $extra"
report
