#!/bin/sh
# cli_fit.sh -- `fleetsim fit` and `fleetsim catalog models|gpus`.
#
# The judged 7B fine-tune (weights 13.5 GB, gradients 13.5 GB, Adam's m and
# v 53.9 GB, master weights 27.0 GB on a line of their own that
# --no-master-weights drops), the seeds' low-memory variant (int8 weights,
# 8-bit Adam, checkpointing: about 50 GB) refused on a 24 GB A10G and
# placed on 80 GB GPUs; llama-2-70b bf16 refused on one 80 GB GPU with the
# breakdown and the nearest fits, int4 and tp=2 fitting; unknown names
# suggest the nearest; the catalog listings show the new columns.
. "$(dirname "$0")/cli_lib.sh"

expect_exit 0 "fit 7B training" -- "$FLEETSIM" fit llama-2-7b --gpu A100-80GB \
    --training --batch 16 --seq 2048 --optimizer adam
expect_in "$TMP/out" "weights                13.5 GB" "7B bf16 weights"
expect_in "$TMP/out" "gradients              13.5 GB" "7B gradients"
expect_in "$TMP/out" "optimizer states       53.9 GB   (adam: fp32 m and v" "Adam m and v"
expect_in "$TMP/out" "master weights         27.0 GB   (fp32 copy" "master weights line"
expect_in "$TMP/out" "activations           171.7 GB   (16 x 2048 tokens: every layer kept)" "activations"
expect_in "$TMP/out" "does NOT fit" "bf16 + Adam on one A100"
expect_in "$TMP/out" "throughput: 3087 tokens/s per GPU" "tokens/s = 0.4 x 312e12 / (6 x 6.738e9)"
cp "$TMP/out" "$TMP/with_master"

expect_exit 0 "no master weights" -- "$FLEETSIM" fit llama-2-7b --gpu A100-80GB \
    --training --batch 16 --seq 2048 --activation-checkpointing --no-master-weights
checks=$((checks + 1))
grep -q "master weights" "$TMP/out" && fail "--no-master-weights still prints master weights"
expect_in "$TMP/out" "activations            16.0 GB" "checkpointed activations"
expect_in "$TMP/out" "total                 101.0 GB of 80.0 GB: does NOT fit" "the seeds' bf16 + Adam"
expect_in "$TMP/out" "throughput: 2315 tokens/s per GPU" "8 x with recomputation"

# the seeds' low-memory variant: about 50 GB, refused on the A10G
for gpu in A10G A100-80GB; do
    expect_exit 0 "low-memory on $gpu" -- "$FLEETSIM" fit llama-2-7b --gpu $gpu \
        --training --batch 16 --seq 2048 --activation-checkpointing \
        --no-master-weights --precision int8 --optimizer adam8bit
    cp "$TMP/out" "$TMP/low_$gpu"
done
expect_in "$TMP/low_A10G" "total                  51.6 GB of 24.0 GB: does NOT fit" "A10G refused"
expect_in "$TMP/low_A100-80GB" "total                  53.9 GB of 80.0 GB: fits" "A100 holds it"
expect_in "$TMP/low_A10G" "  A100-80GB     53.9 GB of    80" "A10G's answer lists where it fits"
checks=$((checks + 1))
grep -q "^  A10G " "$TMP/low_A10G" && fail "A10G listed among the GPUs it fits on"

# ZeRO-3 over 8 GPUs shards weights, gradients and states
expect_exit 0 "zero 3" -- "$FLEETSIM" fit llama-2-7b --gpu A100-80GB --training \
    --batch 16 --seq 2048 --zero 3 --gpus 8
expect_in "$TMP/out" "optimizer states        6.7 GB" "ZeRO-3 shards Adam over 8"
expect_in "$TMP/out" "master weights          3.4 GB" "and the master copy"

