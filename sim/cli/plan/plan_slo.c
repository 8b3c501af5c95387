/* plan_slo.c -- the SLOs of `fleetsim plan`: parsing --slo, reading a
 * run's metrics from the latency table, pass or fail.
 *
 * A metric is any REAL column NAME_s of the latency table (p99, ttft_p99,
 * tpot_p99, wait_mean, ...: whatever the database stores, so a column a
 * later schema adds is a metric at once), compared with `<=` to a
 * duration, or `attainment` (slo_attainment) compared with `>=` to a
 * share.  With replications the value judged is the pessimistic end of
 * the 95% t interval of the mean over them (the SLO must hold there). */
#include "sim/cli/plan/plan.h"
#include "sim/base/error.h"
#include "sim/base/grammar.h"
#include "sim/store/store_query.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLUMNS 64

typedef struct metric_list {
    char (*names)[48];
    int n, max;
} metric_list;

/* A REAL column NAME_s of latency (not slo_s) is metric NAME. */
static int add_metric(const fs_row *row, void *ctx, fs_error *err)
{
    (void)err;
    metric_list *m = ctx;
    if (m->n >= m->max)
        return 1;
    const char *c = fs_row_text(row, 0);
    const char *t = fs_row_text(row, 1);
    size_t k = c ? strlen(c) : 0;
    if (k > 2 && k < 48 && t && strcmp(t, "REAL") == 0 &&
        strcmp(c + k - 2, "_s") == 0 && strcmp(c, "slo_s") != 0) {
        snprintf(m->names[m->n], 48, "%.*s", (int)(k - 2), c);
        m->n++;
    }
    return 0;
}

/* The metric names the database has: NAME for each REAL column NAME_s of
 * latency, and "attainment".  Returns how many, into names. */
static int metric_names(fs_store *db, char names[][48], int max)
{
    metric_list m = {names, 0, max};
    fs_error err;
    snprintf(names[m.n++], 48, "attainment");
    fs_store_each(db, FS_Q_LATENCY_COLUMNS, NULL, add_metric, &m, &err);
    return m.n;
}

/* One "METRIC<=VALUE" into s. */
static int parse_one(const char *item, char names[][48], int nnames,
                     fs_plan_slo *s, char *why, size_t len)
{
    const char *op = strstr(item, "<=");
    int ge = 0;
    if (!op && (op = strstr(item, ">=")))
        ge = 1;
    if (!op || op == item || !op[2]) {
        snprintf(why, len, "'%s': expected METRIC<=VALUE (e.g. "
                 "p99<=2s) or attainment>=99.5%%", item);
        return -1;
    }
    snprintf(s->metric, sizeof s->metric, "%.*s", (int)(op - item), item);
    const char *list[MAX_COLUMNS + 1];
    int found = 0;
    for (int k = 0; k < nnames; k++) {
        list[k] = names[k];
        found |= strcmp(names[k], s->metric) == 0;
    }
    list[nnames] = NULL;
    if (!found) {
        const char *near = fs_nearest_name(s->metric, list);
        char known[1024] = "";
        for (int k = 0; k < nnames; k++)
            snprintf(known + strlen(known), sizeof known - strlen(known),
                     "%s%s", k ? ", " : "", names[k]);
        if (near)
            snprintf(why, len, "unknown metric '%s' (did you mean '%s'?)",
                     s->metric, near);
        else
            snprintf(why, len, "unknown metric '%s' (known: %s)", s->metric,
                     known);
        return -1;
    }
    s->percent = strcmp(s->metric, "attainment") == 0;
    if (s->percent != ge) {
        snprintf(why, len, "'%s': %s takes %s", item, s->metric,
                 s->percent ? ">= (a share, e.g. attainment>=99.5%)"
                            : "<= (a duration, e.g. p99<=2s)");
        return -1;
    }
    s->ge = ge;
    char column[sizeof s->column];
    snprintf(column, sizeof column, "%.*s_s", (int)sizeof column - 3,
             s->metric);
    if (s->percent)
        snprintf(column, sizeof column, "slo_attainment");
    memcpy(s->column, column, sizeof s->column);
    char w[256];
    int bad = s->percent ? fs_parse_fraction(op + 2, &s->value, w, sizeof w)
                         : fs_parse_duration(op + 2, &s->value, w, sizeof w);
    if (bad) {
        snprintf(why, len, "'%s': %s", item, w);
        return -1;
    }
    if (!(s->value > 0)) {   /* no run meets p99<=0s; every run >=0% */
        snprintf(why, len, "'%s': the bound must be above 0", item);
        return -1;
    }
    return 0;
}

/* Metrics only an llm(...) service measures (time to first token, time
 * per output token): on another workload every run would fail them. */
