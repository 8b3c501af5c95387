/* sweep_table.c -- the results of `fleetsim sweep`: each point's
 * run_summary (means over its replications), the cost-vs-p99 Pareto
 * front, and the table printed at the end. */
#include "sim/cli/sweep/sweep.h"
#include "sim/cli/shared/summary.h"
#include "sim/base/textout.h"
#include "sim/store/columns.h"
#include "sim/store/store.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sqlite3.h>


/* Adds column i of st to *sum, counting it in *n unless NULL. */
static void add_column(sqlite3_stmt *st, int i, double *sum, int *n)
{
    if (sqlite3_column_type(st, i) == SQLITE_NULL)
        return;
    *sum += sqlite3_column_double(st, i);
    ++*n;
}

/* The means of one point's runs; a column NULL in any run is NaN. */
static int read_point(sqlite3_stmt *st, fs_sweep_point *pt, fs_error *err)
{
    double sum[6] = {0};
    int cnt[6] = {0};
    for (long k = 0; k < pt->nids; k++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, pt->ids[k]);
        int rc = sqlite3_step(st);
        if (rc != SQLITE_ROW)
            return fs_error_set(err, "run %ld of %s: %s", pt->ids[k],
                                pt->name, rc == SQLITE_DONE ? "not found"
                                : sqlite3_errmsg(sqlite3_db_handle(st)));
        for (int c = 0; c < 6; c++)
            add_column(st, c, &sum[c], &cnt[c]);
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
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(fs_store_db(s),
        "SELECT total_cost_usd, cost_per_month_usd, latency_p99_s,"
        " slo_attainment, requests_unfinished, unfinished_share"
        " FROM run_summary WHERE run_id = ?", -1, &st, NULL);
    if (rc != SQLITE_OK)
        rc = fs_error_set(err, "%s: %s", db, sqlite3_errmsg(fs_store_db(s)));
    for (long p = 0; p < n && rc == 0; p++)
        if (pts[p].ok)
            rc = read_point(st, &pts[p], err);
    sqlite3_finalize(st);
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
