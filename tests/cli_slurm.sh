#!/bin/bash
# cli_slurm.sh -- a sharded sweep on a REAL single-node Slurm: munged,
# slurmctld and slurmd started here, on localhost, with a private key,
# configuration, ports and state, all under this test's temporary
# directory; contrib/slurm/sweep.sbatch submitted as a 4-task job array
# with `sbatch --wait`; the parts merged and compared row for row (every
# table, reals bit for bit, costs to the cent) with the same sweep on one
# machine.  Then contrib/slurm/submit.sh: the array and a merge job that
# waits for it (--dependency=afterok).
#
# Nothing outside the temporary directory is touched: no system
# configuration file is read or written (the daemons and clients get
# SLURM_CONF, slurm.conf points munge's clients at the private socket with
# AuthInfo=socket=..., the plugstack and cgroup files are private), and
# every daemon started here is stopped at the end, on failure too (trap),
# by the pid it was started with.
#
# Needs root and Debian's slurm-wlm and munge (.ci/run installs them);
# otherwise it is skipped (exit 77) with the reason.
. "$(dirname "$0")/cli_lib.sh"
. "$(dirname "$0")/db_rows.sh"

skip() { echo "SKIP: cli_slurm: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (slurmd runs jobs as their user)"
for cmd in munged slurmctld slurmd sbatch sinfo scontrol; do
    command -v $cmd >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
    command -v $cmd >/dev/null 2>&1 || skip "$cmd not installed (apt-get install slurm-wlm munge)"
done
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (to find free ports)"

S=$TMP/slurm
mkdir -p "$S/state" "$S/spool" "$S/munge" "$S/out"
chmod 700 "$S/munge"
pids=""
# The processes Slurm started for this test (job steps, their fleetsims):
# those whose environment holds this test's SLURM_CONF, but this shell.
job_pids() {
    grep -lzx "SLURM_CONF=$S/slurm.conf" /proc/[0-9]*/environ 2>/dev/null |
        cut -d/ -f3 | grep -vx "$$"
}
stop_all() {
    # cancel this cluster's jobs first, so their steps end cleanly
    [ -f "$S/slurm.conf" ] && SLURM_CONF="$S/slurm.conf" timeout 10 scancel --quiet -u "$(id -un)" 2>/dev/null
    sleep 0.5
    pids="$pids $(job_pids)"
    for p in $pids; do kill "$p" 2>/dev/null; done
    # bounded wait, then KILL what is left
    for _ in $(seq 50); do
        alive=""
        for p in $pids; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
        [ -z "$alive" ] && break
        sleep 0.1
    done
    for p in $alive; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$TMP"
}
trap stop_all EXIT
trap 'exit 1' INT TERM HUP      # through the EXIT trap: the daemons stopped
# bg CMD...: runs a long client command in the background and waits for it,
# so that a signal to this test is acted on at once (bash runs a trap only
# after a foreground command ends); stop_all stops it too.
bg() { "$@" & pids="$pids $!"; wait $!; }
deadline=$(( $(date +%s) + 600 ))     # the whole test: at most 10 minutes
in_time() { [ "$(date +%s)" -lt "$deadline" ]; }
die() {
    fail "$*"
    for f in "$S"/*.log; do echo "--- $(basename "$f")"; tail -15 "$f"; done
    report
}

# munge: a private key, socket, pid and seed file
dd if=/dev/urandom of="$S/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$S/munge/munge.key"
munged --foreground --force --socket="$S/munge/sock" --key-file="$S/munge/munge.key" \
    --pid-file="$S/munge/munged.pid" --log-file="$S/munged.log" \
    --seed-file="$S/munge/seed" >/dev/null 2>&1 &
pids="$pids $!"
for _ in $(seq 100); do [ -S "$S/munge/sock" ] && break; sleep 0.1; done
[ -S "$S/munge/sock" ] || die "munged did not start"

# Two free ports, and the node's processors
read -r p1 p2 <<EOF
$(python3 -c 'import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
EOF
cpus=$(nproc)
cat >"$S/slurm.conf" <<EOF
ClusterName=fleetsimtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$p1
SlurmdPort=$p2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$S/munge/sock
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
PlugStackConfig=$S/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdTimeout=300
MinJobAge=600
MailProg=/bin/true
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
: >"$S/plugstack.conf"
# slurmd 22.05 loads a cgroup plugin whatever the rest says.  cgroup/v1,
# with proctrack/linuxproc and task/none, creates no cgroup: used where v1
# is mounted.  On a v2-only host cgroup/v2 (without systemd) is the only
# choice, and slurmd makes its own cgroup beside the one it runs in.
if awk '$3 == "cgroup" && $4 ~ /freezer/ { f = 1 } END { exit !f }' /proc/mounts; then
    cgplugin=cgroup/v1
else
    cgplugin=cgroup/v2
fi
cat >"$S/cgroup.conf" <<EOF
CgroupPlugin=$cgplugin
IgnoreSystemd=yes
EOF
export SLURM_CONF="$S/slurm.conf"
slurmctld -D -i -f "$S/slurm.conf" >"$S/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -N localhost -f "$S/slurm.conf" >"$S/slurmd.out" 2>&1 &
pids="$pids $!"

# Wait for the node to be idle (a busy machine may take a while)
state=""
while in_time; do
    state=$(sinfo -h -N -o %t 2>/dev/null | head -1)
    case $state in idle*) break ;; esac
    bg sleep 1
done
case $state in idle*) ;; *) die "the node never became idle (state '$state')" ;; esac

# The grid (tests/data/grid.ini): 12 points x 3 replications, one L4
# each ($0.706832/h), 2 h
cd "$TMP"
cp "$SRCDIR/tests/data/grid.ini" grid.ini
set -- grid.ini --vary pool.od.count=1,2,3,4 \
    --vary 'workload.w.service=exponential(mean=200ms),exponential(mean=300ms),exponential(mean=400ms)' \
    --replications 3
expect_exit 0 "the sweep on one machine" -- "$FLEETSIM" sweep "$@" --db one.db --quiet
db_rows one.db >one.rows

# The array: 4 tasks, sbatch --wait returns when all have ended
export FLEETSIM FLEETSIM_CATALOG
mkdir -p parts "$S/tmp"
export TMPDIR="$S/tmp"      # the jobs' scratch (sweep.sbatch) stays in here
expect_exit 0 "sbatch --wait, 4 array tasks" -- bg timeout $((deadline - $(date +%s))) \
    sbatch --wait --array=0-3 --output="$S/out/task-%a.out" \
    "$SRCDIR/contrib/slurm/sweep.sbatch" "$TMP/parts" "$@" ||
    { mkdir -p parts; cat "$S"/out/*.out; }
mkdir -p parts
expect_eq "$(ls parts | grep -c '^part-[0-3]\.db$')" 4 "4 parts written"
expect_in "$S/out/task-2.out" "shard 2 of 4 stored in $TMP/parts/part-2.db" "task 2 says what it stored"
expect_eq "$(for i in 0 1 2 3; do sql parts/part-$i.db "SELECT count(*) FROM run"; done | tr '\n' ' ')" "9 9 9 9 " "9 runs in each part"
expect_exit 0 "merge the parts" -- "$FLEETSIM" merge all.db parts/part-0.db parts/part-1.db parts/part-2.db parts/part-3.db
expect_in out "merged 36 runs from 4 files into all.db" "36 runs merged"
db_rows all.db >all.rows
checks=$((checks + 1))
cmp -s one.rows all.rows || { fail "the Slurm sweep differs from one machine's"; diff one.rows all.rows | head -5; }
expect_eq "$(sql all.db "SELECT group_concat(DISTINCT printf('%.2f', total_cost_usd)) FROM (SELECT total_cost_usd FROM run_summary ORDER BY total_cost_usd)")" \
    "1.41,2.83,4.24,5.65" "costs: count x 0.706832 x 2 h, to the cent"

# submit.sh: the array and a merge job after it (afterok)
expect_exit 0 "submit.sh" -- "$SRCDIR/contrib/slurm/submit.sh" "$TMP/sub" 3 "$@"
merge_id=$(awk '$1 == "merge" { print $2 }' out)
expect_eq "$(grep -c '^array [0-9]*$' out)" 1 "submit.sh: the array's id"
jobstate=""
while in_time; do
    jobstate=$(scontrol -o show job "$merge_id" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
    case $jobstate in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) break ;; esac
    bg sleep 1
done
expect_eq "$jobstate" COMPLETED "the dependent merge job completed"
if [ -f sub/all.db ]; then
    db_rows sub/all.db >sub.rows
    checks=$((checks + 1))
    cmp -s one.rows sub.rows || fail "submit.sh's merged sweep differs from one machine's"
else
    fail "submit.sh's merge wrote no sub/all.db"; cat sub/*.out 2>/dev/null | tail -5
fi

report
