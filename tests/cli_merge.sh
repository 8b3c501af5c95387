#!/bin/sh
# cli_merge.sh -- sharded sweeps and `fleetsim merge`: a 12-point x
# 3-replication sweep cut into 4 (and 5) shards, merged, equals the sweep
# run on one machine row for row (every table, reals bit for bit);
# `--shard auto` from Slurm, Kubernetes and MPI variables; merging a part
# twice changes nothing; a corrupt, foreign or newer part is refused by
# name with nothing written; an older part is migrated in a copy and left
# as it was; `import` of the same database twice copies it once; the GNU
# parallel recipe of doc/sweeps.md.
. "$(dirname "$0")/cli_lib.sh"
. "$(dirname "$0")/db_rows.sh"
cd "$TMP"

# The grid (tests/data/grid.ini): one L4 ($0.706832/h) per count, 2 h:
# a point's cost is count x 0.706832 x 2.
cp "$SRCDIR/tests/data/grid.ini" grid.ini
# sweep ARGS: the grid; $ENV (VAR=VALUE ...) is its environment.
ENV=
sweep() { env $ENV "$FLEETSIM" sweep grid.ini --vary pool.od.count=1,2,3,4 \
    --vary workload.w.service='exponential(mean=200ms),exponential(mean=300ms),exponential(mean=400ms)' \
    --replications 3 "$@"; }

expect_exit 0 "the whole sweep on one machine" -- sweep -j 2 --db one.db --quiet
expect_eq "$(sql one.db "SELECT count(*) FROM run")" 36 "12 points x 3 replications"
db_rows one.db >one.rows

for i in 1 2 3 4; do
    expect_exit 0 "shard $i/4" -- sweep --shard $i/4 -j 1 --db part-$i.db
    expect_in out "shard $i/4 (--shard) of the sweep of grid.ini: 9 of its 36 runs" "shard $i/4 says what it ran"
done
expect_eq "$(for i in 1 2 3 4; do sql part-$i.db "SELECT name || replication FROM run"; done | sort | uniq | wc -l)" 36 "4 shards: disjoint, 36 runs together"
expect_exit 0 "merge 4 parts" -- "$FLEETSIM" merge all.db part-1.db part-2.db part-3.db part-4.db
expect_in out "merged 36 runs from 4 files into all.db" "merge says what it copied"
db_rows all.db >all.rows
checks=$((checks + 1))
cmp -s one.rows all.rows || { fail "4 merged shards differ from one machine"; diff one.rows all.rows | head -5; }
expect_eq "$(wc -l <one.rows)" "$(sql one.db "SELECT (SELECT count(*) FROM run) + (SELECT count(*) FROM cost_monthly) + (SELECT count(*) FROM latency) + (SELECT count(*) FROM utilization) + (SELECT count(*) FROM job) + (SELECT count(*) FROM pool) + (SELECT count(*) FROM cost_allocation) + (SELECT count(*) FROM interruption) + (SELECT count(*) FROM run_summary) + 9")" "every row compared"
# costs: count x 0.706832 x 2 h, to the cent
expect_eq "$(sql all.db "SELECT group_concat(DISTINCT printf('%.2f', total_cost_usd)) FROM (SELECT total_cost_usd FROM run_summary ORDER BY total_cost_usd)")" \
    "1.41,2.83,4.24,5.65" "costs: count x 0.706832 x 2"
expect_eq "$(sql all.db "SELECT count(DISTINCT uid) FROM run")" 36 "every run its own identity"
expect_eq "$(sql all.db "SELECT uid FROM run" | sort)" \
    "$(for i in 1 2 3 4; do sql part-$i.db "SELECT uid FROM run"; done | sort)" "identities kept"

# compare, roi and report answer as on one machine (run ids apart)
A='grid[count=2,service=exponential(mean=300ms)]' B='grid[count=4,service=exponential(mean=200ms)]'
for db in one all; do
    "$FLEETSIM" compare --db $db.db --format csv "$A" "$B" | sed -e '/^run_id,/d' -e 's/ #[0-9]*"/"/g' >$db.compare
    "$FLEETSIM" roi --db $db.db "$B" --format json >$db.roi 2>&1
    "$FLEETSIM" report --db $db.db --out $db.md "$A" "$B" >/dev/null 2>&1
    sed -e '/run\\_id/d' -e '/^| run id |/d' -e "s/$db-//g" $db.md >$db.report
done
for what in compare roi report; do
    checks=$((checks + 1))
    cmp -s one.$what all.$what || { fail "$what differs after the merge"; diff one.$what all.$what | head -5; }
