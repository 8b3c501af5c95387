/* summary_llm.c -- the LLM serving lines of run's printed summary: per
 * llm workload TTFT and TPOT (p50, p99, objective attainment), tokens per
 * GPU-second and cost per million tokens; per pool serving one, its
 * tokens per GPU-second, cost per million tokens, and its TTFT, TPOT and
 * end-to-end p50 and p99 over all it serves; where a prefix cache
 * served, its token hit rate and the cost per million tokens computed.
 * Nothing is printed
 * for a run without an llm workload. */
#include "sim/app/summary.h"
#include "sim/store/columns.h"

#include <math.h>
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
        char t50[16], t99[16], p50[16], p99[16], sa[16], sb[16];
        llm_rates rt;
        fs_format_seconds(l->ttft_p50_s, t50, sizeof t50);
        fs_format_seconds(l->ttft_p99_s, t99, sizeof t99);
        fs_format_seconds(l->tpot_p50_s, p50, sizeof p50);
        fs_format_seconds(l->tpot_p99_s, p99, sizeof p99);
        ratio(m->slo_ttft_attainment, sa, sizeof sa);
        ratio(m->slo_tpot_attainment, sb, sizeof sb);
        format_rates(m, &rt);
        fprintf(out, "  %-20.63s  %9s  %9s  %9s  %9s  %8s  %8s  %9s  %9s  "
                "%9s  %9s\n", l->workload, t50, t99, p50, p99, sa, sb, rt.tin,
                rt.tout, rt.mo, rt.ma);
        print_cached(out, m);
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
        char a[16], b[16], c[16], d[16], e[16], f[16];
        fs_format_seconds(t->ttft_p50_s, a, sizeof a);
        fs_format_seconds(t->ttft_p99_s, b, sizeof b);
        fs_format_seconds(t->tpot_p50_s, c, sizeof c);
        fs_format_seconds(t->tpot_p99_s, d, sizeof d);
        fs_format_seconds(t->e2e_p50_s, e, sizeof e);
        fs_format_seconds(t->e2e_p99_s, f, sizeof f);
        fprintf(out, "  %-20s  TTFT p50 %s p99 %s; TPOT p50 %s p99 %s; "
                "end to end p50 %s p99 %s\n", "", a, b, c, d, e, f);
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
