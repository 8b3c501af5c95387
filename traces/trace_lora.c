/* trace_lora.c -- the Alibaba LoRA / Stable Diffusion serving trace
 * (alibaba-lora).
 *
 * The header names the columns (gmt_create, predict_type, predict_status,
 * exec_time_seconds, groupId, ...), so they are found by name.  gmt_create
 * ("2024-11-15 16:57:50") is the arrival, exec_time_seconds the measured
 * service time.  Rows whose predict_status is not among the workload's
 * `statuses` (SUCCEED by default: FAILED, PENDING and PROCESSING requests
 * were never served) are skipped and counted by status, whatever bad_rows
 * says, and their other fields are not checked (trace_rows.c).  Columns
 * we do not use may be empty. */
#include "traces/arrivals_impl.h"

#include <stdio.h>
#include <string.h>

static const char *const keys[] = {"format", NULL};

static const fs_trace_names columns = {
    .time = "gmt_create", .status = "predict_status",
    .service = "exec_time_seconds",
};

static int lora_parse(const fs_trace_cols *cols, const fs_csv *row,
                 fs_trace_row *out, fs_row_problem *why)
{
    if (fs_trace_status_index(cols, fs_csv_field(row, (size_t)cols->status))
        < 0) {
        why->col = cols->status;
        snprintf(why->what, sizeof why->what, "a status not replayed "
                 "(statuses = %s%s)", cols->statuses[0],
                 cols->nstatuses > 1 ? ", ..." : "");
        return FS_ROW_SKIP;
    }
    return fs_trace_parse_fields(cols, row, out, why);
}

const fs_trace_format fs_trace_alibaba_lora = {
    "alibaba-lora", keys, NULL, NULL, lora_parse, "SUCCEED", NULL,
    &columns,
};
