/* scenario_spec.c -- the key of speculative decoding.
 *
 *   [workload]  spec = draft(model=M, k=K, acceptance=A)   a draft model
 *               spec = mtp(k=K, acceptance=A)              the model's own
 *                                                          MTP head
 *               spec = none                                no drafting (the
 *                                                          counterfactual,
 *                                                          e.g. from --set)
 *
 * Read and bounded here, once per workload (the acceptance is the
 * workload's: code accepts more drafted tokens than chat); the draft model
 * is resolved as llm(model=...) is, with "did you mean", and refused when
 * it cannot propose for the target (no smaller, or another vocabulary:
 * models/llm/llm_spec.c).  Its memory and time are the fleet's
 * (sim/fleet/serve/llm_spec.c).  A workload that does not serve an llm
 * may not set spec. */
#include "sim/scenario/scenario_impl.h"

#include <stdio.h>
#include <string.h>

#define SPEC_USAGE "draft(model=M, k=K, acceptance=A) or mtp(k=K, " \
                   "acceptance=A), e.g. draft(model=llama-3.2-1b, k=4, " \
                   "acceptance=0.7)"

static int spec_numbers(fs_reader *rd, const fs_config_entry *e,
                        const fs_call *c, fs_llm_spec *s)
{
    const char *k = fs_call_get(c, "k"), *a = fs_call_get(c, "acceptance");
    char why[300], msg[400];
    long kv = 0;
    if (!k || !a)
        snprintf(msg, sizeof msg, "%s(): give k= and acceptance=, e.g. %s",
                 c->name, SPEC_USAGE);
    else if (fs_parse_count(k, &kv, why, sizeof why) || kv < 1 ||
             kv > FS_SPEC_K_MAX)
        snprintf(msg, sizeof msg, "%s(): k (drafted tokens a step) must be "
                 "an integer from 1 to %d, got '%s'", c->name, FS_SPEC_K_MAX,
                 k);
    else if (fs_parse_number(a, &s->acceptance, why, sizeof why) ||
             !(s->acceptance > 0 && s->acceptance < 1))
        snprintf(msg, sizeof msg, "%s(): acceptance (the chance a drafted "
                 "token is accepted) must be above 0 and below 1, got '%s'",
                 c->name, a);
    else {
        s->k = (int)kv;
        return 0;
    }
    return fs_rd_bad(rd, e, "%s", msg);
}

int fs_scenario_parse_spec(fs_reader *rd, fs_scenario *sc,
                           fs_workload_conf *w)
{
    static const char *const draft_keys[] = {"model", "k", "acceptance",
                                             NULL};
    static const char *const mtp_keys[] = {"k", "acceptance", NULL};
    fs_config_entry *e = fs_rd_entry(rd, "spec");
    fs_llm_spec *s = &w->service.llm.spec;
    memset(s, 0, sizeof *s);
    if (!e || strcmp(e->value, "none") == 0)
        return 0;   /* none: --set turns a file's spec off, as if absent */
    if (!w->service.model->server)
        return fs_rd_bad(rd, e, "%s", "applies to workloads with service "
                         "= llm(...) only");
    char why[600];
    fs_call c;
    if (fs_parse_call(e->value, &c, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    int draft = strcmp(c.name, "draft") == 0;
    if (!draft && strcmp(c.name, "mtp"))
        return fs_rd_bad(rd, e, "%s", "expected " SPEC_USAGE ", or none");
    if (fs_call_check_keys(&c, draft ? draft_keys : mtp_keys, why,
                           sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    if (spec_numbers(rd, e, &c, s))
        return -1;
    s->kind = draft ? FS_SPEC_DRAFT : FS_SPEC_MTP;
    if (!draft)
        return 0;
    const char *m = fs_call_get(&c, "model");
    if (!m || !m[0])
        return fs_rd_bad(rd, e, "%s", "draft() needs model=, e.g. "
                         SPEC_USAGE);
    s->draft = fs_scenario_llm_find(rd, sc, m, e, "draft()");
    if (!s->draft)
        return -1;
    char msg[700];
    if (fs_llm_spec_check_draft(w->service.llm.model, s->draft, why,
                                sizeof why)) {
        snprintf(msg, sizeof msg, "draft(): %s", why);
        return fs_rd_bad(rd, e, "%s", msg);
    }
    return 0;
}
