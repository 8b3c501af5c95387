/* scenario_prefix.c -- the keys of prefix caching.
 *
 *   [pool]      prefix_cache = yes|no|unlimited|TOKENS   each replica's
 *                               KV block cache (default: the engine's)
 *   [pool]      routing = least-loaded|round-robin|prefix-aware   which
 *                               busy replica admits a waiting request
 * *   [workload]  prefix = shared(tokens=N, share=F)   a system prompt of N
 *                               tokens that a share F of the requests
 *                               start with (generated traffic)
 *   [workload]  sessions = turns(mean=M, think=T)   multi-turn sessions
 *                               (generated traffic): turn k's prompt is
 *                               turn k-1's prompt and output, then new
 *                               tokens
 *
 * The fleet resolves the engine's default and runs the cache
 * (sim/fleet/llm_prefix.c, llm_kvcache.c); here they are only read and
 * bounded.  A workload that does not serve an llm may not set prefix. */
#include "sim/scenario/scenario_impl.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const cache_words[] = {"no", "yes", "unlimited", NULL};

/* The index of value among words (NULL-terminated, any case), or -1. */
static int word_index(const char *value, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (strcasecmp(value, words[i]) == 0)
            return i;
    return -1;
}

static int cache_key(fs_reader *rd, fs_pool_conf *p)
{
    fs_config_entry *e = fs_rd_entry(rd, "prefix_cache");
    p->prefix_cache = FS_PREFIX_CACHE_ENGINE;
    if (!e)
        return 0;
    int i = word_index(e->value, cache_words);
    if (i >= 0) {
        p->prefix_cache = (fs_prefix_cache_mode)(FS_PREFIX_CACHE_NO + i);
        return 0;
    }
    char why[160];
    if (fs_parse_count(e->value, &p->prefix_cache_tokens, why, sizeof why) ||
        p->prefix_cache_tokens < 16 || p->prefix_cache_tokens > 1000000000000L)
        return fs_rd_bad(rd, e, "%s", "expected yes, no, unlimited or a "
                         "number of tokens from 16 to 1000000000000");
    p->prefix_cache = FS_PREFIX_CACHE_TOKENS;
    return 0;
}

/* In fs_llm_routing's order. */
static const char *const routing_words[] = {"least-loaded", "round-robin",
                                            "prefix-aware", NULL};

static int routing_key(fs_reader *rd, fs_pool_conf *p)
{
    fs_config_entry *e = fs_rd_entry(rd, "routing");
    int i = e ? word_index(e->value, routing_words) : FS_ROUTING_LEAST_LOADED;
    if (i < 0)
        return fs_rd_bad(rd, e, "%s", "expected least-loaded, round-robin "
                         "or prefix-aware");
    p->routing = (fs_llm_routing)i;
    return 0;
}

int fs_scenario_parse_prefix_pool(fs_reader *rd, fs_pool_conf *p)
{
    return cache_key(rd, p) || routing_key(rd, p);
}

/* Reads e's value as the call name(keys...) of an llm workload: 0, or
 * the message at file:line:key (usage when it is another call). */
static int llm_call(fs_reader *rd, const fs_workload_conf *w,
                    fs_config_entry *e, const char *name,
                    const char *const *keys, const char *usage, fs_call *c)
{
    char why[300];
    if (!w->service.model->server)
        return fs_rd_bad(rd, e, "%s", "applies to workloads with service "
                         "= llm(...) only");
    if (fs_parse_call(e->value, c, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    if (strcmp(c->name, name))
        return fs_rd_bad(rd, e, "%s", usage);
    if (fs_call_check_keys(c, keys, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    return 0;
}

static int sessions_key(fs_reader *rd, fs_workload_conf *w)
{
    static const char *const keys[] = {"mean", "think", NULL};
    const char *usage = "expected turns(mean=M, think=T), e.g. "
                        "turns(mean=4, think=30s)";
    fs_config_entry *e = fs_rd_entry(rd, "sessions");
    fs_call c;
    char why[300];
    if (!e)
        return 0;
    if (llm_call(rd, w, e, "turns", keys, usage, &c))
        return -1;
    if (strcmp(w->arrivals.name, "trace") == 0)
        return fs_rd_bad(rd, e, "%s", "applies to generated arrivals only "
                         "(a trace's prompts are as recorded)");
    const char *m = fs_call_get(&c, "mean"), *t = fs_call_get(&c, "think");
    if (!m || !t)
        return fs_rd_bad(rd, e, "%s", usage);
    if (fs_parse_number(m, &w->session_turns, why, sizeof why) ||
        !(w->session_turns >= 1 && w->session_turns <= 1000))
        return fs_rd_bad(rd, e, "%s", "turns(): mean must be a number from "
                         "1 to 1000");
    if (fs_parse_duration(t, &w->session_think_s, why, sizeof why) ||
        !(w->session_think_s >= 0))
        return fs_rd_bad(rd, e, "turns(): think: %s", why);
    return 0;
}

static int shared_key(fs_reader *rd, fs_workload_conf *w)
{
    static const char *const keys[] = {"tokens", "share", NULL};
    fs_config_entry *e = fs_rd_entry(rd, "prefix");
    char why[300];
    fs_call c;
    if (!e)
        return 0;
    if (llm_call(rd, w, e, "shared", keys, "expected shared(tokens=N, "
                 "share=F), e.g. shared(tokens=2000, share=0.8)", &c))
        return -1;
    const char *t = fs_call_get(&c, "tokens"), *s = fs_call_get(&c, "share");
    if (!t || !s)
        return fs_rd_bad(rd, e, "%s", "shared(): give tokens= and share=, "
                         "e.g. shared(tokens=2000, share=0.8)");
    if (fs_parse_count(t, &w->prefix_tokens, why, sizeof why) ||
        w->prefix_tokens < 1 || w->prefix_tokens > 10000000)
        return fs_rd_bad(rd, e, "%s", "shared(): tokens must be an integer "
                         "from 1 to 10000000");
    if (fs_parse_fraction(s, &w->prefix_share, why, sizeof why) ||
        !(w->prefix_share > 0))
        return fs_rd_bad(rd, e, "%s", "shared(): share must be a fraction "
                         "above 0, at most 1");
    return 0;
}

int fs_scenario_parse_prefix(fs_reader *rd, fs_workload_conf *w)
{
    return shared_key(rd, w) || sessions_key(rd, w);
}
