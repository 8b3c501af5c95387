/* notes.c -- summary notes and warnings about skipped trace rows; see
 * notes.h. */
#include "sim/fleet/run/notes.h"

#include <stdarg.h>

void fs_results_add_note(fs_results *r, const char *fmt, ...)
{
    int cap = (int)(sizeof r->notes / sizeof r->notes[0]);
    if (r->nnotes >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->notes[r->nnotes++], sizeof r->notes[0], fmt, ap);
    va_end(ap);
}

void fs_workload_note_skipped(const fs_arrivals *a, const char *workload,
                             const char *key, fs_results *out)
{
    fs_trace_stats st;
    fs_arrivals_stats(a, &st);
    if (st.skipped == 0)
        return;
    char note[sizeof out->notes[0]];
    fs_trace_skipped_note(&st, note, sizeof note);
    fs_results_add_note(out, "%s: %s", workload, note);
    int cap = (int)(sizeof out->warnings / sizeof out->warnings[0]);
    if (st.malformed > 0 && out->nwarnings < cap)
        snprintf(out->warnings[out->nwarnings++], sizeof out->warnings[0],
                 "%s:%ld: %s (%s: skipped %ld malformed of %ld rows, this is "
                 "the first; bad_rows = skip)", st.path,
                 st.first_malformed_line, st.malformed_reason, key,
                 st.malformed, st.rows);
}

void fs_notes_print(FILE *out, const fs_results *r)
{
    if (r->nnotes > 0)
        fputc('\n', out);
    for (int i = 0; i < r->nnotes; i++)
        fprintf(out, "  %s\n", r->notes[i]);
}
