/* llm_placement.h -- several LLM models on one pool: which replicas host
 * which model.  See llm_placement.c. */
#ifndef FS_LLM_PLACEMENT_H
#define FS_LLM_PLACEMENT_H

#include "sim/fleet/serve/servers.h"

/* Places pool p's replicas when its llm workloads serve more than one
 * model (a no-op otherwise: every server serves any, as before); -1 with
 * file:line:key in err when the stated replicas cannot be placed. */
int fs_llm_place(fs_servers *p, fs_error *err);
/* Replicas of p placed at the start that host model (0 when p places
 * none). */
long fs_llm_placed(const fs_servers *p, const void *model);

#endif
