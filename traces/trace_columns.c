/* trace_columns.c -- finding a trace format's columns in the header.
 *
 * Every format binds its columns by name, case-insensitively; a missing
 * column is named with the header's columns and the likely typo, and a
 * name the header holds twice is refused rather than guessed. */
#include "traces/arrivals_impl.h"

#include <limits.h>
#include <stdio.h>
#include <strings.h>

int fs_trace_column(const fs_csv *header, const char *name)
{
    size_t n = fs_csv_nfields(header);
    for (size_t i = 0; i < n && i < INT_MAX; i++)
        if (strcasecmp(fs_csv_field(header, i), name) == 0)
            return (int)i;
    return -1;
}

int fs_trace_require_column(const fs_csv *header, const char *name, int *col,
                            fs_error *err)
{
    *col = fs_trace_column(header, name);
    if (*col >= 0) {
        /* A second column of that name: which one is meant is a guess. */
        size_t n = fs_csv_nfields(header);
        for (size_t i = (size_t)*col + 1; i < n; i++)
            if (strcasecmp(fs_csv_field(header, i), name) == 0)
                return fs_error_set(err, "%s:%ld: column '%s' appears twice "
                                    "in the header (fields %d and %zu)",
                                    fs_csv_path(header), fs_csv_line(header),
                                    name, *col + 1, i + 1);
        return 0;
    }
    char list[512];
    const char *cand[33];
    size_t n = fs_csv_nfields(header), len = 0, nc = 0;
    list[0] = '\0';
    for (size_t i = 0; i < n && len < sizeof list; i++) {
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                i ? ", " : "", fs_csv_field(header, i));
        if (nc < 32)
            cand[nc++] = fs_csv_field(header, i);
    }
    cand[nc] = NULL;
    char dym[80];
    fs_arrivals_did_you_mean(name, cand, dym, sizeof dym);
    return fs_error_set(err, "%s:%ld: missing column '%s' (columns: %s)%s",
                        fs_csv_path(header), fs_csv_line(header), name, list,
                        dym);
}
