/* collect.h -- a run's results gathered from its world: utilization
 * samples while it runs, costs and latency when it ends. */
#ifndef FS_COLLECT_H
#define FS_COLLECT_H

typedef struct fs_world fs_world;

/* Schedules the first metrics sample (one every metrics_interval); -1 when
 * the run failed. */
int fs_collect_start(fs_world *w);
/* One utilization row per pool for the interval that ends at now; -1 with
 * a message when out of memory. */
int fs_collect_sample(fs_world *w, double now);
/* cost_monthly and pool rows; -1 with a message when out of memory. */
int fs_collect_costs(fs_world *w);
/* cost_allocation rows (allocate.c), after the pools are finished; -1
 * with a message when out of memory. */
int fs_collect_allocation(fs_world *w);
/* latency rows and the run's aggregates; -1 with a message when out of
 * memory. */
int fs_collect_latency(fs_world *w);
/* The LLM columns of the latency and pool rows just collected
 * (collect_llm.c): called by fs_collect_latency. */
int fs_collect_llm(fs_world *w);

#endif
