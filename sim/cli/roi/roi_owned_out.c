/* roi_owned_out.c -- `fleetsim roi --owned`: buy versus rent per pool
 * (sim/app/roi_owned.h) as a table, CSV, JSON (jansson) or Markdown.
 * Every format prints the same figures: the owned month's parts and
 * their total (they add up), the rent, the saving, the break-evens. */
#include "sim/cli/roi/roi_out.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#define NCOLS 14
static const char *const columns[NCOLS] = {
    "pool", "gpu", "pricing", "servers", "gpu_utilization", "capex_usd",
    "power_usd", "colocation_usd", "maintenance_usd", "owned_usd",
    "rent_usd", "saving_usd", "break_even_utilization",
    "break_even_months"};

/* w's numbers from column 3 on (NaN: never). */
static void numbers(const fs_roi_owned *w, double *v)
{
    const double x[NCOLS - 3] = {
        w->servers, w->util, w->month.capex, w->month.power,
        w->month.colocation, w->month.maintenance, w->owned_usd,
        w->rent_usd, w->saving_usd, w->break_even_util,
        w->break_even_months};
    for (int i = 0; i < NCOLS - 3; i++)
        v[i] = x[i];
}

static void print_row(FILE *out, int fmt, const fs_roi_owned *w)
{
    double v[NCOLS - 3];
    numbers(w, v);
    const char *sep = fmt == 1 ? "," : fmt == 3 ? " | " : "  ";
    fprintf(out, "%s%s%s%s%s%s", fmt == 3 ? "| " : "", w->pool, sep, w->gpu,
            sep, w->pricing);
    for (int i = 0; i < NCOLS - 3; i++) {
        fputs(sep, out);
        if (isnan(v[i]))
            fputs(fmt == 1 ? "" : "never", out);
        else
            fprintf(out, i == 0 ? "%.0f" : i == 1 || i == 9 ? "%.4f"
                    : i == 10 ? "%.1f" : "%.2f", v[i]);
    }
    fputs(fmt == 3 ? " |\n" : "\n", out);
}

static void print_json(FILE *out, const fs_roi_owned *w, size_t n)
{
    json_t *list = json_array();
    for (size_t k = 0; k < n; k++) {
        double v[NCOLS - 3];
        numbers(&w[k], v);
        json_t *o = json_pack("{s:s, s:s, s:s}", "pool", w[k].pool, "gpu",
                              w[k].gpu, "pricing", w[k].pricing);
        for (int i = 0; i < NCOLS - 3; i++)
            json_object_set_new(o, columns[i + 3], isnan(v[i]) ? json_null()
                                : json_real(v[i]));
        json_array_append_new(list, o);
    }
    json_t *root = json_pack("{s:o}", "buy_vs_rent", list);
    json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                          JSON_REAL_PRECISION(12));
    fputc('\n', out);
    json_decref(root);
}

int fs_roi_print_owned(FILE *out, int format, fs_store *s, long run,
                       const char *pool, const fs_purchase_terms *t,
                       fs_error *err)
{
    fs_roi_owned *w = NULL;
    size_t n = 0;
    if (fs_roi_owned_run(s, run, pool, t, &w, &n, err))
        return -1;
    if (format == 2) {
        print_json(out, w, n);
        free(w);
        return 0;
    }
    if (format == 0)
        fputs("buy versus rent: each pool as owned servers, a 730-hour "
              "month at the run's utilization, against what the run paid "
              "(doc/money.md)\n", out);
    const char *sep = format == 1 ? "," : format == 3 ? " | " : "  ";
    for (int i = 0; i < NCOLS; i++)
        fprintf(out, "%s%s", i ? sep : format == 3 ? "| " : "", columns[i]);
    fputs(format == 3 ? " |\n|" : "\n", out);
    for (int i = 0; format == 3 && i < NCOLS; i++)
        fputs(i < 3 ? "---|" : "--:|", out);
    fputs(format == 3 ? "\n" : "", out);
    for (size_t k = 0; k < n; k++)
        print_row(out, format, &w[k]);
    free(w);
    return 0;
}
