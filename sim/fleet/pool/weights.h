/* weights.h -- what an LLM pool's model weights cost beside the GPU hour:
 * kept in object storage, and pulled on every cold start.
 *
 * A pool concern (one entry of pool.c's parts[]): it follows the capacity's
 * LOADED event, a launched instance's cold start, month by month, and at
 * the horizon adds the cost_extra rows of each llm workload on the pool
 * whose weights_from prices them (scenario_storage.c):
 *
 *   model-storage (Storage):  the model's weight bytes (one copy of a
 *       replica's weights) x the GB-months of the horizon in each calendar
 *       month (its seconds / 730 h), at the provider's $ per GB-month;
 *   weights-transfer (Networking):  the cold starts of the month x the
 *       bytes each pulls (the bytes coldstart.c times the load by: a
 *       replica's weights x the replicas an instance holds), at the
 *       provider's $ per GB for weights_from (same-region: $0).
 *
 * GB are 10^9 bytes; each row's cost is its quantity x price rounded to
 * the cent, as the checkpoints' rows are (training_storage.c). */
#ifndef FS_WEIGHTS_H
#define FS_WEIGHTS_H

#include "sim/fleet/capacity/capacity.h"
#include "sim/fleet/serve/servers.h"

typedef struct fs_weights_run {
    const fs_calendar *cal;
    double provision_delay;
    long *cold_starts;      /* per calendar month; NULL: a pool serving no
                               llm (nothing counted) */
} fs_weights_run;

extern const fs_capacity_listener fs_weights_listener;

/* Counts by month for a pool that serves an llm (cold_start); -1 when out
 * of memory. */
int fs_weights_init(fs_weights_run *r, const fs_calendar *cal,
                    const fs_pool_conf *conf);
/* The rows of each llm workload on servers whose weights are priced,
 * into results; -1 when out of memory (message in err). */
int fs_weights_rows(const fs_weights_run *r, const fs_servers *servers,
                    fs_results *out, fs_error *err);
void fs_weights_free(fs_weights_run *r);

#endif
