/* test_scenario_diff.c -- what one stored scenario text changes against
 * another (sim/scenario/scenario_diff.c over scenario_text.c):
 *   - a stored text read as the run read it: the including file first in
 *     the text, its base after it and overridden by it, --set lines last;
 *     blanks beside , = ( ) do not make another value;
 *   - the kinds: instances (taking the pool's count and purchase along),
 *     capacity, purchase, a window's hours, a workload's checkpoints
 *     (one change with its pool's purchase), pools moved;
 *   - the same change made to several pools is one lever;
 *   - the --set lines that apply a lever, and a removed key refused;
 *   - the pools each change can move. */
#include "sim/scenario/scenario_diff.h"
#include "sim/scenario/scenario_text.h"
#include "tests/check.h"

#include <stdlib.h>
#include <string.h>

static const char before[] =
    "; ---- case.ini\n"
    "[scenario]\n"
    "include = base.ini\n"
    "name = before\n"
    "[pool.t1]\n"
    "count = 1\n"
    "; ---- base.ini\n"
    "[scenario]\n"
    "seed = 1\n"
    "[window.weekly]\n"
    "duration = 24h\n"
    "[pool.t1]\n"
    "instance = aws:p3.8xlarge\n"
    "count = 4\n"
    "[pool.t2]\n"
    "instance = aws:p3.8xlarge\n"
    "[pool.s]\n"
    "gpu = A100-40GB\n"
    "count = 5\n"
    "[pool.e]\n"
    "gpu = A100-40GB\n"
    "schedule = weekly\n"
    "tags = team:x\n"
    "[workload.w1]\n"
    "kind = training\n"
    "pools = t1\n"
    "[workload.w2]\n"
    "kind = training\n"
    "pools = t2\n"
    "[workload.srv]\n"
    "pools = s\n"
    "service = exponential(mean=1s)\n"
    "; --set pool.s.count=6\n";

static const char after[] =
    "; ---- after.ini\n"
    "[scenario]\n"
    "name = after\n"
    "seed = 1\n"
    "[window.weekly]\n"
    "duration = 8h\n"
    "[pool.t1]\n"
    "instance = aws:p3.2xlarge\n"
    "pricing = spot\n"
    "interruption = weibull(shape=0.5, scale=1h)\n"
    "count = 2\n"
    "[pool.t2]\n"
    "instance = aws:p3.2xlarge\n"
    "count = 2\n"
    "interruption = weibull(shape=0.5,scale=1h)\n"
    "pricing = spot\n"
    "[pool.s]\n"
    "gpu = A100-40GB\n"
    "count = 6\n"
    "mig = 3g.20gb*2\n"
    "pricing = reserved\n"
    "term = 1y\n"
    "[pool.e]\n"
    "gpu = A100-40GB\n"
    "schedule = weekly\n"
    "tags = team:y\n"
    "[workload.w1]\n"
    "kind = training\n"
    "pools = t1\n"
    "checkpoint_interval = 30m\n"
    "[workload.w2]\n"
    "kind = training\n"
    "pools = t2\n"
    "checkpoint_interval = 30m\n"
    "[workload.srv]\n"
    "pools = s, e\n"
    "service = exponential( mean = 1s )\n";

static const fs_change *find(const fs_scenario_diff *d, const char *section,
                             fs_change_kind kind)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->v[i].section, section) && d->v[i].kind == kind)
            return &d->v[i];
    return NULL;
}

static void text_reading(void)
{
    fs_kvs m;
    fs_error err;
    CHECK(fs_kvs_from_text(before, &m, &err) == 0);
    /* the including file overrides its base; --set overrides both */
    CHECK(!strcmp(fs_kvs_get(&m, "pool.t1", "count"), "1"));
    CHECK(!strcmp(fs_kvs_get(&m, "pool.s", "count"), "6"));
    CHECK(!strcmp(fs_kvs_get(&m, "scenario", "seed"), "1"));
    CHECK(fs_kvs_get(&m, "scenario", "include") == NULL);
    fs_kvs_free(&m);
    CHECK(fs_kvs_from_text(after, &m, &err) == 0);
    CHECK(!strcmp(fs_kvs_get(&m, "pool.t1", "interruption"),
                  "weibull(shape=0.5,scale=1h)"));
    CHECK(!strcmp(fs_kvs_get(&m, "workload.srv", "service"),
                  "exponential(mean=1s)"));
    CHECK(!strcmp(fs_kvs_get(&m, "workload.srv", "pools"), "s,e"));
    fs_kvs_free(&m);
    char **sets;
    int n;
    CHECK(fs_text_sets(before, &sets, &n) == 0);
    CHECK(n == 1 && !strcmp(sets[0], "pool.s.count=6"));
    for (int i = 0; i < n; i++)
        free(sets[i]);
    free(sets);
}

