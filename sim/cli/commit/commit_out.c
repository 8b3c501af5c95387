/* commit_out.c -- `fleetsim commit`'s answer as a table, CSV, JSON
 * (jansson) or Markdown: the portfolio's rows and cost lines
 * (sim/app/commit_rows.c, which the report prints too).
 *
 * Each format prints the same rows (what rows[] and costs[] hold), so
 * that one test of the parts covers them all. */
#include "sim/cli/commit/commit.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/app/commit_rows.h"

#define NCOLS 11
static const char *const columns[NCOLS] = {
    "kind", "item", "term", "upfront", "count", "usd_h", "upfront_usd",
    "covered_instance_hours", "covered_usd", "coverage", "utilization"};

/* Row w's cell i as text ("" for what does not apply): rounded to the
 * cent (counts whole, shares 4 decimals), or with precise, 12 digits. */
static void cell(const fs_commit_row *w, int i, int precise, char *buf,
                 size_t len)
{
    double v[] = {0, 0, 0, 0, w->count, w->usd_h, w->upfront_usd,
                  w->covered_h, w->covered_usd, w->coverage, w->utilization};
    const char *t[] = {w->kind, w->item, w->term, w->upfront};
    if (i < 4)
        snprintf(buf, len, "%s", t[i]);
    else if (isnan(v[i]))
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len, precise ? "%.12g" : i == 4 ? "%.0f"
                 : i >= 9 ? "%.4f" : "%.2f", v[i]);
}

static void print_text(FILE *out, int md, const fs_commit_row *rows, size_t n,
                       const fs_commit_cost *c, size_t nc)
{
    char buf[256];
    const char *sep = md ? " | " : "  ";
    fputs(md ? "| " : "", out);
    for (int i = 0; i < NCOLS; i++)
        fprintf(out, "%s%s", columns[i], i + 1 < NCOLS ? sep : "");
    fputs(md ? " |\n|" : "\n", out);
    for (int i = 0; md && i < NCOLS; i++)
        fputs("---|", out);
    fputs(md ? "\n" : "", out);
    for (size_t r = 0; r < n; r++) {
        fputs(md ? "| " : "", out);
        for (int i = 0; i < NCOLS; i++) {
            cell(&rows[r], i, 0, buf, sizeof buf);
            fprintf(out, "%s%s", md && !*buf ? "-" : buf,
                    i + 1 < NCOLS ? sep : "");
        }
        fputs(md ? " |\n" : "\n", out);
    }
    if (n == 0)
        fputs(md ? "| (nothing to commit: all on demand) |\n"
                 : "(nothing to commit: all on demand)\n", out);
    fputs(md ? "\n| cost | usd |\n|---|---|\n" : "\n", out);
    for (size_t i = 0; i < nc; i++)
        fprintf(out, md ? "| %s | %.4f |\n" : "%-30s %14.4f\n", c[i].name,
                c[i].usd);
}

static void print_csv(FILE *out, const fs_commit_row *rows, size_t n,
                      const fs_commit_cost *c, size_t nc)
{
    char buf[256];
    for (int i = 0; i < NCOLS; i++)
        fprintf(out, "%s%s", columns[i], i + 1 < NCOLS ? "," : "\n");
    for (size_t r = 0; r < n; r++)
        for (int i = 0; i < NCOLS; i++) {
            cell(&rows[r], i, 0, buf, sizeof buf);
            fprintf(out, "%s%s%s%s", i == 1 ? "\"" : "", buf,
                    i == 1 ? "\"" : "", i + 1 < NCOLS ? "," : "\n");
        }
    for (size_t i = 0; i < nc; i++)   /* the cost lines, kind "cost" */
        fprintf(out, "cost,%s,,,,,,,%.4f,,\n", c[i].name, c[i].usd);
}

static json_t *json_cell(const fs_commit_row *w, int i)
{
    char buf[256];
    cell(w, i, 1, buf, sizeof buf);
    if (i < 4)
        return json_string(buf);
    return *buf ? json_real(strtod(buf, NULL)) : json_null();
}

static void print_json(FILE *out, const fs_commit_row *rows, size_t n,
                       const fs_commit_cost *c, size_t nc,
                       const fs_commit_blocks_list *bl)
{
    json_t *root = json_object(), *list = json_array(), *cost = json_object();
    for (size_t r = 0; r < n; r++) {
        json_t *o = json_object();
        for (int i = 0; i < NCOLS; i++)
            json_object_set_new(o, columns[i], json_cell(&rows[r], i));
        json_array_append_new(list, o);
    }
    for (size_t i = 0; i < nc; i++)
        json_object_set_new(cost, c[i].name, json_real(c[i].usd));
    json_object_set_new(root, "portfolio", list);
    json_object_set_new(root, "cost", cost);
    if (bl && bl->n)
        json_object_set_new(root, "capacity_blocks",
                            fs_commit_blocks_json(bl));
    json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                          JSON_REAL_PRECISION(12));
    fputc('\n', out);
    json_decref(root);
}

void fs_commit_print(FILE *out, int fmt, const fs_commit_inputs *in,
                     const fs_pf_solution *sol,
                     const fs_commit_blocks_list *bl)
{
    fs_commit_row *rows = calloc(fs_commit_rows_max(in) + (bl ? bl->n : 0),
                                 sizeof *rows);
    double *shares = calloc(in->nruns, sizeof *shares);
    fs_commit_cost costs[FS_COMMIT_COSTS_MAX];
    if (!rows || !shares) {
        free(rows);
        free(shares);
        return;
    }
    size_t n = fs_commit_rows(in, sol, rows);
    size_t nc = fs_commit_costs(in, sol, costs, shares);
    n += fs_commit_block_rows(bl, rows + n);   /* then the blocks' */
    if (nc + 5 <= FS_COMMIT_COSTS_MAX)
        nc += fs_commit_block_costs(bl, costs + nc);
    if (fmt == FS_COMMIT_CSV)
        print_csv(out, rows, n, costs, nc);
    else if (fmt == FS_COMMIT_JSON)
        print_json(out, rows, n, costs, nc, bl);
    else
        print_text(out, fmt == FS_COMMIT_MARKDOWN, rows, n, costs, nc);
    if (fmt == FS_COMMIT_TABLE || fmt == FS_COMMIT_MARKDOWN)
        fs_commit_blocks_text(out, fmt == FS_COMMIT_MARKDOWN, bl);
    free(rows);
    free(shares);
}
