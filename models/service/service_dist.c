/* service_dist.c -- the generic service models: const, exponential,
 * lognormal, weibull, empirical(FILE) (a sample of seconds).
 *
 * Each request's demand is one draw from the distribution (dist.c) on the
 * workload's service stream when it arrives; the requests of a batch run
 * in lockstep, so a batch takes its longest demand. */
#include "models/service/service.h"

static int dist_parse(const fs_call *c, fs_service *s, char *why,
                      size_t whylen)
{
    static const fs_empirical_words w = {"a service time", "seconds", 0};
    return fs_dist_parse_in(c, s->base_dir, w, &s->dist, why, whylen);
}

static void dist_arrive(const fs_service *s, gsl_rng *rng, double recorded_s,
                        fs_request *r)
{
    (void)recorded_s;   /* drawn, even when the trace recorded one */
    r->demand = fs_dist_draw(&s->dist, rng);
}

#define DIST_MODEL(NAME, USAGE)                                             \
    {                                                                       \
        .name = NAME, .usage = USAGE, .parse = dist_parse,                  \
        .arrive = dist_arrive, .batch_time = fs_service_longest,            \
        .lone_is_draw = 1,                                                  \
    }

const fs_service_model fs_service_const = DIST_MODEL("const", "const(D)");
const fs_service_model fs_service_exponential =
    DIST_MODEL("exponential", "exponential(mean=D)");
const fs_service_model fs_service_lognormal =
    DIST_MODEL("lognormal", "lognormal(mean=D, sigma=S)");
const fs_service_model fs_service_weibull =
    DIST_MODEL("weibull", "weibull(shape=K, scale=D)");
const fs_service_model fs_service_empirical =
    DIST_MODEL("empirical", "empirical(FILE)");
