/* dispatch_fifo.c -- a workload served by the Kiefer-Wolfowitz recursion
 * (fifo_recursion.h) instead of its queue and servers: its arrival
 * handler, which counts what the events would have counted, and its
 * attachment (fs_workload_use_fifo, dispatch.h).
 *
 * Apart from dispatch.c, which it calls (for the next arrival) and which
 * never calls it: world.c attaches it. */
#include "sim/fleet/serve/dispatch.h"

/* What the events would have counted of a request the recursion served
 * from start to end: its start (wait) when before the horizon, and its
 * completion (latency, SLO) when before it too, as events at the horizon
 * never run; its busy time up to the horizon, to its month. */
static void fifo_count(fs_workload *w, double arrival, double start,
                       double end)
{
    const fs_scenario *sc = w->sim->sc;
    double horizon = sc->horizon_s;
    int measured = arrival >= sc->warmup_s;
    if (start < horizon) {
        if (measured) {
            w->wait_sum += start - arrival;
            w->measured_started++;
        }
        fs_servers *p = w->pools[0];
        fs_servers_account(p, 0, start, end < horizon ? end : horizon,
                           fs_shape_busy_gpus(&p->shape));
    }
    if (!(end < horizon)) {
        w->late++;
        return;
    }
    if (measured) {
        double latency = end - arrival;
        fs_hist_add(&w->latency, latency);
        fs_hist_add(&w->wait, start - arrival);
        w->slo_met += latency <= w->conf->slo_s;
        w->measured++;
    }
    w->completed++;
    w->batches++;
}

/* Serves the request arriving now; -1 when out of memory. */
static int serve(fs_workload *w)
{
    const fs_arrival *a = &w->next;
    double t = fs_service_lone_time(&w->conf->service, w->service_rng, a->t,
                                    a->service_s, a->tokens_in,
                                    a->tokens_out, w->speed[0]) /
               w->pools[0]->shape.speed;
    double start, end;
    w->arrived++;
    if (fs_fifo_full(&w->fifo, a->t, (size_t)w->conf->queue_max)) {
        w->dropped++;   /* as on_arrival drops it (dispatch.c) */
        w->dropped_full++;
        return 0;
    }
    if (fs_fifo_assign(&w->fifo, a->t, t, &start, &end)) {
        fs_error_set(w->sim->err, "out of memory queueing requests");
        fs_sim_fail(w->sim);
        return -1;
    }
    fifo_count(w, a->t, start, end);
    return 0;
}

/* An arrival of a workload the recursion serves: its start and end are
 * known at once (fifo_recursion.h), and the arrivals before the next
 * pending event are served one after another (fs_workload_arrivals). */
static void on_arrival_fifo(fs_engine *e, void *obj, long arg)
{
    (void)arg;
    fs_workload_arrivals(e, obj, serve);
}

int fs_workload_use_fifo(fs_workload *w)
{
    fs_servers *p = w->pools[0];
    if (!w->fifo_applies || p->nidle == 0 ||
        (size_t)p->nidle != p->nservers)
        return 0;
    if (fs_fifo_init(&w->fifo, (size_t)p->nidle, fs_engine_now(w->sim->engine)))
        return fs_error_set(w->sim->err, "out of memory");
    w->on_arrive = on_arrival_fifo;
    p->usage->fifo = &w->fifo;
    p->usage->fifo_gpus = fs_shape_busy_gpus(&p->shape);
    return 0;
}
