/* scenario_diff.h -- what one scenario changes against another, read
 * from the text a run stores (run.scenario_text: each file read, then the
 * --set lines), grouped into the changes a reader would name: per pool
 * its instances, its capacity (count, autoscaling, MIG/sharing, schedule)
 * and its purchase option; per workload the pools it uses, its
 * checkpoints, its other settings; per window its hours; the scenario's
 * own settings.  `fleetsim report` attributes savings per change with it.
 *
 * A change is one section's keys of one kind (an "atom"); a lever groups
 * the atoms a reader counts as one change: the same keys set to the same
 * values in several pools (three teams moved to spot), a workload's
 * checkpoints with the purchase change of its pools (they come with spot),
 * and a pool whose instance type changes takes its count and purchase
 * option along (they are in the new instance's terms). */
#ifndef FS_SCENARIO_DIFF_H
#define FS_SCENARIO_DIFF_H

#include <stddef.h>
#include "sim/base/error.h"

typedef enum fs_change_kind {
    FS_CHANGE_INSTANCE,     /* a pool's instance type (with the rest) */
    FS_CHANGE_CAPACITY,     /* count, autoscaling, MIG/sharing, schedule */
    FS_CHANGE_PURCHASE,     /* pricing and the option's keys */
    FS_CHANGE_POOLS,        /* a workload moved to other pools */
    FS_CHANGE_CHECKPOINT,   /* a workload's checkpoints */
    FS_CHANGE_WORKLOAD,     /* a workload's other settings (its demand) */
    FS_CHANGE_WINDOW,       /* a window's hours */
    FS_CHANGE_SCENARIO,     /* seed, horizon, ... */
    FS_CHANGE_KINDS
} fs_change_kind;

/* One key that differs: before or after is NULL where it is not set. */
typedef struct fs_key_change {
    char *key, *before, *after;
} fs_key_change;

typedef struct fs_change {
    fs_change_kind kind;
    char *section;            /* "pool.serving" */
    fs_key_change *keys;
    size_t nkeys, cap;
    char **pools;             /* the pools whose bill it can move */
    size_t npools;
    size_t lever;             /* its lever: 0 .. nlevers - 1 */
} fs_change;

typedef struct fs_scenario_diff {
    fs_change *v;
    size_t n, cap;
    size_t nlevers;
} fs_scenario_diff;

/* What `after` changes against `before` (both run.scenario_text).
 * 0, or -1 with err (out of memory, a text inih cannot read). */
int fs_scenario_diff_texts(const char *before, const char *after,
                           fs_scenario_diff *d, fs_error *err);
void fs_scenario_diff_free(fs_scenario_diff *d);

/* The kind in one word: "instances", "capacity", "purchase", ... */
const char *fs_change_kind_name(fs_change_kind kind);

/* 1 when a and b are the same change (section, kind, keys and values). */
int fs_change_same(const fs_change *a, const fs_change *b);

/* 1 when a is part of b: the same section, each of a's keys changed as b
 * changes it, a's kind b's (or a capacity or purchase change within b's
 * change of instances). */
int fs_change_within(const fs_change *a, const fs_change *b);

/* 1 when the change can move pool's bill. */
int fs_change_touches(const fs_change *c, const char *pool);

/* Lever `lever` of d in words into buf: "pools team1, team2: instance
 * aws:p3.8xlarge -> aws:p3.2xlarge, pricing on-demand -> spot, ...".
 * in[i] (NULL: all) selects the atoms described. */
void fs_scenario_diff_describe(const fs_scenario_diff *d, size_t lever,
                               char *buf, size_t size);

/* The --set assignments that apply lever `lever` to the scenario before:
 * *sets (each malloc'd) and *n.  0; 1 with why set when it cannot be
 * applied that way (it removes a key); -1 when out of memory.  The
 * caller frees the *n sets and *sets in every case. */
int fs_scenario_diff_sets(const fs_scenario_diff *d, size_t lever,
                          char ***sets, int *n, char *why, size_t whysize);

#endif
