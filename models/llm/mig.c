/* mig.c -- the MIG profile catalog and layout validation; see mig.h. */
#include "models/llm/mig.h"

#include "sim/base/csvin.h"
#include "sim/base/owned.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { C_GPU, C_PROFILE, C_COMPUTE, C_MEMORY, C_MEMORY_GB, C_SMS, C_GPU_SMS,
       C_MAX, C_PLACEMENTS, C_BALANCED, C_SOURCE, C_NCOLS };
static const char *const columns[C_NCOLS] = {
    "gpu", "profile", "compute_slices", "memory_slices", "memory_gb", "sms",
    "gpu_sms", "max_count", "placements", "balanced", "source"};

/* A whole number from lo to hi; the range is checked before the cast (a
 * double beyond int, such as 1e300, is undefined behaviour to cast). */
static int int_field(const char *f, int lo, int hi, int *out)
{
    double v;
    if (fs_csv_number(f, &v) || !(v >= lo && v <= hi) || v != (int)v)
        return -1;
    *out = (int)v;
    return 0;
}

/* "0;2;4": the allowed starts, each below FS_MIG_MAX_SLOTS. */
static int parse_starts(const char *f, fs_mig_profile *p)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", f);
    p->nstarts = 0;
    for (char *save = NULL, *t = strtok_r(buf, ";", &save); t;
         t = strtok_r(NULL, ";", &save)) {
        if (p->nstarts == FS_MIG_MAX_SLOTS ||
            int_field(t, 0, FS_MIG_MAX_SLOTS - p->memory,
                      &p->starts[p->nstarts]))
            return -1;
        p->nstarts++;
    }
    return p->nstarts ? 0 : -1;
}

static int read_row(const fs_csv *r, const int *col, fs_mig_profile *p)
{
    const char *f[C_NCOLS];
    for (int i = 0; i < C_NCOLS; i++)
        f[i] = fs_csv_field(r, (size_t)col[i]);
    double gb;
    if (!f[C_GPU][0] || strlen(f[C_GPU]) >= sizeof p->gpu ||
        !f[C_PROFILE][0] || strlen(f[C_PROFILE]) >= sizeof p->name)
        return -1;
    snprintf(p->gpu, sizeof p->gpu, "%s", f[C_GPU]);
    snprintf(p->name, sizeof p->name, "%s", f[C_PROFILE]);
    snprintf(p->source, sizeof p->source, "%s", f[C_SOURCE]);
    if (int_field(f[C_COMPUTE], 1, FS_MIG_MAX_SLOTS, &p->compute) ||
        int_field(f[C_MEMORY], 1, FS_MIG_MAX_SLOTS, &p->memory) ||
        fs_csv_number(f[C_MEMORY_GB], &gb) || !(gb > 0) ||
        int_field(f[C_SMS], 1, 1000, &p->sms) ||
        int_field(f[C_GPU_SMS], p->sms, 1000, &p->gpu_sms) ||
        int_field(f[C_MAX], 1, FS_MIG_MAX_INSTANCES, &p->max_count) ||
        int_field(f[C_BALANCED], 0, p->max_count, &p->balanced) ||
        parse_starts(f[C_PLACEMENTS], p))
        return -1;
    p->memory_gb = gb;
    return 0;
}

fs_mig_catalog *fs_mig_load(const char *path, fs_error *err)
{
    fs_csv *r = fs_csv_open(path, err);
    fs_mig_catalog *c = calloc(1, sizeof *c);
    size_t cap = 0;
    int col[C_NCOLS], rc;
    if (!r || !c)
        goto fail;
    if ((rc = fs_csv_next(r, err)) != 1) {
        if (rc == 0)
            fs_error_set(err, "%s: empty file", path);
        goto fail;
    }
    for (int i = 0; i < C_NCOLS; i++)
        if ((col[i] = fs_csv_column(r, columns[i])) < 0) {
            fs_error_set(err, "%s:1: no column '%s'", path, columns[i]);
            goto fail;
        }
    while ((rc = fs_csv_next(r, err)) == 1) {
        if (c->n == cap) {
            cap = cap ? 2 * cap : 64;
            fs_mig_profile *p = realloc(c->p, cap * sizeof *p);
            if (!p) {
                fs_error_set(err, "out of memory reading %s", path);
                goto fail;
            }
            c->p = p;
        }
        fs_mig_profile *p = &c->p[c->n];
        memset(p, 0, sizeof *p);
        if (read_row(r, col, p)) {
            fs_error_set(err, "%s:%ld: not a MIG profile row (gpu, profile, "
                         "slices 1 to 8, memory_gb above 0, SMs, max_count 1 "
                         "to 7, placements such as 0;2;4, balanced count)",
                         path, fs_csv_line(r));
            goto fail;
        }
        c->n++;
    }
    if (rc < 0)
        goto fail;
    /* The whole GPU's slices, as its largest profile holds them: NVIDIA's
     * MIG User Guide ("Supported MIG Profiles") gives A100, H100 and H200
     * seven compute slices and eight memory slices, A30 four and four.  A
     * slice's compute share for utilization and cost is its compute
     * slices over the GPU's (shape.c). */
    for (size_t i = 0; i < c->n; i++) {
        c->p[i].gpu_memory = fs_mig_gpu_memory(c, c->p[i].gpu);
        c->p[i].gpu_compute = fs_mig_gpu_compute(c, c->p[i].gpu);
    }
    fs_csv_free(r);
    return c;
fail:
    fs_csv_free(r);
    return FS_DISCARD(fs_mig_free, c);
}