done
expect_in one.roi '"recommended_count"' "roi priced the pool"

# Any number of shards gives the same runs: 5 (uneven: 8,7,7,7,7)
for i in 1 2 3 4 5; do
    expect_exit 0 "shard $i/5" -- sweep --shard $i/5 --db five-$i.db --quiet
done
expect_exit 0 "merge 5 parts" -- "$FLEETSIM" merge five.db five-1.db five-2.db five-3.db five-4.db five-5.db
db_rows five.db >five.rows
checks=$((checks + 1))
cmp -s one.rows five.rows || fail "5 merged shards differ from one machine"

# More shards than runs: the last ones are empty, and merge says so
expect_exit 0 "an empty shard" -- "$FLEETSIM" sweep grid.ini --vary pool.od.count=1,2 --shard 3/3 --db empty.db
expect_in out "0 of its 2 runs, of 0 points" "the empty shard says so"
expect_exit 0 "merge an empty shard" -- "$FLEETSIM" merge empty-all.db empty.db
expect_in out "merged 0 runs: empty.db holds none" "nothing to merge"

# Merging a part again changes nothing (the runs' identities)
expect_exit 0 "merge part 2 again" -- "$FLEETSIM" merge all.db part-2.db part-2.db
expect_in out "merged 0 runs from part-2.db: all.db holds them already" "nothing merged twice"
expect_eq "$(sql all.db "SELECT count(*) FROM run")" 36 "still 36 runs"
db_rows all.db >again.rows
checks=$((checks + 1))
cmp -s all.rows again.rows || fail "merging again changed rows"

# --shard auto: Slurm (array 1-4: task 3 is shard 3/4), Kubernetes,
# Open MPI, PMI: each the same runs as --shard 3/4.
names() { sql "$1" "SELECT name || '/' || replication FROM run ORDER BY 1"; }
ENV="SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=4"
expect_exit 0 "Slurm array task" -- sweep --shard auto --db slurm.db
expect_in out "shard 3/4 (Slurm array task 3)" "Slurm task named"
expect_eq "$(names slurm.db)" "$(names part-3.db)" "Slurm task 3 of 1-4 = shard 3/4"
ENV="JOB_COMPLETION_INDEX=2"
expect_exit 0 "Kubernetes indexed Job" -- sweep --shard auto --shard-count 4 --db k8s.db --quiet
expect_eq "$(names k8s.db)" "$(names part-3.db)" "completion index 2 = shard 3/4"
ENV="OMPI_COMM_WORLD_RANK=2 OMPI_COMM_WORLD_SIZE=4"
expect_exit 0 "Open MPI rank" -- sweep --shard auto --db mpi.db --quiet
expect_eq "$(names mpi.db)" "$(names part-3.db)" "rank 2 of 4 = shard 3/4"
ENV="PMI_RANK=2 PMI_SIZE=4"
expect_exit 0 "PMI rank" -- sweep --shard auto --db pmi.db --quiet
expect_eq "$(names pmi.db)" "$(names part-3.db)" "PMI rank 2 of 4 = shard 3/4"

# Bad shards: usage errors, nothing written
expect_exit 2 "--shard 0/4" -- sweep --shard 0/4 --db bad.db
expect_in err "shards are numbered from 1 to 4" "0/4 refused"
expect_exit 2 "--shard 5/4" -- sweep --shard 5/4 --db bad.db
expect_exit 2 "--shard x" -- sweep --shard x --db bad.db
expect_in err "expected I/N (shard I of N, from 1/N to N/N) or auto, got 'x'" "x refused"
expect_exit 2 "--shard auto, no batch system" -- env -u SLURM_ARRAY_TASK_ID -u JOB_COMPLETION_INDEX -u OMPI_COMM_WORLD_RANK -u PMI_RANK "$FLEETSIM" sweep grid.ini --vary pool.od.count=1,2 --shard auto --db bad.db
expect_in err "--shard auto: no batch system found" "auto without a batch system"
ENV="JOB_COMPLETION_INDEX=1"
expect_exit 2 "Kubernetes without a count" -- sweep --shard auto --db bad.db
expect_in err "add --shard-count N" "the count asked for"
ENV="SLURM_ARRAY_TASK_ID=4 SLURM_ARRAY_TASK_COUNT=4"
expect_exit 2 "index past the count" -- sweep --shard auto --db bad.db
expect_in err "is shard 4, but there are only 4" "task past the count"
ENV=
expect_exit 2 "--shard-count without auto" -- sweep --shard 1/4 --shard-count 4 --db bad.db
checks=$((checks + 1)); [ ! -e bad.db ] || fail "a bad --shard wrote a database"