# inference: 70B on one 80 GB GPU
expect_exit 0 "70B bf16" -- "$FLEETSIM" fit llama-2-70b --gpu A100-80GB --context 4096 --batch 1
expect_in "$TMP/out" "weights               138.0 GB" "70B bf16 weights"
expect_in "$TMP/out" "does NOT fit" "70B bf16 refused"
expect_in "$TMP/out" "Fits on A100-80GB with: tp=2 bf16" "nearest: tp=2"
expect_in "$TMP/out" "tp=1 int4" "nearest: int4"
expect_exit 0 "70B int4" -- "$FLEETSIM" fit llama-2-70b --gpu A100-80GB --precision int4 --context 4096 --batch 1
expect_in "$TMP/out" ": fits" "70B int4 fits"
expect_in "$TMP/out" "int4 weights, fp8 KV cache" "an int4 model keeps an fp8 cache"
# vLLM's share of the driver's 79.15 GiB (84.99 GB): (0.9 x 84.99 - 34.49
# weights - 0.1 runtime - 1.34 activations of a 4,096-token profiling run) /
# (163,840 B x 4096) = 60.4 (the 0.5 GB of CUDA graphs come out of the 10%)
expect_in "$TMP/out" "largest batch at 4096 tokens of context: 60" "largest batch, closed form"
expect_in "$TMP/out" "kept free               8.0 GB" "vLLM leaves 10% of the driver's total unused, its graphs in it (8.5 - 0.5)"
# the KV cache as vLLM sizes it on a 24 GB A10G (no total reported by its
# driver found: the datasheet's 24 GB): (0.9 x 24 - 13.476 weights - 0.1
# runtime - 0.626 activations) / 524,288 B a token = 14,110, in whole
# 16-token blocks 14,096: 20.1 sequences of 700 tokens (vLLM ran about 19);
# the 0.5 GB of CUDA graphs come out of the 10% kept free (2.4 - 0.5)
expect_exit 0 "A10G KV" -- "$FLEETSIM" fit llama-2-7b --gpu A10G --precision fp16
expect_in "$TMP/out" "KV cache: 14,096 tokens at 16-token blocks (engine vllm" "KV cache tokens, vLLM's way"
expect_in "$TMP/out" "kept free               1.9 GB" "the graphs inside the 10% kept free"
expect_in "$TMP/out" "memory                 24.0 GB   (the datasheet's" "no reported total: the datasheet's"
# an A100 80GB's driver reports 79.15 GiB = 84.99e9 bytes: vLLM sizes from it
expect_exit 0 "A100 driver total" -- "$FLEETSIM" fit llama-2-70b --gpu A100-80GB --tp 4
expect_in "$TMP/out" "memory                 85.0 GB   (the driver's total, 79.15 GiB" "the driver's total printed"
expect_in "$TMP/out" "KV cache: 500,048 tokens at 16-token blocks" "70B at TP 4: (0.9 x 84.99 - 34.49 - 0.63 - 0.4) / 81,920 B, in blocks"
! grep -q "all-reduce inputs" "$TMP/out" || fail "the current vllm holds no all-reduce input"
# vLLM 0.2.5 (vllm-project/vllm#2031's fix) held each all-reduce input of
# its profiling pass to its end: 2 x 80 layers x 4,096 tokens x 8,192 x 2 B
expect_exit 0 "vllm@0.2.5" -- "$FLEETSIM" fit llama-2-70b --gpu A100-80GB --tp 4 --engine vllm@0.2.5
expect_in "$TMP/out" "all-reduce inputs      10.7 GB   (held: 2 a layer x 80 layers, 4096 tokens'" "the held inputs on a line of their own"
expect_in "$TMP/out" "KV cache: 368,976 tokens at 16-token blocks" "(0.9 x 84.99 - 34.49 - 0.63 - 10.74 - 0.4) / 81,920 B, in blocks: 23,061"
expect_exit 0 "A10G KV, trt-llm" -- "$FLEETSIM" fit llama-2-7b --gpu A10G --precision fp16 --engine trt-llm
expect_in "$TMP/out" "(engine trt-llm" "the engine's own way"
expect_exit 0 "70B tp2" -- "$FLEETSIM" fit llama-2-70b --gpu A100-80GB --tp 2 --context 4096 --batch 1
expect_in "$TMP/out" "weights                69.0 GB" "70B bf16 over 2 GPUs"
expect_in "$TMP/out" ": fits" "70B tp=2 fits"

# bad input
expect_exit 1 "unknown model" -- "$FLEETSIM" fit llama-2-7 --gpu A100-80GB
expect_in "$TMP/err" "did you mean 'llama-2-7b'" "model suggestion"
expect_one_line "unknown model"
expect_exit 1 "unknown gpu" -- "$FLEETSIM" fit llama-2-7b --gpu A100-80
expect_in "$TMP/err" "did you mean" "GPU suggestion"
expect_exit 2 "training without seq" -- "$FLEETSIM" fit llama-2-7b --gpu A100-80GB --training --batch 4
expect_exit 2 "bad tp" -- "$FLEETSIM" fit llama-2-7b --gpu A100-80GB --tp 3
expect_exit 2 "bad precision" -- "$FLEETSIM" fit llama-2-7b --gpu A100-80GB --precision int3
printf 'name,params_b\nx,1\n' >"$TMP/m.csv"
expect_exit 1 "bad models file" -- "$FLEETSIM" fit x --gpu A100-80GB --models "$TMP/m.csv"
expect_in "$TMP/err" "m.csv:1: missing column 'active_params_b'" "file:line of a bad models file"