void fs_mig_free(fs_mig_catalog *c)
{
    if (c)
        FS_FREE_ALL(c->p, c);
}

size_t fs_mig_profiles(const fs_mig_catalog *c, const char *gpu,
                       const fs_mig_profile **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; c && i < c->n && n < max; i++)
        if (strcasecmp(c->p[i].gpu, gpu) == 0)
            out[n++] = &c->p[i];
    return n;
}

/* The whole GPU's slices, compute or memory: its largest profile's. */
static int largest_slices(const fs_mig_catalog *c, const char *gpu,
                          int memory)
{
    const fs_mig_profile *p[FS_MIG_MAX_PROFILES];
    size_t n = fs_mig_profiles(c, gpu, p, FS_MIG_MAX_PROFILES);
    int best = 0;
    for (size_t i = 0; i < n; i++) {
        int v = memory ? p[i]->memory : p[i]->compute;
        best = v > best ? v : best;
    }
    return best;
}

int fs_mig_gpu_compute(const fs_mig_catalog *c, const char *gpu)
{
    return largest_slices(c, gpu, 0);
}

int fs_mig_gpu_memory(const fs_mig_catalog *c, const char *gpu)
{
    return largest_slices(c, gpu, 1);
}

/* Depth-first over instances (largest memory first): each takes an
 * allowed start whose memory slices are free. */
static int place_from(fs_mig_layout *l, int i, unsigned used)
{
    if (i == l->n)
        return 1;
    const fs_mig_profile *p = l->slice[i];
    for (int k = 0; k < p->nstarts; k++) {
        unsigned bits = ((1u << p->memory) - 1) << p->starts[k];
        /* Two instances of one profile: keep starts increasing, so a
         * placement is tried once, not once per order. */
        if ((used & bits) ||
            (i > 0 && l->slice[i - 1] == p && p->starts[k] < l->start[i - 1]))
            continue;
        l->start[i] = p->starts[k];
        if (place_from(l, i + 1, used | bits))
            return 1;
    }
    return 0;
}

int fs_mig_place(const fs_mig_profile *const *prof, const int *counts,
                 int nprof, int total_compute, fs_mig_layout *out)
{
    fs_mig_layout l = {0};
    int compute = 0;
    for (int i = 0; i < nprof; i++) {
        if (counts[i] > prof[i]->max_count)
            return 0;
        for (int k = 0; k < counts[i]; k++) {
            if (l.n == FS_MIG_MAX_INSTANCES)
                return 0;
            l.slice[l.n++] = prof[i];
            compute += prof[i]->compute;
        }
    }
    if (compute > total_compute)
        return 0;
    /* Largest memory first: fewer dead ends. */
    for (int i = 1; i < l.n; i++)
        for (int j = i; j > 0 && l.slice[j]->memory > l.slice[j - 1]->memory;
             j--) {
            const fs_mig_profile *t = l.slice[j];
            l.slice[j] = l.slice[j - 1];
            l.slice[j - 1] = t;
        }
    if (!place_from(&l, 0, 0))
        return 0;
    if (out)
        *out = l;
    return 1;
}

/* a before b in a written layout: more memory, then more compute. */
static int writes_before(const fs_mig_profile *a, const fs_mig_profile *b)
{
    return a->memory != b->memory ? a->memory > b->memory
                                  : a->compute > b->compute;
}

void fs_mig_layout_format(const fs_mig_layout *l, char *buf, size_t len)
{
    const fs_mig_profile *uniq[FS_MIG_MAX_INSTANCES];
    int count[FS_MIG_MAX_INSTANCES], nu = 0;
    for (int i = 0; i < l->n; i++) {
        int j = 0;
        while (j < nu && uniq[j] != l->slice[i])
            j++;
        if (j == nu) {
            uniq[nu] = l->slice[i];
            count[nu++] = 0;
        }
        count[j]++;
    }
    for (int i = 1; i < nu; i++)
        for (int j = i; j > 0 && writes_before(uniq[j], uniq[j - 1]); j--) {
            const fs_mig_profile *t = uniq[j];
            int k = count[j];
            uniq[j] = uniq[j - 1];
            count[j] = count[j - 1];
            uniq[j - 1] = t;
            count[j - 1] = k;
        }
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < nu; i++) {
        int w = snprintf(buf + used, len - used, count[i] > 1 ? "%s%s*%d"
                                                              : "%s%s",
                         used ? "+" : "", uniq[i]->name, count[i]);
        if (w < 0 || (size_t)w >= len - used)
            return;
        used += (size_t)w;
    }
}

