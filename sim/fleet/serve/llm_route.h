/* llm_route.h -- routing a workload's waiting LLM requests across the
 * replicas of a pool.
 *
 * Requests wait in their workload's queue, oldest first; each busy
 * replica admits from it at its iteration (llm_server.c).  A routing
 * policy says whether replica s admits the request at the queue's head
 * now, or leaves it for another replica of the pool that is serving the
 * workload (which then admits it at its own next iteration): the choice
 * is made at admission, so no request is bound to a replica that could
 * not take it.  An idle replica takes arriving work as dispatch gives it.
 *
 * A policy is a small table of functions, one file each
 * (llm_route_least.c, llm_route_rr.c, llm_route_prefix.c), registered in
 * llm_route.c in fs_llm_routing's order (sim/scenario/scenario.h). */
#ifndef FS_LLM_ROUTE_H
#define FS_LLM_ROUTE_H

#include "sim/fleet/serve/servers.h"

typedef struct fs_llm_router {
    const char *name;
    /* Whether replica s admits r, the head of its workload's queue, now. */
    int (*admits)(const fs_server *s, const fs_request *r);
    /* s admitted a request (NULL: nothing to note). */
    void (*admitted)(fs_server *s);
} fs_llm_router;

extern const fs_llm_router fs_llm_route_least;
extern const fs_llm_router fs_llm_route_rr;
extern const fs_llm_router fs_llm_route_prefix;

/* The pool's policy (its routing = key). */
const fs_llm_router *fs_llm_router_of(const fs_servers *p);

/* Whether replica o of s's pool could admit a request of tokens prompt
 * tokens at its next iteration: busy with s's workload, on an instance
 * that takes work, with room in its batch and its KV memory. */
int fs_llm_route_has_room(const fs_server *s, const fs_server *o,
                          long tokens);

#endif
