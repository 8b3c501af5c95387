/* summary.c -- printing a run's summary for people; see summary.h.
 *
 * Two monthly figures, never confused: the bill by calendar month (the
 * cost_monthly rows, what an invoice shows), and the monthly run rate, the
 * horizon's cost scaled to a 730-hour month (what a month would cost at
 * this rate; a 1-hour run's rate is 730 times its cost).  Names are
 * escaped (textout.h): a newline in a name cannot break a line. */
#include "sim/app/summary.h"
#include "sim/base/grammar.h"
#include "sim/base/textout.h"
#include "sim/fleet/run/notes.h"
#include "sim/store/store.h"
#include "sim/store/columns.h"
#include "models/purchase/billing.h"
#include "models/purchase/purchase.h"
#include "traces/arrivals.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Hours in the month of a run rate: 8760 / 12, as cloud bills use. */
#define RUN_RATE_HOURS 730.0

/* s escaped for the terminal into buf (the names here are short). */
static const char *esc(const char *s, char *buf, size_t size)
{
    char *e = fs_text_escape(s);
    snprintf(buf, size, "%s", e ? e : "?");
    free(e);
    return buf;
}

static void print_costs(FILE *out, const fs_results *r)
{
    char money[64], pool[4 * FS_NAME_MAX], pricing[64];
    double total = 0, gpu_hours = 0;
    fprintf(out, "\n  bill by calendar month\n");
    fprintf(out, "  %-8s  %-20s  %-10s  %12s  %14s\n", "month", "pool",
            "pricing", "GPU-hours", "cost");
    for (size_t i = 0; i < r->ncosts; i++) {
        const fs_cost_row *c = &r->costs[i];
        fs_format_money(c->cost_usd, money, sizeof money);
        fprintf(out, "  %-8s  %-20s  %-10s  %12.1f  %14s\n", c->month,
                esc(c->pool, pool, sizeof pool),
                esc(c->pricing, pricing, sizeof pricing), c->gpu_hours,
                money);
        total += c->cost_usd;
        gpu_hours += c->gpu_hours;
    }
    fs_format_money(total, money, sizeof money);
    fprintf(out, "  %-8s  %-20s  %-10s  %12.1f  %14s\n", "total", "", "",
            gpu_hours, money);
    /* scaled from the cost before rounding: a 5-minute run's bill of
     * $0.31 is $0.305833, and 8,760 times the cent would be $26 a month */
    if (r->horizon_s > 0)
        fs_format_money(r->cost_unrounded_usd * RUN_RATE_HOURS * 3600 /
                        r->horizon_s, money, sizeof money);
    else
        snprintf(money, sizeof money, "-");
    fprintf(out, "  %-42s  %14s\n", "monthly run rate (730 h)", money);
}

/* The pool's idle cost: its cost_allocation rows without a workload. */
static double idle_usd(const fs_results *r, const char *pool)
{
    double usd = 0;
    for (size_t i = 0; i < r->nallocs; i++)
        if (!r->allocs[i].workload[0] && !strcmp(r->allocs[i].pool, pool))
            usd += r->allocs[i].cost_usd;
    return usd;
}

static void print_pools(FILE *out, const fs_results *r)
{
    char money[64], util[32], pool[4 * FS_NAME_MAX], gpu[128], pricing[64];
    char instance[512], idle[64];
    fprintf(out, "\n  %-20s  %-10s  %-10s  %10s  %12s  %11s  %12s  %s\n",
            "pool", "gpu", "pricing", "$/inst-h", "GPU-hours", "utilization",
            "idle cost", "priced from");
    for (size_t i = 0; i < r->npools; i++) {
        const fs_pool_row *p = &r->pools[i];
        fs_format_money(p->price_usd_h, money, sizeof money);
        /* no GPU provisioned (count = 0): no utilization, not 0/0 */
        if (p->gpu_hours_provisioned > 0)
            snprintf(util, sizeof util, "%.1f%%",
                     p->gpu_hours_busy / p->gpu_hours_provisioned * 100);
        else
            snprintf(util, sizeof util, "-");
        fs_format_money(fs_round_cents(idle_usd(r, p->pool)), idle,
                        sizeof idle);
        fprintf(out, "  %-20s  %-10s  %-10s  %10s  %12.1f  %11s  %12s  %s\n",
                esc(p->pool, pool, sizeof pool), esc(p->gpu, gpu, sizeof gpu),
                esc(p->pricing, pricing, sizeof pricing), money,
                p->gpu_hours_provisioned, util, idle,
                esc(p->instance, instance, sizeof instance));
    }
}

