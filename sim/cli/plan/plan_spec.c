/* plan_spec.c -- the workload's spec = (speculative decoding) as plan
 * sees it: read from the scenario's text, as plan reads its other keys,
 * so that each candidate's memory check charges the draft model's or MTP
 * module's weights and KV cache (fs_llm_config.spec) and its roofline
 * bound counts the tokens a step emits.  The runs read the key themselves
 * (sim/scenario/scenario_spec.c): a spec this cannot read is left to them
 * to refuse, with its file:line:key. */
#include "sim/cli/plan/plan.h"
#include "sim/base/grammar.h"

#include <stdio.h>
#include <string.h>

void fs_plan_spec_read(fs_plan *p, const fs_llm_catalog *mc)
{
    fs_call c;
    char why[256];
    double a;
    long k;
    memset(&p->spec, 0, sizeof p->spec);
    if (!p->llm_spec[0] || fs_parse_call(p->llm_spec, &c, why, sizeof why))
        return;
    const char *ks = fs_call_get(&c, "k"), *as = fs_call_get(&c, "acceptance");
    if (!ks || !as || fs_parse_count(ks, &k, why, sizeof why) ||
        fs_parse_number(as, &a, why, sizeof why) || k < 1 ||
        k > FS_SPEC_K_MAX || !(a > 0 && a < 1))
        return;
    fs_llm_spec s = {FS_SPEC_MTP, (int)k, a, NULL};
    if (strcmp(c.name, "draft") == 0) {
        const char *m = fs_call_get(&c, "model");
        s.kind = FS_SPEC_DRAFT;
        s.draft = m && mc ? fs_llm_catalog_find(mc, m) : NULL;
        if (!s.draft)
            return;
    } else if (strcmp(c.name, "mtp")) {
        return;
    }
    p->spec = s;
}

double fs_plan_decode_token_s(const fs_plan *p, const fs_llm_perf *perf,
                              int batch, long kv)
{
    fs_llm_spec_perf sp;
    char why[256];
    double plain = fs_llm_iteration_time(perf, 0, 0, batch, kv) / batch;
    if (!perf->cfg.spec)
        return plain;
    memset(&sp, 0, sizeof sp);
    double t = fs_llm_spec_perf_init(&sp, perf, why, sizeof why) == 0
        ? fs_llm_spec_step_time(&sp, perf, 0, 0, batch, kv) / batch /
              fs_llm_spec_expected(p->spec.acceptance, p->spec.k)
        : plain;
    fs_llm_spec_perf_free(&sp);
    return t;
}
