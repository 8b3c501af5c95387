#!/bin/sh
# cli_vllm_load.sh -- a current vLLM on H100 under load, through the
# discrete-event server: every stage of tests/data/vllm-h100-load/ (README
# there) run as a `fleetsim run` scenario with the shipped `vllm` profile,
# its means and 90th percentiles against the measured ones.
#
# Each stage: Poisson arrivals at its rate for 300 simulated seconds (the
# first 60 left out as warm-up), its mean prompt and output lengths, one
# replica on a GCP a3-highgpu-{1,2,4}g (H100 SXM, NVLink) at the stage's TP,
# vLLM's limits as the runs set them (max_batch 128, chunked prefill of
# 2,048 tokens), and the prefix cache on: the load generator cycles 100
# fixed prompts, so after their first use the server finds each prompt
# whole in its cache (workload prefix = the whole prompt; 16-token blocks,
# the last partial block and token computed).
#
# Sets, fixed by workload before any fit (README there): calibration.csv
# ("general", what the profile's Hopper row was fitted on, printed only),
# validation.csv ("codegen" and "roleplay", never fitted: asserted) and
# overloaded.csv ("reasoning", which the real server did not sustain).
# Asserted on the 12 validation stages: median |error| of the mean
# end-to-end latency and inter-token latency ((e2e - TTFT) / (out - 1),
# as the data's tpot_ms) within 15%, of the mean TTFT within 25% (the
# issue's bounds), the same for the 90th percentiles of end-to-end and
# TTFT, and none overloaded (more requests left at the horizon than a full
# batch, or a mean wait for admission over a second); of the calibration
# stages, none overloaded; of the
# reasoning stages, the dense models' overloaded as the real server was.
. "$(dirname "$0")/cli_lib.sh"

DATA="$SRCDIR/tests/data/vllm-h100-load"

# scenario MODEL TP IN OUT RATE FILE: one stage as a scenario.
scenario() {
    cat >"$6" <<EOF
[scenario]
name = vllm-load
start = 2026-02-17
horizon = 300s
warmup = 60s
seed = 1
metrics_interval = 1h

[pool.h100]
instance = gcp:a3-highgpu-${2}g
pricing = on-demand
count = 1
prefix_cache = yes

[workload.w]
pools = h100
arrivals = poisson(rate=$5/s)
service = llm(model=$1, precision=bf16, tp=$2, max_batch=128, chunked_prefill=2048)
tokens_in = const($3)
tokens_out = const($4)
prefix = shared(tokens=$3, share=1)
EOF
}

# run_set NAME: every stage of NAME.csv; one line a stage into
# $TMP/NAME.res: set model tp rate, then the errors (e2e, ITL, TTFT, e2e
# p90, TTFT p90) and 1 when overloaded.
run_set() {
    : >"$TMP/$1.res"
    tail -n +2 "$DATA/$1.csv" | tr -d '\r' | while IFS=, read -r model gpu prec tp tin cached tout load ttft tpot tput e2e e2e90 ttft90 rest; do
        in=$(printf '%.0f' "$tin")
        out=$(printf '%.0f' "$tout")
        rate=${load%/s}
        sc="$TMP/$1-$model-$tp-$rate.ini"
        db="$TMP/$1-$model-$tp-$rate.db"
        scenario "$model" "$tp" "$in" "$out" "$rate" "$sc"
        checks=$((checks + 1))
        if ! "$FLEETSIM" run "$sc" --db "$db" --quiet >"$TMP/out" 2>&1; then
            fail "$1 $model tp $tp at $load: fleetsim run failed"
            sed 's/^/    | /' "$TMP/out" | head -5
            continue
        fi
        sqlite3 -separator ' ' "$db" "SELECT mean_s, tpot_mean_s, ttft_mean_s, p90_s, ttft_p90_s, unfinished, wait_mean_s FROM latency" |
            awk -v s="$1" -v m="$model" -v tp="$tp" -v r="$rate" \
                -v e2e="$e2e" -v itl="$tpot" -v ttft="$ttft" -v e90="$e2e90" -v t90="$ttft90" '{
                over = ($6 > 128 || $7 > 1) ? 1 : 0
                printf "%s %s %s %s %.4f %.4f %.4f %.4f %.4f %d\n", s, m, tp, r,
                    1000 * $1 / e2e - 1, 1000 * $2 / itl - 1, 1000 * $3 / ttft - 1,
                    1000 * $4 / e90 - 1, 1000 * $5 / t90 - 1, over }' >>"$TMP/$1.res"
    done
}

