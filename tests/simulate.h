/* simulate.h -- runs a scenario given as text and returns its results, or
 * builds its world for a test to drive, for the tests that check the
 * simulator's numbers (queueing, autoscaling, dispatch, the fleet).
 *
 * The text goes to a temporary file (the scenario loader reads files, and
 * its messages name them), which is removed again. */
#ifndef FS_TEST_SIMULATE_H
#define FS_TEST_SIMULATE_H

#include "sim/scenario/scenario.h"
#include "sim/fleet/world/world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A CSV file of header and rows under /tmp for a scenario to read (a
 * trace, an interruption trace); check_temp_csv_remove() unlinks them
 * all.  At most CHECK_TEMP_CSVS in a test. */
#define CHECK_TEMP_CSVS 8
typedef struct check_temp_csvs {
    char path[CHECK_TEMP_CSVS][64];
    int n;
} check_temp_csvs;

static inline check_temp_csvs *check_temp_csv_list(void)
{
    static check_temp_csvs list;
    return &list;
}

static inline const char *check_temp_csv(const char *header,
                                         const char *rows)
{
    check_temp_csvs *l = check_temp_csv_list();
    if (l->n >= CHECK_TEMP_CSVS)
        abort();   /* a test asks for more than it declared */
    char *path = l->path[l->n++];
    snprintf(path, sizeof l->path[0], "/tmp/fleetsim-test-XXXXXX.csv");
    int fd = mkstemps(path, 4);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f || fprintf(f, "%s\n%s", header, rows) < 0 || fclose(f) != 0)
        printf("  error: cannot write %s\n", path);
    return path;
}

static inline void check_temp_csv_remove(void)
{
    check_temp_csvs *l = check_temp_csv_list();
    for (int i = 0; i < l->n; i++)
        unlink(l->path[i]);
    l->n = 0;
}

/* The scenario of text; NULL after printing the error. */
static inline fs_scenario *check_load(const char *text)
{
    char path[] = "/tmp/fleetsim-test-XXXXXX.ini";
    int fd = mkstemps(path, 4);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        printf("  error: cannot write %s\n", path);
        if (f == NULL && fd >= 0)
            close(fd);
        unlink(path);
        return NULL;
    }
    fs_error err;
    fs_scenario *sc = fs_scenario_load(path, NULL, 0, &err);
    if (!sc)
        printf("  error: %s\n", err.msg);
    unlink(path);
    return sc;
}

/* 0 with *out filled (free it with fs_results_free), or -1 after printing
 * the error; *out is initialized either way. */
static inline int check_simulate(const char *text, fs_results *out)
{
    fs_results_init(out);
    fs_scenario *sc = check_load(text);
    if (!sc)
        return -1;
    fs_error err;
    int rc = fs_sim_run(sc, 0, NULL, NULL, out, &err);
    if (rc)
        printf("  error: %s\n", err.msg);
    fs_scenario_free(sc);
    return rc;
}

/* The replica the scenario's first workload runs on its first pool (the
 * LLM tests' closed forms come from it; its spec = charged). */
static inline int check_replica(const fs_scenario *sc, fs_llm_perf *perf)
{
    const fs_workload_conf *w = &sc->workloads[0];
    const fs_llm_service *l = &w->service.llm;
    fs_llm_config c;
    memset(&c, 0, sizeof c);
    c.model = l->model;
    c.weights = l->weights;
    c.kv = fs_llm_kv_default(l->weights);
    c.tp = l->tp;
    snprintf(c.engine, sizeof c.engine, "%s", l->engine);
    c.engines = l->engines;
    c.spec = l->spec.kind != FS_SPEC_OFF ? &l->spec : NULL;
    fs_llm_hw hw;
    fs_llm_hw_default(&hw, &sc->pools[w->pools[0]].gpu);
    char why[512];
    return fs_llm_perf_init(perf, &c, &hw, why, sizeof why);
}

/* check_simulate, with the first workload's replica in *perf (unless
 * NULL). */
static inline int check_run_llm(const char *text, fs_results *r,
                                fs_llm_perf *perf)
{
    fs_results_init(r);
    fs_scenario *sc = check_load(text);
    if (!sc)
        return -1;
    fs_error err;
    int rc = perf && check_replica(sc, perf) ? -1 : 0;
    if (rc == 0 && (rc = fs_sim_run(sc, 0, NULL, NULL, r, &err)))
        printf("  error: %s\n", err.msg);
    fs_scenario_free(sc);
    return rc;
}

#endif
