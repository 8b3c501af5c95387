/* catalog_blocks.c -- published Capacity Block prices; see
 * catalog_blocks.h.  The file is read with libcsv (fs_csv), its columns
 * found by name in the header. */
#include "models/catalog/catalog_blocks.h"
#include "sim/base/csvin.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

enum { C_PROVIDER, C_INSTANCE, C_REGION, C_PRICE, C_AS_OF, C_N };

static int block_columns(fs_csv *r, int *col, fs_error *err)
{
    static const char *const names[C_N] = {"provider", "instance", "region",
                                           "block_usd_h", "as_of"};
    for (int k = 0; k < C_N; k++)
        if ((col[k] = fs_csv_column(r, names[k])) < 0)
            return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r), NULL,
                               "missing column '%s'", names[k]);
    return 0;
}

/* Whether the row is instance: "TYPE" or "PROVIDER:TYPE". */
static int row_is(fs_csv *r, const int *col, const char *instance)
{
    const char *prov = fs_csv_field(r, (size_t)col[C_PROVIDER]);
    const char *colon = strchr(instance, ':');
    if (colon && (strlen(prov) != (size_t)(colon - instance) ||
                  strncasecmp(prov, instance, (size_t)(colon - instance))))
        return 0;
    return strcasecmp(fs_csv_field(r, (size_t)col[C_INSTANCE]),
                      colon ? colon + 1 : instance) == 0;
}

static int row_price(fs_csv *r, const int *col, double *usd, char *source,
                     size_t len, fs_error *err)
{
    if (fs_csv_number(fs_csv_field(r, (size_t)col[C_PRICE]), usd) ||
        !(*usd > 0))
        return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                           "block_usd_h", "expected $ per instance-hour "
                           "above 0, got '%s'",
                           fs_csv_field(r, (size_t)col[C_PRICE]));
    snprintf(source, len, "capacity_blocks.csv %s:%s %s, as of %s",
             fs_csv_field(r, (size_t)col[C_PROVIDER]),
             fs_csv_field(r, (size_t)col[C_INSTANCE]),
             fs_csv_field(r, (size_t)col[C_REGION]),
             fs_csv_field(r, (size_t)col[C_AS_OF]));
    return 1;
}

int fs_catalog_block_price(const char *path, const char *instance,
                           double *usd, char *source, size_t len,
                           fs_error *err)
{
    if (access(path, F_OK) != 0)
        return 0;
    fs_csv *r = fs_csv_open(path, err);
    if (!r)
        return -1;
    int col[C_N], rc = fs_csv_next(r, err);
    if (rc == 1)
        rc = block_columns(r, col, err) ? -1 : 0;
    while (rc == 0 && (rc = fs_csv_next(r, err)) == 1)
        rc = row_is(r, col, instance)
                 ? row_price(r, col, usd, source, len, err) : 0;
    fs_csv_free(r);
    return rc;
}