static void kinds_and_levers(void)
{
    fs_scenario_diff d;
    fs_error err;
    CHECK(fs_scenario_diff_texts(before, after, &d, &err) == 0);
    /* t1: its instance type changes, so count and purchase go with it */
    const fs_change *t1 = find(&d, "pool.t1", FS_CHANGE_INSTANCE);
    CHECK(t1 && t1->nkeys == 4);
    CHECK(!find(&d, "pool.t1", FS_CHANGE_PURCHASE));
    CHECK(!find(&d, "pool.t1", FS_CHANGE_CAPACITY));
    /* t2 makes the same change (keys in another order, blanks aside) */
    const fs_change *t2 = find(&d, "pool.t2", FS_CHANGE_INSTANCE);
    CHECK(t2 && t1 && t2->lever == t1->lever);
    /* the checkpoints come with the move to spot */
    const fs_change *c1 = find(&d, "workload.w1", FS_CHANGE_CHECKPOINT);
    CHECK(c1 && t1 && c1->lever == t1->lever);
    /* s: MIG is capacity, the reservation purchase: two levers */
    const fs_change *cap = find(&d, "pool.s", FS_CHANGE_CAPACITY);
    const fs_change *buy = find(&d, "pool.s", FS_CHANGE_PURCHASE);
    CHECK(cap && cap->nkeys == 1 && !strcmp(cap->keys[0].key, "mig"));
    CHECK(buy && buy->nkeys == 2 && cap && buy->lever != cap->lever);
    /* the window's hours move the pools scheduled on it */
    const fs_change *win = find(&d, "window.weekly", FS_CHANGE_WINDOW);
    CHECK(win && fs_change_touches(win, "e") && !fs_change_touches(win, "s"));
    /* a workload moved: both its pools; the service's blanks are no change */
    const fs_change *mv = find(&d, "workload.srv", FS_CHANGE_POOLS);
    CHECK(mv && fs_change_touches(mv, "s") && fs_change_touches(mv, "e"));
    CHECK(!find(&d, "workload.srv", FS_CHANGE_WORKLOAD));
    /* tags and names move no money */
    CHECK(!find(&d, "pool.e", FS_CHANGE_CAPACITY) &&
          !find(&d, "scenario", FS_CHANGE_SCENARIO));
    /* spot(t1, t2, w1, w2), MIG, reservation, window, srv moved */
    CHECK(d.nlevers == 5);
    char words[700];
    fs_scenario_diff_describe(&d, buy->lever, words, sizeof words);
    CHECK_CONTAINS(words, "purchase option of pool s: pricing (default) → "
                          "reserved, term (default) → 1y");
    char **sets, why[200];
    int n;
    CHECK(fs_scenario_diff_sets(&d, buy->lever, &sets, &n, why,
                                sizeof why) == 0);
    CHECK(n == 2 && !strcmp(sets[0], "pool.s.pricing=reserved") &&
          !strcmp(sets[1], "pool.s.term=1y"));
    for (int i = 0; i < n; i++)
        free(sets[i]);
    free(sets);
    fs_scenario_diff_free(&d);

    /* the other way round, the reservation removes keys: no --set for it */
    CHECK(fs_scenario_diff_texts(after, before, &d, &err) == 0);
    buy = find(&d, "pool.s", FS_CHANGE_PURCHASE);
    CHECK(buy && fs_scenario_diff_sets(&d, buy->lever, &sets, &n, why,
                                       sizeof why) == 1);
    CHECK_CONTAINS(why, "removes pool.s.");
    for (int i = 0; i < n; i++)
        free(sets[i]);
    free(sets);
    fs_scenario_diff_free(&d);
}

int main(void)
{
    text_reading();
    kinds_and_levers();
    return check_report("scenario_diff");
}
