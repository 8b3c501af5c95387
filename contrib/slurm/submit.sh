#!/bin/sh
# submit.sh -- submits a sharded fleetsim sweep to Slurm: a job array of
# TASKS tasks (contrib/slurm/sweep.sbatch, one shard each) and a merge job
# that starts once every task has succeeded (--dependency=afterok; it is
# cancelled if one fails: --kill-on-invalid-dep), writing
# OUTDIR/all.db.  Prints the array's job id and the merge's.
#
#   contrib/slurm/submit.sh OUTDIR TASKS SCENARIO --vary ... [sweep options]
#
# SBATCH_* environment variables (SBATCH_PARTITION, SBATCH_ACCOUNT, ...)
# reach both jobs; FLEETSIM names the binary (default: fleetsim on PATH).
set -eu
if [ $# -lt 4 ]; then
    echo "usage: submit.sh OUTDIR TASKS SCENARIO --vary ... [sweep options]" >&2
    exit 2
fi
outdir=$1 tasks=$2
shift 2
case $tasks in
''|*[!0-9]*|0) echo "submit.sh: TASKS must be a whole number of at least 1, got '$tasks'" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
fleetsim=${FLEETSIM:-fleetsim}
array=$(sbatch --parsable --array=0-$((tasks - 1)) \
    --output="$outdir/sweep-%A_%a.out" "$here/sweep.sbatch" "$outdir" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$array" --kill-on-invalid-dep=yes \
    --job-name=fleetsim-merge \
    --output="$outdir/merge-%j.out" \
    --wrap="\"$fleetsim\" merge \"$outdir/all.db\" \"$outdir\"/part-*.db")
merge=${merge%%;*}
echo "array $array"
echo "merge $merge"
