/* arrivals_open.c -- opening an arrival stream: the registry of arrival
 * processes.
 *
 * fs_arrivals_open picks the implementation from the call's name: the
 * generators live in generators.c, trace replay in trace_replay.c, and
 * growth= wraps either (growth.c).  Each process is one line in the table
 * below.  It sits above the implementations, which call down into
 * arrivals.c for what they share, so the files' calls form no circle. */
#include "traces/arrivals_impl.h"

#include <assert.h>
#include <string.h>

#define MAX_KINDS 32   /* processes, for the list of names */

/* One line per process: the call's name, and what opens it. */
static const struct {
    const char *name;
    fs_arrivals *(*open)(const fs_arrivals_spec *, fs_error *);
} processes[] = {
    {"poisson", fs_poisson_open},
    {"diurnal", fs_diurnal_open},
    {"mmpp", fs_mmpp_open},
    {"trace", fs_trace_open},
    {NULL, NULL},
};

fs_arrivals *fs_arrivals_open(const fs_arrivals_spec *spec, fs_error *err)
{
    assert(spec && spec->call);
    assert(spec->horizon_s >= 0);   /* also rejects NaN */
    const char *name = spec->call->name;
    if (spec->statuses.value && strcmp(name, "trace") != 0) {
        const fs_spec_key *k = &spec->statuses;
        return fs_error_at(err, k->file, k->line, k->key, "only traces have "
                           "statuses (these arrivals are %s(...)): remove "
                           "statuses", name), NULL;
    }
    const char *names[MAX_KINDS + 1];
    size_t n = 0;
    for (; processes[n].name && n < MAX_KINDS; n++) {
        if (strcmp(name, processes[n].name) == 0)
            return spec->growth != 0
                ? fs_growth_open(spec, processes[n].open, err)
                : processes[n].open(spec, err);
        names[n] = processes[n].name;
    }
    names[n] = NULL;
    char list[256], dym[80];
    fs_arrivals_list_names(names, list, sizeof list);
    fs_arrivals_did_you_mean(name, names, dym, sizeof dym);
    fs_arrivals_error(spec, err, "unknown arrival process '%s': expected "
                      "%s%s", name, list, dym);
    return NULL;
}
