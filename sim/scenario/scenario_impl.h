/* scenario_impl.h -- what the files of the scenario loader share.
 *
 * scenario.c walks the sections; scenario_read.c reads typed keys of one
 * section with file:line:key messages; scenario_pool.c parses a pool
 * (catalog, provider, pricing, size); scenario_check.c checks what spans
 * sections once all are parsed.  Not for other modules: they use
 * scenario.h. */
#ifndef FS_SCENARIO_IMPL_H
#define FS_SCENARIO_IMPL_H

#include "sim/scenario/keys.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/scenario_limits.h"

#include <stddef.h>

/* Where a section's keys are read from, for messages. */
typedef struct fs_reader {
    fs_config *cfg;
    const char *section;
    fs_error *err;
} fs_reader;

typedef int (*fs_parse_fn)(const char *, double *, char *, size_t);

/* The entry of key in the section (marked used), or NULL. */
fs_config_entry *fs_rd_entry(fs_reader *rd, const char *key);
/* "file:line: section.key: why"; with e NULL, at the section's first line
 * and naming the section. */
int fs_rd_bad(fs_reader *rd, const fs_config_entry *e, const char *fmt,
              const char *why);
/* "file:line: section: missing what", at the section's first line. */
int fs_rd_missing(fs_reader *rd, const char *what);
const fs_config_entry *fs_rd_first(fs_reader *rd);

/* Typed keys: def when absent; -1 with the message set when bad. */
int fs_rd_double(fs_reader *rd, const char *key, fs_parse_fn parse,
                 double def, double *out);
int fs_rd_count(fs_reader *rd, const char *key, long def, long min, long max,
                long *out);
int fs_rd_bool(fs_reader *rd, const char *key, int def, int *out);
int fs_rd_choice(fs_reader *rd, const char *key, const char *const *words,
                 int def, int *out);
/* tags = k:v,... normalised into out ("" when absent). */
int fs_rd_tags(fs_reader *rd, char out[FS_TAGS_MAX]);
/* Refuses a key of the section that its kind's table (keys.c) does not
 * accept: "not implemented in this version" for a key of a later version,
 * else "unknown key" with the nearest accepted name. */
int fs_rd_check_keys(fs_reader *rd, fs_section_kind kind);

/* The index of the one of n items (size bytes each, their name a
 * char[FS_NAME_MAX] at offset off) named name, -1 when none is: pools,
 * windows (scenario_read.c).  FS_NAME_INDEX(type, items, n, want). */
int fs_scenario_name_index(const void *items, size_t n, size_t size,
                           size_t off, const char *name);
#define FS_NAME_INDEX(type, items, n, want) \
    fs_scenario_name_index(items, n, sizeof(type), offsetof(type, name), want)

/* scenario_pool.c: [pool.NAME] into p. */
int fs_scenario_parse_pool(fs_scenario *sc, const char *section,
                           fs_pool_conf *p, fs_error *err);

/* scenario_training.c: the keys of a training workload, its jobs (read
 * here) and its pools; and the keys of the other kind refused. */
int fs_scenario_parse_training(fs_reader *rd, fs_scenario *sc,
                               fs_workload_conf *w);
int fs_scenario_refuse_keys(fs_reader *rd, int training);
/* scenario_llm_train.c: model = on a training workload (memory fit, the
 * jobs' durations rescaled to the pools' GPU). */
int fs_scenario_training_model(fs_reader *rd, fs_scenario *sc,
                               fs_workload_conf *w);
/* scenario_budget.c: budget = and budgets = of [scenario]. */
int fs_scenario_parse_budgets(fs_reader *rd, fs_scenario *sc);
/* scenario_storage.c: a training workload's checkpoint size, retention
 * and transfer, and each of its pools' storage and transfer prices. */
int fs_scenario_training_storage(fs_reader *rd, fs_scenario *sc,
                                 fs_workload_conf *w);
/* The same file: an llm workload's weights_from and each of its pools'
 * storage and transfer prices for its weights. */
int fs_scenario_parse_weights(fs_reader *rd, fs_scenario *sc,
                              fs_workload_conf *w);
/* A pool serves workloads of one kind (inference or training) only. */
int fs_scenario_check_pool_kinds(fs_reader *rd, const fs_scenario *sc,
                                 const fs_workload_conf *w);

/* scenario_window.c: a pool's schedule and drain keys (the window is
 * resolved once windows are parsed), a [window.NAME], the scenario's
 * timezone, and the checks that tie pools, windows and batch workloads. */
int fs_scenario_parse_schedule(fs_reader *rd, fs_pool_conf *p);
int fs_scenario_parse_window(fs_scenario *sc, const char *section,
                             fs_window_conf *win, fs_error *err);