# Refused parts: named, nothing written (not even the new target)
cp all.db before.db
echo "not a database at all, just text padded out to a page or two" >corrupt.db
sqlite3 foreign.db "CREATE TABLE t(x); PRAGMA application_id = 42;"
cp part-1.db newer.db; sql newer.db "PRAGMA user_version = 99"
for bad in corrupt foreign newer; do
    expect_exit 1 "merge a $bad part" -- "$FLEETSIM" merge all.db part-1.db $bad.db
    expect_in err "$bad.db: " "the $bad part named"
    expect_exit 1 "merge a $bad part into a new file" -- "$FLEETSIM" merge new.db part-1.db $bad.db
    checks=$((checks + 1)); [ ! -e new.db ] || fail "a refused merge created new.db"
done
expect_in err "newer than this fleetsim" "the newer part refused as newer"
# a part whose pages are damaged past its schema: found while copying,
# the whole merge rolled back
cp part-1.db damaged.db
dd if=/dev/zero of=damaged.db bs=1 seek=50000 count=4000 conv=notrunc 2>/dev/null
expect_exit 1 "merge a part damaged inside" -- "$FLEETSIM" merge all.db part-2.db damaged.db
expect_in err "damaged.db: " "the damaged part named"
expect_exit 1 "merge a part damaged inside into a new file" -- "$FLEETSIM" merge new.db part-2.db damaged.db
checks=$((checks + 1)); [ ! -e new.db ] || fail "a merge rolled back left new.db"
checks=$((checks + 1))
cmp -s all.db before.db || fail "a refused merge changed all.db"
expect_exit 2 "merge without parts" -- "$FLEETSIM" merge all.db
expect_exit 1 "merge a file into itself" -- "$FLEETSIM" merge all.db all.db
expect_in err "is the database itself" "itself refused"

# An older part (schema version 10: no run.uid, no run.cost_unrounded_usd, no cost_allocation.profile, no pool LLM latency) is migrated in a copy: the
# part is left byte for byte, its runs merged once however often.
cp part-4.db old.db
sql old.db "PRAGMA journal_mode = DELETE; DROP INDEX run_uid; ALTER TABLE run DROP COLUMN uid; DROP VIEW run_summary; ALTER TABLE run DROP COLUMN cost_unrounded_usd; ALTER TABLE cost_allocation DROP COLUMN profile; ALTER TABLE pool DROP COLUMN ttft_p50_s; ALTER TABLE pool DROP COLUMN ttft_p99_s; ALTER TABLE pool DROP COLUMN tpot_p50_s; ALTER TABLE pool DROP COLUMN tpot_p99_s; ALTER TABLE pool DROP COLUMN e2e_p50_s; ALTER TABLE pool DROP COLUMN e2e_p99_s; ALTER TABLE pool DROP COLUMN ttft_p90_s; ALTER TABLE pool DROP COLUMN tpot_p90_s; ALTER TABLE pool DROP COLUMN e2e_p90_s; ALTER TABLE pool DROP COLUMN ttft_mean_s; ALTER TABLE pool DROP COLUMN tpot_mean_s; ALTER TABLE pool DROP COLUMN e2e_mean_s; ALTER TABLE latency DROP COLUMN wait_p50_s; ALTER TABLE latency DROP COLUMN wait_p90_s; ALTER TABLE latency DROP COLUMN wait_p99_s; ALTER TABLE pool DROP COLUMN gpu_hours_busy_sm; ALTER TABLE slice_utilization DROP COLUMN sm_share; DROP TABLE prefix_cache; DROP TABLE spec_decode; DROP TABLE kv_transfer; DROP TABLE run_growth; ALTER TABLE pool DROP COLUMN cold_starts; ALTER TABLE pool DROP COLUMN load_s; ALTER TABLE pool DROP COLUMN energy_kwh; ALTER TABLE cost_allocation DROP COLUMN energy_kwh; DROP TABLE cost_extra; DROP TABLE budget; DROP TABLE tenancy; DROP TABLE adapter; PRAGMA user_version = 10;" >/dev/null
sum=$(cksum <old.db)
expect_exit 0 "merge an older part" -- "$FLEETSIM" merge old-into.db part-1.db old.db
expect_in out "merged 9 runs from old.db" "older part merged"
expect_exit 0 "merge the older part again" -- "$FLEETSIM" merge old-into.db old.db
expect_in out "merged 0 runs from old.db: old-into.db holds them already" "older part merged once"
expect_eq "$(cksum <old.db)" "$sum" "the older part not modified"
expect_eq "$(sql old.db "PRAGMA user_version")" 10 "the older part still version 10"
expect_eq "$(sql old-into.db "SELECT count(*) FROM run WHERE uid LIKE 'legacy:%'")" 9 "its runs got identities"

