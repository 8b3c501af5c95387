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
    *out = fs_store_summary_value(ctx->store, run_id, column);
    return 0;
}
