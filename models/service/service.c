/* service.c -- the registry of service models (service.h), and what the
 * models share.
 *
 * Adding a model: write models/service/service_NAME.c with its table, and add one
 * line below (and the file to Makefile.am). */
#include "models/service/service.h"

#include <stdio.h>
#include <string.h>
#include "sim/base/error.h"

extern const fs_service_model fs_service_const;
extern const fs_service_model fs_service_exponential;
extern const fs_service_model fs_service_lognormal;
extern const fs_service_model fs_service_weibull;
extern const fs_service_model fs_service_empirical;
extern const fs_service_model fs_service_linear;
extern const fs_service_model fs_service_trace;
extern const fs_service_model fs_service_llm;

const fs_service_model *const fs_service_models[] = {
    &fs_service_const,
    &fs_service_exponential,
    &fs_service_lognormal,
    &fs_service_weibull,
    &fs_service_empirical,
    &fs_service_linear,
    &fs_service_trace,
    &fs_service_llm,
    NULL,
};

const fs_service_model *fs_service_find(const char *name)
{
    for (const fs_service_model *const *m = fs_service_models; *m; m++)
        if (strcmp((*m)->name, name) == 0)
            return *m;
    return NULL;
}

/* "unknown distribution 'X' (did you mean 'Y'?)", else the names known. */
static int unknown_model(const char *name, char *why, size_t whylen)
{
    enum { MAX = 32 };
    const char *names[MAX + 1];
    size_t n = 0;
    for (const fs_service_model *const *m = fs_service_models;
         *m && n < MAX; m++)
        if ((*m)->arrive)
            names[n++] = (*m)->name;
    names[n] = NULL;
    const char *near = fs_nearest_name(name, names);
    if (near) {
        snprintf(why, whylen, "unknown distribution '%s' (did you mean "
                 "'%s'?)", name, near);
        return -1;
    }
    size_t len = (size_t)snprintf(why, whylen, "unknown distribution '%s' (",
                                  name);
    for (size_t i = 0; i < n && len < whylen; i++)
        len += (size_t)snprintf(why + len, whylen - len, "%s%s",
                                i ? ", " : "", names[i]);
    if (len < whylen)
        snprintf(why + len, whylen - len, ")");
    return -1;
}

int fs_service_parse_in(const fs_call *c, const char *base_dir,
                        fs_service *s, char *why, size_t whylen)
{
    memset(s, 0, sizeof *s);
    s->base_dir = base_dir;
    const fs_service_model *m = fs_service_find(c->name);
    if (!m)
        return unknown_model(c->name, why, whylen);
    s->model = m;
    return m->parse(c, s, why, whylen);
}

int fs_service_parse(const fs_call *c, fs_service *s, char *why,
                     size_t whylen)
{
    return fs_service_parse_in(c, NULL, s, why, whylen);
}

void fs_service_free(fs_service *s)
{
    fs_dist_free(&s->dist);
    fs_dist_free(&s->llm.tokens_in);
    fs_dist_free(&s->llm.tokens_out);
    fs_llm_engines_free(s->llm.user_engines);
    s->llm.user_engines = NULL;
}

double fs_service_longest(const fs_service *s, const fs_request *batch,
                          int n, double speed)
{
    (void)s;
    double t = 0;
    for (int i = 0; i < n; i++)
        if (batch[i].demand > t)
            t = batch[i].demand;
    return t * speed;
}
