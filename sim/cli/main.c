/* main.c -- the fleetsim command: finds the subcommand and runs it.
 *
 * The commands are declared once, in the table below: `fleetsim help`
 * lists them from it, each with the option table its parser reads (help,
 * doc/commands.md and the man page's SYNOPSIS and OPTIONS are printed from
 * those), and tests/cli_docs.sh checks that each is in the man page and
 * README.md.  Adding one: sim/cli/NAME/cmd_NAME.c with its option table,
 * their declarations in commands.h, a line here, and its text in
 * shared/help.c. */
#include "sim/cli/commands.h"
#include "sim/cli/shared/help.h"
#include "sim/store/store.h"

#include <stdio.h>
#include <string.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "dev"
#endif

static int help(int argc, char **argv);

/* In the order `fleetsim help` lists them. */
static const fs_command commands[] = {
    {"run", cmd_run, "SCENARIO",
     "simulate a scenario and store the run (fleetsim.db)",
     fs_options_run, "SCENARIO"},
    {"sweep", cmd_sweep, "SCENARIO --vary ...",
     "one run per point of a grid of values, in parallel",
     fs_options_sweep, "SCENARIO"},
    {"plan", cmd_plan, "SCENARIO --slo 'p99<=2s,...'",
     "the cheapest fleet that meets the SLOs, verified and priced",
     fs_options_plan, "SCENARIO"},
    {"runs", cmd_runs, "", "list the stored runs",
     fs_options_db_read, ""},
    {"compare", cmd_compare, "RUN...",
     "compare runs side by side (--baseline for deltas)",
     fs_options_compare, "RUN..."},
    {"rm", cmd_rm, "RUN...", "remove runs and all their rows",
     fs_options_db_read, "RUN..."},
    {"import", cmd_import, "KEPT...",
     "copy the runs of a kept database into --db",
     fs_options_import, "KEPT..."},
    {"merge", cmd_merge, "INTO PART...",
     "copy the runs of sweep shards into one database, each run once",
     fs_options_merge, "INTO PART..."},
    {"roi", cmd_roi, "RUN",
     "how many instances to reserve (or commit to), from a run's usage",
     fs_options_roi, "RUN"},
    {"commit", cmd_commit, "RUN...",
     "every reservation and savings plan at once: one MILP over all pools",
     fs_options_commit, "RUN..."},
    {"forecast", cmd_forecast, "RUN...",
     "the monthly bill of the next months, grown, with its interval",
     fs_options_forecast, "RUN..."},
    {"export", cmd_export, "--format focus|csv --out FILE RUN...",
     "write the simulated bill as a FOCUS 1.2 dataset or plain CSV",
     fs_options_export, "RUN..."},
    {"plot", cmd_plot, "--chart NAME --out FILE RUN...",
     "draw a chart of runs with gnuplot (png, svg, pdf)",
     fs_options_plot, "RUN..."},
    {"report", cmd_report, "--out FILE.html|FILE.md RUN...",
     "one budget review of runs: tables and charts (HTML or Markdown)",
     fs_options_report, "RUN..."},
    {"trace", cmd_trace, "fit|stats FILE",
     "fit an interruption model to a spot preemption trace",
     fs_options_trace, "fit|stats FILE"},
    {"catalog", cmd_catalog, "gpus|instances|models",
     "print the GPU, instance-price or LLM model catalog",
     fs_options_catalog, "gpus|instances|models|mig [GPU]"},
    {"fit", cmd_fit, "MODEL --gpu GPU [--training ...]",
     "does an LLM fit a GPU: memory in GB, largest batch, where it fits",
     fs_options_fit, "MODEL"},
    {"calibrate", cmd_calibrate, "FILE... --model M --gpu G",
     "fit the LLM model to your own benchmark runs (vLLM, genai-perf, ...)",
     fs_options_calibrate, "FILE..."},
    {"help", help, "[TOPIC]",
     "help on a command, scenario, keys or columns",
     NULL, "[--man] [TOPIC]"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static int help(int argc, char **argv)
{
    return fs_help_main(argc, argv, commands, NCOMMANDS);
}

int main(int argc, char **argv)
{
    /* Past a file-size limit (ulimit -f) a write fails with a message
     * rather than SIGXFSZ killing us. */
    fs_store_catch_file_size_limit();
    if (argc < 2) {
        fs_help_usage(stderr, commands, NCOMMANDS);
        return FS_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
        return help(argc - 1, argv + 1);
    if (strcmp(name, "--version") == 0) {
        printf("fleetsim %s\n", PACKAGE_VERSION);
        return FS_EXIT_OK;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0) {
            /* `fleetsim CMD --help` is `fleetsim help CMD`. */
            for (int k = 2; k < argc; k++)
                if (strcmp(argv[k], "--help") == 0 ||
                    strcmp(argv[k], "-h") == 0) {
                    char *h[] = {"help", (char *)name, NULL};
                    return help(2, h);
                }
            return commands[i].fn(argc - 1, argv + 1);
        }
    return fs_usage_error(name, "not a fleetsim command (see fleetsim "
                          "--help)");
}
