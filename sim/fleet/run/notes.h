/* notes.h -- what a run tells its user besides the results: summary notes
 * and warnings about the trace rows it did not replay.
 *
 * Rows a trace declares it does not replay (a status outside the
 * workload's `statuses`) are part of what the run did: a note, printed in
 * the run's summary.  Malformed rows skipped with bad_rows = skip are a
 * problem in the data: a warning naming the first one (--quiet hides
 * warnings).  Both are collected into the fs_results while the world is
 * built, so nothing is printed from inside the simulation. */
#ifndef FS_NOTES_H
#define FS_NOTES_H

#include <stdio.h>
#include "sim/fleet/run/results.h"
#include "traces/arrivals.h"

/* Adds a summary note; dropped when the notes are full. */
void fs_results_add_note(fs_results *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The note ("chat: trace rows skipped: 398 FAILED ... (statuses =
 * SUCCEED)") and the warning about malformed rows of workload's trace;
 * nothing for a generator or a trace with no row skipped.  key is the
 * workload's arrivals key. */
void fs_workload_note_skipped(const fs_arrivals *a, const char *workload,
                             const char *key, fs_results *out);

/* The notes, after the summary's tables. */
void fs_notes_print(FILE *out, const fs_results *r);

#endif
