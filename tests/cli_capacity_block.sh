#!/bin/sh
# cli_capacity_block.sh -- a capacity block (pricing = capacity-block):
# billed instances x hours x block price to the cent whether used or not
# (the published catalog rate and a quote across a month boundary), a
# training job submitted before the block waits for it and starts when it
# opens, a job still at work when a block closes is taken back (work lost,
# restarted in the next block), and bad inputs (file:line:key, exit 1,
# nothing written).
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/cb.db"

# Two p5.48xlarge for 2 days from 2026-03-03 11:30 UTC at the published
# $39.33 an instance-hour: 2 x 48 h x 39.33 = $3,775.68.  j1 (8 GPUs, 10 h)
# is submitted at 1 h, 60.5 h before the block opens (at 214200 s); j2
# (16 GPUs, both instances) waits for j1.
printf 'job_id,submit_s,gpus,duration_s\nj1,3600,8,36000\nj2,7200,16,50000\n' >"$TMP/jobs.csv"
cat >"$TMP/cb.ini" <<INI
[scenario]
start = 2026-03-01
horizon = 10d
[pool.blk]
instance = aws:p5.48xlarge
pricing = capacity-block
block_start = 2026-03-03 11:30
block_length = 2d
count = 2
[pool.idle]
instance = aws:p5.48xlarge
pricing = capacity-block
block_start = 12h
block_length = 1d
price = 31.457
count = 3
[workload.t]
kind = training
pools = blk
span_instances = yes
jobs = trace(jobs.csv, format=generic)
INI
expect_exit 0 "capacity block run" -- "$FLEETSIM" run "$TMP/cb.ini" --db "$DB"
expect_eq "$(sql "$DB" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_monthly WHERE pool = 'blk'")" "3775.68" "bill = 2 x 48 h x \$39.33"
# unused, still paid whole: 3 x 24 h x 31.457 = 2264.904 -> \$2,264.90
expect_eq "$(sql "$DB" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_monthly WHERE pool = 'idle'")" "2264.90" "an unused block: 3 x 24 h x \$31.457"
expect_eq "$(sql "$DB" "SELECT gpu_hours_provisioned FROM pool WHERE pool = 'blk'")" "768.0" "instances up only inside the block: 2 x 8 GPUs x 48 h"
expect_eq "$(sql "$DB" "SELECT start_s, end_s FROM job WHERE job_id = 'j1'")" "214200.0|250200.0" "j1 starts when the block opens"
expect_eq "$(sql "$DB" "SELECT start_s, end_s FROM job WHERE job_id = 'j2'")" "250200.0|300200.0" "j2 after j1, inside the block"
expect_in "$TMP/out" "capacity_blocks.csv aws:p5.48xlarge us-east-1, as of 2024-12-31" "priced from the published snapshot"
# busy 8 x 10 h + 16 x 50000/3600 h = 302.2 GPU-h = 37.8 instance-h; on
# demand at the catalog's \$55.04: 37.78 x 55.04 = \$2,079.29
expect_in "$TMP/out" "blk: capacity blocks 96 instance-h x \$39.33 = \$3775.68 paid whole; its work kept 37.8 instance-h busy (39.4%); on demand at \$55.04/h the same busy instance-hours cost \$2079.29" "block against on demand"

# A quote across a month boundary: 1 instance from 2026-03-31 12:00 for 1
# day at \$40.001: 24 h x 40.001 = \$960.02 (12 h in March, 12 in April).
printf 'job_id,submit_s,gpus,duration_s\nj,0,8,3600\n' >"$TMP/one.csv"
cat >"$TMP/month.ini" <<INI
[scenario]
start = 2026-03-30
horizon = 3d
[pool.b]
gpu = H100-80GB
gpus_per_instance = 8
pricing = capacity-block
price = 40.001
block_start = 2026-03-31 12:00
block_length = 1d
count = 1
[workload.t]
kind = training
pools = b
jobs = trace(one.csv, format=generic)
INI
expect_exit 0 "block across months" -- "$FLEETSIM" run "$TMP/month.ini" --db "$DB" --quiet
expect_eq "$(sql "$DB" "SELECT group_concat(printf('%.2f', cost_usd), ' ') FROM (SELECT cost_usd FROM cost_monthly WHERE pool = 'b' ORDER BY month)")" "480.01 480.01" "12 h in each month at \$40.001 (480.012, in cents so that the months add up)"
expect_eq "$(sql "$DB" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_monthly WHERE pool = 'b'")" "960.02" "24 h x \$40.001 = \$960.024"

