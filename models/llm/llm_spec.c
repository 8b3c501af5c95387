/* llm_spec.c -- speculative decoding: the accepted tokens' law, whether
 * a draft can propose for a target, and the proposer as a model
 * (llm_spec.h).  Below the memory fit (llm_memory.c charges the
 * proposer's weights and KV cache) and the step's time (llm_spec_perf.c).
 *
 * The MTP module (DeepSeek-V3, arXiv:2412.19437, section 2.2: a
 * transformer block and a 2d x d projection per depth, the embedding and
 * output head shared with the main model) is one block of the target's
 * shape, reused for each of the k drafts as vLLM and SGLang run a depth-1
 * module with k > 1.  Its parameters are estimated from the target's:
 * (params - 2 vocab x hidden) / layers + 2 hidden^2. */
#include "models/llm/llm.h"
#include "models/llm/llm_spec.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdio.h>

const char *fs_llm_spec_kind_name(fs_spec_kind k)
{
    return k == FS_SPEC_DRAFT ? "draft" : k == FS_SPEC_MTP ? "mtp" : "off";
}

double fs_llm_spec_expected(double a, int k)
{
    return (1.0 - pow(a, k + 1)) / (1.0 - a);
}

/* gsl_ran_geometric(p) is the trial of the first success, P(n) =
 * p (1 - p)^(n-1): with p = 1 - a, the drafted tokens accepted before
 * the first rejection, plus one; the target's own token ends a step of
 * k accepted, so at most k + 1. */
int fs_llm_spec_draw(double a, int k, gsl_rng *rng)
{
    unsigned n = gsl_ran_geometric(rng, 1.0 - a);
    return n > (unsigned)k + 1 ? k + 1 : (int)n;
}

int fs_llm_spec_check_draft(const fs_llm_model *target,
                            const fs_llm_model *draft, char *why, size_t len)
{
    if (draft->params >= target->params) {
        snprintf(why, len, "draft model %s (%.3g B parameters) is not "
                 "smaller than the target %s (%.3g B): it would draft "
                 "slower than the target decodes", draft->name,
                 draft->params / 1e9, target->name, target->params / 1e9);
        return -1;
    }
    if (draft->vocab != target->vocab) {
        snprintf(why, len, "draft model %s has a vocabulary of %d tokens, "
                 "the target %s %d: its tokens cannot be verified one for "
                 "one (vLLM refuses a draft of another vocabulary); use a "
                 "smaller model of the target's family", draft->name,
                 draft->vocab, target->name, target->vocab);
        return -1;
    }
    return 0;
}

/* One block of m's and the MTP projection: a depth-1 module. */
static double mtp_block(const fs_llm_model *m, double params)
{
    double h = m->hidden, emb = 2.0 * m->vocab * h;
    double block = (params - emb) / m->layers;
    return (block > 0 ? block : params / m->layers) + 2.0 * h * h;
}

void fs_llm_spec_proposer(const fs_llm_config *c, fs_llm_model *out,
                          double *held)
{
    const fs_llm_model *m = c->model;
    const fs_llm_spec *s = c->spec;
    if (s && s->kind == FS_SPEC_DRAFT && s->draft) {
        *out = *s->draft;
        *held = s->draft->params;
        return;
    }
    /* the MTP module as a one-layer model that reads the LM head too */
    double head = (double)m->vocab * m->hidden;
    *out = *m;
    snprintf(out->name, sizeof out->name, "%.40s-mtp", m->name);
    *held = mtp_block(m, m->params);
    out->layers = 1;
    out->params = *held + head;
    out->active_params = mtp_block(m, m->active_params) + head;
    out->expert_params = m->expert_params / m->layers;
}
