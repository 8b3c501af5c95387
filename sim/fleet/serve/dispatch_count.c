/* dispatch_count.c -- what a workload holds at a time: its requests
 * unfinished (queued, on a server, late or in a KV transfer) and waiting.
 * Read by world/collect.c for the run's rows and metrics, never on an
 * event; apart from dispatch.c so that file keeps to its events. */
#include "sim/fleet/serve/dispatch.h"

long fs_workload_unfinished(const fs_workload *w)
{
    long n = (long)w->queue.len + w->late + (long)w->kv_queue.len +
             fs_llm_disagg_in_flight(w);
    for (int k = 0; k < w->npools; k++) {
        const fs_servers *p = w->pools[k];
        for (size_t i = 0; i < p->nservers; i++)
            if (p->servers[i].wl == w)
                n += p->servers[i].nbatch;
    }
    return n;
}

long fs_workload_waiting(const fs_workload *w, double t)
{
    return (long)w->queue.len + (long)w->kv_queue.len +
           (long)fs_fifo_waiting(&w->fifo, t);
}
