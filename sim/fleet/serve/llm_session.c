/* llm_session.c -- multi-turn sessions (see llm_session.h).
 *
 * The sessions waiting for their next turn sit in a binary min-heap by
 * the time their think time ends, so an arrival finds the one that has
 * waited longest past it in O(log n); the heap doubles to its peak (the
 * sessions open at once) and never allocates after. */
#include "sim/fleet/serve/llm_session.h"
#include "sim/base/vec.h"

#include <gsl/gsl_randist.h>
#include <limits.h>
#include <stdlib.h>

typedef struct session {
    double ready;            /* its think time ends */
    uint64_t id;
    long context;            /* tokens so far: prompts and outputs */
    long left;               /* turns still to come */
} session;

struct fs_session_set {
    double p, think_s;       /* geometric parameter (1 / mean turns) */
    gsl_rng *rng;
    uint64_t serial;
    session *h;
    long n;
    size_t cap;
};

fs_session_set *fs_session_set_new(double mean_turns, double think_s,
                                   gsl_rng *rng)
{
    fs_session_set *s = malloc(sizeof *s);
    if (s)
        *s = (fs_session_set){.p = 1 / mean_turns, .think_s = think_s,
                              .rng = rng};
    return s;
}

void fs_session_set_free(fs_session_set *s)
{
    if (s)
        free(s->h);
    free(s);
}

static void sift_up(session *h, long i)
{
    while (i > 0 && h[(i - 1) / 2].ready > h[i].ready) {
        session t = h[i];
        h[i] = h[(i - 1) / 2];
        h[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static void sift_down(session *h, long n, long i)
{
    for (;;) {
        long m = i, l = 2 * i + 1, r = l + 1;
        if (l < n && h[l].ready < h[m].ready)
            m = l;
        if (r < n && h[r].ready < h[m].ready)
            m = r;
        if (m == i)
            return;
        session t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static int push(fs_session_set *s, session x)
{
    session *h = fs_vec_grow(s->h, &s->cap, (size_t)s->n + 1, sizeof *h);
    if (!h)
        return -1;
    s->h = h;
    s->h[s->n] = x;
    sift_up(s->h, s->n++);
    return 0;
}

static session pop(fs_session_set *s)
{
    session x = s->h[0];
    s->h[0] = s->h[--s->n];
    sift_down(s->h, s->n, 0);
    return x;
}

int fs_session_turn(fs_session_set *s, fs_request *r, uint64_t *session_id)
{
    session x;
    if (s->n > 0 && s->h[0].ready <= r->arrival)
        x = pop(s);
    else
        x = (session){0, ++s->serial, 0,
                      (long)gsl_ran_geometric(s->rng, s->p)};
    long in = (r->tokens_in > 0 ? r->tokens_in : 1) + x.context;
    r->tokens_in = in < INT32_MAX ? (int32_t)in : INT32_MAX;
    x.context = (long)r->tokens_in + (r->tokens_out > 0 ? r->tokens_out : 0);
    *session_id = x.id;
    if (--x.left <= 0)
        return 0;
    x.ready = r->arrival + (s->think_s > 0
                            ? gsl_ran_exponential(s->rng, s->think_s) : 0);
    return push(s, x);
}
