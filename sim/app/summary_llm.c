/* summary_llm.c -- the LLM serving lines of run's printed summary: per
 * llm workload TTFT and TPOT (p50, p99, objective attainment), tokens per
 * GPU-second and cost per million tokens; per pool serving one, its
 * tokens per GPU-second, cost per million tokens, and its TTFT, TPOT and
 * end-to-end p50 and p99 over all it serves; where a prefix cache
 * served, its token hit rate and the cost per million tokens computed;
 * where a workload drafts (spec =), the tokens a step emitted.
 * Nothing is printed
 * for a run without an llm workload. */
#include "sim/app/summary.h"
#include "sim/store/columns.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static void ratio(double x, char *buf, size_t len)
{
    if (isnan(x))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2f%%", x * 100);
}

static void number(double x, char *buf, size_t len)
{
    if (isnan(x))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.0f", x);
}

static void money(double x, char *buf, size_t len)
{
    if (isnan(x))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "$%.3f", x);
}

/* An objective met by under FS_SLO_MET_SHARE of the requests: flagged
 * under the workload's row, as run flags slo_p99. */
static void llm_slo_missed(FILE *out, const char *key,
                           double slo_s, double attainment)
{
    char slo[16];
    if (!fs_slo_missed(attainment))
        return;
    fs_format_seconds(slo_s, slo, sizeof slo);
    fprintf(out, "  %-20s  SLO MISSED: %s: %.2f%% of its requests within "
            "%s (under %.0f%%)\n", "", key, 100 * attainment, slo,
            100 * FS_SLO_MET_SHARE);
}

/* Prefix caching, where a cache served: the token hit rate, and the cost
 * per million tokens with the cached input tokens apart (as API prices
 * list cached input): per token computed, beside per token served. */
static void print_cached(FILE *out, const fs_llm_row *m)
{
    if (isnan(m->tokens_cached))
        return;
    char hit[16], c[24], a[24];
    ratio(m->token_hit_rate, hit, sizeof hit);
    money(m->cost_per_mtok_uncached, c, sizeof c);
    money(m->cost_per_mtok, a, sizeof a);
    fprintf(out, "  %-20s  prefix cache: %s of the prompt tokens cached "
            "(%.0f of %.0f); %s per million tokens computed (cached input "
            "apart), %s per million served\n", "", hit, m->tokens_cached,
            m->tokens_in, c, a);
}

/* Speculative decoding, where the workload drafts: the tokens a step
 * emitted on average beside the law's mean (1 - a^(k+1)) / (1 - a). */
static void print_spec(FILE *out, const fs_llm_row *m)
{
    if (!m->spec_kind[0])
        return;
    char by[64] = "";
    if (m->spec_draft[0])
        snprintf(by, sizeof by, " %.47s", m->spec_draft);
    char mean[32] = "-";
    if (m->spec_steps > 0)
        snprintf(mean, sizeof mean, "%.3f", m->spec_accepted_mean);
    fprintf(out, "  %-20s  speculative decoding (%s%s, k=%ld, acceptance "
            "%.3g): %s tokens a step over %ld steps (law: %.3f)\n", "",
            m->spec_kind, by, m->spec_k, m->spec_acceptance, mean,
            m->spec_steps, m->spec_expected);
}

/* Disaggregated prefill and decode: the KV caches the prefill pool sent
 * the decode pool, their gigabytes, and the mean seconds one crossed the
 * link and waited for it (both in the TTFT). */
static void print_disagg(FILE *out, const fs_llm_row *m)
{
    if (isnan(m->kv_link_gbps))
        return;
    char t[16], q[16];
    fs_format_seconds(m->kv_transfer_mean_s, t, sizeof t);
    fs_format_seconds(m->kv_wait_mean_s, q, sizeof q);
    fprintf(out, "  %-20s  prefill -> decode: %.0f KV caches, %.1f GB over "
            "a %g Gbps link: %s each on the link, %s waiting for it\n", "",
            m->kv_transfers, m->kv_bytes / 1e9, m->kv_link_gbps, t, q);
}

/* A row's rates as the summary writes them: tokens per GPU-second in and
 * out, cost per million output tokens and per million tokens. */
typedef struct llm_rates {
    char tin[24], tout[24], mo[24], ma[24];
} llm_rates;

static void format_rates(const fs_llm_row *m, llm_rates *rt)
{
    number(m->tokens_in_per_gpu_s, rt->tin, sizeof rt->tin);
    number(m->tokens_out_per_gpu_s, rt->tout, sizeof rt->tout);
    money(m->cost_per_mtok_out, rt->mo, sizeof rt->mo);
    money(m->cost_per_mtok, rt->ma, sizeof rt->ma);
}

/* The n durations after n, in seconds, each as fs_format_seconds writes
 * it, into s[0..n). */
