/* scenario_llm_engine.c -- which serving-stack profile an llm workload's
 * replicas run (models/llm/llm_engine.h):
 *
 *   [workload]  service = llm(..., engine=vllm|vllm@0.2|..., profile=FILE)
 *   [pool]      llm_profile = FILE, kv_cache_tokens = N
 *
 * The profiles are engines.csv beside the GPU catalog (else the installed
 * catalog's), loaded the first time a workload serves an llm.  profile =
 * FILE (a file of the same columns, e.g. one `fleetsim calibrate` wrote)
 * replaces them for that workload; engine= then names a profile of the
 * file, by default its first.  A pool's llm_profile = FILE replaces them
 * for every llm replica on that pool: the profile the workload's engine=
 * names when the file has it, else the file's first (sim/fleet/serve/llm_setup.c).
 * kv_cache_tokens = N replaces the KV cache the profile computes for each
 * replica on the pool (what a real server's log said, say).
 * An unknown name is refused here with the known ones.  The profile's
 * scheduler defaults (max_num_seqs, chunked_prefill) fill what llm(...)
 * leaves out. */
#include "sim/scenario/scenario_impl.h"

#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void resolve_path(const fs_scenario *sc, const char *value,
                         int absolute, char *buf, size_t len)
{
    if (value[0] == '/' || absolute)
        snprintf(buf, len, "%s", value);
    else
        snprintf(buf, len, "%s/%s", sc->dir, value);
}

/* A user's profile file: loaded, or refused at its key with the reader's
 * "path:line: column: ..." message. */
static int load_user(fs_reader *rd, const fs_scenario *sc,
                     const fs_config_entry *e, const char *value,
                     fs_llm_engines **out)
{
    char path[2200];
    fs_error why;
    resolve_path(sc, value, e->line == 0, path, sizeof path);
    *out = fs_llm_engines_load(path, &why);
    return *out ? 0 : fs_rd_bad(rd, e, "%s", why.msg);
}

static int load_catalog(fs_reader *rd, fs_scenario *sc)
{
    if (sc->llm_engines)
        return 0;
    char tmp[sizeof sc->llm_catalog_csv], path[4200];
    snprintf(tmp, sizeof tmp, "%s", sc->llm_catalog_csv);
    snprintf(path, sizeof path, "%s/engines.csv", dirname(tmp));
    if (access(path, R_OK) != 0)
        snprintf(path, sizeof path, "%.4000s/engines.csv",
                 fs_catalog_default_dir());
    sc->llm_engines = fs_llm_engines_load(path, rd->err);
    return sc->llm_engines ? 0 : -1;
}

/* The profile's scheduler defaults where llm(...) gives none: its
 * max_num_seqs as max_batch, its chunked-prefill budget. */
static void scheduler_defaults(fs_llm_service *l, const fs_llm_engine *e)
{
    if (!l->max_batch_set && e->max_num_seqs >= 1)
        l->max_batch = e->max_num_seqs < 4096 ? (int)e->max_num_seqs : 4096;
    if (!l->chunk_set && e->chunked_prefill >= 16)
        l->chunked_prefill = (long)e->chunked_prefill;
}

int fs_scenario_llm_engine(fs_reader *rd, fs_scenario *sc,
                           fs_workload_conf *w, const fs_config_entry *svc)
{
    fs_llm_service *l = &w->service.llm;
    if (!w->service.model->server)
        return 0;
    if (load_catalog(rd, sc))
        return -1;
    l->engines = sc->llm_engines;
    if (l->profile[0]) {
        if (load_user(rd, sc, svc, l->profile, &l->user_engines))
            return -1;
        l->engines = l->user_engines;
        if (!l->engine_set)
            fs_llm_engines_first(l->engines, l->engine, sizeof l->engine);
    }
    const fs_llm_engine *row = fs_llm_engines_find(l->engines, l->engine,
                                                   NULL);
    if (row) {
        scheduler_defaults(l, row);
        return 0;
    }
    char hint[1200], why[2600];   /* the engine, the profile path and the hint whole */
    fs_llm_engines_suggest(l->engines, l->engine, hint, sizeof hint);
    snprintf(why, sizeof why, "llm(): unknown engine '%s' in %s (%s)",
             l->engine, l->profile[0] ? l->profile : "engines.csv", hint);
    return fs_rd_bad(rd, svc, "%s", why);
}

int fs_scenario_llm_pool_profile(fs_reader *rd, fs_scenario *sc,
                                 fs_pool_conf *p)
{
    fs_config_entry *e = fs_rd_entry(rd, "llm_profile");
    if (fs_rd_count(rd, "kv_cache_tokens", 0, 16, 1000000000L,
                    &p->kv_cache_tokens))
        return -1;
    return e ? load_user(rd, sc, e, e->value, &p->llm_profile) : 0;
}
