/* scenario_check.c -- checks that span sections, once all are parsed.
 *
 * Two memory bounds that no single key decides: the request slots a pool
 * allocates (its servers times the largest batch_max of its workloads) and
 * the result rows a run holds until it is stored (pools x replications x
 * (utilization samples + months)).  Each is refused at the key most likely
 * to be the cause, with file:line, before anything is allocated.  And a pool
 * that no workload uses is billed for nothing: a warning, not an error (a
 * planner may price idle capacity on purpose). */
#include "sim/scenario/scenario_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The entry of key in section, or NULL. */
static const fs_config_entry *find(const fs_scenario *sc, const char *section,
                                   const char *key)
{
    return fs_config_find(sc->cfg, section, key);
}

/* Refuses a pool whose servers x batch_max exceed FS_MAX_POOL_SLOTS. */
static int check_pool_slots(fs_scenario *sc, size_t ip, fs_error *err)
{
    const fs_pool_conf *p = &sc->pools[ip];
    double servers = (double)p->max * (double)(p->gpus_per_instance /
                                               p->gpus_per_server) *
                     (p->mig.n ? p->mig.n : p->sharing ? p->sharing_n : 1);
    long batch = 1;
    const fs_workload_conf *widest = NULL;
    for (size_t w = 0; w < sc->nworkloads; w++)
        for (int k = 0; k < sc->workloads[w].npools; k++)
            if (sc->workloads[w].pools[k] == (int)ip &&
                sc->workloads[w].batch_max > batch) {
                batch = sc->workloads[w].batch_max;
                widest = &sc->workloads[w];
            }
    double slots = servers * (double)batch;
    if (slots <= FS_MAX_POOL_SLOTS)
        return 0;
    fs_reader rd = {sc->cfg, p->section, err};
    const fs_config_entry *e =
        find(sc, p->section, p->scale == FS_SCALE_FIXED ? "count" : "max");
    if (widest) {
        rd.section = widest->section;
        e = find(sc, widest->section, "batch_max");
    }
    char why[400];
    snprintf(why, sizeof why, "pool %s holds %.0f servers x batch_max %ld = "
             "%.0f request slots, more than the %d a pool may hold: use "
             "fewer servers or a smaller batch_max", p->name, servers, batch,
             slots, FS_MAX_POOL_SLOTS);
    return fs_rd_bad(&rd, e, "%s", why);
}

/* Calendar months the horizon touches. */
static double months_touched(const fs_scenario *sc)
{
    time_t end = sc->start + (time_t)ceil(sc->horizon_s) - 1;
    struct tm a, b;
    gmtime_r(&sc->start, &a);
    gmtime_r(&end, &b);
    return (b.tm_year - a.tm_year) * 12.0 + (b.tm_mon - a.tm_mon) + 1;
}

/* Refuses a run whose result rows exceed FS_MAX_RESULT_ROWS, at the key
 * the user most likely set to make it so. */
static int check_result_rows(fs_scenario *sc, fs_error *err)
{
    double samples = floor(sc->horizon_s / sc->metrics_interval) + 1;
    double months = months_touched(sc);
    double per = samples + months;
    double pools = sc->npools ? (double)sc->npools : 1;
    double rows = pools * (double)sc->replications * per;
    if (rows <= FS_MAX_RESULT_ROWS)
        return 0;
    fs_reader rd = {sc->cfg, "scenario", err};
    const fs_config_entry *e = find(sc, "scenario", "metrics_interval");
    if (!e)
        e = find(sc, "scenario", "replications");
    if (!e)
        e = find(sc, "scenario", "horizon");
    char every[32], over[32], why[600];
    fs_format_duration(sc->metrics_interval, every, sizeof every);
    fs_format_duration(sc->horizon_s, over, sizeof over);
    snprintf(why, sizeof why, "%.0f pool%s x %ld replication%s x %.0f rows "
             "(utilization every %s over %s, plus %.0f months of costs) = "
             "%.0f result rows, more than the %d a run may hold: raise "
             "metrics_interval, or lower replications or horizon", pools,
             pools == 1 ? "" : "s", sc->replications,
             sc->replications == 1 ? "" : "s", per, every, over, months, rows,
             FS_MAX_RESULT_ROWS);
    return fs_rd_bad(&rd, e, "%s", why);
}

int fs_scenario_check_limits(fs_scenario *sc, fs_error *err)
{
    for (size_t i = 0; i < sc->npools; i++)
        if (check_pool_slots(sc, i, err))
            return -1;
    return check_result_rows(sc, err) || fs_scenario_check_disagg(sc, err);
}

static int pool_used(const fs_scenario *sc, size_t ip)
{
    for (size_t w = 0; w < sc->nworkloads; w++)
        for (int k = 0; k < sc->workloads[w].npools; k++)
            if (sc->workloads[w].pools[k] == (int)ip)
                return 1;
    return 0;
}

int fs_scenario_warn_unused_pools(fs_scenario *sc)
{
    for (size_t i = 0; i < sc->npools; i++) {
        if (pool_used(sc, i))
            continue;
        char (*w)[1024] = realloc(sc->warnings,
                                 (sc->nwarnings + 1) * sizeof *w);
        if (!w)
            return -1;
        sc->warnings = w;
        fs_reader rd = {sc->cfg, sc->pools[i].section, NULL};
        const fs_config_entry *e = fs_rd_first(&rd);
        fs_error msg;
        fs_error_at(&msg, e ? e->file : NULL, e ? e->line : 0,
                    sc->pools[i].section, "used by no workload: its "
                    "instances are billed but serve nothing");
        snprintf(sc->warnings[sc->nwarnings++], sizeof *w, "%s", msg.msg);
    }
    return 0;
}
