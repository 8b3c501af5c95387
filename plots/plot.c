/* plot.c -- the chart table and the drawing of one chart: a private
 * temporary directory, the chart's data and script written there, gnuplot
 * run on the script as a child process (fork/execvp, no shell), the image
 * copied to the output path (with a fixed PDF creation date), the
 * directory removed.  The charts are registered in `charts` below. */
#include "plots/plot.h"
#include "plots/plot_impl.h"
#include "sim/base/datadir.h"
#include "sim/base/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef FS_PLOTS_DIR
#define FS_PLOTS_DIR "/usr/local/share/fleetsim/plots"
#endif
#ifndef FS_SRCDIR
#define FS_SRCDIR "."
#endif

/* The charts, in the order `fleetsim help plot` lists them. */
static const fs_chart charts[] = {
    {"monthly-cost", "calendar-month cost per run, stacked by pricing model",
     fs_chart_monthly_cost,
     "cost per calendar month (cost_monthly), one bar per run\n"
     "and month, stacked by pricing model; a partial month\n"
     "labelled \"2026-01 (7 of 31 days)\"; each run's 730-hour\n"
     "run rate beside its months\n", 0},
    {"utilization", "provisioned and busy GPUs of each pool over time",
     fs_chart_utilization,
     "GPUs provisioned and busy of each pool over time, each\n"
     "at its value (colour and dash tell equal lines apart)\n", 0},
    {"latency-cdf", "latency CDF of each workload through its stored "
     "percentiles, SLO marked", fs_chart_latency_cdf,
     "latency CDF of each workload drawn through the stored\n"
     "percentiles (p50, p90, p95, p99, p99.9), SLO marked;\n"
     "log latency axis in time units\n", 0},
    {"cost-vs-latency", "runs as points: run-rate cost against p99, Pareto "
     "front marked", fs_chart_cost_vs_latency,
     "each run as a point: run-rate cost (730-hour month)\n"
     "against p99 of finished requests (log axis); Pareto\n"
     "front marked; overloaded runs (over 1% unfinished)\n"
     "ringed and off the front\n", 0},
    {"ri-breakeven", "cumulative cost of a reservation against on-demand "
     "over the term, break-even marked", fs_chart_ri_breakeven,
     "one pool per run (--pool, else its on-demand pool with\n"
     "the largest bill): what `fleetsim roi` recommends for the --term\n"
     "(no upfront), from roi's own figures: the hourly\n"
     "demand with the reserved count and the on-demand\n"
     "overflow above it, and the cumulative cost all on\n"
     "demand against with the reservation\n", 0},
    {"savings", "waterfall of run-rate cost from the baseline run through "
     "the others", fs_chart_savings,
     "waterfall of run-rate cost from the baseline\n"
     "(--baseline, else the first RUN) through the others\n", 0},
    {"portfolio-cost", "each run's cost under commit's portfolio against "
     "all on demand and roi's per-pool answers", fs_chart_portfolio,
     "each run's cost over its hours under the portfolio\n"
     "`fleetsim commit` chooses for the runs at once, beside\n"
     "all on demand and the sum of roi's one-pool answers;\n"
     "the portfolio's p10, p50 and p90 as lines\n", 1},
};
#define NCHARTS (sizeof charts / sizeof charts[0])

size_t fs_plot_chart_count(void) { return NCHARTS; }
const char *fs_plot_chart_name(size_t i) { return charts[i].name; }
const char *fs_plot_chart_summary(size_t i) { return charts[i].summary; }
int fs_plot_chart_optional(size_t i) { return charts[i].optional; }
void fs_plot_chart_help_list(char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < NCHARTS && at < size; i++) {
        const char *line = charts[i].help;
        at += (size_t)snprintf(buf + at, size - at, "  %-15s  ",
                               charts[i].name);
        for (const char *nl; (nl = strchr(line, '\n')) && at < size;
             line = nl + 1)
            at += (size_t)snprintf(buf + at, size - at, "%s%.*s\n",
                                   line == charts[i].help ? ""
                                       : "                   ",
                                   (int)(nl - line), line);
    }
}

void fs_plot_chart_list(char *buf, size_t size)
{
    size_t off = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < NCHARTS && off < size; i++) {
        int k = snprintf(buf + off, size - off, "%s%s", i ? ", " : "",
                         charts[i].name);
        if (k < 0)
            break;
        off += (size_t)k;
    }
}

const char *fs_plot_template_dir(void)
{
    return fs_data_dir("FLEETSIM_PLOTS", FS_PLOTS_DIR, FS_SRCDIR "/plots");
}

/* True when an executable `gnuplot` is in a directory of PATH. */
static int gnuplot_on_path(void)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        return 0;
    char *copy = strdup(path), *save = NULL;
    int found = 0;
    for (char *d = strtok_r(copy, ":", &save); d && !found;
         d = strtok_r(NULL, ":", &save)) {
        char p[4096];
        snprintf(p, sizeof p, "%s/gnuplot", *d ? d : ".");
        found = access(p, X_OK) == 0;
    }
    free(copy);
    return found;
}

