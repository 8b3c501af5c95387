/* sweep_shard.c -- which slice of a sweep this process runs: `--shard
 * I/N`, or `--shard auto` from the batch system's environment.
 *
 * A sweep's work is its runs: every point's replications, numbered point
 * by point (point 1's replications first).  Shard I of N takes the runs
 * whose number is I-1 modulo N: disjoint slices that together are the
 * whole grid, balanced even when some points are slower (neighbouring
 * points go to different shards).  A run's random streams come from the
 * scenario's seed and its replication, never from the shard, so the
 * merged shards equal the sweep run on one machine, whatever N. */
#include "sim/cli/sweep/sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* A whole number of at least min in s (all of it) into *out; 0 or -1. */
static int whole(const char *s, long min, long *out)
{
    char *end;
    errno = 0;
    long n = s ? strtol(s, &end, 10) : 0;
    if (!s || !*s || *end || errno || n < min)
        return -1;
    *out = n;
    return 0;
}

int fs_sweep_shard_parse(const char *arg, fs_sweep_shard *sh, char *why,
                         size_t whylen)
{
    if (strcmp(arg, "auto") == 0) {
        sh->automatic = 1;
        return 0;
    }
    const char *slash = strchr(arg, '/');
    char first[32];
    long i, n;
    if (!slash || (size_t)(slash - arg) >= sizeof first)
        return fs_sweep_why(why, whylen, "expected I/N (shard I of N, from 1/N "
                       "to N/N) or auto, got '%s'", arg);
    memcpy(first, arg, (size_t)(slash - arg));
    first[slash - arg] = '\0';
    if (whole(first, 0, &i) || whole(slash + 1, 1, &n))
        return fs_sweep_why(why, whylen, "expected I/N with whole numbers (shard "
                       "I of N, from 1/N to N/N), got '%s'", arg);
    if (i < 1 || i > n)
        return fs_sweep_why(why, whylen, "shard %ld of %ld: shards are numbered "
                       "from 1 to %ld (a 0-based index is --shard auto's "
                       "job)", i, n, n);
    sh->index = i - 1;
    sh->count = n;
    return 0;
}

/* The environment variable name as a number, or -1 with why set. */
static int env_number(const char *name, long min, long *out, char *why,
                      size_t whylen)
{
    const char *v = getenv(name);
    if (whole(v, min, out))
        return fs_sweep_why(why, whylen, "--shard auto: %s is '%s', not a whole "
                       "number%s", name, v ? v : "", min ? " of at least 1"
                                                        : "");
    return 0;
}

/* Slurm job arrays: SLURM_ARRAY_TASK_ID from SLURM_ARRAY_TASK_MIN in steps
 * of SLURM_ARRAY_TASK_STEP, SLURM_ARRAY_TASK_COUNT tasks. */
static int from_slurm(fs_sweep_shard *sh, char *why, size_t whylen)
{
    long id, min = 0, step = 1;
    if (env_number("SLURM_ARRAY_TASK_ID", 0, &id, why, whylen) ||
        (getenv("SLURM_ARRAY_TASK_MIN") &&
         env_number("SLURM_ARRAY_TASK_MIN", 0, &min, why, whylen)) ||
        (getenv("SLURM_ARRAY_TASK_STEP") &&
         env_number("SLURM_ARRAY_TASK_STEP", 1, &step, why, whylen)))
        return -1;
    if (!sh->count && env_number("SLURM_ARRAY_TASK_COUNT", 1, &sh->count,
                                 why, whylen))
        return -1;
    if (id < min || (id - min) % step)
        return fs_sweep_why(why, whylen, "--shard auto: SLURM_ARRAY_TASK_ID %ld "
                       "is not in the array from %ld in steps of %ld", id,
                       min, step);
    sh->index = (id - min) / step;
    snprintf(sh->source, sizeof sh->source, "Slurm array task %ld", id);
    return 0;
}

/* A rank and size pair (MPI), or an index with --shard-count (Kubernetes
 * indexed Jobs). */
static int from_rank(fs_sweep_shard *sh, const char *rank, const char *size,
                     const char *what, char *why, size_t whylen)
{
    if (env_number(rank, 0, &sh->index, why, whylen))
        return -1;
    if (!sh->count && !size)
        return fs_sweep_why(why, whylen, "--shard auto: %s is set (%s) but the "
                       "number of shards is not: add --shard-count N (the "
                       "Job's completions)", rank, what);
    if (!sh->count && env_number(size, 1, &sh->count, why, whylen))
        return -1;
    snprintf(sh->source, sizeof sh->source, "%s %ld", what, sh->index);
    return 0;
}

int fs_sweep_shard_resolve(fs_sweep_shard *sh, char *why, size_t whylen)
{
    if (!sh->automatic) {
        if (sh->count && !sh->source[0])
            snprintf(sh->source, sizeof sh->source, "--shard");
        return 0;
    }
    int rc;
    if (getenv("SLURM_ARRAY_TASK_ID"))
        rc = from_slurm(sh, why, whylen);
    else if (getenv("JOB_COMPLETION_INDEX"))
        rc = from_rank(sh, "JOB_COMPLETION_INDEX", NULL,
                       "Kubernetes completion index", why, whylen);
    else if (getenv("OMPI_COMM_WORLD_RANK"))
        rc = from_rank(sh, "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
                       "Open MPI rank", why, whylen);
    else if (getenv("PMI_RANK"))
        rc = from_rank(sh, "PMI_RANK", "PMI_SIZE", "MPI rank", why, whylen);
    else
        return fs_sweep_why(why, whylen, "--shard auto: no batch system found "
                       "(none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, "
                       "OMPI_COMM_WORLD_RANK, PMI_RANK is set); give "
                       "--shard I/N");
    if (rc)
        return -1;
    if (sh->index >= sh->count)
        return fs_sweep_why(why, whylen, "--shard auto: %s is shard %ld, but there "
                       "are only %ld (from 0 to %ld)", sh->source, sh->index,
                       sh->count, sh->count - 1);
    return 0;
}

int fs_sweep_shard_takes(const fs_sweep_shard *sh, long run)
{
    return sh->count <= 1 || run % sh->count == sh->index;
}
