/* trace_azure.c -- the Azure LLM inference trace format (azure-llm).
 *
 * Rows of TIMESTAMP,ContextTokens,GeneratedTokens, e.g.
 *   2023-11-16 18:17:03.9799600,4808,10
 * (Azure Public Dataset, Patel et al., ISCA 2024).  Timestamps are read
 * exactly (integer nanoseconds), the token counts become the request's
 * prompt and output lengths; the trace records no service time. */
#include "traces/arrivals_impl.h"

#include <stdio.h>

static const char *const keys[] = {"format", NULL};

static int azure_bind(const fs_arrivals_spec *spec, const fs_csv *header,
                fs_trace_cols *cols, fs_error *err)
{
    (void)spec;
    cols->time_unit_ns = 0;
    if (fs_trace_require_column(header, "TIMESTAMP", &cols->time, err) ||
        fs_trace_require_column(header, "ContextTokens", &cols->tokens_in,
                                err) ||
        fs_trace_require_column(header, "GeneratedTokens", &cols->tokens_out,
                                err))
        return -1;
    return 0;
}

static int azure_parse(const fs_trace_cols *cols, const fs_csv *row,
                 fs_trace_row *out, fs_row_problem *why)
{
    const char *what;
    if (fs_field_datetime_ns(fs_csv_field(row, (size_t)cols->time),
                             &out->t_ns, &what)) {
        why->col = cols->time;
        goto bad;
    }
    if (fs_field_count(fs_csv_field(row, (size_t)cols->tokens_in),
                       &out->tokens_in, &what)) {
        why->col = cols->tokens_in;
        goto bad;
    }
    if (fs_field_count(fs_csv_field(row, (size_t)cols->tokens_out),
                       &out->tokens_out, &what)) {
        why->col = cols->tokens_out;
        goto bad;
    }
    out->service_s = -1;
    return FS_ROW_OK;
bad:
    snprintf(why->what, sizeof why->what, "%s", what);
    return FS_ROW_BAD;
}

const fs_trace_format fs_trace_azure_llm = {
    "azure-llm", keys, NULL, azure_bind, azure_parse, NULL, NULL,
};
