/* service_trace.c -- trace: each request's demand is the service time its
 * trace recorded (alibaba-lora's exec_time_seconds, or a generic trace's
 * service= column); a batch takes its longest demand.
 *
 * Whether the workload's trace records service times is known only when
 * the trace is opened: reads_trace_service asks the fleet to check it
 * there, with the arrivals key's file and line. */
#include "models/service/service.h"

#include <stdio.h>

static int trace_parse(const fs_call *c, fs_service *s, char *why,
                       size_t whylen)
{
    (void)s;
    if (c->nargs > 0) {
        snprintf(why, whylen, "trace takes no arguments: the service times "
                 "come from the trace of the workload's arrivals (service "
                 "= trace)");
        return -1;
    }
    return 0;
}

static void trace_arrive(const fs_service *s, gsl_rng *rng, double recorded_s,
                         fs_request *r)
{
    (void)s;
    (void)rng;
    r->demand = recorded_s;
}

const fs_service_model fs_service_trace = {
    .name = "trace",
    .usage = "trace",
    .reads_trace_service = 1,
    .parse = trace_parse,
    .arrive = trace_arrive,
    .batch_time = fs_service_longest,
};