# Two blocks of 1 day: j2 (16 GPUs, 80000 s) is still at work when the
# first closes (it started at 250200 s, 50400 s before the close): taken
# back, its 16 x 14 h = 224 GPU-hours lost (no checkpoint), and it runs
# again from the start in the second block (opens 473400 s): ends 553400.
printf 'job_id,submit_s,gpus,duration_s\nj1,3600,8,36000\nj2,7200,16,80000\n' >"$TMP/jobs.csv"
sed 's/^block_length = 2d/block_length = 1d/; s/^block_start = 2026-03-03 11:30/block_start = 2026-03-03 11:30, 2026-03-06 11:30/' "$TMP/cb.ini" >"$TMP/two.ini"
expect_exit 0 "two blocks" -- "$FLEETSIM" run "$TMP/two.ini" --db "$DB"
R=$(sql "$DB" "SELECT max(run_id) FROM run")
expect_eq "$(sql "$DB" "SELECT status, end_s, lost_gpu_hours, interruptions FROM job WHERE run_id = $R AND job_id = 'j2'")" "finished|553400.0|224.0|1" "taken back at the close, run again in the next block"
expect_eq "$(sql "$DB" "SELECT printf('%.2f', sum(cost_usd)) FROM cost_monthly WHERE run_id = $R AND pool = 'blk'")" "3775.68" "two 1-day blocks: 2 x 48 h x \$39.33"
expect_in "$TMP/out" "2 instances at work when a block closed" "the note counts them"

# Bad inputs: each names file:line:key, exits 1 and writes nothing.
bad() {   # bad NAME LINE MESSAGE: LINE replaces the key's line in cb.ini
    key=${2%% =*}
    grep -v "^$key =" "$TMP/cb.ini" | sed "s/^\[pool.blk\]/[pool.blk]\n$2/" >"$TMP/$1.ini"
    bad_run "$1" "$3"
}
bad past "block_start = 2026-02-28 11:30" "past.ini:5: pool.blk.block_start: '2026-02-28 11:30' is in the past of the run (it starts 12.5 h later)"
bad zero "block_length = 0s" "zero.ini:5: pool.blk.block_length: a block lasts more than 0 s"
bad overlap "block_start = 1d, 2d" "overlap.ini:5: pool.blk.block_start: block 2 opens before block 1 ends (blocks of a pool may not overlap"
bad beyond "block_start = 9d" "beyond.ini:5: pool.blk.block_start: block 1 ends 264.0 h after the start, past the horizon (240.0 h)"
bad many "block_start = 1h, 3d, 5d, 7d, 8d" "many.ini:5: pool.blk.block_start: at most 4 blocks a pool"
bad date "block_start = 2026-02-30" "date.ini:5: pool.blk.block_start: expected a date YYYY-MM-DD (UTC)"
bad sched "schedule = w" "sched.ini:5: pool.blk.schedule: a capacity block's windows are its blocks"
bad scale "autoscale = target(util=0.7)" "scale.ini:5: pool.blk.autoscale: a capacity block is a fixed count of instances"
bad noprice "instance = aws:g5.xlarge" "noprice.ini:5: pool.blk: missing price (the catalog's capacity_blocks.csv has no published block price"
grep -v "^block_length" "$TMP/cb.ini" >"$TMP/nolen.ini"
bad_run nolen "nolen.ini:5: pool.blk: missing block_length"
sed 's/^pricing = capacity-block/pricing = on-demand/' "$TMP/cb.ini" >"$TMP/other.ini"
bad_run other "other.ini:7: pool.blk.block_start: applies to capacity-block pools only"

report
