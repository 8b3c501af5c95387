/* jobs.h -- training job traces: a jobs CSV read into a list of jobs.
 *
 *   jobs = path(format=generic|openb)
 *
 * A format is a small table (fs_jobs_format): it finds its columns in the
 * header and turns one row into a job, a row to skip (not a GPU job), or
 * a job refused with a reason (kept, so that every job of the trace is
 * accounted for).  The file is streamed a row at a time with libcsv
 * (sim/base/csvin.h); the jobs themselves are kept, one small record each,
 * because each one becomes a row of the job table.
 *
 * A malformed row, or a submit time earlier than the row before it, stops
 * the read with "file:line: key: ...". */
#ifndef FS_JOBS_H
#define FS_JOBS_H

#include <stddef.h>
#include "sim/base/csvin.h"
#include "sim/base/error.h"
#include "sim/base/grammar.h"

typedef struct fs_job_spec {
    char id[64];
    double submit_s;       /* seconds from the scenario start */
    int gpus;              /* whole GPUs it needs (1 for a shared fraction) */
    int milli;             /* thousandths of a GPU in all: gpus * 1000, or
                              gpu_milli < 1000 for a shared fraction */
    double duration_s;     /* run time on the pool's GPU, no interruption */
    double deadline_s;     /* absolute, seconds from the start; NaN: none */
    int priority;          /* higher runs first; 0 by default */
    long line;             /* its line in the file */
    char reject[96];       /* "" unless the trace says it cannot run */
} fs_job_spec;

typedef struct fs_jobs {
    fs_job_spec *jobs;
    size_t n, cap;
    long skipped;          /* rows that are not GPU jobs (openb num_gpu 0) */
    char format[16];
    char path[1024];       /* as opened (relative to the scenario) */
} fs_jobs;

/* The columns a format found in the header (-1: absent). */
typedef struct fs_jobs_cols {
    int c[12];
} fs_jobs_cols;

typedef enum fs_jobs_row {
    FS_JOBS_ROW_JOB,       /* *out is a job (maybe with a reject reason) */
    FS_JOBS_ROW_SKIP,      /* not a GPU job */
    FS_JOBS_ROW_BAD,       /* malformed: why says which key and how */
} fs_jobs_row;

typedef struct fs_jobs_format {
    const char *name;
    /* Finds the columns; -1 with "path:1: ..." in err. */
    int (*bind)(const fs_csv *header, fs_jobs_cols *cols, fs_error *err);
    /* One row into a job; on FS_JOBS_ROW_BAD, key names the column. */
    fs_jobs_row (*parse)(const fs_csv *row, const fs_jobs_cols *cols,
                         fs_job_spec *out, const char **key, char *why,
                         size_t whylen);
} fs_jobs_format;

extern const fs_jobs_format fs_jobs_generic, fs_jobs_openb;

/* The most jobs one file may hold, and about what each costs in memory
 * while a run holds it (its record here, the scheduler's state, its place
 * in the queues and its result row; tests/test_jobs_limits.c checks the
 * sum): a million jobs is about 1 GB.  A larger trace is refused by name
 * before memory runs out. */
#define FS_JOBS_MAX 1000000
#define FS_JOBS_BYTES 1024

/* Reads the jobs of call (jobs = PATH(format=...)); a relative path
 * resolves against base_dir.  file, line and key name the scenario entry
 * for messages about the call itself.  -1 with a message in err (the
 * trace's own file:line for a bad row). */
int fs_jobs_read(const fs_call *call, const char *base_dir, const char *file,
                 int line, const char *key, fs_jobs *out, fs_error *err);
void fs_jobs_free(fs_jobs *j);
#endif