# median_abs FILE COLUMN: the median of |column| over FILE's lines.
median_abs() {
    awk -v c="$2" '{ v = $c < 0 ? -$c : $c; print v }' "$1" | sort -g |
        awk '{ a[NR] = $1 } END { if (NR == 0) print 1;
              else if (NR % 2) print a[(NR + 1) / 2];
              else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# within X BOUND WHAT: X <= BOUND.
within() {
    checks=$((checks + 1))
    if ! awk -v x="$1" -v b="$2" 'BEGIN { exit !(x <= b) }'; then
        fail "$3: median |error| $1 above $2"
    fi
}

for set in calibration validation overloaded; do
    run_set "$set"
    awk '{ printf "%-12s %-14s tp %s %3s/s: e2e %+6.1f%%  ITL %+6.1f%%  TTFT %+6.1f%%  e2e p90 %+6.1f%%  TTFT p90 %+6.1f%%%s\n",
           $1, $2, $3, $4, 100 * $5, 100 * $6, 100 * $7, 100 * $8, 100 * $9,
           $10 ? "  (overloaded)" : "" }' "$TMP/$set.res"
done

V="$TMP/validation.res"
checks=$((checks + 1))
[ "$(wc -l <"$V")" -eq 12 ] || fail "validation: $(wc -l <"$V") stages run, expected 12"
for g in "TP 1:\$3 == 1" "TP 2:\$3 == 2" "TP 4:\$3 == 4" "5-6/s:\$4 < 8" "10/s:\$4 == 10"; do
    awk "${g#*:}" "$V" >"$TMP/group"
    printf '%-6s %2d stages: median |error| e2e %.1f%%, ITL %.1f%%, TTFT %.1f%%\n' "${g%%:*}" \
        "$(wc -l <"$TMP/group")" "$(median_abs "$TMP/group" 5 | awk '{ print 100 * $1 }')" \
        "$(median_abs "$TMP/group" 6 | awk '{ print 100 * $1 }')" \
        "$(median_abs "$TMP/group" 7 | awk '{ print 100 * $1 }')"
done
e2e=$(median_abs "$V" 5)
itl=$(median_abs "$V" 6)
ttft=$(median_abs "$V" 7)
e90=$(median_abs "$V" 8)
t90=$(median_abs "$V" 9)
echo "validation, 12 stages: median |error| e2e $e2e, ITL $itl, TTFT $ttft, e2e p90 $e90, TTFT p90 $t90"
within "$e2e" 0.15 "validation end-to-end"
within "$itl" 0.15 "validation inter-token latency"
within "$ttft" 0.25 "validation TTFT"
within "$e90" 0.15 "validation end-to-end p90"
within "$t90" 0.25 "validation TTFT p90"
checks=$((checks + 1))
over=$(awk '$10 == 1' "$V" | wc -l)
[ "$over" -eq 0 ] || fail "validation: $over sustained stages come out overloaded"
# the calibration stages (the set the profile was fitted on, so not a
# validation): the real server sustained all 8, and so must the simulator
# (Llama-2-70B at TP 4 and 20/s, the nearest its limit, came out
# overloaded before the profile's output_lag: doc/llm-validation.md)
checks=$((checks + 1))
cal_over=$(awk '$10 == 1' "$TMP/calibration.res" | wc -l)
[ "$cal_over" -eq 0 ] || fail "calibration: $cal_over sustained stages come out overloaded"
# the real server did not sustain the reasoning stages; the dense models
# come out overloaded (Mixtral: see doc/llm-validation.md)
checks=$((checks + 1))
dense=$(awk '$2 != "mixtral-8x7b" && $10 == 1' "$TMP/overloaded.res" | wc -l)
[ "$dense" -eq 3 ] || fail "reasoning: $dense of the 3 dense models overloaded, expected 3"
report