# the user's own model
cat >"$TMP/mine.csv" <<'CSV'
name,params_b,active_params_b,layers,hidden,heads,kv_heads,head_dim,ffn,experts,experts_per_token,vocab,max_context
tiny,1.1,1.1,22,2048,32,4,64,5632,0,0,32000,2048
CSV
expect_exit 0 "own model" -- "$FLEETSIM" fit tiny --gpu L4 --models "$TMP/mine.csv"
expect_in "$TMP/out" "weights                 2.2 GB" "1.1B params in bf16"

# DeepSeek-V3 on 8 x H200: fits at fp8 (671.03e9 x 1 byte / 8 = 83.9 GB a
# GPU), refused at bf16 (167.8 GB a GPU > 141) with the breakdown; its MLA
# cache is 61 layers x (512 + 64) values a token
expect_exit 0 "deepseek fp8" -- "$FLEETSIM" fit deepseek-v3 --gpu H200 --tp 8 --precision fp8
expect_in "$TMP/out" "weights                83.9 GB" "DeepSeek-V3 fp8 weights a GPU"
expect_in "$TMP/out" "of 141.0 GB: fits" "DeepSeek-V3 fp8 fits 8 x H200"
expect_in "$TMP/out" "a token caches 35136 bytes: 61 layers x 576 values (MLA" "MLA KV a token"
expect_in "$TMP/out" "B 64: 222.4" "experts a batch of 64 touches: 256 (1 - (1 - 8/256)^64)"
expect_exit 0 "deepseek bf16" -- "$FLEETSIM" fit deepseek-v3 --gpu H200 --tp 8
expect_in "$TMP/out" "weights               167.8 GB" "DeepSeek-V3 bf16 weights a GPU"
expect_in "$TMP/out" "of 141.0 GB: does NOT fit" "DeepSeek-V3 bf16 refused"
expect_in "$TMP/out" "Fits on H200 with: tp=8 fp8" "the nearest that fits"
# expert parallelism: 8 attention copies, the experts over 8 GPUs
expect_exit 0 "deepseek ep" -- "$FLEETSIM" fit deepseek-v3 --gpu H200 --tp 1 --ep 8 --precision fp8
expect_in "$TMP/out" "tp=1, ep=8 (8 GPUs a replica)" "EP replica"
expect_in "$TMP/out" "(dense part 17.1 over tp=1 + 256 routed experts 81.7 over 8 GPUs)" "EP weights split"
expect_in "$TMP/out" "all-to-all (dispatch + combine, 58 MoE layers)" "all-to-all shown"
expect_exit 1 "ep on a dense model" -- "$FLEETSIM" fit llama-3-8b --gpu H100-80GB --ep 2
expect_in "$TMP/err" "llama-3-8b has no experts to spread" "ep refused for a dense model"
expect_exit 2 "bad ep" -- "$FLEETSIM" fit mixtral-8x7b --gpu H100-80GB --ep 3

# catalogs
expect_exit 0 "catalog models" -- "$FLEETSIM" catalog models
expect_in "$TMP/out" "qwen3-30b-a3b" "MoE with many experts listed"
expect_in "$TMP/out" "mixtral-8x7b      46.70    12.88" "Mixtral total and active"
expect_exit 0 "catalog gpus" -- "$FLEETSIM" catalog gpus
expect_in "$TMP/out" "int4_TOPS  nvlink    pcie  fp8 gen" "new GPU columns"
expect_in "$TMP/out" "hopper  sxm" "H100's generation and form"

# case 5: the 7B fine-tune on 8 x A100 and 8 x H100, the A10G refused
DB="$TMP/case5.db"
for f in a100 h100; do
    expect_exit 0 "case5 $f" -- sh -c "cd '$SRCDIR' && '$FLEETSIM' run scenarios/case5-finetune-$f.ini --db '$DB' --quiet"
done
job() { sql "$DB" "SELECT $1 FROM job j JOIN run r USING (run_id) WHERE r.name = '$2'"; }
expect_eq "$(job "status, end_s" case5-finetune-a100)" "finished|2592000.0" "A100: the 30 days as stated"
# H100: 30 days x (0.4 x 312) / (0.4 x 989.5) tokens/s
expect_eq "$(job "printf('%.6f', end_s / (2592000.0 * 312 / 989.5))" case5-finetune-h100)" "1.000000" \
    "H100: the duration rescaled by the training rule"
