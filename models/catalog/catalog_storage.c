/* catalog_storage.c -- the providers' published object-storage and
 * data-transfer prices (storage.csv beside instances.csv, sourced in
 * SOURCES.md): what a checkpoint kept for a month costs, and what a GB
 * moved to another zone, region or cloud costs.  These are the costs
 * beside the GPU hour that a training job's checkpoints add (stored per
 * GB-month, restored across zones per GB); a user's own catalog
 * directory may leave the file out, and a workload then gives
 * storage_price and transfer_price itself. */
#include "models/catalog/catalog.h"
#include "sim/base/csvin.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *const fs_transfer_names[FS_TRANSFER_N + 1] = {
    "none", "zone", "region", "internet", NULL,
};

enum { S_PROVIDER, S_STORAGE, S_ZONE, S_REGION, S_INTERNET, S_AREA,
       S_AS_OF, S_SOURCE, S_TRANSFER_SOURCE, S_N };
static const char *const names[S_N] = {
    "provider", "storage_usd_gb_month", "transfer_zone_usd_gb",
    "transfer_region_usd_gb", "transfer_internet_usd_gb", "region", "as_of",
    "storage_source", "transfer_source",
};

static int header(fs_csv *r, void *ctx, fs_error *err)
{
    int *idx = ctx;
    for (int k = 0; k < S_N; k++)
        if ((idx[k] = fs_csv_column(r, names[k])) < 0)
            return fs_error_at(err, fs_csv_path(r), 1, NULL,
                               "missing column '%s'", names[k]);
    return 0;
}

/* A price cell: a finite number >= 0, $ per GB(-month). */
static int price(fs_csv *r, const int *idx, int k, double *out,
                 fs_error *err)
{
    const char *f = fs_csv_field(r, (size_t)idx[k]);
    if (fs_csv_number(f, out) || !(*out >= 0) || !isfinite(*out))
        return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r), names[k],
                           "expected dollars per GB, 0 or more, got '%s'", f);
    return 0;
}

static int read_row(fs_csv *r, void *row, void *ctx, fs_error *err)
{
    const int *idx = ctx;
    fs_storage_price *p = row;
    snprintf(p->provider, sizeof p->provider, "%s",
             fs_csv_field(r, (size_t)idx[S_PROVIDER]));
    if (!p->provider[0])
        return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                           names[S_PROVIDER], "empty");
    if (price(r, idx, S_STORAGE, &p->storage_gb_month, err) ||
        price(r, idx, S_ZONE, &p->transfer_gb[FS_TRANSFER_ZONE], err) ||
        price(r, idx, S_REGION, &p->transfer_gb[FS_TRANSFER_REGION], err) ||
        price(r, idx, S_INTERNET, &p->transfer_gb[FS_TRANSFER_INTERNET],
              err))
        return -1;
    snprintf(p->region, sizeof p->region, "%s",
             fs_csv_field(r, (size_t)idx[S_AREA]));
    snprintf(p->as_of, sizeof p->as_of, "%s",
             fs_csv_field(r, (size_t)idx[S_AS_OF]));
    snprintf(p->source, sizeof p->source, "%s",
             fs_csv_field(r, (size_t)idx[S_SOURCE]));
    snprintf(p->transfer_source, sizeof p->transfer_source, "%s",
             fs_csv_field(r, (size_t)idx[S_TRANSFER_SOURCE]));
    return 0;
}

int fs_catalog_load_storage(fs_catalog *c, const char *path, fs_error *err)
{
    FILE *probe = fopen(path, "r");
    if (!probe)
        return 0;   /* a catalog without storage.csv */
    fclose(probe);
    int idx[S_N];
    return fs_catalog_load_file(path, header, idx, (void **)&c->storage,
                                &c->nstorage, sizeof *c->storage, read_row,
                                idx, err);
}

const fs_storage_price *fs_catalog_storage(const fs_catalog *c,
                                           const char *provider)
{
    for (size_t i = 0; c && provider && i < c->nstorage; i++)
        if (strcasecmp(c->storage[i].provider, provider) == 0)
            return &c->storage[i];
    return NULL;
}
