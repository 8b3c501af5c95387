#!/bin/sh
# cli_training.sh -- training workloads from the command line: the openb
# trace replayed with every GPU pod accounted for, job rows and the run
# summary's job columns, and bad inputs (file:line:key, exit 1, nothing
# written).
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/train.db"
OPENB="$SRCDIR/traces/sample/openb_pod_list_default.csv"

# The openb pod list: 8,152 pods, 1,088 with no GPU (skipped), 7,064 GPU
# pods, 861 of them never scheduled (rejected: run time unknown).  A small
# cluster over 30 days leaves jobs running, queued and not yet submitted:
# every GPU pod still has exactly one row.
cat >"$TMP/openb.ini" <<INI
[scenario]
horizon = 30d
metrics_interval = 1d
[pool.a100]
gpu = A100-80GB
gpus_per_instance = 8
price = 32.00
count = 4
[workload.openb]
kind = training
pools = a100
jobs = trace($OPENB, format=openb)
INI
expect_exit 0 "openb replay" -- "$FLEETSIM" run "$TMP/openb.ini" --db "$DB"
expect_in "$TMP/out" "openb: 1088 rows of $OPENB ask for no GPU (not GPU jobs): skipped" "pods with no GPU counted"
expect_eq "$(sql "$DB" "SELECT count(*) FROM job")" "7064" "one row per GPU pod"
expect_eq "$(sql "$DB" "SELECT jobs FROM run_summary")" "7064" "run_summary.jobs"
expect_eq "$(sql "$DB" "SELECT count(*) FROM job WHERE status = 'rejected' AND reason LIKE 'never scheduled%'")" "861" "pods never scheduled: rejected with the reason"
expect_eq "$(sql "$DB" "SELECT count(*) FROM job WHERE status NOT IN ('finished', 'running', 'queued', 'rejected', 'not-submitted')")" "0" "every row has a status"
expect_eq "$(sql "$DB" "SELECT min(n) > 0 FROM (SELECT count(*) AS n FROM job GROUP BY status)")" "1" "rows of each status"
expect_eq "$(sql "$DB" "SELECT count(*) FROM job WHERE status = 'finished' AND (end_s IS NULL OR start_s < submit_s OR end_s < start_s)")" "0" "finished jobs have ordered times"
# the busy GPU-hours of the jobs are the pool's busy GPU-hours
expect_eq "$(sql "$DB" "SELECT abs((SELECT sum(gpu_hours) FROM job) - (SELECT gpu_hours_busy FROM pool)) < 1e-6")" "1" "job GPU-hours = pool busy GPU-hours"
expect_eq "$(sql "$DB" "SELECT abs((SELECT sum(cost_usd) FROM job) - (SELECT sum(gpu_hours) FROM job) * 4) < 1e-6")" "1" "job cost = GPU-hours x \$4/GPU-h"

# On a cluster of one-GPU instances the 75 pods of 2 to 8 GPUs cannot run:
# rejected (one of them was never scheduled: that reason comes first).
sed 's/^gpus_per_instance = 8/gpus_per_instance = 1/; s/^count = 4/count = 32/' "$TMP/openb.ini" >"$TMP/openb1.ini"
expect_exit 0 "openb on one-GPU instances" -- "$FLEETSIM" run "$TMP/openb1.ini" --db "$DB" --quiet
expect_eq "$(sql "$DB" "SELECT count(*) FROM job WHERE run_id = 2 AND reason LIKE 'needs % GPUs; the largest instance of its pools has 1'")" "74" "multi-GPU pods rejected with the reason"
expect_eq "$(sql "$DB" "SELECT count(*) FROM job WHERE run_id = 2 AND status = 'rejected'")" "935" "861 + 74 rejected"
expect_eq "$(sql "$DB" "SELECT count(*) FROM job WHERE run_id = 2")" "7064" "still one row per GPU pod"

