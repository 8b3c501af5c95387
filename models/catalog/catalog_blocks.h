/* catalog_blocks.h -- published Capacity Block prices (capacity_blocks.csv).
 *
 * A capacity block (AWS EC2 Capacity Blocks for ML) is sold at its own
 * rate per instance-hour, paid for the whole block; the catalog keeps the
 * provider's published snapshot, one row per instance type and region,
 * with its date and source.  Read on demand by the capacity-block
 * purchase option: the file is a handful of rows and only its pools ask. */
#ifndef FS_CATALOG_BLOCKS_H
#define FS_CATALOG_BLOCKS_H

#include <stddef.h>
#include "sim/base/error.h"

/* The first row of path for instance ("p5.48xlarge", or
 * "aws:p5.48xlarge"): 1 with *usd and source ("capacity_blocks.csv
 * aws:p5.48xlarge us-east-1, as of 2024-12-31") set, 0 when the file lists
 * no such instance or is absent, -1 on a malformed row
 * ("path:line: column: why"). */
int fs_catalog_block_price(const char *path, const char *instance,
                           double *usd, char *source, size_t len,
                           fs_error *err);

#endif
