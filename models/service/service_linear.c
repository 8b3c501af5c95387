/* service_linear.c -- linear(base=D, per_item=D): a batch of n requests
 * takes base + per_item x n (a server whose per-batch overhead is shared,
 * as with dynamic batching).
 *
 * A request's demand is per_item, its share of a batch: what the queue
 * sums as waiting work for the autoscaler.  Nothing is drawn. */
#include "models/service/service.h"

static int linear_parse(const fs_call *c, fs_service *s, char *why,
                        size_t whylen)
{
    static const char *const keys[] = {"base", "per_item", NULL};
    if (fs_call_check_keys(c, keys, why, whylen) ||
        fs_dist_duration_arg(c, "base", -1, &s->base, why, whylen) ||
        fs_dist_duration_arg(c, "per_item", -1, &s->per_item, why, whylen))
        return -1;
    return 0;
}

static void linear_arrive(const fs_service *s, gsl_rng *rng,
                          double recorded_s, fs_request *r)
{
    (void)rng;
    (void)recorded_s;
    r->demand = s->per_item;
}

static double linear_batch_time(const fs_service *s, const fs_request *batch,
                                int n, double speed)
{
    (void)batch;
    double t = s->base + s->per_item * n;
    return t * speed;
}

const fs_service_model fs_service_linear = {
    .name = "linear",
    .usage = "linear(base=D, per_item=D)",
    .parse = linear_parse,
    .arrive = linear_arrive,
    .batch_time = linear_batch_time,
};
