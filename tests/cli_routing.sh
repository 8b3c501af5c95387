#!/bin/sh
# cli_routing.sh -- routing = least-loaded | round-robin | prefix-aware
# across the LLM replicas of a pool (sim/fleet/serve/llm_route*.c), on the
# Mooncake conversation trace (scenarios/llm-mooncake-conv.ini, prefix
# caching in each replica's free KV memory):
#   - one replica: the three policies give identical results, table by
#     table (there is no other replica to route to);
#   - no routing key is least-loaded, to the bit (the default is what
#     fleetsim did before the key);
#   - four replicas: prefix-aware finds more of the prompt tokens cached
#     than round-robin and least-loaded (it sends a conversation's next
#     turn to the replica holding its earlier turns);
#   - a value out of the key's words is refused at file:line:key.
. "$(dirname "$0")/cli_lib.sh"
SCEN="$SRCDIR/scenarios/llm-mooncake-conv.ini"

run_with() {   # run_with NAME COUNT [ROUTING]
    set -- "$1" "$2" "${3:-}"
    if [ -n "$3" ]; then
        expect_exit 0 "$1" -- "$FLEETSIM" run "$SCEN" --db "$TMP/$1.db" --quiet \
            --set pool.h100.count="$2" --set pool.h100.routing="$3"
    else
        expect_exit 0 "$1" -- "$FLEETSIM" run "$SCEN" --db "$TMP/$1.db" --quiet \
            --set pool.h100.count="$2"
    fi
}
# The results, without the run's identity and clock.
tables() {
    for t in latency pool prefix_cache; do
        sql "$1" "SELECT * FROM $t" | cut -d'|' -f2-
    done
}
rate() { sql "$1" "SELECT printf('%.6f', token_hit_rate) FROM prefix_cache WHERE workload = 'chat'"; }

for r in least-loaded round-robin prefix-aware; do
    run_with "one-$r" 1 "$r"
done
tables "$TMP/one-least-loaded.db" >"$TMP/one.txt"
for r in round-robin prefix-aware; do
    tables "$TMP/one-$r.db" >"$TMP/one-$r.txt"
    checks=$((checks + 1))
    cmp -s "$TMP/one.txt" "$TMP/one-$r.txt" || fail "one replica: $r differs from least-loaded"
done

run_with four-default 4
for r in least-loaded round-robin prefix-aware; do
    run_with "four-$r" 4 "$r"
done
tables "$TMP/four-default.db" >"$TMP/a.txt"
tables "$TMP/four-least-loaded.db" >"$TMP/b.txt"
checks=$((checks + 1))
cmp -s "$TMP/a.txt" "$TMP/b.txt" || fail "the default is not least-loaded"
ll=$(rate "$TMP/four-least-loaded.db")
rr=$(rate "$TMP/four-round-robin.db")
pa=$(rate "$TMP/four-prefix-aware.db")
echo "four replicas, token hit rate: least-loaded $ll, round-robin $rr, prefix-aware $pa"
expect_eq "$(sql "$TMP/four-prefix-aware.db" "SELECT count, unfinished FROM latency")" "12031|0" "prefix-aware serves every request"
checks=$((checks + 1))
awk -v a="$pa" -v b="$rr" -v c="$ll" 'BEGIN { exit !(a > b && a > c) }' ||
    fail "prefix-aware $pa not above round-robin $rr and least-loaded $ll"

sed 's/^prefix_cache = yes/prefix_cache = yes\nrouting = random/' "$SCEN" |
    sed "s#\.\./traces#$SRCDIR/traces#" >"$TMP/badroute.ini"
bad_run badroute "badroute.ini:27: pool.h100.routing: expected least-loaded, round-robin or prefix-aware"
report
