/* trace_rows.c -- which rows of a trace are replayed, and the account of
 * those that are not.
 *
 * A trace with a status column (alibaba-lora's predict_status) records
 * requests that were never served: FAILED, PENDING, PROCESSING.  The
 * workload's `statuses =` key says which statuses are replayed (the
 * format's default, SUCCEED, when it is not set); every other row is
 * skipped and counted by its status.  Skipped rows are part of what a run
 * did, so they are reported in the run's summary, one line per workload
 * ("trace rows skipped: 398 FAILED, 30 PENDING (statuses = SUCCEED)"),
 * not as a warning.  A status named in the key that no row has is refused:
 * it is almost always a misspelling, and would replay nothing. */
#include "traces/arrivals_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* printf at buf + *n, never past len, *n advanced (truncating). */
static void append(char *buf, size_t len, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
    if (*n + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *n, len - *n, fmt, ap);
    va_end(ap);
    if (k > 0)
        *n += (size_t)k < len - *n ? (size_t)k : len - *n - 1;
}

/* "file:line: workload.NAME.statuses: ..." */
static int statuses_error(const fs_arrivals_spec *spec, fs_error *err,
                          const char *what)
{
    const fs_spec_key *k = &spec->statuses;
    return fs_error_at(err, k->file, k->line, k->key, "%s", what);
}

int fs_trace_statuses_setup(const fs_arrivals_spec *spec,
                            const fs_trace_format *fmt, fs_trace_cols *cols,
                            char *shown, size_t len, fs_error *err)
{
    char why[256];
    const char *list = spec->statuses.value ? spec->statuses.value
                                            : fmt->statuses;
    cols->nstatuses = 0;
    shown[0] = '\0';
    if (!fmt->statuses) {
        if (!spec->statuses.value)
            return 0;
        snprintf(why, sizeof why, "the %s format has no status column (only "
                 "alibaba-lora traces have one): remove statuses", fmt->name);
        return statuses_error(spec, err, why);
    }
    size_t n = 0;
    for (const char *p = list; *p;) {
        size_t skip = strspn(p, ", \t");
        p += skip;
        size_t tok = strcspn(p, ", \t");
        if (!tok)
            break;
        if (tok >= sizeof cols->statuses[0] ||
            cols->nstatuses == FS_STATUSES_MAX) {
            snprintf(why, sizeof why, "%s", tok >= sizeof cols->statuses[0]
                     ? "a status of more than 31 characters"
                     : "more than 8 statuses");
            return statuses_error(spec, err, why);
        }
        memcpy(cols->statuses[cols->nstatuses], p, tok);
        cols->statuses[cols->nstatuses][tok] = '\0';
        if (fs_trace_status_index(cols, cols->statuses[cols->nstatuses]) >=
            0) {
            snprintf(why, sizeof why, "names status '%s' twice",
                     cols->statuses[cols->nstatuses]);
            return statuses_error(spec, err, why);
        }
        append(shown, len, &n, "%s%s", cols->nstatuses ? ", " : "",
               cols->statuses[cols->nstatuses]);
        cols->nstatuses++;
        p += tok;
    }
    if (cols->nstatuses == 0)
        return statuses_error(spec, err, "empty: name the statuses to "
                              "replay, e.g. statuses = SUCCEED");
    return 0;
}

int fs_trace_status_index(const fs_trace_cols *cols, const char *status)
{
    for (int i = 0; i < cols->nstatuses; i++)
        if (strcasecmp(cols->statuses[i], status) == 0)
            return i;
    return -1;
}

void fs_skip_tally(fs_skip_count *tab, int *ntab, int max, const char *what,
                   long n)
{
    int i = 0;
    while (i < *ntab && strcmp(tab[i].what, what) != 0)
        i++;
    if (i == *ntab) {
        if (*ntab == max) {
            i = max - 1;   /* full: the last kind takes the rest */
            snprintf(tab[i].what, sizeof tab[i].what, "other");
        } else {
            snprintf(tab[i].what, sizeof tab[i].what, "%s",
                     what[0] ? what : "(empty)");
            tab[i].n = 0;
            (*ntab)++;
        }
    }
    tab[i].n += n;
}

int fs_trace_check_statuses(const fs_arrivals_spec *spec,
                            const fs_trace_cols *cols, const long *matched,
                            const fs_skip_count *seen, int nseen,
                            const char *path, fs_error *err)
{
    if (!spec->statuses.value)
        return 0;
    for (int i = 0; i < cols->nstatuses; i++) {
        if (matched[i])
            continue;
        char list[256], why[sizeof err->msg];
        size_t n = 0;
        list[0] = '\0';
        for (int k = 0; k < nseen; k++)
            append(list, sizeof list, &n, "%s%s", k ? ", " : "",
                   seen[k].what);
        snprintf(why, sizeof why, "no row of '%s' has status '%s' (its "
                 "statuses: %s)", path, cols->statuses[i],
                 nseen ? list : "none");
        return statuses_error(spec, err, why);
    }
    return 0;
}

void fs_trace_skipped_note(const fs_trace_stats *st, char *buf, size_t len)
{
    size_t n = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    if (st->skipped == 0)
        return;
    append(buf, len, &n, "trace rows skipped:");
    for (int i = 0; i < st->nskipped_by; i++)
        append(buf, len, &n, "%s %ld %s", i ? "," : "", st->skipped_by[i].n,
               st->skipped_by[i].what);
    if (st->malformed)
        append(buf, len, &n, "%s %ld malformed", st->nskipped_by ? "," : "",
               st->malformed);
    const char *sep = " (";
    if (st->nskipped_by) {
        append(buf, len, &n, "%sstatuses = %s%s", sep, st->statuses,
               st->statuses_default ? ", the default" : "");
        sep = "; ";
    }
    if (st->malformed)
        append(buf, len, &n, "%sbad_rows = skip", sep);
    append(buf, len, &n, ")");
}
