/* jobs_generic.c -- the generic jobs CSV (format=generic):
 *
 *   job_id,submit_s,gpus,duration_s[,deadline_s,priority]
 *
 * submit_s and deadline_s are seconds from the scenario start; duration_s
 * is the run time on the pool's GPU with no interruption; priority is an
 * integer, higher first (0 when the column is absent or the cell empty).
 * A row with an empty deadline has none. */
#include "traces/jobs.h"
#include "sim/base/grammar.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { C_ID, C_SUBMIT, C_GPUS, C_DURATION, C_DEADLINE, C_PRIORITY };

static const char *const names[] = {
    "job_id", "submit_s", "gpus", "duration_s", "deadline_s", "priority",
};

static int generic_bind(const fs_csv *header, fs_jobs_cols *cols,
                        fs_error *err)
{
    for (int i = 0; i < 6; i++) {
        cols->c[i] = fs_csv_column(header, names[i]);
        if (cols->c[i] < 0 && i <= C_DURATION)
            return fs_error_at(err, fs_csv_path(header), 1, names[i],
                               "no column '%s' in the header (generic jobs: "
                               "job_id,submit_s,gpus,duration_s"
                               "[,deadline_s,priority])", names[i]);
    }
    return 0;
}

static const char *cell(const fs_csv *row, int col)
{
    return col < 0 ? "" : fs_csv_field(row, (size_t)col);
}

static fs_jobs_row generic_parse(const fs_csv *row, const fs_jobs_cols *cols,
                                 fs_job_spec *out, const char **key,
                                 char *why, size_t whylen)
{
    const char *id = cell(row, cols->c[C_ID]);
    double v[6];
    *key = names[C_ID];
    if (!*id || strlen(id) >= sizeof out->id)
        return snprintf(why, whylen, "a job id of 1 to %zu bytes, got '%s'",
                        sizeof out->id - 1, id), FS_JOBS_ROW_BAD;
    snprintf(out->id, sizeof out->id, "%s", id);
    for (int i = C_SUBMIT; i <= C_PRIORITY; i++) {
        const char *s = cell(row, cols->c[i]);
        *key = names[i];
        v[i] = NAN;
        if (!*s && i >= C_DEADLINE)
            continue;
        if (fs_csv_number(s, &v[i]))
            return snprintf(why, whylen, "expected a number, got '%s'", s),
                   FS_JOBS_ROW_BAD;
    }
    *key = names[C_SUBMIT];
    if (v[C_SUBMIT] < 0 || v[C_SUBMIT] > FS_DURATION_MAX)
        return snprintf(why, whylen, "expected seconds from 0 to %.0f "
                        "(3650 days), got %g", FS_DURATION_MAX, v[C_SUBMIT]),
               FS_JOBS_ROW_BAD;
    *key = names[C_GPUS];
    if (v[C_GPUS] < 1 || v[C_GPUS] > 65536 || v[C_GPUS] != floor(v[C_GPUS]))
        return snprintf(why, whylen, "expected a whole number of GPUs from 1 "
                        "to 65536, got %g", v[C_GPUS]), FS_JOBS_ROW_BAD;
    *key = names[C_DURATION];
    if (!(v[C_DURATION] > 0) || v[C_DURATION] > FS_DURATION_MAX)
        return snprintf(why, whylen, "expected seconds above 0 and at most "
                        "%.0f (3650 days: a job that never ends), got %g",
                        FS_DURATION_MAX, v[C_DURATION]), FS_JOBS_ROW_BAD;
    *key = names[C_DEADLINE];
    if (!isnan(v[C_DEADLINE]) && !(v[C_DEADLINE] > v[C_SUBMIT]))
        return snprintf(why, whylen, "deadline %g is not after the job's "
                        "submission (submit_s %g): deadline_s is seconds "
                        "from the scenario start, like submit_s",
                        v[C_DEADLINE], v[C_SUBMIT]), FS_JOBS_ROW_BAD;
    *key = names[C_PRIORITY];
    if (!isnan(v[C_PRIORITY]) && (fabs(v[C_PRIORITY]) > 1e6 ||
                                  v[C_PRIORITY] != floor(v[C_PRIORITY])))
        return snprintf(why, whylen, "expected a whole number from -1000000 "
                        "to 1000000"), FS_JOBS_ROW_BAD;
    out->submit_s = v[C_SUBMIT];
    out->gpus = (int)v[C_GPUS];
    out->milli = out->gpus * 1000;
    out->duration_s = v[C_DURATION];
    out->deadline_s = v[C_DEADLINE];
    out->priority = isnan(v[C_PRIORITY]) ? 0 : (int)v[C_PRIORITY];
    return FS_JOBS_ROW_JOB;
}

const fs_jobs_format fs_jobs_generic = {
    .name = "generic",
    .bind = generic_bind,
    .parse = generic_parse,
};
