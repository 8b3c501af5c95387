/* compare_ci.c -- replications summarised: the metrics of a group of runs
 * as means with 95% confidence intervals, and the changes against a
 * baseline group; see compare_ci.h for the method. */
#include "sim/cli/compare/compare_ci.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#define CONFIDENCE 0.95

/* The t quantile for a two-sided interval with df degrees of freedom. */
static double t_quantile(double df)
{
    return gsl_cdf_tdist_Pinv(1 - (1 - CONFIDENCE) / 2, df);
}

fs_ci fs_ci_of(const double *x, size_t n)
{
    fs_ci c = {(int)n, NAN, NAN, NAN};
    if (n == 0)
        return c;
    c.mean = gsl_stats_mean(x, 1, n);
    if (n < 2)
        return c;
    double half = t_quantile((double)(n - 1)) * gsl_stats_sd(x, 1, n) /
                  sqrt((double)n);
    c.lo = c.mean - half;
    c.hi = c.mean + half;
    return c;
}

/* Welch: difference of the means of a and b with its interval. */
static fs_ci welch(const double *a, size_t na, const double *b, size_t nb)
{
    fs_ci c = {(int)(na < nb ? na : nb), NAN, NAN, NAN};
    if (na == 0 || nb == 0)
        return c;
    c.mean = gsl_stats_mean(a, 1, na) - gsl_stats_mean(b, 1, nb);
    if (na < 2 || nb < 2)
        return c;
    double va = gsl_stats_variance(a, 1, na) / (double)na;
    double vb = gsl_stats_variance(b, 1, nb) / (double)nb;
    double se = sqrt(va + vb), half = 0;
    if (se > 0) {
        double df = (va + vb) * (va + vb) /
                    (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
        half = t_quantile(df) * se;
    }
    c.lo = c.mean - half;
    c.hi = c.mean + half;
    return c;
}

/* ---- values of a run ---------------------------------------------------- */

static int summary_index(const char *name)
{
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++)
        if (strcmp(fs_summary_columns[c].name, name) == 0)
            return c;
    return -1;
}

static const char *metric_text(const fs_ci_metric *m, const fs_compare_run *r)
{
    if (m->section < 0)
        return r->summary.col[m->col];
    char *const *row = fs_cmp_find_row(&r->rows[m->section], m->key);
    return row ? row[m->col] : NULL;
}

/* The group's values of metric m: x[i] and the replication rep[i] of the
 * runs that have it; returns their number. */
static size_t group_values(const fs_ci_table *t, size_t g,
                           const fs_ci_metric *m, double *x, long *rep)
{
    static int rep_col = -2;
    if (rep_col == -2)
        rep_col = summary_index("replication");
    size_t k = 0;
    const fs_ci_group *gr = &t->groups[g];
    for (size_t i = 0; i < gr->n; i++) {
        const fs_compare_run *r = &t->runs[gr->first + i];
        double v, rv = -1;
        if (!fs_cmp_number(metric_text(m, r), &v))
            continue;
        if (rep_col >= 0)
            fs_cmp_number(r->summary.col[rep_col], &rv);
        x[k] = v;
        rep[k++] = (long)rv;
    }
    return k;
}

/* Paired differences when a and b hold the same replications. */
static int pair_up(const double *a, const long *ra, size_t na,
                   const double *b, const long *rb, size_t nb, double *d)
{
    if (na != nb || na < 2)
        return 0;
    for (size_t i = 0; i < na; i++) {
        size_t j = 0;
        while (j < nb && rb[j] != ra[i])
            j++;
        if (j == nb || ra[i] < 0)
            return 0;
        d[i] = a[i] - b[j];
    }
    return 1;
}

static void fill_delta(fs_ci_delta *dl, const double *a, const long *ra,
                       size_t na, const double *b, const long *rb, size_t nb,
                       double *scratch)
{
    memset(dl, 0, sizeof *dl);
    if (na == 0 || nb == 0)
        return;
    dl->has = 1;
    dl->paired = pair_up(a, ra, na, b, rb, nb, scratch);
    dl->abs = dl->paired ? fs_ci_of(scratch, na) : welch(a, na, b, nb);
    double bm = gsl_stats_mean(b, 1, nb);
    dl->has_pct = bm != 0;
    if (dl->has_pct) {
        dl->pct = dl->abs.mean / fabs(bm) * 100;
        dl->pct_lo = dl->abs.lo / fabs(bm) * 100;
        dl->pct_hi = dl->abs.hi / fabs(bm) * 100;
    }
}

