/* sweep_table.c -- the results of `fleetsim sweep`: each point's
 * run_summary (means over its replications), the cost-vs-p99 Pareto
 * front, and the table printed at the end. */
#include "sim/cli/sweep/sweep.h"
#include "sim/app/summary.h"
#include "sim/base/textout.h"
#include "sim/store/columns.h"
#include "sim/store/store.h"
#include "sim/store/store_query.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>


/* The sums and counts of one point's columns, run by run. */
typedef struct point_sums {
    double sum[6];
    int cnt[6];
    int found;
} point_sums;

/* Adds each column of the run's row, counting it unless NULL. */
static int add_run(const fs_row *row, void *ctx, fs_error *err)
{
    (void)err;
    point_sums *ps = ctx;
    for (int c = 0; c < 6; c++)
        if (!fs_row_null(row, c)) {
            ps->sum[c] += fs_row_double(row, c);
            ps->cnt[c]++;
        }
    ps->found = 1;
    return 1;
}

/* The means of one point's runs; a column NULL in any run is NaN. */
static int read_point(fs_store *s, fs_sweep_point *pt, fs_error *err)
{
    point_sums ps = {{0}, {0}, 0};
    double *sum = ps.sum;
    int *cnt = ps.cnt;
    for (long k = 0; k < pt->nids; k++) {
        fs_query_arg a = {pt->ids[k], NULL, 0};
        fs_error e;
        ps.found = 0;
        if (fs_store_each(s, FS_Q_SWEEP_POINT, &a, add_run, &ps, &e) ||
            !ps.found)
            return fs_error_set(err, "run %ld of %s: %s", pt->ids[k],
                                pt->name, ps.found ? e.msg : "not found");
    }
    double *out[6] = {&pt->cost, &pt->rate, &pt->p99, &pt->slo,
                      &pt->unfinished, &pt->unfinished_share};
    for (int c = 0; c < 6; c++)
        *out[c] = cnt[c] == pt->nids && cnt[c] ? sum[c] / cnt[c] : NAN;
    pt->overloaded = pt->unfinished_share > FS_OVERLOADED_SHARE;
    return 0;
}

int fs_sweep_read_results(const char *db, fs_sweep_point *pts, long n,
                          fs_error *err)
{
    fs_store *s = fs_store_open(db, FS_STORE_READONLY, err);
    if (!s)
        return -1;
    int rc = 0;
    for (long p = 0; p < n && rc == 0; p++)
        if (pts[p].ok)
            rc = read_point(s, &pts[p], err);
    fs_store_close(s);
    return rc ? -1 : 0;
}

/* True when q is at least as good as p on cost and p99, better on one. */
static int dominates(const fs_sweep_point *q, const fs_sweep_point *p)
{
    return q->cost <= p->cost && q->p99 <= p->p99 &&
           (q->cost < p->cost || q->p99 < p->p99);
}

/* Overloaded points are off the plane: their p99 leaves out what never
 * finished, so it would look better than it is. */
static int on_plane(const fs_sweep_point *p)
{
    return p->ok && !p->overloaded && !isnan(p->cost) && !isnan(p->p99);
}

void fs_sweep_mark_front(fs_sweep_point *pts, long n)
{
    for (long p = 0; p < n; p++) {
        pts[p].front = on_plane(&pts[p]);
        for (long q = 0; q < n && pts[p].front; q++)
            if (q != p && on_plane(&pts[q]) && dominates(&pts[q], &pts[p]))
                pts[p].front = 0;
    }
}

void fs_sweep_describe_status(int wstatus, char *buf, size_t size)
{
    if (WIFSIGNALED(wstatus))
        snprintf(buf, size, "killed by signal %d (%s)", WTERMSIG(wstatus),
                 strsignal(WTERMSIG(wstatus)));
    else if (WIFEXITED(wstatus))
        snprintf(buf, size, "exit status %d", WEXITSTATUS(wstatus));
    else
        snprintf(buf, size, "ended (wait status %d)", wstatus);
}

/* The width of the widest escaped name, at least that of the heading. */
static size_t name_width(char **names, long n)
{
    size_t w = 4;
    for (long p = 0; p < n; p++) {
        size_t pw = names[p] ? fs_text_width(names[p]) : 0;
        w = pw > w ? pw : w;
    }
    return w;
}

static void print_row(FILE *out, const fs_sweep_point *pt, long p,
                      const char *name, int width)
{
    int pad = width - (int)fs_text_width(name);
    fprintf(out, "%5ld  ", p + 1);
    if (!pt->ok) {
        char why[96];
        fs_sweep_describe_status(pt->wstatus, why, sizeof why);
        fprintf(out, "%6s  %s%*s  failed: %s%s\n", "-", name, pad, "", why,
                pt->kept ? " (a run kept aside)" : "");
        return;
    }
    char cost[64], rate[64], p99[32], slo[32] = "-", un[32] = "-";
    fs_format_money(pt->cost, cost, sizeof cost);
    fs_format_money(pt->rate, rate, sizeof rate);
    if (isnan(pt->rate))
        snprintf(rate, sizeof rate, "-");
    fs_format_seconds(pt->p99, p99, sizeof p99);
    if (!isnan(pt->slo))
        snprintf(slo, sizeof slo, "%.2f%%", pt->slo * 100);
    if (!isnan(pt->unfinished_share))
        snprintf(un, sizeof un, "%.2f%%", pt->unfinished_share * 100);
    fprintf(out, "%6ld  %s%*s  %14s  %16s  %14s  %8s  %10s%s\n", pt->ids[0],
            name, pad, "", cost, rate, p99, slo, un,
            pt->front ? "  *" : pt->overloaded ? "  overloaded" : "");
}

/* The overloaded points, under the table: they are not on the front. */
static void print_overloaded(FILE *out, const fs_sweep_point *pts, long n,
                             char **names)
{
    long k = 0;
    for (long p = 0; p < n; p++)
        k += pts[p].ok && pts[p].overloaded;
    if (k == 0)
        return;
    fprintf(out, "overloaded (more than 1%% of requests unfinished at the "
            "horizon or dropped; p99 covers finished requests only), left "
            "off the front:\n");
    for (long p = 0; p < n; p++)
        if (pts[p].ok && pts[p].overloaded)
            fprintf(out, "  point %ld  %s: %s unfinished requests (%.2f%%)"
                    "\n", p + 1, names && names[p] ? names[p] : pts[p].name,
                    fs_format_thousands(pts[p].unfinished, 0,
                                        (char[32]){0}, 32),
                    pts[p].unfinished_share * 100);
}

void fs_sweep_print_table(FILE *out, const fs_sweep_point *pts, long n)
{
    char **names = calloc((size_t)n, sizeof *names);
    for (long p = 0; names && p < n; p++)
        names[p] = fs_text_escape(pts[p].name);
    int width = (int)name_width(names, names ? n : 0);
    fprintf(out, "%5s  %6s  %-*s  %14s  %16s  %14s  %8s  %10s  %s\n",
            "point", "run", width, "name", "total cost", "run rate (730 h)",
            "p99 (finished)", "SLO", "unfinished", "front");
    for (long p = 0; p < n; p++)
        print_row(out, &pts[p], p,
                  names && names[p] ? names[p] : pts[p].name, width);
    print_overloaded(out, pts, n, names);
    for (long p = 0; names && p < n; p++)
        free(names[p]);
    free(names);
}