# 3-year reserved, no upfront (the published us-east-1 rates): the job's
# instance-hours at the rate
expect_eq "$(job "printf('%.2f', cost_usd)" case5-finetune-a100)" "8436.80" "A100 job cost: 720 h x \$11.717773"
expect_eq "$(job "printf('%.2f|%.2f', cost_usd, gpu_hours * 23.77728 / 8)" case5-finetune-h100)" "5398.01|5398.01" "H100 job cost: 227 h x \$23.77728"
expect_eq "$(sql "$DB" "SELECT group_concat(pricing || ' ' || price_usd_h, ',') FROM pool")" "reserved 11.717773,reserved 23.77728" "case 5: 3-year reserved rates"
# ... but a reservation bills every hour of its term: the month's bill of
# each fleet (31 days, 744 h) is what doc/cases.md shows beside tokens per
# dollar, twice as much for the H100 however soon its job ends.
bill() { sql "$DB" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_monthly c JOIN run r USING (run_id) WHERE r.name = '$1'"; }
expect_eq "$(bill case5-finetune-a100)" "$(awk 'BEGIN { printf "%.2f", 744 * 11.717773 }')" "case 5: A100 fleet's month, 744 h x \$11.717773 = \$8,718.02"
expect_eq "$(bill case5-finetune-h100)" "$(awk 'BEGIN { printf "%.2f", 744 * 23.77728 }')" "case 5: H100 fleet's month, 744 h x \$23.77728 = \$17,690.30"
expect_exit 1 "case5 on A10G" -- sh -c "cd '$SRCDIR' && '$FLEETSIM' run scenarios/case5-finetune-a100.ini --set pool.gpu.instance=aws:g5.48xlarge --db '$TMP/a10g.db' --quiet"
expect_in "$TMP/err" "case5-finetune-a100.ini:61: workload.finetune.model: llama-2-7b training does not fit pool gpu's A10G" "A10G refused at the model key"
expect_in "$TMP/err" "= 37.6 GB > 24.0 GB; fits on: A100-40GB, A100-80GB" "with the breakdown and where it fits"
expect_in "$TMP/err" "; on A10G it fits with zero=2, gpus=8 (14.1 GB a GPU) or zero=3, gpus=8 (8.2 GB)" "A10G: ZeRO-2 and ZeRO-3 over its 8 GPUs fit"
expect_one_line "case5 on A10G"
checks=$((checks + 1))
[ -e "$TMP/a10g.db" ] && fail "a refused scenario wrote a database"
cat >"$TMP/badmodel.ini" <<'INI'
[scenario]
name = bad
horizon = 1d
[pool.gpu]
instance = aws:p4de.24xlarge
count = 1
[workload.ft]
kind = training
pools = gpu
jobs = trace(JOBS, format=generic)
model = llama-2-7(batch=16)
INI
sed -i "s#JOBS#$SRCDIR/scenarios/data/finetune_7b_30d_8gpu.csv#" "$TMP/badmodel.ini"
expect_exit 1 "unknown model key" -- "$FLEETSIM" run "$TMP/badmodel.ini" --db "$TMP/bad.db" --quiet
expect_in "$TMP/err" "badmodel.ini:11: workload.ft.model: unknown model 'llama-2-7' (did you mean 'llama-2-7b'?" "model key suggestion"
sed -i 's/llama-2-7(batch=16)/llama-2-7b(batch=16, optimiser=adam)/' "$TMP/badmodel.ini"
expect_exit 1 "unknown model argument" -- "$FLEETSIM" run "$TMP/badmodel.ini" --db "$TMP/bad.db" --quiet
expect_in "$TMP/err" "optimiser" "the stray argument named"

# A fine-tune refused on one GPU names the ZeRO stages and GPU counts that
# fit (case 5's low-memory variant on an A10G: ZeRO-3 over 8 GPUs holds
# 8.2 GB a GPU, test_llm_memory's bytes).
expect_exit 0 "fit: zero suggestions" -- "$FLEETSIM" fit llama-2-7b --gpu A10G --training --batch 2 --seq 2048 --precision int8 --optimizer adam8bit --activation-checkpointing --no-master-weights
expect_in "$TMP/out" "Fits on A10G with: ZeRO-2 over 4 GPUs (17.4 GB a GPU), ZeRO-3 over 2 GPUs (20.8 GB a GPU)" "zero: fewest GPUs per stage"
expect_in "$TMP/out" "over 8 GPUs (one 8-GPU instance), a GPU holds: ZeRO-1 25.9 GB (no), ZeRO-2 14.1 GB (fits), ZeRO-3 8.2 GB (fits)" "zero: over 8 GPUs"
# QLoRA: rank 16 adapters (39,976,960 parameters) on a 4-bit base.
expect_exit 0 "fit: qlora" -- "$FLEETSIM" fit llama-2-7b --gpu A10G --training --batch 1 --seq 2048 --qlora --lora-rank 16 --activation-checkpointing
expect_in "$TMP/out" "llama-2-7b QLoRA training on A10G: int4 weights" "qlora: heading"
expect_in "$TMP/out" "base weights            3.4 GB   (frozen, int4: no gradients, no optimizer states)" "qlora: frozen base"
expect_in "$TMP/out" "(rank 16 on q, k, v, o, gate, up, down: 40.0 M parameters, 16-bit)" "qlora: adapters"
expect_in "$TMP/out" "quant. constants        0.1 GB   (QLoRA double quantization: 0.127 bits a base parameter)" "qlora: the base's quantization constants"
# 3.369 base + 0.107 constants + 0.080 adapters + 0.080 gradients + 0.320
# Adam + 0.160 master + 0.999 activations + 1.96 overhead = 7.075 GB
expect_in "$TMP/out" "total                   7.1 GB of 24.0 GB: fits" "qlora: fits a 24 GB GPU"
# 0.4 x 125e12 / (6 x 6.738e9 + 8 x 39,976,960 = 40.748e9) = 1,227 tokens/s
expect_in "$TMP/out" "throughput: 1227 tokens/s per GPU (MFU 0.40 x 125.0 TFLOPS / 40.75 GFLOP a token: 6 x 6.74 B frozen parameters, no weight gradients, + 8 x 40.0 M adapter parameters)" "qlora: no weight gradients of the frozen base"
expect_exit 0 "fit: lora bf16" -- "$FLEETSIM" fit llama-2-7b --gpu A10G --training --batch 1 --seq 2048 --lora-rank 16 --activation-checkpointing
expect_in "$TMP/out" "llama-2-7b LoRA training on A10G: bf16 weights" "lora: heading"
checks=$((checks + 1))
grep -q "quant. constants" "$TMP/out" && fail "lora on bf16: no quantization constants"
# LoRA skips the frozen weights' gradients: 0.5 x 312e12 / (4 x 6.738e9 +
# 6 x 39,976,960) = 5,737 tokens/s, against the full fine-tune's 0.5 x
# 312e12 / (6 x 6.738e9) = 3,859
expect_exit 0 "fit: lora throughput" -- "$FLEETSIM" fit llama-2-7b --gpu A100-80GB --training --batch 1 --seq 2048 --lora-rank 16 --mfu 0.5
expect_in "$TMP/out" "throughput: 5737 tokens/s per GPU (MFU 0.50 x 312.0 TFLOPS / 27.19 GFLOP a token: 4 x 6.74 B frozen parameters, no weight gradients, + 6 x 40.0 M adapter parameters)" "lora: 4 x the frozen base + 6 x the adapters"
expect_exit 0 "fit: full fine-tune throughput" -- "$FLEETSIM" fit llama-2-7b --gpu A100-80GB --training --batch 1 --seq 2048 --mfu 0.5
expect_in "$TMP/out" "throughput: 3859 tokens/s per GPU (MFU 0.50 x 312.0 TFLOPS / 40.43 GFLOP a token: 6 x 6.74 B active parameters)" "full fine-tune: 6 x the parameters"
expect_exit 2 "fit: qlora without rank" -- "$FLEETSIM" fit llama-2-7b --gpu A10G --training --batch 1 --seq 2048 --qlora
expect_in "$TMP/err" "give their --lora-rank" "qlora: needs a rank"
expect_exit 2 "fit: lora without training" -- "$FLEETSIM" fit llama-2-7b --gpu A10G --lora-rank 16
expect_in "$TMP/err" "add --training" "lora: a fine-tune"
expect_exit 2 "fit: qlora at int8" -- "$FLEETSIM" fit llama-2-7b --gpu A10G --training --batch 1 --seq 2048 --qlora --lora-rank 8 --precision int8
expect_in "$TMP/err" "--qlora is a 4-bit base" "qlora: 4-bit only"
expect_exit 2 "fit: bad rank" -- "$FLEETSIM" fit llama-2-7b --gpu A10G --training --batch 1 --seq 2048 --lora-rank 0
report
