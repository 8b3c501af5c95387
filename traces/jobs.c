/* jobs.c -- reading a jobs CSV through its format's table; see jobs.h.
 *
 * The formats are the table below: one line each.  The file is streamed
 * with csvin (libcsv); each row becomes a job record, so that memory is
 * one small record per job and nothing else grows with the file. */
#include "traces/jobs.h"
#include "sim/base/vec.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const fs_jobs_format *const formats[] = {
    &fs_jobs_generic,
    &fs_jobs_openb,
    NULL,
};

static const fs_jobs_format *find_format(const char *name)
{
    for (const fs_jobs_format *const *f = formats; *f; f++)
        if (strcasecmp((*f)->name, name) == 0)
            return *f;
    return NULL;
}

static char *resolve(const char *base_dir, const char *path)
{
    if (path[0] == '/' || !base_dir || !base_dir[0] ||
        strcmp(base_dir, ".") == 0)
        return strdup(path);
    size_t n = strlen(base_dir) + strlen(path) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", base_dir, path);
    return p;
}

/* Checks the call: a path, format= one of the table's. */
static const fs_jobs_format *check_call(const fs_call *call, const char *file,
                                        int line, const char *key,
                                        fs_error *err)
{
    static const char *const keys[] = {"format", NULL};
    char why[256];
    if (!fs_call_positional(call, 0)) {
        fs_error_at(err, file, line, key, "expected trace(PATH, "
                    "format=generic|openb)");
        return NULL;
    }
    if (fs_call_check_keys(call, keys, why, sizeof why)) {
        fs_error_at(err, file, line, key, "%s", why);
        return NULL;
    }
    const char *name = fs_call_get(call, "format");
    const fs_jobs_format *f = find_format(name ? name : "generic");
    if (!f)
        fs_error_at(err, file, line, key, "unknown jobs format '%s' "
                    "(generic or openb)", name);
    return f;
}

/* The first id seen twice, by sorting pointers to the jobs: "" when every
 * id is unique.  *line is the later row's line. */
static int by_id(const void *a, const void *b)
{
    const fs_job_spec *x = *(const fs_job_spec *const *)a;
    const fs_job_spec *y = *(const fs_job_spec *const *)b;
    int c = strcmp(x->id, y->id);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int check_ids(const char *path, const fs_jobs_format *f,
                     const fs_jobs *jobs, fs_error *err)
{
    if (jobs->n < 2)
        return 0;
    const fs_job_spec **p = malloc(jobs->n * sizeof *p);
    if (!p)
        return fs_error_set(err, "out of memory reading %s", path);
    for (size_t i = 0; i < jobs->n; i++)
        p[i] = &jobs->jobs[i];
    qsort(p, jobs->n, sizeof *p, by_id);
    const fs_job_spec *dup = NULL, *first = NULL;
    for (size_t i = 1; i < jobs->n; i++)
        if (strcmp(p[i - 1]->id, p[i]->id) == 0 &&
            (!dup || p[i]->line < dup->line)) {
            dup = p[i];
            first = p[i - 1];
        }
    int rc = 0;
    if (dup)
        rc = fs_error_at(err, path, (int)dup->line,
                         strcmp(f->name, "openb") == 0 ? "name" : "job_id",
                         "job '%s' again (first on line %ld): each job needs "
                         "its own id", dup->id, first->line);
    free(p);
    return rc;
}

/* Reads the rows after the header into out. */
static int read_rows(fs_csv *csv, const fs_jobs_format *f,
                     const fs_jobs_cols *cols, fs_jobs *out, fs_error *err)
{
    int rc;
    double last = -INFINITY;
    while ((rc = fs_csv_next(csv, err)) == 1) {
        fs_job_spec job;
        memset(&job, 0, sizeof job);
        job.deadline_s = NAN;
        job.line = fs_csv_line(csv);
        const char *key = "";
        char why[256] = "";
        fs_jobs_row r = f->parse(csv, cols, &job, &key, why, sizeof why);
        if (r == FS_JOBS_ROW_BAD)
            return fs_error_at(err, fs_csv_path(csv), (int)job.line, key,
                               "%s", why);
        if (r == FS_JOBS_ROW_SKIP) {
            out->skipped++;
            continue;
        }
        if (job.submit_s < last)
            return fs_error_at(err, fs_csv_path(csv), (int)job.line,
                               strcmp(f->name, "openb") == 0
                                   ? "creation_time" : "submit_s",
                               "submit time %g is earlier than the row "
                               "before (%g): jobs must be in submit order",
                               job.submit_s, last);
        last = job.submit_s;
        if (out->n == FS_JOBS_MAX)
            return fs_error_at(err, fs_csv_path(csv), (int)job.line, NULL,
                               "more than %d jobs in one file (each job "
                               "holds about %d bytes while it runs): split "
                               "the trace or sample it", FS_JOBS_MAX,
                               FS_JOBS_BYTES);
        fs_job_spec *a = fs_vec_grow(out->jobs, &out->cap, out->n + 1,
                                     sizeof *a);
        if (!a)
            return fs_error_set(err, "out of memory reading %s",
                                fs_csv_path(csv));
        out->jobs = a;
        out->jobs[out->n++] = job;
    }
    if (rc < 0)
        return -1;
    if (out->n == 0 && out->skipped == 0)
        return fs_error_at(err, fs_csv_path(csv), (int)fs_csv_line(csv),
                           NULL, "no job rows after the header");
    return check_ids(fs_csv_path(csv), f, out, err);
}

int fs_jobs_read(const fs_call *call, const char *base_dir, const char *file,
                 int line, const char *key, fs_jobs *out, fs_error *err)
{
    memset(out, 0, sizeof *out);
    const fs_jobs_format *f = check_call(call, file, line, key, err);
    if (!f)
        return -1;
    snprintf(out->format, sizeof out->format, "%s", f->name);
    char *path = resolve(base_dir, fs_call_positional(call, 0));
    if (!path)
        return fs_error_set(err, "out of memory");
    snprintf(out->path, sizeof out->path, "%s", path);
    fs_csv *csv = fs_csv_open(path, err);
    fs_jobs_cols cols;
    memset(&cols, 0, sizeof cols);
    int rc = -1, got;
    if (!csv)
        fs_error_at(err, file, line, key, "cannot open %s: %s", path,
                    strerror(errno));
    else if ((got = fs_csv_next(csv, err)) == 0)
        fs_error_at(err, path, 1, key, "empty file: expected a header line");
    else if (got == 1 && f->bind(csv, &cols, err) == 0)
        rc = read_rows(csv, f, &cols, out, err);
    fs_csv_free(csv);
    free(path);
    return rc;
}

void fs_jobs_free(fs_jobs *j)
{
    free(j->jobs);
    memset(j, 0, sizeof *j);
}
