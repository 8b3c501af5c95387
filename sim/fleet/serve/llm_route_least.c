/* llm_route_least.c -- routing = least-loaded (the default): a replica
 * with room admits the oldest waiting request at its iteration, so a
 * request goes to the first replica that can take it, the least loaded
 * in effect (a shared queue, work-conserving). */
#include "sim/fleet/serve/llm_route.h"

static int least_admits(const fs_server *s, const fs_request *r)
{
    (void)s;
    (void)r;
    return 1;
}

const fs_llm_router fs_llm_route_least = {
    .name = "least-loaded",
    .admits = least_admits,
};
