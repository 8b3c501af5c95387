/* summary_adapter.c -- the run summary's lines for many models and LoRA
 * adapters on one fleet, under each llm workload: the replicas that host
 * its model on a pool shared by several models (llm_placement.c), and its
 * adapters (llm_adapter.c): their loads, and per adapter its share of the
 * requests beside the popularity's, its mean TTFT and end-to-end latency,
 * loads, and its showback cost and cost per million tokens (the most
 * popular ten; the database's adapter table has them all). */
#include "sim/app/summary.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SHOWN 10

static void print_placement(FILE *out, const fs_latency_row *l)
{
    if (l->llm.replicas > 0)
        fprintf(out, "  %-20s  its model on %ld replicas of a pool shared "
                "by several models\n", "", l->llm.replicas);
}

static void print_adapter(FILE *out, const fs_adapter_row *a, long total)
{
    char t[16], e[16], c[24];
    fs_format_seconds(a->ttft_mean_s, t, sizeof t);
    fs_format_seconds(a->e2e_mean_s, e, sizeof e);
    fs_format_money(a->cost_usd, c, sizeof c);
    double share = total > 0 ? (double)a->requests / (double)total : NAN;
    fprintf(out, "  %-20s  %7ld  %8ld  %6.2f%%  %6.2f%%  %9s  %9s  %6ld  "
            "%10s  %9.3f\n", "", a->adapter, a->requests, share * 100,
            a->share_expected * 100, isnan(a->ttft_mean_s) ? "-" : t,
            isnan(a->e2e_mean_s) ? "-" : e, a->loads, c,
            a->cost_per_mtok_usd);
}

static void print_adapters(FILE *out, const fs_latency_row *l,
                           const fs_results *r)
{
    const fs_llm_row *m = &l->llm;
    if (m->adapters <= 0)
        return;
    char pop[32] = "uniform", load[16], wait[16];
    if (m->adapter_zipf_s > 0)
        snprintf(pop, sizeof pop, "zipf(%g)", m->adapter_zipf_s);
    fs_format_seconds(m->adapter_load_s, load, sizeof load);
    fs_format_seconds(m->adapter_load_sum_s, wait, sizeof wait);
    fprintf(out, "  %-20s  adapters %ld (%s, rank %ld, %ld loaded a "
            "replica, %s a load): %ld loads, %s of iterations waiting for "
            "them\n", "", m->adapters, pop, m->adapter_rank, m->max_adapters,
            load, m->adapter_loads, wait);
    long total = 0, shown = 0;
    for (size_t i = 0; i < r->nadapters; i++)
        if (strcmp(r->adapters[i].workload, l->workload) == 0)
            total += r->adapters[i].requests;
    fprintf(out, "  %-20s  %7s  %8s  %7s  %7s  %9s  %9s  %6s  %10s  %9s\n",
            "", "adapter", "requests", "share", "zipf", "TTFT mean",
            "e2e mean", "loads", "cost", "$/M tok");
    for (size_t i = 0; i < r->nadapters; i++) {
        const fs_adapter_row *a = &r->adapters[i];
        if (strcmp(a->workload, l->workload) || shown++ >= SHOWN)
            continue;
        print_adapter(out, a, total);
    }
    if (shown > SHOWN)
        fprintf(out, "  %-20s  (%ld more adapters in the database's adapter "
                "table)\n", "", shown - SHOWN);
}

void fs_summary_print_tenants(FILE *out, const fs_latency_row *l,
                              const fs_results *r)
{
    print_placement(out, l);
    print_adapters(out, l, r);
}