/* Enumeration of placements: at each memory slice in turn, nothing
 * starts there, or one instance of a masked profile does. */
typedef struct walk {
    const fs_mig_profile *prof[FS_MIG_MAX_PROFILES];
    int nprof, total_compute, counts[FS_MIG_MAX_PROFILES], compute;
    unsigned mask, used;
    fs_mig_layout l;
    size_t found;
    void (*fn)(const fs_mig_layout *, void *);
    void *ctx;
} walk;

/* Profile i may start at slice s now. */
static int fits_at(const walk *w, int i, int s)
{
    const fs_mig_profile *p = w->prof[i];
    int allowed = 0;
    for (int k = 0; k < p->nstarts; k++)
        allowed |= p->starts[k] == s;
    unsigned bits = ((1u << p->memory) - 1) << s;
    return (w->mask >> i & 1) && allowed && !(w->used & bits) &&
           w->counts[i] < p->max_count &&
           w->compute + p->compute <= w->total_compute &&
           w->l.n < FS_MIG_MAX_INSTANCES;
}

static int is_maximal(const walk *w)
{
    for (int i = 0; i < w->nprof; i++)
        for (int s = 0; s < FS_MIG_MAX_SLOTS; s++)
            if (fits_at(w, i, s))
                return 0;
    return 1;
}

static void walk_from(walk *w, int s)
{
    if (s == FS_MIG_MAX_SLOTS) {
        if (w->l.n && is_maximal(w)) {
            w->found++;
            if (w->fn)
                w->fn(&w->l, w->ctx);
        }
        return;
    }
    walk_from(w, s + 1);
    for (int i = 0; i < w->nprof; i++) {
        if (!fits_at(w, i, s))
            continue;
        const fs_mig_profile *p = w->prof[i];
        unsigned bits = ((1u << p->memory) - 1) << s;
        w->used |= bits;
        w->counts[i]++;
        w->compute += p->compute;
        w->l.slice[w->l.n] = p;
        w->l.start[w->l.n++] = s;
        walk_from(w, s + p->memory);
        w->l.n--;
        w->compute -= p->compute;
        w->counts[i]--;
        w->used &= ~bits;
    }
}

size_t fs_mig_maximal(const fs_mig_catalog *c, const char *gpu,
                      unsigned mask,
                      void (*fn)(const fs_mig_layout *, void *), void *ctx)
{
    walk w = {.mask = mask, .fn = fn, .ctx = ctx};
    w.nprof = (int)fs_mig_profiles(c, gpu, w.prof, FS_MIG_MAX_PROFILES);
    w.total_compute = fs_mig_gpu_compute(c, gpu);
    walk_from(&w, 0);
    return w.found;
}

/* The nearest valid layouts to counts: maximal layouts of every profile,
 * by the number of instances to add or take away. */
typedef struct nearest {
    const fs_mig_profile *const *prof;
    int nprof;
    const int *counts;
    int best[3];
    char text[3][96];
} nearest;

static void consider(const fs_mig_layout *l, void *ctx)
{
    nearest *n = ctx;
    int d = 0;
    for (int i = 0; i < n->nprof; i++) {
        int k = 0;
        for (int j = 0; j < l->n; j++)
            k += l->slice[j] == n->prof[i];
        d += abs(k - n->counts[i]);
    }
    char text[96];
    fs_mig_layout_format(l, text, sizeof text);
    for (int s = 0; s < 3; s++)
        if (strcmp(n->text[s], text) == 0)
            return;
    for (int s = 0; s < 3; s++)
        if (d < n->best[s]) {
            for (int t = 2; t > s; t--) {
                n->best[t] = n->best[t - 1];
                memcpy(n->text[t], n->text[t - 1], sizeof n->text[t]);
            }
            n->best[s] = d;
            memcpy(n->text[s], text, sizeof text);
            break;
        }
}

static void append_nearest(const fs_mig_catalog *c, const char *gpu,
                           const fs_mig_profile *const *prof, int nprof,
                           const int *counts, char *why, size_t len)
{
    nearest n = {prof, nprof, counts, {1 << 20, 1 << 20, 1 << 20}, {""}};
    fs_mig_maximal(c, gpu, ~0u, consider, &n);
    size_t used = strlen(why);
    for (int s = 0; s < 3 && n.text[s][0] && used < len; s++) {
        snprintf(why + used, len - used, "%s%s",
                 s ? ", " : "; nearest valid layouts: ", n.text[s]);
        used = strlen(why);
    }
}