static int llm_only(const char *metric)
{
    static const char *const prefixes[] = {"ttft_", "tpot_", NULL};
    for (int i = 0; prefixes[i]; i++)
        if (strncmp(metric, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

int fs_plan_parse_slo(fs_plan *p, const char *arg, fs_store *db, char *why,
                      size_t len)
{
    char names[MAX_COLUMNS][48];
    int nnames = metric_names(db, names, MAX_COLUMNS);
    char *copy = strdup(arg), *save = NULL;
    if (!copy) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    int rc = 0;
    for (char *it = strtok_r(copy, ",", &save); it && !rc;
         it = strtok_r(NULL, ",", &save)) {
        while (*it == ' ')
            it++;
        if (p->nslo == FS_PLAN_SLOS_MAX) {
            snprintf(why, len, "at most %d SLOs", FS_PLAN_SLOS_MAX);
            rc = -1;
        } else {
            rc = parse_one(it, names, nnames, &p->slo[p->nslo], why, len);
            if (!rc && !p->llm && llm_only(p->slo[p->nslo].metric)) {
                snprintf(why, len, "%s is not measured on workload '%s': "
                         "only an llm(...) service has tokens (its "
                         "metrics: p99, mean, wait_p99, ...)",
                         p->slo[p->nslo].metric, p->workload);
                rc = -1;
            }
            for (int k = 0; !rc && k < p->nslo; k++)
                if (strcmp(p->slo[k].metric, p->slo[p->nslo].metric) == 0) {
                    snprintf(why, len, "%s given twice", p->slo[k].metric);
                    rc = -1;
                }
            p->nslo += !rc;
        }
    }
    free(copy);
    if (!rc && !p->nslo) {
        snprintf(why, len, "no SLO given, e.g. --slo 'p99<=2s'");
        rc = -1;
    }
    return rc;
}

void fs_plan_slo_format(const fs_plan_slo *s, char *buf, size_t len)
{
    char v[64];
    fs_plan_value_format(s, s->value, v, sizeof v);
    snprintf(buf, len, "%s%s%s", s->metric, s->ge ? ">=" : "<=", v);
}

void fs_plan_value_format(const fs_plan_slo *s, double v, char *buf,
                          size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else if (s->percent)
        snprintf(buf, len, "%.2f%%", v * 100);
    else if (v < 1)
        snprintf(buf, len, "%.1fms", v * 1e3);
    else
        snprintf(buf, len, "%.3fs", v);
}

/* Mean of x[0..n), moved to the pessimistic end of its 95% t interval
 * (up when up, else down) when n > 1. */
static double pessimistic(const double *x, int n, int up)
{
    double m = 0, ss = 0;
    for (int i = 0; i < n; i++)
        m += x[i];
    m /= n;
    if (n < 2)
        return m;
    for (int i = 0; i < n; i++)
        ss += (x[i] - m) * (x[i] - m);
    double half = gsl_cdf_tdist_Pinv(0.975, n - 1) * sqrt(ss / (n - 1) / n);
    return up ? m + half : m - half;
}

/* One run's value of column (NaN when NULL) and its unfinished share. */
static int read_run(const fs_plan *p, fs_store *db, long id,
                    const char *column, double *v, double *unf, char *err,
                    size_t len)
{
    double arrivals = 0, unfinished = 0;
    fs_error e;
    int rc = fs_store_latency_value(db, id, p->workload, column, v,
                                    &arrivals, &unfinished, &e);
    if (rc < 0)
        snprintf(err, len, "%s", e.msg);
    else if (rc > 0)
        snprintf(err, len, "run %ld has no latency row for workload '%s'",
                 id, p->workload);
    else
        *unf = arrivals > 0 ? unfinished / arrivals : 0;
    return rc ? -1 : 0;
}

int fs_plan_judge(const fs_plan *p, fs_store *db, const long *ids, int n,
                  fs_plan_probe *pr, char *err, size_t len)
{
    double x[256], u[256];
    if (n > 256)
        n = 256;
    pr->pass = 1;
    pr->why[0] = '\0';
    for (int k = 0; k < p->nslo; k++) {
        const fs_plan_slo *s = &p->slo[k];
        for (int i = 0; i < n; i++)
            if (read_run(p, db, ids[i], s->column, &x[i], &u[i], err, len))
                return -1;
        double v = pessimistic(x, n, !s->ge);
        pr->value[k] = v;
        if (k == 0)
            pr->unfinished = pessimistic(u, n, 1);
        char a[64], b[96];
        fs_plan_value_format(s, v, a, sizeof a);
        fs_plan_slo_format(s, b, sizeof b);
        if (isnan(v)) {
            pr->pass = 0;
            snprintf(pr->why, sizeof pr->why, "%s not measured (no value "
                     "stored for this workload)", s->metric);
        } else if (pr->pass && (s->ge ? v < s->value : v > s->value)) {
            pr->pass = 0;
            snprintf(pr->why, sizeof pr->why, "SLO: %s %s, above %s", 
                     s->metric, a, b);
            if (s->ge)
                snprintf(pr->why, sizeof pr->why, "SLO: %s %s, below %s",
                         s->metric, a, b);
        }
    }
    if (pr->unfinished > p->max_unfinished) {
        pr->pass = 0;
        snprintf(pr->why, sizeof pr->why, "overload: %.3f%% of requests "
                 "unfinished or dropped (most %.3f%%)", pr->unfinished * 100,
                 p->max_unfinished * 100);
    }
    return 0;
}