# import: the same kept database twice copies it once
expect_exit 0 "import" -- "$FLEETSIM" import --db imp.db part-1.db
expect_in out "imported 9 runs from part-1.db into imp.db as runs 1-9" "import copies"
expect_exit 0 "import again" -- "$FLEETSIM" import --db imp.db part-1.db
expect_in out "imported 0 runs from part-1.db: imp.db holds them already" "import again copies nothing"
expect_eq "$(sql imp.db "SELECT count(*) FROM run")" 9 "still 9 runs"

# doc/sweeps.md's GNU parallel recipe (a loop where parallel is missing)
if command -v parallel >/dev/null 2>&1; then
    expect_exit 0 "GNU parallel" -- parallel "$FLEETSIM" sweep grid.ini --vary pool.od.count=1,2,3,4 \
        --vary "workload.w.service='exponential(mean=200ms),exponential(mean=300ms),exponential(mean=400ms)'" \
        --replications 3 --shard {}/3 --db gp-{}.db --quiet ::: 1 2 3
else
    for i in 1 2 3; do sweep --shard $i/3 --db gp-$i.db --quiet >/dev/null; done
fi
expect_exit 0 "merge the parallel parts" -- "$FLEETSIM" merge gp.db gp-1.db gp-2.db gp-3.db
db_rows gp.db >gp.rows
checks=$((checks + 1))
cmp -s one.rows gp.rows || fail "GNU parallel shards differ from one machine"

# The Kubernetes manifest: its pods' command, run here for each completion
# index with the volumes as directories, merged, equals the sweep on one
# machine (the scenario of the manifest's --vary keys).
Y="$SRCDIR/contrib/k8s/sweep-job.yaml"
cmd=$(sed -n '/- >-/,/volumeMounts:/p' "$Y" | sed -e '1d' -e '$d' -e 's/^ *//' | tr '\n' ' ')
n=$(sed -n 's/^ *completions: *\([0-9]*\).*/\1/p' "$Y")
expect_in "$Y" "completionMode: Indexed" "an indexed Job"
expect_eq "$(printf '%s' "$cmd" | grep -o -- '--shard-count [0-9]*')" "--shard-count $n" "--shard-count = completions"
mkdir -p k8s/scenarios k8s/scratch k8s/results
sed -e 's/^\[pool.od\]/[pool.gpu]/' -e 's/pools = od/pools = gpu/' -e 's/^\[workload.w\]/[workload.chat]/' grid.ini >k8s/scenarios/grid.ini
kcmd=$(printf '%s' "$cmd" | sed -e "s|fleetsim sweep|\"$FLEETSIM\" sweep|" -e "s|/scenarios/|$TMP/k8s/scenarios/|g" \
    -e "s|/scratch/|$TMP/k8s/scratch/|g" -e "s|/results/|$TMP/k8s/results/|g")
i=0
while [ $i -lt "$n" ]; do
    rm -f k8s/scratch/*
    expect_exit 0 "Kubernetes pod $i" -- env JOB_COMPLETION_INDEX=$i sh -c "$kcmd"
    i=$((i + 1))
done
expect_exit 0 "merge the pods' parts" -- "$FLEETSIM" merge k8s/all.db k8s/results/part-0.db k8s/results/part-1.db k8s/results/part-2.db k8s/results/part-3.db
whole=$(printf '%s' "$kcmd" | sed -e 's/ --shard auto --shard-count [0-9]*//' -e 's| --db [^ ]*| --db k8s/one.db|' -e 's/ &&.*//')
expect_exit 0 "the manifest's sweep on one machine" -- sh -c "$whole"
expect_eq "$(sql k8s/all.db "SELECT count(*) FROM run")" 36 "12 points x 3 replications from 4 pods"
db_rows k8s/one.db >k8s-one.rows
db_rows k8s/all.db >k8s-all.rows
checks=$((checks + 1))
cmp -s k8s-one.rows k8s-all.rows || fail "the Kubernetes pods' sweep differs from one machine's"

report
