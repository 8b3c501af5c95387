/* llm_route_prefix.c -- routing = prefix-aware: a waiting request goes to
 * the replica holding the longest cached prefix of it, bounded by load,
 * as llm-d's and Dynamo's KV-aware routers score replicas by prefix
 * overlap and load.
 *
 * At its iteration, replica s leaves the request at the queue's head to
 * another replica of the pool serving the workload when that one's block
 * cache holds more of its leading blocks (fs_kv_cache_match) and it can
 * admit it: room in its batch and in its KV memory, and no more running
 * requests than s has plus a slack of an eighth of max_batch (at least
 * one).  The slack bounds the imbalance the cache may cause; past it, s
 * admits the request itself.  Without a prefix cache it is least-loaded. */
#include "sim/fleet/serve/llm_route.h"
#include "sim/fleet/serve/dispatch.h"
#include "sim/fleet/serve/llm_prefix.h"
#include "sim/fleet/serve/llm_run.h"

/* Whether replica o, which could admit the request, is within the slack
 * of s's load. */
static int within_slack(const fs_llm_run *s, const fs_llm_run *o)
{
    long slack = s->cap / 8 > 1 ? s->cap / 8 : 1;
    return o->kv && o->n <= s->n + slack;
}

static int prefix_admits(const fs_server *s, const fs_request *r)
{
    const fs_llm_run *run = s->llm;
    long tokens = r->tokens_in > 1 ? r->tokens_in : 1;
    long n = (tokens - 1) / (run->bs > 0 ? run->bs : 1);
    tokens += r->generated;
    if (!run->kv || r->prefix < 0 || n <= 0)
        return 1;
    fs_kv_run *runs = fs_kv_cache_runs(run->kv, n);
    if (!runs)
        return 1;
    long nr = fs_prefix_store_runs(s->wl->prefix, r->prefix, run->bs, n,
                                   runs);
    long mine = fs_kv_cache_match(run->kv, runs, nr);
    const fs_servers *p = s->pool;
    for (size_t i = 0; i < p->nservers; i++) {
        const fs_server *o = &p->servers[i];
        if (o != s && fs_llm_route_has_room(s, o, tokens) &&
            within_slack(run, o->llm) &&
            fs_kv_cache_match(o->llm->kv, runs, nr) > mine)
            return 0;
    }
    return 1;
}

const fs_llm_router fs_llm_route_prefix = {
    .name = "prefix-aware",
    .admits = prefix_admits,
};
