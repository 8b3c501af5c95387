/* report_html.c -- the budget review as one self-contained HTML page:
 * inline CSS, no script, no external resource; every name is escaped and
 * each chart is its <svg> element inline (namespace attributes dropped,
 * which HTML does not need), or a note where it could not be drawn. */
#include "sim/cli/report/report.h"
#include "sim/base/textout.h"
#include <stdlib.h>

#include <string.h>

static const char style[] =
    "body{font-family:sans-serif;margin:2em;color:#222;background:#fff}"
    "table{border-collapse:collapse;margin:0.5em 0 1.5em}"
    "th,td{border:1px solid #bbb;padding:0.25em 0.6em;text-align:right}"
    "th{background:#eef}td:first-child,th:first-child{text-align:left}"
    "figure{margin:1em 0 2em}figcaption{font-weight:bold}"
    "p.note{color:#a40;font-style:italic}td.note{text-align:left}"
    "section.brief{border:2px solid #446;padding:0.5em 1.2em;"
    "margin-bottom:2em;background:#f8f8fc}"
    "section.brief li{margin:0.2em 0}section.brief td{text-align:left}"
    "figure{overflow-x:auto}"
    /* charts at their drawn size, never shrunk to the window: their text
     * (12 px, legends 11 px) stays readable; a narrow window scrolls */
    "figure svg{width:1000px;max-width:none;height:auto}";

/* Writes s with &, <, >, " and ' escaped. */
static void esc(FILE *out, const char *s)
{
    char *v = fs_text_visible(s), *keep = v;   /* no bidi or separators */
    for (s = v ? v : s; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*s, out);
        }
    }
    free(keep);
}

static void table(FILE *out, const fs_rtable *t);

static void list(FILE *out, const char *const *v, size_t n)
{
    fputs("<ul>\n", out);
    for (size_t i = 0; i < n; i++) {
        fputs("<li>", out);
        esc(out, v[i]);
        fputs("</li>\n", out);
    }
    fputs("</ul>\n", out);
}

/* The executive summary: the headline, the at-a-glance table, the top
 * savings per change (then the ceilings and options, apart) and the
 * risks. */
static void brief(FILE *out, const fs_rbrief *b)
{
    fputs("<section class=\"brief\">\n<h2>Executive summary</h2>\n", out);
    for (size_t i = 0; i < b->headline.n; i++) {
        fputs("<p>", out);
        esc(out, b->headline.v[i]);
        fputs("</p>\n", out);
    }
    table(out, &b->glance);
    fputs("<h3>Top savings</h3>\n", out);
    for (size_t i = 0; i < b->savings_intro.n; i++) {
        fputs("<p>", out);
        esc(out, b->savings_intro.v[i]);
        fputs("</p>\n", out);
    }
    if (b->nsavings) {
        fputs("<ol class=\"savings\">\n", out);
        for (size_t i = 0; i < b->nsavings; i++) {
            fputs("<li>", out);
            esc(out, b->savings[i].text);
            fputs("</li>\n", out);
        }
        fputs("</ol>\n", out);
    }
    if (b->further.n) {
        fputs("<h4>Ceilings and options (not savings of these runs; not "
              "added to the list above)</h4>\n", out);
        list(out, (const char *const *)b->further.v, b->further.n);
    }
    fputs("<h3>Risks</h3>\n", out);
    list(out, (const char *const *)b->risks.v, b->risks.n);
    fputs("</section>\n", out);
}

/* A row that only says why (its figures all "—", a note in the last
 * cell): its first two cells, then the note across the figures' columns,
 * so that the note reads as a sentence.  0 when r is not such a row. */
static int note_row(FILE *out, const fs_rtable *t, size_t r)
{
    char *const *cell = t->cells + r * (size_t)t->ncols;
    if (t->ncols < 4 || !cell[t->ncols - 1][0])
        return 0;
    for (int c = 2; c < t->ncols - 1; c++)
        if (strcmp(cell[c], "—") != 0)
            return 0;
    fputs("<td>", out);
    esc(out, cell[0]);
    fputs("</td><td>", out);
    esc(out, cell[1]);
    fprintf(out, "</td><td class=\"note\" colspan=\"%d\">", t->ncols - 2);
    esc(out, cell[t->ncols - 1]);
    fputs("</td>", out);
    return 1;
}

static void table(FILE *out, const fs_rtable *t)
{
    fputs("<h2>", out);
    esc(out, t->title);
    fputs("</h2>\n<p>", out);
    esc(out, t->intro);
    fputs("</p>\n<table>\n<tr>", out);
    for (int c = 0; c < t->ncols; c++) {
        fputs("<th>", out);
        esc(out, t->head[c]);
        fputs("</th>", out);
    }
    fputs("</tr>\n", out);
    for (size_t r = 0; r < t->nrows; r++) {
        fputs("<tr>", out);
        if (note_row(out, t, r)) {
            fputs("</tr>\n", out);
            continue;
        }
        for (int c = 0; c < t->ncols; c++) {
            fputs("<td>", out);
            esc(out, t->cells[r * (size_t)t->ncols + (size_t)c]);
            fputs("</td>", out);
        }
        fputs("</tr>\n", out);
    }
    if (t->nrows == 0)
        fprintf(out, "<tr><td colspan=\"%d\">no rows</td></tr>\n", t->ncols);
    fputs("</table>\n", out);
}

/* The svg text without its xmlns and xmlns:xlink attributes (URLs that
 * name namespaces; inline SVG in HTML has them implicitly). */
static void svg(FILE *out, const char *s)
{
    const char *end = strchr(s, '>');
    while (end && *s && s < end) {
        if (strncmp(s, " xmlns", 6) == 0) {
            const char *q = strpbrk(s + 6, "\"'");
            const char *close = q ? strchr(q + 1, *q) : NULL;
            if (close && close < end) {
                s = close + 1;
                continue;
            }
        }
        fputc(*s++, out);
    }
    fputs(s, out);
    fputc('\n', out);
}

static void head(FILE *out)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<title>fleetsim budget review</title>\n<style>", out);
    fputs(style, out);
    fputs("</style>\n</head>\n<body>\n<h1>fleetsim budget review</h1>\n"
          "<p>", out);
}

/* Inline; the file beside the review is Markdown's. */
static void chart(FILE *out, const fs_rchart *c, const char *file)
{
    (void)file;
    fputs("<figure>\n<figcaption>", out);
    esc(out, c->name);
    fputs(": ", out);
    esc(out, c->summary);
    fputs("</figcaption>\n", out);
    if (c->svg) {
        svg(out, c->svg);
    } else {
        fputs("<p class=\"note\">Not drawn for these runs: ", out);
        esc(out, c->note);
        fputs("</p>\n", out);
    }
    fputs("</figure>\n", out);
}

const fs_report_format fs_report_html = {
    .head = head, .after_runs = "</p>\n", .charts = "<h2>Charts</h2>\n",
    .tail = "</body>\n</html>\n", .esc = esc, .brief = brief, .table = table,
    .chart = chart,
};