static void format_durations(char (*s)[16], int n, ...)
{
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        fs_format_seconds(va_arg(ap, double), s[i], sizeof s[i]);
    va_end(ap);
}

static void print_workloads(FILE *out, const fs_results *r)
{
    fprintf(out, "\n  %-20s  %9s  %9s  %9s  %9s  %8s  %8s  %9s  %9s  %9s  "
            "%9s\n", "llm workload", "TTFT p50", "TTFT p99", "TPOT p50",
            "TPOT p99", "TTFT SLO", "TPOT SLO", "in tok/s", "out tok/s",
            "$/M out", "$/M all");
    fprintf(out, "  %-20s  %9s  %9s  %9s  %9s  %8s  %8s  %9s  %9s  %9s  "
            "%9s\n", "", "", "", "", "", "", "", "per GPU", "per GPU",
            "tokens", "tokens");
    for (size_t i = 0; i < r->nlatency; i++) {
        const fs_latency_row *l = &r->latency[i];
        const fs_llm_row *m = &l->llm;
        if (!m->is_llm)
            continue;
        char s[4][16], sa[16], sb[16];   /* TTFT, TPOT: p50, p99 */
        llm_rates rt;
        format_durations(s, 4, l->ttft_p50_s, l->ttft_p99_s, l->tpot_p50_s,
                         l->tpot_p99_s);
        ratio(m->slo_ttft_attainment, sa, sizeof sa);
        ratio(m->slo_tpot_attainment, sb, sizeof sb);
        format_rates(m, &rt);
        fprintf(out, "  %-20.63s  %9s  %9s  %9s  %9s  %8s  %8s  %9s  %9s  "
                "%9s  %9s\n", l->workload, s[0], s[1], s[2], s[3], sa, sb,
                rt.tin, rt.tout, rt.mo, rt.ma);
        print_cached(out, m);
        print_spec(out, m);
        print_disagg(out, m);
        fs_summary_print_tenants(out, l, r);
        llm_slo_missed(out, "slo_ttft", m->slo_ttft_s,
                       m->slo_ttft_attainment);
        llm_slo_missed(out, "slo_tpot", m->slo_tpot_s,
                       m->slo_tpot_attainment);
        if (m->preempted || m->too_long)
            fprintf(out, "  %-20s  (%ld preempted by a full KV cache, %ld "
                    "dropped: longer than a replica's KV cache)\n", "",
                    m->preempted, m->too_long);
        if (m->over_context)
            fprintf(out, "  %-20s  (%ld dropped: prompt and output longer "
                    "than the model's context of %ld tokens, which vLLM "
                    "refuses)\n", "", m->over_context, m->max_context);
    }
}

/* A pool's launched replicas that loaded their weights before serving:
 * how many and for how long (billed, not busy: idle cost). */
static void print_cold_starts(FILE *out, const fs_pool_row *p)
{
    char all[16], each[16];
    if (p->cold_starts <= 0)
        return;
    fs_format_seconds(p->load_s, all, sizeof all);
    fs_format_seconds(p->load_s / (double)p->cold_starts, each, sizeof each);
    fprintf(out, "  %-20s  cold starts %ld: %s loading (%s each), billed "
            "as idle\n", "", p->cold_starts, all, each);
}

static void print_pools(FILE *out, const fs_results *r)
{
    for (size_t i = 0; i < r->npools; i++) {
        const fs_llm_row *m = &r->pools[i].llm;
        if (!m->is_llm)
            continue;
        llm_rates rt;
        format_rates(m, &rt);
        fprintf(out, "  pool %-15.63s  %.0f tokens in, %.0f out; per GPU-s "
                "%s in, %s out; %s per million output tokens, %s per "
                "million tokens\n", r->pools[i].pool, m->tokens_in,
                m->tokens_out, rt.tin, rt.tout, rt.mo, rt.ma);
        const fs_llm_pool_lat *t = &r->pools[i].llm_lat;
        char s[6][16];
        format_durations(s, 6, t->ttft_p50_s, t->ttft_p99_s, t->tpot_p50_s,
                         t->tpot_p99_s, t->e2e_p50_s, t->e2e_p99_s);
        fprintf(out, "  %-20s  TTFT p50 %s p99 %s; TPOT p50 %s p99 %s; "
                "end to end p50 %s p99 %s\n", "", s[0], s[1], s[2], s[3],
                s[4], s[5]);
        print_cold_starts(out, &r->pools[i]);
        print_cached(out, m);
    }
}

void fs_summary_print_llm(FILE *out, const fs_results *r)
{
    int any = 0;
    for (size_t i = 0; i < r->nlatency; i++)
        any |= r->latency[i].llm.is_llm;
    if (!any)
        return;
    print_workloads(out, r);
    print_pools(out, r);
}