/* Every pool's energy at the meter (models/purchase/energy.h), per
 * GPU-hour provisioned and, serving an llm, per million tokens: a cloud
 * pool's as information, an owned pool's what its power line bills. */
static void print_energy(FILE *out, const fs_results *r)
{
    char pool[4 * FS_NAME_MAX], per_gh[32], per_mtok[32];
    fprintf(out, "\n  %-20s  %12s  %14s  %16s\n", "energy", "kWh",
            "kWh a GPU-hour", "kWh per M tokens");
    for (size_t i = 0; i < r->npools; i++) {
        const fs_pool_row *p = &r->pools[i];
        double tokens = p->llm.is_llm ? p->llm.tokens_in + p->llm.tokens_out
                                      : 0;
        snprintf(per_gh, sizeof per_gh, "-");
        snprintf(per_mtok, sizeof per_mtok, "-");
        if (p->gpu_hours_provisioned > 0)
            snprintf(per_gh, sizeof per_gh, "%.4f",
                     p->energy_kwh / p->gpu_hours_provisioned);
        if (tokens > 0)
            snprintf(per_mtok, sizeof per_mtok, "%.4f",
                     p->energy_kwh * 1e6 / tokens);
        fprintf(out, "  %-20s  %12.1f  %14s  %16s\n",
                esc(p->pool, pool, sizeof pool), p->energy_kwh, per_gh,
                per_mtok);
    }
    fprintf(out, "  (GPUs drawing idle to TDP by utilization; owned pools "
            "with their host_share and PUE, cloud pools the GPUs alone at "
            "PUE 1: doc/energy.md)\n");
}

/* Committed pools: their list cost (the instance-hours they ran at the
 * on-demand list price) and realised saving, as fs_store_pool_savings
 * and the FOCUS export's ListCost - EffectiveCost give them. */
static void print_savings(FILE *out, const fs_results *r)
{
    char pool[4 * FS_NAME_MAX], list[64], eff[64], save[64];
    int any = 0;
    for (size_t i = 0; i < r->npools; i++) {
        const fs_pool_row *p = &r->pools[i];
        const fs_purchase_option *o = fs_purchase_find(p->pricing);
        if (!o || o->commitment == FS_COMMIT_NONE)
            continue;
        long long eff_c = 0;
        for (size_t k = 0; k < r->ncosts; k++)
            if (!strcmp(r->costs[k].pool, p->pool))
                eff_c += llround(r->costs[k].cost_usd * 100);
        if (!any++)
            fprintf(out, "\n  %-20s  %14s  %14s  %14s  %s\n", "committed pool",
                    "list cost", "effective", "saving", "(list: on-demand "
                    "price x instance-hours)");
        esc(p->pool, pool, sizeof pool);
        if (!(p->list_price_usd_h > 0) || p->gpus_per_instance <= 0) {
            fprintf(out, "  %-20s  %14s  (no on-demand list price in the "
                    "catalog)\n", pool, "-");
            continue;
        }
        long long list_c = fs_list_cents(p->list_price_usd_h,
                                         p->gpu_hours_provisioned,
                                         p->gpus_per_instance);
        fs_format_money((double)list_c / 100, list, sizeof list);
        fs_format_money((double)eff_c / 100, eff, sizeof eff);
        fs_format_money((double)(list_c - eff_c) / 100, save, sizeof save);
        fprintf(out, "  %-20s  %14s  %14s  %14s  %.1f%%\n", pool, list, eff,
                save, list_c > 0 ? 100.0 * (double)(list_c - eff_c) /
                                       (double)list_c : 0);
    }
}

/* Whether a pool's purchase option may be interrupted (spot). */
static int interruptible(const fs_pool_row *p)
{
    const fs_purchase_option *o = fs_purchase_find(p->pricing);
    return o && o->interruptible;
}

/* Spot pools: what interruptions cost (nothing printed without one). */
static void print_spot(FILE *out, const fs_results *r)
{
    int any = 0;
    for (size_t i = 0; i < r->npools; i++)
        any |= interruptible(&r->pools[i]);
    if (!any)
        return;
    fprintf(out, "\n  %-20s  %13s  %16s  %10s  %14s  %13s\n", "spot pool",
            "interruptions", "requests retried", "work lost",
            "fallback hours", "fallback cost");
    for (size_t i = 0; i < r->npools; i++) {
        const fs_pool_row *p = &r->pools[i];
        char pool[4 * FS_NAME_MAX], lost[16], money[64];
        if (!interruptible(p))
            continue;
        fs_format_seconds(p->work_lost_s, lost, sizeof lost);
        fs_format_money(fs_round_cents(p->fallback_cost_usd), money,
                        sizeof money);
        fprintf(out, "  %-20s  %13ld  %16ld  %10s  %14.1f  %13s\n",
                esc(p->pool, pool, sizeof pool), p->interruptions,
                p->requests_retried, lost, p->fallback_hours, money);
    }
}

