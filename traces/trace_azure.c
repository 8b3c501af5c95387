/* trace_azure.c -- the Azure LLM inference trace format (azure-llm).
 *
 * Rows of TIMESTAMP,ContextTokens,GeneratedTokens, e.g.
 *   2023-11-16 18:17:03.9799600,4808,10
 * (Azure Public Dataset, Patel et al., ISCA 2024).  Timestamps are read
 * exactly (integer nanoseconds), the token counts become the request's
 * prompt and output lengths; the trace records no service time. */
#include "traces/arrivals_impl.h"

static const char *const keys[] = {"format", NULL};

static const fs_trace_names columns = {
    .time = "TIMESTAMP", .tokens_in = "ContextTokens",
    .tokens_out = "GeneratedTokens",
};

const fs_trace_format fs_trace_azure_llm = {
    "azure-llm", keys, NULL, NULL, fs_trace_parse_fields, NULL, NULL,
    &columns,
};
