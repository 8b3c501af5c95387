#!/bin/sh
# cli_worked_case.sh -- doc/worked-case.md cannot drift from the code:
# every fenced block of the page that begins "$ fleetsim ..." is run again
# (in the source tree, its database under $TMP), in the page's order, and
# each line the block prints (but "...", which marks lines left out) must
# be a line of what the command prints now.  Then the portfolio's cost
# lines add up, and the page's sums are the printed figures':
# - commit: reservations + savings plans + on demand = expected total
#   (each printed to 4 decimals), all on demand - expected total = the
#   saving, p10 <= p50 <= p90, the upfront = count x the catalog's
#   published 3-year all-upfront price of a p5.48xlarge;
# - owned: capex + power + colocation + maintenance = the day the page
#   gives ($1,632.94), and its 730-hour month; the reservation's day x
#   26,280 / 24 = the 4 reservations' upfront (to the cent of a day).
. "$(dirname "$0")/cli_lib.sh"
DOC="$SRCDIR/doc/worked-case.md"
DB="$TMP/case10.db"

# The blocks: command line, then the printed lines, one file each.
awk -v dir="$TMP" '
    /^```/ { if (inblock) { inblock = 0; close(f) } else { n++; inblock = 1; first = 1 } ; next }
    inblock && first { first = 0; if ($0 !~ /^\$ fleetsim /) { inblock = 0; next }
                       f = sprintf("%s/block%02d", dir, n); print > (f ".cmd"); close(f ".cmd"); f = f ".out"; printf "" > f; next }
    inblock { print >> f }
' "$DOC"
nblocks=0
for cmd in "$TMP"/block*.cmd; do
    [ -f "$cmd" ] || continue
    nblocks=$((nblocks + 1))
    b=${cmd%.cmd}
    line=$(sed 's/^\$ fleetsim //; s#case10\.db#'"$DB"'#g' "$cmd")
    # shellcheck disable=SC2086
    expect_exit 0 "$(cat "$cmd")" -- sh -c "cd '$SRCDIR' && '$FLEETSIM' $line"
    cp "$TMP/out" "$b.got"
    while IFS= read -r want; do
        [ "$want" = "..." ] && continue
        [ -z "$want" ] && continue
        checks=$((checks + 1))
        grep -Fxq -- "$want" "$b.got" || fail "$(basename "$b"): the page prints a line the command no longer prints: '$want'"
    done <"$b.out"
done
expect_eq "$nblocks" "4" "the page's four command blocks (run, forecast, commit, owned vs reserved)"

# commit's cost lines add up
commit=$(ls "$TMP"/block*.got | sed -n 3p)
val() { awk -v k="$1" '$1 == k { print $2 }' "$commit"; }
near "$(awk -v a="$(val reservations)" -v b="$(val savings_plans)" -v c="$(val on_demand)" 'BEGIN { printf "%.4f", a + b + c }')" \
    "$(val expected_total)" 2e-4 "reservations + savings plans + on demand = the expected total"
near "$(awk -v a="$(val all_on_demand)" -v b="$(val expected_total)" 'BEGIN { printf "%.4f", a - b }')" \
    "$(val saving_vs_on_demand)" 2e-4 "all on demand - expected total = the saving"
expect_eq "$(awk -v a="$(val p10)" -v b="$(val p50)" -v c="$(val p90)" 'BEGIN { print (a <= b && b <= c) }')" 1 "p10 <= p50 <= p90"
up=$(awk -F, '$1 == "aws" && $2 == "p5.48xlarge" && $3 == "3y" && $4 == "all" { print $6 }' "$SRCDIR/models/catalog/commitments.csv")
row=$(awk '$1 == "reserved" && $3 == "3y" && $4 == "all" { print $5, $7 }' "$commit")
near "$(echo "$row" | awk -v u="$up" '{ printf "%.2f", $1 * u }')" "$(echo "$row" | awk '{ print $2 }')" 0.01 "upfront: count x the published all-upfront price"
expect_eq "${row%% *}" "4" "the portfolio: 4 three-year reservations"

# owned versus reserved: the page's sums from the printed lines
ovr=$(ls "$TMP"/block*.got | sed -n 4p)
cost() { awk -v p="$1" -v k="$2" '$1 ~ /^2026-/ && $2 == p && $3 == k { gsub(/[$,]/, "", $NF); print $NF }' "$ovr"; }
day=$(awk -v a="$(cost owned owned)" -v b="$(cost owned owned-power)" -v c="$(cost owned owned-colocation)" -v d="$(cost owned owned-maintenance)" 'BEGIN { printf "%.2f", a + b + c + d }')
expect_eq "$day" "1632.94" "owned: capex + power + colocation + maintenance, the page's day"
expect_in "$DOC" "A day owned is \$1,632.94" "the page gives that day"
expect_eq "$(awk -v d="$day" 'BEGIN { printf "%.2f", d * 730 / 24 }')|$(awk -v d="$(cost reserved reserved)" 'BEGIN { printf "%.2f", d * 730 / 24 }')" \
    "49668.59|60429.70" "per 730-hour month, owned and reserved, as the page says"
near "$(awk -v d="$(cost reserved reserved)" 'BEGIN { printf "%.2f", d * 26280 / 24 }')" "$(echo "$row" | awk '{ print $2 }')" 10 "the reservation's day x 3 years = the upfront (to a cent a day)"
report