/* Unfinished (queued or in service at the horizon) plus dropped, and
 * their share of the arrivals: what the percentiles, over finished
 * requests only, leave out.  Over 1%: the workload is overloaded. */
static double unfinished_share(const fs_latency_row *l, long *n)
{
    *n = l->unfinished + l->dropped;
    return l->arrivals > 0 ? (double)*n / (double)l->arrivals : 0;
}

/* Each MIG pool's idle share of its cost, its cost_allocation idle rows
 * (every slice's and the SMs outside them) over all its rows: "N% of this
 * A100 is idle". */
static void print_mig_idle(FILE *out, const fs_results *r)
{
    for (size_t i = 0; i < r->npools; i++) {
        const fs_pool_row *p = &r->pools[i];
        int mig = 0;
        for (size_t j = 0; j < r->nslices; j++)
            mig |= strcmp(r->slices[j].pool, p->pool) == 0;
        double idle = idle_usd(r, p->pool), all = 0;
        for (size_t j = 0; j < r->nallocs; j++)
            if (strcmp(r->allocs[j].pool, p->pool) == 0)
                all += r->allocs[j].cost_usd;
        if (!mig || !(all > 0))
            continue;
        char pool[4 * FS_NAME_MAX], gpu[128], m1[64], m2[64];
        fs_format_money(fs_round_cents(idle), m1, sizeof m1);
        fs_format_money(fs_round_cents(all), m2, sizeof m2);
        fprintf(out, "  %s: %.1f%% of this %s is idle (%s of %s, "
                "cost_allocation)\n", esc(p->pool, pool, sizeof pool),
                100 * idle / all, esc(p->gpu, gpu, sizeof gpu), m1, m2);
    }
}

/* MIG pools: each slice profile's busy share and idle cost (nothing
 * printed without one). */
static void print_slices(FILE *out, const fs_results *r)
{
    if (r->nslices == 0)
        return;
    fprintf(out, "\n  %-20s  %-10s  %6s  %8s  %9s  %11s  %10s\n",
            "MIG pool", "profile", "slices", "compute", "SM share",
            "utilization", "idle cost");
    for (size_t i = 0; i < r->nslices; i++) {
        const fs_slice_row *s = &r->slices[i];
        char pool[4 * FS_NAME_MAX], money[64];
        fs_format_money(fs_round_cents(s->idle_cost_usd), money,
                        sizeof money);
        fprintf(out, "  %-20s  %-10s  %6d  %7.1f%%  %8.1f%%  %10.1f%%  %10s\n",
                esc(s->pool, pool, sizeof pool), s->profile,
                s->slices_per_gpu, 100 * s->compute_share, 100 * s->sm_share,
                100 * s->utilization, money);
    }
    print_mig_idle(out, r);
}

/* The flags at the end of a workload's row: overload first, then a
 * missed SLO (attainment under FS_SLO_MET_SHARE). */
static const char *row_flags(double share, double attainment)
{
    int over = share > FS_OVERLOADED_SHARE, slo = fs_slo_missed(attainment);
    return over && slo ? "  OVERLOADED  SLO MISSED"
           : over      ? "  OVERLOADED"
           : slo       ? "  SLO MISSED" : "";
}

/* Under the table: what each flag means, and each workload that missed
 * its SLO with the figures that say so. */
static void print_latency_notes(FILE *out, const fs_results *r,
                                int overloaded)
{
    fprintf(out, "  (p50, p99 and mean over finished requests only%s)\n",
            overloaded ? "; OVERLOADED: more than 1% of a workload's "
            "requests did not finish, so its percentiles understate its "
            "latency" : "");
    for (size_t i = 0; i < r->nlatency; i++) {
        const fs_latency_row *l = &r->latency[i];
        char name[4 * FS_NAME_MAX], p99[16], slo[16];
        if (!fs_slo_missed(l->slo_attainment))
            continue;
        fs_format_seconds(l->p99_s, p99, sizeof p99);
        fs_format_seconds(l->slo_s, slo, sizeof slo);
        fprintf(out, "  SLO MISSED: %s served %.2f%% of its finished "
                "requests within its slo_p99 of %s (under %.0f%%): p99 %s\n",
                esc(l->workload, name, sizeof name),
                100 * l->slo_attainment, slo, 100 * FS_SLO_MET_SHARE, p99);
    }
}