/* ---- the table ---------------------------------------------------------- */

static int add_metric(fs_ci_table *t, size_t *cap, fs_ci_metric m)
{
    if (t->nmetrics == *cap) {
        size_t nc = *cap ? *cap * 2 : 64;
        fs_ci_metric *p = realloc(t->metric, nc * sizeof *p);
        if (!p)
            return -1;
        t->metric = p;
        *cap = nc;
    }
    t->metric[t->nmetrics++] = m;
    return 0;
}

static int list_metrics(fs_ci_table *t, size_t nruns)
{
    size_t cap = 0;
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++) {
        fs_section_column k = fs_cmp_summary_column(c);
        if (k.delta && add_metric(t, &cap, (fs_ci_metric){-1, NULL,
                                                          (size_t)c, k}))
            return -1;
    }
    for (int s = 0; s < FS_SECTIONS; s++) {
        const fs_section_def *sec = &fs_sections[s];
        int failed = 0;
        size_t nkeys;
        const char **keys = fs_cmp_keys(t->runs, nruns,
                                        (fs_section)s, &nkeys,
                                        &failed);
        for (size_t k = 0; k < nkeys && !failed; k++)
            for (size_t c = 1; c < sec->ncols && !failed; c++)
                if (sec->cols[c].delta)
                    failed = add_metric(t, &cap, (fs_ci_metric){
                        s, keys[k], c, sec->cols[c]}) != 0;
        free(keys);
        if (failed)
            return -1;
    }
    return 0;
}

int fs_ci_table_build(fs_ci_table *t, const fs_compare_run *runs,
                      const fs_ci_group *groups, size_t ngroups, int baseline)
{
    memset(t, 0, sizeof *t);
    t->runs = runs;
    t->groups = groups;
    t->ngroups = ngroups;
    t->baseline = baseline;
    size_t nruns = 0, most = 1;
    for (size_t g = 0; g < ngroups; g++) {
        if (groups[g].first + groups[g].n > nruns)
            nruns = groups[g].first + groups[g].n;
        if (groups[g].n > most)
            most = groups[g].n;
    }
    if (list_metrics(t, nruns))
        goto fail;
    size_t cells = ngroups * t->nmetrics + 1;
    t->stat = calloc(cells, sizeof *t->stat);
    t->delta = calloc(cells, sizeof *t->delta);
    double *x = malloc(3 * most * sizeof *x);
    long *rx = malloc(2 * most * sizeof *rx);
    if (!t->stat || !t->delta || !x || !rx) {
        free(x);
        free(rx);
        goto fail;
    }
    double *bx = x + most, *d = x + 2 * most;
    long *rb = rx + most;
    for (size_t m = 0; m < t->nmetrics; m++) {
        size_t nb = baseline >= 0
            ? group_values(t, (size_t)baseline, &t->metric[m], bx, rb) : 0;
        for (size_t g = 0; g < ngroups; g++) {
            size_t n = group_values(t, g, &t->metric[m], x, rx);
            t->stat[g * t->nmetrics + m] = fs_ci_of(x, n);
            if (baseline >= 0 && g != (size_t)baseline)
                fill_delta(&t->delta[g * t->nmetrics + m], x, rx, n, bx, rb,
                           nb, d);
        }
    }
    free(x);
    free(rx);
    return 0;
fail:
    fs_ci_table_free(t);
    return -1;
}

void fs_ci_table_free(fs_ci_table *t)
{
    free(t->metric);
    free(t->stat);
    free(t->delta);
    *t = (fs_ci_table){0};   /* empty: freeing it again is harmless */
}

const char *fs_ci_group_name(const fs_ci_table *t, size_t g)
{
    static int name_col = -2;
    if (name_col == -2)
        name_col = summary_index("name");
    const fs_compare_run *r = &t->runs[t->groups[g].first];
    return name_col >= 0 && r->summary.col[name_col] ? r->summary.col[name_col]
                                                     : "";
}
