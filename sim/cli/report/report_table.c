/* report_table.c -- appending cells to a table of `fleetsim report`
 * (fs_rtable, report.h).
 *
 * Apart from report_data.c, which gathers the whole report and calls the
 * brief (report_brief.c) and the reservation recommendation
 * (report_roi.c): they fill tables too, and call down to this file, never
 * up into report_data.c. */
#include "sim/cli/report/report.h"
#include "sim/base/vec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int fs_report_vappend(char ***v, size_t *n, size_t *cap, fs_error *err,
                      const char *fmt, va_list ap)
{
    char **grown = fs_vec_grow(*v, cap, *n + 1, sizeof *grown);
    if (!grown)
        return fs_error_set(err, "out of memory");
    *v = grown;
    if (vasprintf(&grown[*n], fmt, ap) < 0)
        return fs_error_set(err, "out of memory");
    ++*n;
    return 0;
}

static int add_formatted(fs_rtable *t, fs_error *err, const char *fmt,
                         va_list ap)
{
    int rc = fs_report_vappend(&t->cells, &t->ncells, &t->cap, err, fmt, ap);
    t->nrows = t->ncells / (size_t)t->ncols;
    return rc;
}

int fs_rtable_addf(fs_rtable *t, fs_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = add_formatted(t, err, fmt, ap);
    va_end(ap);
    return rc;
}

void fs_rtable_setup(fs_rtable *t, const char *title, const char *intro,
                     int ncols, const char *const *head)
{
    t->title = title;
    t->intro = intro;
    t->ncols = ncols;
    t->head = head;
}

int fs_rtable_add(fs_rtable *t, const char *text, fs_error *err)
{
    return fs_rtable_addf(t, err, "%s", text);
}

int fs_report_write(const fs_report *r, const fs_report_format *f,
                    char *const *chart_files, FILE *out)
{
    f->head(out);
    fputs("Runs: ", out);
    for (size_t i = 0; i < r->nruns; i++) {
        fputs(i ? ", " : "", out);
        f->esc(out, r->run_names[i]);
    }
    fputs(". Baseline: ", out);
    f->esc(out, r->baseline_name);
    fputs(".", out);
    fputs(f->after_runs, out);
    f->brief(out, &r->brief);
    for (int k = 0; k < FS_REPORT_TABLES; k++)
        /* a table no run fills is left out: no title, or optional and empty */
        if (r->tables[k].title &&
            (!r->tables[k].optional || r->tables[k].nrows))
            f->table(out, &r->tables[k]);
    fputs(f->charts, out);
    for (size_t i = 0; i < r->ncharts; i++)
        if (r->charts[i].svg || r->charts[i].note)   /* else left out */
            f->chart(out, &r->charts[i], chart_files ? chart_files[i] : NULL);
    fputs(f->tail, out);
    return ferror(out) ? -1 : 0;
}
