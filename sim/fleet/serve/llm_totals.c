/* llm_totals.c -- the running totals of an LLM replica's decoding
 * requests (llm_run.h), so that an iteration in which every running
 * request only decodes is planned without a visit to each of them.
 *
 * Continuous batching spends most iterations decoding one token for every
 * running request; admissions, first tokens, retirements and preemptions
 * are rarer.  In such an iteration request q's next step needs
 * blocks_for(in + generated + 1) KV blocks, one more than the step before
 * exactly when in + generated is a multiple of KV_BLOCK, and adds in +
 * generated tokens to the batch's KV.  Taken once, at the last iteration
 * planned request by request (llm_server.c's iterate), the number of
 * decoding requests, their tokens and how many sit at each residue of
 * in + generated mod KV_BLOCK give both for the iterations after it: the
 * tokens grow by the number of requests each iteration, and iteration m
 * takes one block for each request of residue -m mod KV_BLOCK.  All are
 * integer counts, so the figures are the same as the pass over the
 * requests gives, bit for bit.  The requests' own counts lag behind and
 * are brought up to date before any of them is visited again
 * (llm_server.c's catch_up).  Requests admitted since are visited one by
 * one (they prefill), and one whose prefill ends joins the totals. */
#include "sim/fleet/serve/llm_run.h"

#include <assert.h>
#include <limits.h>
#include <string.h>

void fs_llm_totals_reset(fs_llm_run *run, int plain)
{
    fs_llm_totals *t = &run->tot;
    memset(t, 0, sizeof *t);
    t->plain = plain;
    t->next_done = LONG_MAX;
}

void fs_llm_totals_add(fs_llm_run *run, const llm_seq *q)
{
    fs_llm_totals *t = &run->tot;
    /* the requests the totals stand for lead the running set: those
     * after them (admitted later) are visited one by one */
    if (q != &run->seq[t->n])
        t->plain = 0;
    long x = (long)q->in + q->generated, left = q->out - q->generated;
    t->n++;
    t->tokens += x;
    t->phase[(x % KV_BLOCK + KV_BLOCK) % KV_BLOCK]++;   /* x < 0 after
                                                          fs_llm_totals_enter */
    if (left < t->next_done)
        t->next_done = left;
}

void fs_llm_totals_enter(fs_llm_run *run, llm_seq *q)
{
    fs_llm_totals *t = &run->tot;
    assert(q == &run->seq[t->n]);
    /* counted as if it had decoded alike since the totals were taken:
     * its own count lags as theirs do (lazy + 1, the iteration about to
     * be planned included) */
    q->generated -= (int32_t)(t->lazy + 1);
    fs_llm_totals_add(run, q);
}

long fs_llm_totals_left(const fs_llm_run *run, const llm_seq *q)
{
    return q->out - q->generated - (run->tot.lazy + 1);
}

void fs_llm_totals_leave(fs_llm_run *run, llm_seq *q)
{
    fs_llm_totals *t = &run->tot;
    long x = (long)q->in + q->generated;
    t->n--;
    t->tokens -= x;
    t->phase[(x % KV_BLOCK + KV_BLOCK) % KV_BLOCK]--;
    assert(t->n >= 0 && t->phase[(x % KV_BLOCK + KV_BLOCK) % KV_BLOCK] >= 0);
    q->generated += (int32_t)(t->lazy + 1);
}

/* The blocks iteration lazy + 1 takes: one for each request whose prompt
 * and generated tokens then reach a multiple of KV_BLOCK. */
static long next_blocks(const fs_llm_totals *t)
{
    long m = t->lazy + 1;
    return t->phase[(KV_BLOCK - m % KV_BLOCK) % KV_BLOCK];
}

int fs_llm_totals_skip(const fs_llm_run *run)
{
    const fs_llm_totals *t = &run->tot;
    /* no request can be preempted while the blocks the decoding ones take (one at most for
     * each of those admitted since) are free (llm_server.c's
     * preempt_for_decode) */
    if (!t->plain || next_blocks(t) + (run->n - t->n) > run->free_blocks)
        return 0;
    for (int i = t->n; i < run->n; i++)   /* admitted since: prefilling */
        if (run->seq[i].prefilled == run->seq[i].fill)
            return 0;
    return 1;
}

long fs_llm_totals_step(fs_llm_run *run)
{
    fs_llm_totals *t = &run->tot;
    run->free_blocks -= next_blocks(t);
    t->lazy++;
    return t->tokens + t->lazy * t->n;
}
