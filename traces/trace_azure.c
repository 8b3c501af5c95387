/* trace_azure.c -- the Azure LLM inference trace format (azure-llm).
 *
 * Rows of TIMESTAMP,ContextTokens,GeneratedTokens, e.g.
 *   2023-11-16 18:17:03.9799600,4808,10
 * (Azure Public Dataset, Patel et al., ISCA 2024).  Timestamps are read
 * exactly (integer nanoseconds), the token counts become the request's
 * prompt and output lengths; the trace records no service time. */
#include "traces/arrivals_impl.h"

static const char *const keys[] = {"format", NULL};

static int azure_bind(const fs_arrivals_spec *spec, const fs_csv *header,
                fs_trace_cols *cols, fs_error *err)
{
    static const fs_trace_names names = {
        .time = "TIMESTAMP", .tokens_in = "ContextTokens",
        .tokens_out = "GeneratedTokens",
    };
    (void)spec;
    cols->time_unit_ns = 0;
    return fs_trace_bind_names(header, &names, cols, err);
}

const fs_trace_format fs_trace_azure_llm = {
    "azure-llm", keys, NULL, azure_bind, fs_trace_parse_fields,
    NULL,
};
