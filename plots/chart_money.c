/* chart_money.c -- what the cost charts share: a dollar axis scaled to
 * the largest amount ($, $k or $M), and numbers from run_summary. */
#include "plots/plot_impl.h"

#include <math.h>
#include <string.h>

void fs_plot_money_axis(fs_plot_ctx *ctx, double max_abs)
{
    double div = 1;
    const char *fmt = "$%g";
    if (max_abs >= 1e7) {
        div = 1e6;
        fmt = "$%gM";
    } else if (max_abs >= 1e4) {
        div = 1e3;
        fmt = "$%gk";
    }
    fs_plot_var(ctx, "money_div", div);
    fprintf(ctx->vars, "money_fmt = '%s'\n", fmt);
}

int fs_plot_summary_num(fs_plot_ctx *ctx, long run_id, const char *column,
                        double *out)
{
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT %s FROM run_summary WHERE run_id = ?", column);
    sqlite3_stmt *st = fs_plot_prepare(ctx, sql);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, run_id);
    *out = NAN;
    if (sqlite3_step(st) == SQLITE_ROW &&
        sqlite3_column_type(st, 0) != SQLITE_NULL)
        *out = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    return 0;
}