# A deadline missed, and the summary's notes.
printf 'job_id,submit_s,gpus,duration_s,deadline_s\nx,0,1,7200,3600\ny,0,1,1800,3600\n' >"$TMP/jobs.csv"
cat >"$TMP/train.ini" <<INI
[scenario]
horizon = 1d
[pool.p]
gpu = L4
price = 1.00
count = 1
[workload.t]
kind = training
pools = p
jobs = trace(jobs.csv, format=generic)
INI
expect_exit 0 "generic jobs" -- "$FLEETSIM" run "$TMP/train.ini" --db "$DB"
expect_in "$TMP/out" "t: 2 jobs: 2 finished, 0 running, 0 queued, 0 rejected, 0 after the horizon" "summary note"
expect_eq "$(sql "$DB" "SELECT jobs, jobs_missed_deadline FROM run_summary WHERE run_id = 3")" "2|2" "both missed: y waited for x"

# Bad inputs.
printf 'job_id,submit_s,gpus,duration_s\na,0,1,60\nb,10,two,60\n' >"$TMP/malformed.csv"
sed 's/jobs.csv/malformed.csv/' "$TMP/train.ini" >"$TMP/malformed.ini"
bad_run malformed "malformed.csv:3: gpus: expected a number, got 'two'"
printf 'job_id,submit_s,gpus,duration_s\na,100,1,60\nb,10,1,60\n' >"$TMP/order.csv"
sed 's/jobs.csv/order.csv/' "$TMP/train.ini" >"$TMP/order.ini"
bad_run order "order.csv:3: submit_s: submit time 10 is earlier than the row before (100)"
printf 'job_id,submit_s,gpus,duration_s\na,0,1,60\nb,10,4,60\n' >"$TMP/wide.csv"
sed 's/jobs.csv/wide.csv/' "$TMP/train.ini" >"$TMP/wide.ini"
bad_run wide "wide.csv:3: gpus: job b needs 4 GPUs; the largest instance of its pools has 1 (set span_instances = yes"
printf 'job_id,submit,gpus,duration_s\n' >"$TMP/header.csv"
sed 's/jobs.csv/header.csv/' "$TMP/train.ini" >"$TMP/header.ini"
bad_run header "header.csv:1: submit_s: no column 'submit_s' in the header"
sed 's/format=generic/format=slurm/' "$TMP/train.ini" >"$TMP/format.ini"
bad_run format "format.ini:10: workload.t.jobs: unknown jobs format 'slurm' (generic or openb)"
sed 's/^jobs = .*/jobs = trace(missing.csv)/' "$TMP/train.ini" >"$TMP/missing.ini"
bad_run missing "missing.ini:10: workload.t.jobs: cannot open"
sed 's/^kind = training/kind = training\nservice = const(1s)/' "$TMP/train.ini" >"$TMP/mixed_keys.ini"
bad_run mixed_keys "mixed_keys.ini:9: workload.t.service: applies to inference workloads only"
good | sed 's/^service = .*/&\ncheckpoint_interval = 1h/' >"$TMP/ckpt_inference.ini"
bad_run ckpt_inference "workload.w.checkpoint_interval: applies to training workloads only"
cat "$TMP/train.ini" >"$TMP/shared.ini"
printf '[workload.serve]\npools = p\narrivals = poisson(rate=1/s)\nservice = const(1s)\n' >>"$TMP/shared.ini"
bad_run shared "shared.ini:12: workload.serve.pools: pool p also serves training workload t: a pool serves inference or training workloads, not both"
sed 's/^count = 1/autoscale = queue(target=1)\nmax = 2/' "$TMP/train.ini" >"$TMP/autoscale.ini"
bad_run autoscale "workload.t.pools: pool p autoscales: a training pool has a fixed count"
sed 's/^jobs = .*/checkpoint_interval = 1h/' "$TMP/train.ini" >"$TMP/nojobs.ini"
bad_run nojobs "workload.t: missing jobs"
report
