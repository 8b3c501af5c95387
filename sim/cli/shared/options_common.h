/* options_common.h -- the options several subcommands take, each declared
 * once: its name, its value's name and its help line, as git's OPT__QUIET
 * and OPT__VERBOSE are.  A command's table names the field the value goes
 * to (OPT__DB_READ(runs_opts, db)); the parser, `fleetsim help CMD`,
 * doc/commands.md and the man page then say the same of --db in every
 * command that reads it.  An option whose meaning differs by command
 * (plan's --precision takes a list; plot's --pool is for one chart) keeps
 * its own entry in that command's table. */
#ifndef FS_OPTIONS_COMMON_H
#define FS_OPTIONS_COMMON_H

#include "sim/cli/shared/parse_options.h"

/* --db of a command that reads stored runs: runs, compare, rm, roi,
 * commit, export, plot. */
#define OPT__DB_READ(T, f) \
    OPT_STRING(0, "db", T, f, "FILE", "the results database (never created)")
/* --db of a command that stores runs: run, sweep, plan. */
#define OPT__DB_CREATE(T, f) \
    OPT_STRING(0, "db", T, f, "FILE", "results database (created if missing)")

/* --seed of a command that runs a scenario: run, sweep, plan. */
#define OPT__SEED(T, f) \
    OPT_INT(0, "seed", T, f, "N", "overrides [scenario] seed", 0, LONG_MAX)

/* The catalog a command reads: catalog, fit, calibrate. */
#define OPT__CATALOG(T, f) \
    OPT_STRING(0, "catalog", T, f, "DIR", "the catalog directory (default " \
               "$FLEETSIM_CATALOG, else the installed one)")
#define OPT__MODELS(T, f) \
    OPT_STRING(0, "models", T, f, "FILE", \
               "the model catalog (default the catalog's models.csv)")

/* One LLM deployment on one GPU: fit, calibrate. */
#define OPT__GPU(T, f) \
    OPT_STRING_F(0, "gpu", T, f, "GPU", "the GPU (a row of gpus.csv)", \
                 FS_OPTION_REQUIRED)
#define OPT__PRECISION(T, f) \
    OPT_STRING(0, "precision", T, f, "P", \
               "the weights: fp32, bf16 (default), fp16, fp8, int8, int4")
#define OPT__TP(T, f) \
    OPT_STRING(0, "tp", T, f, "N", "tensor-parallel GPUs: 1, 2, 4 or 8 " \
               "(default 1)")
#define OPT__ENGINE(T, f) \
    OPT_STRING(0, "engine", T, f, "E", "serving-stack profile of " \
               "engines.csv (vllm, trt-llm, sglang, NAME@VERSION; default " \
               "vllm)")

/* The output formats of a table of results: compare, commit, roi. */
#define OPT__FORMAT(T, f) \
    OPT_STRING(0, "format", T, f, "table|csv|json|markdown", "table " \
               "(default) and markdown for people, csv and json for programs")
/* The four, and more formats of one command's own ("focus"). */
#define OPT__FORMAT_AND(T, f, more, h) \
    OPT_STRING(0, "format", T, f, "table|csv|json|markdown|" more, h)

#endif
