/* plan_check.c -- each candidate's scenario read once, before `fleetsim
 * plan` simulates anything.
 *
 * A --set the scenario refuses (an unknown key, a bad value) would
 * otherwise fail every candidate's first simulation, one message per
 * candidate, after the others had run.  Loading each candidate's scenario
 * (its --set list at count 1) finds it at once: an error every candidate
 * shares is the plan's, said once; one a candidate alone meets (its GPU
 * with the scenario's other keys, say) excludes that candidate with the
 * reason.  Once the SLOs are read, each candidate's scenario tells
 * plan_prune.c whether a lone request already misses one there. */
#include "sim/cli/plan/plan.h"
#include "sim/cli/commands.h"
#include "sim/scenario/scenario.h"

#include <stdio.h>
#include <string.h>

/* Candidate c's scenario: 0 when it loads, else -1 with err. */
static int load_one(fs_plan *p, fs_plan_candidate *c, int prune,
                    fs_error *err)
{
    int n;
    char **sets = fs_plan_sets(p, c, 1, 0, &n);
    if (!sets) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    fs_scenario *sc = fs_scenario_load(p->scenario, sets, n, err);
    fs_plan_sets_free(p, sets, n);
    if (sc && prune)
        fs_plan_prune(p, c, sc);
    fs_scenario_free(sc);
    return sc ? 0 : -1;
}

int fs_plan_check(fs_plan *p)
{
    char first[sizeof ((fs_error *)0)->msg] = "";   /* the first error */
    int tried = 0, failed = 0, differ = 0;
    for (int i = 0; i < p->ncand; i++) {
        fs_plan_candidate *c = &p->cand[i];
        fs_error err;
        if (c->excluded_memory || c->excluded_other)
            continue;
        tried++;
        if (load_one(p, c, 0, &err) == 0)
            continue;
        failed++;
        if (!first[0])
            snprintf(first, sizeof first, "%s", err.msg);
        else
            differ |= strcmp(first, err.msg) != 0;
        snprintf(c->reason, sizeof c->reason, "the scenario refuses it: "
                 "%.340s", err.msg);
        c->excluded_other = 1;
    }
    return failed && failed == tried && !differ ? fs_fail(first) : 0;
}

void fs_plan_prune_all(fs_plan *p)
{
    for (int i = 0; i < p->ncand && !p->no_prune && p->llm; i++) {
        fs_error err;
        if (fs_plan_searched(&p->cand[i]))
            load_one(p, &p->cand[i], 1, &err);
    }
}
