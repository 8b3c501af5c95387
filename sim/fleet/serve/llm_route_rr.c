/* llm_route_rr.c -- routing = round-robin: every replica serving the
 * workload takes the same number of waiting requests, whatever it holds
 * in cache or how loaded it is, as a round-robin load balancer deals
 * them.  A replica that has admitted more from the queue than another
 * that could admit the request now (busy with the workload, room in its
 * batch and KV memory) by more than a slack of an eighth of max_batch
 * leaves it to that one.  The slack lets a replica admit several requests
 * in one iteration, as a replica admits the requests dealt to it; a
 * replica that could not admit loses its turn, so the queue never waits
 * on a full one. */
#include "sim/fleet/serve/llm_route.h"
#include "sim/fleet/serve/llm_run.h"

static int rr_admits(const fs_server *s, const fs_request *r)
{
    const fs_servers *p = s->pool;
    const fs_llm_run *run = s->llm;
    long tokens = (long)r->tokens_in + r->generated;
    long slack = run->cap / 8 > 1 ? run->cap / 8 : 1;
    for (size_t i = 0; i < p->nservers; i++) {
        const fs_server *o = &p->servers[i];
        if (o != s && fs_llm_route_has_room(s, o, tokens) &&
            run->routed >= o->llm->routed + slack)
            return 0;
    }
    return 1;
}

static void rr_admitted(fs_server *s)
{
    s->llm->routed++;
}

const fs_llm_router fs_llm_route_rr = {
    .name = "round-robin",
    .admits = rr_admits,
    .admitted = rr_admitted,
};