static void print_latency(FILE *out, const fs_results *r)
{
    if (r->nlatency == 0)
        return;             /* training only: the notes say what ran */
    fprintf(out, "\n  %-20s  %10s  %9s  %9s  %9s  %9s  %9s  %-10s  %s\n",
            "workload", "requests", "p50", "p99", "mean", "mean wait",
            "SLO p99", "attainment", "unfinished");
    int overloaded = 0;
    for (size_t i = 0; i < r->nlatency; i++) {
        const fs_latency_row *l = &r->latency[i];
        char p50[16], p99[16], mean[16], wait[16], slo[16], att[32];
        char name[4 * FS_NAME_MAX];
        long un;
        double share = unfinished_share(l, &un);
        fs_format_seconds(l->p50_s, p50, sizeof p50);
        fs_format_seconds(l->p99_s, p99, sizeof p99);
        fs_format_seconds(l->mean_s, mean, sizeof mean);
        fs_format_seconds(l->wait_mean_s, wait, sizeof wait);
        fs_format_seconds(l->slo_s, slo, sizeof slo);
        if (isnan(l->slo_attainment))
            snprintf(att, sizeof att, "-");
        else
            snprintf(att, sizeof att, "%.2f%%", l->slo_attainment * 100);
        fprintf(out, "  %-20s  %10ld  %9s  %9s  %9s  %9s  %9s  %-10s  %ld "
                "(%.2f%%)%s\n", esc(l->workload, name, sizeof name),
                l->count, p50, p99, mean, wait, slo, att, un, share * 100,
                row_flags(share, l->slo_attainment));
        overloaded |= share > FS_OVERLOADED_SHARE;
        /* an llm's own drops (too long for the cache or the context) are
         * said with the llm table; the rest are queue_max's */
        long own = l->llm.too_long + l->llm.over_context;
        if (l->dropped || l->unfinished)
            fprintf(out, "  %-20s  (%ld arrived, %ld dropped%s%s, "
                    "%ld unfinished at the horizon)\n", "", l->arrivals,
                    l->dropped, own ? "" : " by queue_max",
                    own ? ": see the llm table" : "", l->unfinished);
    }
    print_latency_notes(out, r, overloaded);
}

/* growth = G ± S: the rate this replication drew (stored in run_growth),
 * which `forecast` and `commit --horizon` grow the run by. */
static void print_growth(FILE *out, const fs_results *r)
{
    for (size_t i = 0; i < r->nlatency; i++) {
        const fs_latency_row *l = &r->latency[i];
        char name[4 * FS_NAME_MAX];
        if (l->growth_spread > 0)
            fprintf(out, "  growth of %s: drew %.4g%%/month (%.4g%%/month "
                    "\xc2\xb1 %.4g%%, normal truncated to 0..%g%%)\n",
                    esc(l->workload, name, sizeof name), l->growth * 100,
                    l->growth_mean * 100, l->growth_spread * 100,
                    FS_GROWTH_MAX * 100);
    }
}

void fs_summary_print(FILE *out, const fs_results *r, long run_id,
                      const char *db, double wall_s)
{
    char horizon[32], name[4 * FS_NAME_MAX];
    fs_format_duration(r->horizon_s, horizon, sizeof horizon);
    fprintf(out, "run %ld \"%s\" (seed %lu, replication %u): %s from %s, "
            "%ld events in %.2fs\n", run_id, esc(r->name, name, sizeof name),
            r->seed,
            r->replication, horizon, r->start_date, r->events, wall_s);
    print_costs(out, r);
    fs_summary_print_extra(out, r);
    print_pools(out, r);
    print_energy(out, r);
    print_savings(out, r);
    print_spot(out, r);
    print_slices(out, r);
    print_latency(out, r);
    print_growth(out, r);
    fs_summary_print_llm(out, r);
    fs_notes_print(out, r);
    fprintf(out, "\n  stored in %s as run %ld: `fleetsim compare --db %s %ld`"
            " or `sqlite3 %s 'SELECT * FROM run_summary'`\n", db, run_id, db,
            run_id, db);
}
