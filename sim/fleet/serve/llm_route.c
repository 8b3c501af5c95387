/* llm_route.c -- the routing policies' registry (see llm_route.h): one
 * place that maps a pool's routing = key to its table. */
#include "sim/fleet/serve/llm_route.h"
#include "sim/fleet/serve/dispatch.h"
#include "sim/fleet/serve/llm_run.h"

/* In fs_llm_routing's order (sim/scenario/scenario.h). */
static const fs_llm_router *const routers[FS_ROUTING_N] = {
    [FS_ROUTING_LEAST_LOADED] = &fs_llm_route_least,
    [FS_ROUTING_ROUND_ROBIN] = &fs_llm_route_rr,
    [FS_ROUTING_PREFIX_AWARE] = &fs_llm_route_prefix,
};

const fs_llm_router *fs_llm_router_of(const fs_servers *p)
{
    return routers[p->conf->routing];
}

int fs_llm_route_has_room(const fs_server *s, const fs_server *o,
                          long tokens)
{
    if (o->state != FS_SERVER_BUSY || o->wl != s->wl || !o->llm ||
        !fs_capacity_takes_work(o->pool->cap, o->instance))
        return 0;
    const fs_llm_run *run = o->llm;
    long blocks = (tokens + KV_BLOCK) / KV_BLOCK;
    return run->n < run->cap &&
           (run->n == 0 || blocks <= run->free_blocks - run->watermark);
}