/* The gnuplot terminal for the extension of path, with %d for the
 * height in pixels (PDF: hundredths of an inch); NULL when none. */
static const char *terminal_for(const char *path, const char **ext)
{
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/'))
        return NULL;
    *ext = dot + 1;
    if (strcasecmp(dot, ".png") == 0)
        return "pngcairo noenhanced size 1000,%d font 'Sans,12'";
    if (strcasecmp(dot, ".svg") == 0)
        return "svg noenhanced size 1000,%d fixed font 'Sans,12'";
    if (strcasecmp(dot, ".pdf") == 0)
        return "pdfcairo noenhanced size 10in,%.2fin font 'Sans,10'";
    return NULL;
}

/* The style of series i (1, 2, ...) for every chart: ten colours and
 * five dash patterns, stepped so that two series share both only after
 * 50, and neighbours differ in both; six filled point shapes. */
static const char series_styles[] =
    "fs_palette = '#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b #e377c2"
    " #7f7f7f #bcbd22 #17becf'\n"
    "fs_lc(i) = word(fs_palette, (i - 1) % 10 + 1)\n"
    "fs_dt(i) = ((i - 1) + int((i - 1) / 10)) % 5 + 1\n"
    "fs_pt(i) = ((i - 1) % 6) * 2 + 5\n";

/* A path as a gnuplot single-quoted string. */
static void put_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

static int append_file(FILE *out, const char *path, fs_error *err)
{
    FILE *in = fopen(path, "r");
    if (!in)
        return fs_error_set(err, "%s: %s", path, strerror(errno));
    char buf[4096];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, k, out);
    fclose(in);
    return 0;
}

/* Runs gnuplot SCRIPT with stderr into errpath; 0 on exit status 0. */
static int run_gnuplot(const char *script, const char *errpath,
                       fs_error *err)
{
    pid_t pid = fork();
    if (pid < 0)
        return fs_error_set(err, "cannot start gnuplot: %s",
                            strerror(errno));
    if (pid == 0) {
        int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            dup2(fd, 2);
            dup2(fd, 1);
            close(fd);
        }
        char *argv[] = {"gnuplot", (char *)script, NULL};
        execvp("gnuplot", argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return fs_error_set(err, "gnuplot: %s", strerror(errno));
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    char line[512] = "";
    FILE *f = fopen(errpath, "r");
    if (f) {
        while (fgets(line, sizeof line, f) && strspn(line, " \t\n^") ==
               strlen(line))
            ;
        fclose(f);
    }
    line[strcspn(line, "\n")] = '\0';
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127 && !line[0])
        return FS_PLOT_NO_GNUPLOT;
    return fs_error_set(err, "gnuplot failed%s%s", line[0] ? ": " : "",
                        line);
}

/* Replaces the date in every "/CreationDate (D:...)" with the epoch,
 * keeping the length (the PDF's byte offsets stay right). */
static void fix_pdf_dates(char *b, size_t n)
{
    static const char key[] = "/CreationDate (D:";
    size_t kl = sizeof key - 1;
    for (size_t i = 0; i + kl < n; i++) {
        if (memcmp(b + i, key, kl) != 0)
            continue;
        static const char epoch[] = "19700101000000";
        for (size_t j = i + kl, e = 0; j < n && b[j] != ')'; j++)
            if (b[j] >= '0' && b[j] <= '9')
                b[j] = e < sizeof epoch - 1 ? epoch[e++] : '0';
    }
}

/* Copies the image from the temporary directory to out. */
static int deliver(const char *from, const char *out, int pdf, fs_error *err)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        return fs_error_set(err, "gnuplot wrote no image");
    char *b = NULL;
    size_t n = 0, cap = 0, k;
    char chunk[65536];
    while ((k = fread(chunk, 1, sizeof chunk, in)) > 0) {
        if (n + k > cap) {
            cap = (n + k) * 2;
            char *nb = realloc(b, cap);
            if (!nb) {
                free(b);
                fclose(in);
                return fs_error_set(err, "out of memory");
            }
            b = nb;
        }
        memcpy(b + n, chunk, k);
        n += k;
    }
    fclose(in);
    if (n == 0) {
        free(b);
        return fs_error_set(err, "gnuplot wrote an empty image");
    }
    if (pdf)
        fix_pdf_dates(b, n);
    int rc = fs_outfile_write(out, b, n, err);   /* out kept on failure */
    free(b);
    return rc;
}

static void remove_tree(const char *dir)
{
    static const char *const files[] = {"data.tsv", "names.tsv", "script.gp",
                                        "gnuplot.err", "out.png", "out.svg",
                                        "out.pdf", NULL};
    char p[4200];
    for (int i = 0; files[i]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        unlink(p);
    }
    rmdir(dir);
}

static const fs_chart *find_chart(const char *name)
{
    for (size_t i = 0; i < NCHARTS; i++)
        if (strcmp(charts[i].name, name) == 0)
            return &charts[i];
    return NULL;
}

