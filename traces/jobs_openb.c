/* jobs_openb.c -- the Alibaba GPU-cluster pod list (format=openb):
 * cluster-trace-gpu-v2023, openb_pod_list_default.csv
 *
 *   name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,
 *   creation_time,deletion_time,scheduled_time
 *
 * A pod is a job submitted at creation_time that runs for deletion_time -
 * scheduled_time seconds.  Pods with num_gpu 0 are not GPU pods: skipped
 * and counted.  gpu_milli < 1000 on a one-GPU pod is a shared fraction of a
 * GPU.  A pod the trace never scheduled (Pending: no scheduled_time) has no
 * run time: it is kept as a job refused with that reason, so that every GPU
 * pod is accounted for. */
#include "traces/jobs.h"
#include "sim/base/grammar.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { C_NAME, C_NUM_GPU, C_GPU_MILLI, C_CREATION, C_DELETION, C_SCHEDULED };

static const char *const names[] = {
    "name", "num_gpu", "gpu_milli", "creation_time", "deletion_time",
    "scheduled_time",
};

static int openb_bind(const fs_csv *header, fs_jobs_cols *cols, fs_error *err)
{
    for (int i = 0; i < 6; i++) {
        cols->c[i] = fs_csv_column(header, names[i]);
        if (cols->c[i] < 0)
            return fs_error_at(err, fs_csv_path(header), 1, names[i],
                               "no column '%s' in the header (openb: the "
                               "Alibaba openb_pod_list)", names[i]);
    }
    return 0;
}

static fs_jobs_row openb_parse(const fs_csv *row, const fs_jobs_cols *cols,
                               fs_job_spec *out, const char **key, char *why,
                               size_t whylen)
{
    double v[6];
    const char *name = fs_csv_field(row, (size_t)cols->c[C_NAME]);
    *key = names[C_NAME];
    if (!*name || strlen(name) >= sizeof out->id)
        return snprintf(why, whylen, "a pod name of 1 to %zu bytes, got "
                        "'%s'", sizeof out->id - 1, name), FS_JOBS_ROW_BAD;
    for (int i = C_NUM_GPU; i <= C_SCHEDULED; i++) {
        const char *s = fs_csv_field(row, (size_t)cols->c[i]);
        *key = names[i];
        v[i] = NAN;
        if (!*s && i == C_SCHEDULED)
            continue;
        if (fs_csv_number(s, &v[i]) || v[i] < 0)
            return snprintf(why, whylen, "expected a number at least 0, got "
                            "'%s'", s), FS_JOBS_ROW_BAD;
    }
    *key = names[C_NUM_GPU];
    if (v[C_NUM_GPU] != floor(v[C_NUM_GPU]) || v[C_NUM_GPU] > 65536)
        return snprintf(why, whylen, "expected a whole number of GPUs, got "
                        "%g", v[C_NUM_GPU]), FS_JOBS_ROW_BAD;
    if (v[C_NUM_GPU] == 0)
        return FS_JOBS_ROW_SKIP;
    *key = names[C_GPU_MILLI];
    if (v[C_GPU_MILLI] > 1000 || v[C_GPU_MILLI] != floor(v[C_GPU_MILLI]))
        return snprintf(why, whylen, "expected thousandths of a GPU, 0 to "
                        "1000, got %g", v[C_GPU_MILLI]), FS_JOBS_ROW_BAD;
    snprintf(out->id, sizeof out->id, "%s", name);
    out->submit_s = v[C_CREATION];
    out->gpus = (int)v[C_NUM_GPU];
    out->milli = out->gpus * 1000;
    if (out->gpus == 1 && v[C_GPU_MILLI] > 0 && v[C_GPU_MILLI] < 1000)
        out->milli = (int)v[C_GPU_MILLI];
    out->deadline_s = NAN;
    out->priority = 0;
    *key = names[C_DELETION];
    if (isnan(v[C_SCHEDULED])) {
        out->duration_s = 0;
        snprintf(out->reject, sizeof out->reject, "never scheduled in the "
                 "trace (no scheduled_time): run time unknown");
        return FS_JOBS_ROW_JOB;
    }
    if (v[C_DELETION] < v[C_SCHEDULED])
        return snprintf(why, whylen, "deletion_time %g is before "
                        "scheduled_time %g", v[C_DELETION], v[C_SCHEDULED]),
               FS_JOBS_ROW_BAD;
    out->duration_s = v[C_DELETION] - v[C_SCHEDULED];
    if (out->duration_s > FS_DURATION_MAX)
        return snprintf(why, whylen, "the pod runs %g s, more than %.0f "
                        "(3650 days)", out->duration_s, FS_DURATION_MAX),
               FS_JOBS_ROW_BAD;
    *key = names[C_CREATION];
    if (out->submit_s > FS_DURATION_MAX)
        return snprintf(why, whylen, "creation_time %g is more than %.0f s "
                        "(3650 days) from the start", out->submit_s,
                        FS_DURATION_MAX), FS_JOBS_ROW_BAD;
    return FS_JOBS_ROW_JOB;
}

const fs_jobs_format fs_jobs_openb = {
    .name = "openb",
    .bind = openb_bind,
    .parse = openb_parse,
};