int fs_scenario_parse_timezone(fs_reader *rd, fs_scenario *sc);
/* growth = G%/month [± S%] (scenario_growth.c). */
int fs_scenario_parse_growth(fs_reader *rd, fs_workload_conf *w);
int fs_scenario_parse_pool_growth(fs_reader *rd, fs_pool_conf *p);
int fs_scenario_resolve_windows(fs_scenario *sc, fs_error *err);
/* scenario_spot.c: a spot pool's interruption, notice, replacement and
 * spot_extra (read after its size); then, once every pool is read, each
 * fallback resolved to an on-demand pool, whose max grows to take it. */
/* scenario_mig.c: where mig.csv is; a pool's mig, sharing and
 * timeslice_efficiency; a workload's mig_profile (its pools read). */
void fs_scenario_mig_path(fs_scenario *sc, const char *gpus_csv);
int fs_scenario_parse_sharing(fs_reader *rd, fs_scenario *sc,
                              fs_pool_conf *p);
int fs_scenario_parse_mig_profile(fs_reader *rd, fs_scenario *sc,
                                  fs_workload_conf *w);
int fs_scenario_parse_spot(fs_reader *rd, fs_scenario *sc, fs_pool_conf *p);
int fs_scenario_link_spot(fs_scenario *sc, fs_error *err);

/* scenario_check.c: the bounds that span sections (request slots per pool,
 * result rows per run); and a warning for each pool no workload uses. */
/* LLM serving (scenario_llm.c): the models.csv beside the GPU catalog;
 * a workload's llm keys and its model (e: its service entry); a pool's
 * efficiencies. */
void fs_scenario_llm_catalog_path(fs_scenario *sc, const char *gpus_csv);
int fs_scenario_parse_llm(fs_reader *rd, fs_scenario *sc,
                          fs_workload_conf *w, const fs_config_entry *e);
int fs_scenario_parse_llm_pool(fs_reader *rd, fs_pool_conf *p);
/* The model called name in models = FILE or the catalog's models.csv, or
 * NULL with "WHAT: unknown model 'x' did you mean ..." at e. */
const fs_llm_model *fs_scenario_llm_find(fs_reader *rd, fs_scenario *sc,
                                         const char *name,
                                         const fs_config_entry *e,
                                         const char *what);
/* scenario_spec.c: a workload's spec = draft(...) | mtp(...). */
int fs_scenario_parse_spec(fs_reader *rd, fs_scenario *sc,
                           fs_workload_conf *w);
/* scenario_adapter.c: a workload's LoRA adapters (adapters =, ...) and
 * replicas = on a pool shared by several models. */
int fs_scenario_parse_adapters(fs_reader *rd, fs_workload_conf *w);
/* scenario_llm_engine.c: a workload's engine profile (engine=, profile=)
 * and a pool's llm_profile = FILE. */
int fs_scenario_llm_engine(fs_reader *rd, fs_scenario *sc,
                           fs_workload_conf *w, const fs_config_entry *svc);
/* scenario_disagg.c: a pool's role and network_gbps (it: its catalog
 * instance, or NULL); then, once every section is read, that each
 * workload with a role on its pools serves an llm from one prefill and
 * one decode pool joined by a known network bandwidth. */
int fs_scenario_parse_disagg_pool(fs_reader *rd, fs_pool_conf *p,
                                  const fs_instance_type *it);
int fs_scenario_check_disagg(fs_scenario *sc, fs_error *err);
/* scenario_pd_shared.c: a decode pool's share_instances = POOL; then,
 * before the checks above, that each such pair is one prefill and one
 * decode pool of one workload on the same instances (type, count,
 * purchase), whose GPUs fit the instance and are joined by NVLink. */
int fs_scenario_parse_pd_shared(fs_reader *rd, fs_pool_conf *p);
int fs_scenario_check_pd_shared(fs_scenario *sc, fs_error *err);

/* scenario_prefix.c: a pool's prefix_cache, a workload's
 * prefix = shared(...). */
int fs_scenario_parse_prefix_pool(fs_reader *rd, fs_pool_conf *p);
/* scenario_coldstart.c: a pool's load_time and the bandwidth its
 * replicas load over (it: the instance key's type, or NULL); then, once
 * workloads are read, load_time refused on a pool serving no llm(...)
 * and a launching LLM pool with no bandwidth and no load_time. */
int fs_scenario_parse_load_pool(fs_reader *rd, fs_scenario *sc,
                                fs_pool_conf *p, const fs_instance_type *it);
int fs_scenario_check_load(fs_scenario *sc, fs_error *err);
int fs_scenario_parse_prefix(fs_reader *rd, fs_workload_conf *w);
int fs_scenario_llm_pool_profile(fs_reader *rd, fs_scenario *sc,
                                 fs_pool_conf *p);
int fs_scenario_check_limits(fs_scenario *sc, fs_error *err);
int fs_scenario_warn_unused_pools(fs_scenario *sc);

#endif