/* Writes data and script in dir and runs gnuplot; the image is
 * dir/out.EXT. */
static int draw(fs_store *s, const fs_plot_request *rq, const fs_chart *c,
                const char *dir, const char *term, const char *ext,
                fs_error *err)
{
    char data[4200], script[4200], errp[4200], img[4200], tpl[4200];
    char names[4200];
    snprintf(data, sizeof data, "%s/data.tsv", dir);
    snprintf(names, sizeof names, "%s/names.tsv", dir);
    snprintf(script, sizeof script, "%s/script.gp", dir);
    snprintf(errp, sizeof errp, "%s/gnuplot.err", dir);
    snprintf(img, sizeof img, "%s/out.%s", dir, ext);
    snprintf(tpl, sizeof tpl, "%s/%s.gp", fs_plot_template_dir(), c->name);
    if (access(tpl, R_OK) != 0)
        return fs_error_set(err, "%s: %s (set FLEETSIM_PLOTS to the "
                            "directory of the chart templates)", tpl,
                            strerror(errno));
    fs_plot_ctx ctx = {s, rq, fopen(data, "w"),
                       fopen(script, "w"), fopen(names, "w"), 0, err, 0};
    int rc = -1;
    if (!ctx.data || !ctx.vars || !ctx.names) {
        fs_error_set(err, "%s: %s", dir, strerror(errno));
        goto out;
    }
    fprintf(ctx.vars, "# fleetsim plot --chart %s\nset output ", c->name);
    put_quoted(ctx.vars, img);
    fputs("\ndatafile = ", ctx.vars);
    put_quoted(ctx.vars, data);
    fputs("\nnamesfile = ", ctx.vars);
    put_quoted(ctx.vars, names);
    fputs("\nset datafile separator \"\\t\"\nset encoding utf8\n", ctx.vars);
    fputs(series_styles, ctx.vars);
    if (c->write(&ctx) != 0)
        goto out;
    /* a long legend below the plot makes the image taller, not the
     * plot smaller */
    int height = 600 + 16 * (ctx.legend_rows > 6 ? ctx.legend_rows - 6 : 0);
    fputs("set terminal ", ctx.vars);
    if (strcmp(ext, "pdf") == 0)
        fprintf(ctx.vars, term, height / 100.0);
    else
        fprintf(ctx.vars, term, height);
    fputc('\n', ctx.vars);
    fputs("# the template\n", ctx.vars);
    if (append_file(ctx.vars, tpl, err) != 0)
        goto out;
    int bad = fclose(ctx.data) != 0;
    bad |= fclose(ctx.vars) != 0;
    bad |= fclose(ctx.names) != 0;
    ctx.data = ctx.vars = ctx.names = NULL;
    if (bad) {
        fs_error_set(err, "%s: cannot write", dir);
        goto out;
    }
    rc = run_gnuplot(script, errp, err);
    if (rc == 0)
        rc = deliver(img, rq->out_path, strcmp(ext, "pdf") == 0, err);
out:
    if (ctx.data)
        fclose(ctx.data);
    if (ctx.vars)
        fclose(ctx.vars);
    if (ctx.names)
        fclose(ctx.names);
    return rc;
}

int fs_plot_render_request(fs_store *s, const fs_plot_request *rq,
                           fs_error *err)
{
    const fs_chart *c = find_chart(rq->chart);
    if (!c) {
        char list[512];
        fs_plot_chart_list(list, sizeof list);
        fs_error_set(err, "unknown chart '%s'; the charts: %s", rq->chart,
                     list);
        return FS_PLOT_UNKNOWN_CHART;
    }
    const char *ext = NULL, *term = terminal_for(rq->out_path, &ext);
    if (!term) {
        fs_error_set(err, "%s: the output must end in .png, .svg or .pdf",
                     rq->out_path);
        return FS_PLOT_BAD_OUTPUT;
    }
    if (!gnuplot_on_path()) {
        fs_error_set(err, "gnuplot not found: install the Debian package "
                     "gnuplot-nox");
        return FS_PLOT_NO_GNUPLOT;
    }
    if (rq->nruns == 0)
        return fs_error_set(err, "no runs to plot");
    char dir[4096];
    if (fs_temp_dir("fleetsim-plot", dir, sizeof dir, err))
        return -1;
    int rc = draw(s, rq, c, dir, term, ext, err);
    remove_tree(dir);
    if (rc == FS_PLOT_NO_GNUPLOT)
        fs_error_set(err, "gnuplot not found: install the Debian package "
                     "gnuplot-nox");
    return rc == 0 ? FS_PLOT_OK : rc == FS_PLOT_NO_GNUPLOT ? rc
                                                           : FS_PLOT_FAIL;
}

int fs_plot_render(fs_store *s, const char *chart, const long *run_ids,
                   size_t n, long baseline, const char *out_path,
                   fs_error *err)
{
    fs_plot_request rq = {chart, run_ids, n, baseline, NULL, 1, out_path,
                          NULL, NULL, 0};
    return fs_plot_render_request(s, &rq, err);
}