/* Reads "A+B*2" into counts; -1 with why on a bad term. */
static int parse_terms(const fs_mig_profile *const *prof, int nprof,
                       const char *text, int *counts, char *why, size_t len)
{
    char buf[256];
    if (strlen(text) >= sizeof buf) {
        snprintf(why, len, "layout too long (%zu bytes)", strlen(text));
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", text);
    /* strsep, not strtok: an empty term ("", "+", "a++b") is an error,
     * not skipped (an empty layout ran whole GPUs). */
    for (char *rest = buf, *t; (t = strsep(&rest, "+")) != NULL;) {
        while (*t == ' ')
            t++;
        if (*t == '\0') {
            snprintf(why, len, "an empty term: expected PROFILE[*N]+... "
                     "(3g.40gb+2g.20gb*2) or balanced");
            return -1;
        }
        char *star = strchr(t, '*'), *end = t + strlen(t);
        int k = 1;
        if (star) {
            *star = '\0';
            if (int_field(star + 1, 1, 64, &k)) {
                snprintf(why, len, "'%s*%s': the count after * must be a "
                         "whole number, 1 to 7", t, star + 1);
                return -1;
            }
            end = star;
        }
        while (end > t && end[-1] == ' ')
            *--end = '\0';
        int found = -1;
        const char *names[FS_MIG_MAX_PROFILES + 1];
        for (int i = 0; i < nprof; i++) {
            names[i] = prof[i]->name;
            if (strcasecmp(prof[i]->name, t) == 0)
                found = i;
        }
        names[nprof] = NULL;
        if (found < 0) {
            const char *near = fs_nearest_name(t, names);
            size_t used = (size_t)snprintf(why, len, "unknown MIG profile "
                                           "'%s' on %s%s%s%s (profiles:", t,
                                           prof[0]->gpu,
                                           near ? " (did you mean " : "",
                                           near ? near : "", near ? "?)" : "");
            for (int i = 0; i < nprof && used < len; i++)
                used += (size_t)snprintf(why + used, len - used, " %s",
                                         names[i]);
            if (used < len)
                snprintf(why + used, len - used, ")");
            return -1;
        }
        counts[found] += k;
    }
    return 0;
}

/* Why counts is not a valid layout (the first limit it breaks). */
static void explain(const fs_mig_profile *const *prof, int nprof,
                    const int *counts, int total_compute, char *why,
                    size_t len)
{
    int compute = 0, n = 0;
    for (int i = 0; i < nprof; i++) {
        if (counts[i] > prof[i]->max_count) {
            snprintf(why, len, "%d x %s, and a GPU holds at most %d",
                     counts[i], prof[i]->name, prof[i]->max_count);
            return;
        }
        compute += counts[i] * prof[i]->compute;
        n += counts[i];
    }
    if (n == 0)
        snprintf(why, len, "no instance");
    else if (compute > total_compute)
        snprintf(why, len, "it takes %d compute slices and the GPU has %d",
                 compute, total_compute);
    else
        snprintf(why, len, "its instances do not fit on the GPU's memory "
                 "slices at their allowed starts without overlapping");
}

int fs_mig_layout_parse(const fs_mig_catalog *c, const char *gpu,
                        const char *text, fs_mig_layout *out, char *why,
                        size_t len)
{
    const fs_mig_profile *prof[FS_MIG_MAX_PROFILES];
    int nprof = (int)fs_mig_profiles(c, gpu, prof, FS_MIG_MAX_PROFILES);
    int counts[FS_MIG_MAX_PROFILES] = {0};
    if (nprof == 0) {
        snprintf(why, len, "layout '%s': %s has no MIG (MIG GPUs: A30, "
                 "A100, H100, H200, B200; fleetsim catalog mig)", text, gpu);
        return -1;
    }
    char reason[400];
    int total = fs_mig_gpu_compute(c, gpu);
    if (strcasecmp(text, "balanced") == 0)
        for (int i = 0; i < nprof; i++)
            counts[i] = prof[i]->balanced;
    else if (parse_terms(prof, nprof, text, counts, reason, sizeof reason)) {
        snprintf(why, len, "layout '%s' on %s: %s", text, gpu, reason);
        return -1;
    }
    if (fs_mig_place(prof, counts, nprof, total, out))
        return 0;
    explain(prof, nprof, counts, total, reason, sizeof reason);
    snprintf(why, len, "layout '%s' on %s is not valid: %s", text, gpu,
             reason);
    append_nearest(c, gpu, prof, nprof, counts, why, len);
    return -1;
}
