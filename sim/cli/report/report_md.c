/* report_md.c -- the budget review as Markdown: GitHub tables (| and
 * backslashes escaped, line breaks as spaces) and each chart an image
 * link to its SVG file written beside the .md, or a note where it could
 * not be drawn. */
#include "sim/cli/report/report.h"
#include "sim/base/textout.h"
#include <stdlib.h>

/* Writes s as one table cell's text. */
static void cell(FILE *out, const char *s)
{
    char *v = fs_text_visible(s), *keep = v;   /* no bidi or separators */
    for (s = v ? v : s; *s; s++) {
        if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`' ||
            *s == '<' || *s == '[' || *s == ']')
            fputc('\\', out);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
    }
    free(keep);
}

static void table(FILE *out, const fs_rtable *t)
{
    fprintf(out, "## %s\n\n%s\n\n|", t->title, t->intro);
    for (int c = 0; c < t->ncols; c++) {
        fputc(' ', out);
        cell(out, t->head[c]);
        fputs(" |", out);
    }
    fputs("\n|", out);
    for (int c = 0; c < t->ncols; c++)
        fputs(c ? " ---: |" : " --- |", out);
    fputc('\n', out);
    for (size_t r = 0; r < t->nrows; r++) {
        fputc('|', out);
        for (int c = 0; c < t->ncols; c++) {
            fputc(' ', out);
            cell(out, t->cells[r * (size_t)t->ncols + (size_t)c]);
            fputs(" |", out);
        }
        fputc('\n', out);
    }
    fputs(t->nrows ? "\n" : "\n(no rows)\n\n", out);
}

/* The executive summary: the headline, the at-a-glance table, the top
 * savings per change (then the ceilings and options, apart) and the
 * risks. */
static void brief(FILE *out, const fs_rbrief *b)
{
    fputs("## Executive summary\n\n", out);
    for (size_t i = 0; i < b->headline.n; i++) {
        cell(out, b->headline.v[i]);
        fputs("\n\n", out);
    }
    table(out, &b->glance);
    fputs("### Top savings\n\n", out);
    for (size_t i = 0; i < b->savings_intro.n; i++) {
        cell(out, b->savings_intro.v[i]);
        fputs("\n\n", out);
    }
    for (size_t i = 0; i < b->nsavings; i++) {
        fprintf(out, "%zu. ", i + 1);
        cell(out, b->savings[i].text);
        fputc('\n', out);
    }
    if (b->further.n)
        fputs(b->nsavings ? "\n#### Ceilings and options (not savings of "
              "these runs; not added to the list above)\n\n" : "#### "
              "Ceilings and options (not savings of these runs; not added "
              "to the list above)\n\n", out);
    for (size_t i = 0; i < b->further.n; i++) {
        fputs("- ", out);
        cell(out, b->further.v[i]);
        fputc('\n', out);
    }
    fputs(b->nsavings || b->further.n ? "\n### Risks\n\n" : "### Risks\n\n",
          out);
    for (size_t i = 0; i < b->risks.n; i++) {
        fputs("- ", out);
        cell(out, b->risks.v[i]);
        fputc('\n', out);
    }
    fputc('\n', out);
}

static void head(FILE *out)
{
    fputs("# fleetsim budget review\n\n", out);
}

static void chart(FILE *out, const fs_rchart *c, const char *file)
{
    fprintf(out, "### %s\n\n%s\n\n", c->name, c->summary);
    if (c->svg && file) {
        fprintf(out, "![%s](", c->name);
        fs_url_write_path(out, file);   /* spaces, () */
        fputs(")\n\n", out);
    } else {
        fputs("*Not drawn for these runs:* ", out);
        cell(out, c->note ? c->note : "no file");
        fputs("\n\n", out);
    }
}

const fs_report_format fs_report_md = {
    .head = head, .after_runs = "\n\n", .charts = "## Charts\n\n",
    .tail = "", .esc = cell, .brief = brief, .table = table, .chart = chart,
};
