/* commit_block_out.c -- the capacity blocks `commit` weighs for training
 * pools (sim/app/commit_block.h) in its formats: as portfolio rows (kind
 * capacity-block when recommended, capacity-block-dearer when the block
 * would cost more than the run paid) and cost lines in every format, a
 * table of their own under the table and Markdown, and a
 * "capacity_blocks" array in JSON. */
#include "sim/cli/commit/commit.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

size_t fs_commit_block_rows(const fs_commit_blocks_list *bl,
                            fs_commit_row *rows)
{
    size_t n = 0;
    for (size_t i = 0; bl && i < bl->n; i++) {
        const fs_commit_block *b = &bl->b[i];
        const fs_block_offer *o = &b->offer;
        if (!b->fits)
            continue;
        fs_commit_row *w = &rows[n++];
        memset(w, 0, sizeof *w);
        w->kind = b->recommended ? fs_commit_block_option()
                                 : "capacity-block-dearer";
        snprintf(w->item, sizeof w->item, "%s (%s, run %ld, hours %g-%g)",
                 b->pool, b->instance, b->run_id, o->start_s / 3600,
                 o->end_s / 3600);
        w->term = b->term;
        w->upfront = "all";
        w->count = (double)o->count;
        w->usd_h = (double)o->count * o->rate;
        w->upfront_usd = o->block_usd;
        w->covered_h = o->busy_instance_h;
        w->covered_usd = o->on_demand_usd;
        w->coverage = 1;
        w->utilization = o->busy_instance_h / ((double)o->count * o->days *
                                               24);
    }
    return n;
}

size_t fs_commit_block_costs(const fs_commit_blocks_list *bl,
                             fs_commit_cost *c)
{
    double block = 0, od = 0, paid = 0;
    int any = 0;
    for (size_t i = 0; bl && i < bl->n; i++) {
        const fs_commit_block *b = &bl->b[i];
        if (!b->recommended)
            continue;
        any = 1;
        block += b->offer.block_usd;
        od += b->offer.on_demand_usd;
        paid += b->paid_usd;
    }
    if (!any)
        return 0;
    c[0] = (fs_commit_cost){"capacity_blocks_usd", block};
    c[1] = (fs_commit_cost){"capacity_blocks_on_demand_usd", od};
    c[2] = (fs_commit_cost){"capacity_blocks_saving_usd", od - block};
    c[3] = (fs_commit_cost){"capacity_blocks_paid_usd", paid};
    c[4] = (fs_commit_cost){"capacity_blocks_saving_vs_paid_usd",
                            paid - block};
    return 5;
}

void fs_commit_blocks_text(FILE *out, int md, const fs_commit_blocks_list *bl)
{
    if (!bl || bl->n == 0)
        return;
    fputs(md ? "\n| capacity block | pool | instance | busy window | "
               "instances | days | $/instance-h | block | busy "
               "instance-hours | on demand | paid | saving | |\n"
               "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n"
             : "\ncapacity blocks for training pools (AWS sells whole days "
               "1-14, then 7-day steps to 182)\n", out);
    for (size_t i = 0; i < bl->n; i++) {
        const fs_commit_block *b = &bl->b[i];
        const fs_block_offer *o = &b->offer;
        const char *verdict = !b->fits ? "no block holds it"
                              : b->recommended ? "recommended"
                              : "dearer than paid";
        fprintf(out, md ? "| run %ld | %s | %s | h %g-%g | %ld | %d | "
                          "%.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s |\n"
                        : "  run %ld  %-12s %-18s hours %g-%g  %ld x %d "
                          "days at $%.2f/h = $%.2f; busy %.2f "
                          "instance-hours on demand $%.2f, paid $%.2f, "
                          "saving $%.2f: %s\n",
                b->run_id, b->pool, b->instance, o->start_s / 3600,
                o->end_s / 3600,
                o->count, o->days, o->rate, o->block_usd,
                o->busy_instance_h, o->on_demand_usd, b->paid_usd,
                fs_commit_block_saving(b), verdict);
    }
}

void *fs_commit_blocks_json(const fs_commit_blocks_list *bl)
{
    json_t *list = json_array();
    for (size_t i = 0; bl && i < bl->n; i++) {
        const fs_commit_block *b = &bl->b[i];
        const fs_block_offer *o = &b->offer;
        json_array_append_new(list, json_pack(
            "{s:I, s:s, s:s, s:s, s:f, s:f, s:I, s:i, s:f, s:f, s:f, s:f, "
            "s:f, s:f, s:b, s:b, s:s}",
            "run", (json_int_t)b->run_id, "pool", b->pool,
            "instance", b->instance, "pricing", b->pricing,
            "window_start_h", o->start_s / 3600,
            "window_end_h", o->end_s / 3600,
            "count", (json_int_t)o->count, "days", o->days,
            "block_usd_h", o->rate, "block_usd", o->block_usd,
            "busy_instance_hours", o->busy_instance_h,
            "on_demand_usd", o->on_demand_usd, "paid_usd", b->paid_usd,
            "saving_usd", fs_commit_block_saving(b), "fits", b->fits,
            "recommended", b->recommended, "rate_source", b->source));
    }
    return list;
}
