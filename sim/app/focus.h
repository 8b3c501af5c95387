/* focus.h -- what every FOCUS 1.2 dataset fleetsim writes shares: the
 * columns, in the spec's order (https://focus.finops.org, version 1.2),
 * and the provider and service of an instance type.  `export --format
 * focus` writes a run's bill with them (sim/cli/export/export_focus.c),
 * `commit --format focus` the recommended buys
 * (sim/cli/commit/commit_focus.c), so that both are one dataset's rows. */
#ifndef FS_FOCUS_H
#define FS_FOCUS_H

#include <stddef.h>

#define FS_FOCUS_NCOLS 55

/* Every Mandatory column, and the Conditional ones a simulated cloud
 * bill meets; fleetsim's own after them, prefixed x_.  NULL-ended. */
extern const char *const fs_focus_columns[FS_FOCUS_NCOLS + 1];

/* ProviderName and ServiceName of an instance type ("aws:p4d.24xlarge":
 * AWS, Amazon Elastic Compute Cloud); "fleetsim" and "GPU instances" for
 * one of no known provider. */
void fs_focus_provider(const char *instance_type, char *provider,
                       size_t plen, char *service, size_t slen);

#endif
