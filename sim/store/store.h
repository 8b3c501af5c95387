/* store.h -- the results database (SQLite).
 *
 * Creates or migrates the schema of DESIGN.md's contract, writes one run per
 * transaction (all of it or nothing), reads runs back for `runs` and
 * `compare`, removes and imports runs, and keeps a finished run that its
 * database cannot take in a database of its own.  WAL mode; PRAGMA
 * user_version holds FS_SCHEMA_VERSION, and a database from a newer
 * fleetsim is refused, never modified. */
#ifndef FS_STORE_H
#define FS_STORE_H

#include <stdio.h>
#include "sim/base/error.h"
#include "sim/fleet/run/results.h"
#include "sim/store/columns.h"

#define FS_SCHEMA_VERSION 24

typedef struct fs_store fs_store;

/* How long a store waits for another process's lock before it gives up,
 * unless FLEETSIM_BUSY_TIMEOUT (a duration: 90s, 10m) or
 * fs_store_set_busy_timeout says otherwise.  Long, because a run that has
 * finished simulating waits here for the other runs of a sweep. */
#define FS_BUSY_TIMEOUT_DEFAULT_S 300

/* Sets the busy timeout of stores opened afterwards (run --busy-timeout);
 * a negative value goes back to FLEETSIM_BUSY_TIMEOUT or the default. */
void fs_store_set_busy_timeout(double seconds);

/* How fs_store_open opens a file. */
enum {
    FS_STORE_CREATE = 0,     /* read-write; created if missing (run) */
    FS_STORE_READONLY = 1,   /* an existing file, read only (runs, compare) */
    FS_STORE_EXISTING = 2,   /* read-write, never created (rm, import) */
};

/* Opens the database at path and, unless read-only, makes sure the schema
 * is current; every mode checks that the tables a run needs are there.  A
 * read-only file or directory (which one is said), a database locked for
 * longer than the busy timeout, a file that is not SQLite, a damaged or a
 * newer schema give a message naming the file.  If this process created
 * the file and could not write the schema into it (a full disk, a
 * file-size limit), the file is removed again. */
fs_store *fs_store_open(const char *path, int mode, fs_error *err);
void fs_store_close(fs_store *s);

/* Checks, before a long simulation, that a run could be written: the
 * database is writable.  Another process holding the write lock right now
 * is not an error (the run waits for it when it is stored). */
int fs_store_check_writable(fs_store *s, fs_error *err);
/* Removes the database file, for a command that created it and stored no
 * run (refused): only when it holds no run, and under the write lock, so
 * that a process writing it now keeps it; one that has it open and writes
 * later finds it gone and opens the path again (fs_store_write_run).
 * 1 when removed, 0 when kept.  Close s next. */
int fs_store_remove_if_no_run(fs_store *s);

/* Makes a write past the file-size limit (ulimit -f) fail with EFBIG, and
 * the store say so, instead of SIGXFSZ killing the process.  For main(). */
void fs_store_catch_file_size_limit(void);

/* The path the store was opened with. */
const char *fs_store_path(const fs_store *s);

/* Writes a whole run in one transaction; *run_id gets its id.  On any
 * failure the transaction is rolled back: no row of the run remains. */
int fs_store_write_run(fs_store *s, const fs_results *r, long *run_id,
                       fs_error *err);

/* Resolves RUN: an integer id, or a name (the most recent run of that name,
 * lowest replication).  Message names the run when none matches. */
int fs_store_find_run(fs_store *s, const char *run, long *run_id,
                      fs_error *err);

/* One run_summary row, as text columns (NULL values as NULL pointers). */
typedef struct fs_summary {
    char *col[FS_SUMMARY_COLUMNS];   /* as fs_summary_columns (columns.h) */
} fs_summary;

int fs_store_summary(fs_store *s, long run_id, fs_summary *out, fs_error *err);
void fs_summary_free(fs_summary *sm);

/* Prints every run (id, name, scenario, seed, replication, finished_at,
 * total cost) as a table to out. */
int fs_store_list_runs(fs_store *s, FILE *out, fs_error *err);

/* The underlying handle, for tests and for commands that query directly. */
struct sqlite3 *fs_store_db(fs_store *s);

/* Removes the runs named by runs[0..n) (ids or names, as
 * fs_store_find_run resolves them) and all their rows, in one
 * transaction: a RUN that matches nothing removes nothing and err names
 * it.  Prints "removed run ID (NAME)" for each to out. */
int fs_store_remove_runs(fs_store *s, char *const *runs, int n, FILE *out,
                         fs_error *err);

/* Copies every run of the fleetsim database at path `from` (a kept file)
 * into s, with all their rows, in one transaction; the runs get new ids,
 * and a run s holds already (the same run.uid) is skipped.  An older
 * schema is migrated in a temporary copy; `from` is never modified.
 * Prints what it did to out (store_merge.c). */
int fs_store_import(fs_store *s, const char *from, FILE *out, fs_error *err);

/* `fleetsim merge`: checks every part first (refused by name, target
 * untouched), then opens or creates target and copies the runs of all
 * parts it does not hold yet (by run.uid), in one transaction. */
int fs_store_merge(const char *target, char *const *parts, int n,
                   FILE *out, fs_error *err);

/* Where the finished runs of one command go when their database cannot
 * take them (store_keep.c). */
typedef struct fs_keeper {
    const char *target;     /* the database the runs are meant for */
    fs_store *kept;         /* the kept database, once one run is kept */
    char path[4096];        /* its path */
} fs_keeper;

void fs_keeper_init(fs_keeper *k, const char *target);
void fs_keeper_close(fs_keeper *k);

/* Writes r to store; if that fails (or an earlier run was kept already),
 * writes it to the kept database instead: k->target's name with
 * ".kept-PID.db", beside it, else in $TMPDIR or /tmp.  Returns 0 when
 * stored in store, 1 when kept (*id is its id in k->path; why says why it
 * could not be stored, empty after the first), -1 when it could be written
 * nowhere (why says why). */
int fs_store_or_keep(fs_store *store, fs_keeper *k, const fs_results *r,
                     long *id, fs_error *why);

/* For tests only: makes the nrows-th row insert of each later
 * fs_store_write_run fail (1 = the run row itself; 0 = never), by binding
 * NULL to a NOT NULL column, so that the failure takes SQLite's own error
 * path and the rollback can be checked. */
void fs_store_fail_after(fs_store *s, long nrows);

/* One pool's realised saving (store_savings.c): the instance-hours it ran
 * at the on-demand list price, less its effective (amortized) cost, in
 * cents.  A pool priced at list (on-demand), or whose list price is not
 * known, has list = effective and saves nothing (has_list 0). */
typedef struct fs_pool_saving {
    char pool[FS_NAME_MAX];
    char pricing[32];
    int has_list, priced_at_list;
    double instance_hours;        /* GPU-hours provisioned / GPUs each */
    long long list_cents, effective_cents, saving_cents;
} fs_pool_saving;

/* The list cost of instance-hours (gpu_hours / gpus_per_instance) at
 * list_usd_h, in cents: the one rounding the summary and the store use. */
long long fs_list_cents(double list_usd_h, double gpu_hours,
                        long gpus_per_instance);

/* Every pool of run_id in stored order, malloc'd into *out (free it). */
int fs_store_pool_savings(fs_store *s, long run_id, fs_pool_saving **out,
                          size_t *n, fs_error *err);

/* Formats v with `decimals` decimals and thousands separators
 * ("-1,234.56"), as stored amounts are shown; returns buf. */
char *fs_format_thousands(double v, int decimals, char *buf, size_t size);

/* One pool of a run and its demand hour by hour (store_demand.c):
 * demand[h] the instances launched, time-averaged over hour h of the
 * run's horizon, as `fleetsim roi` reads them. */
typedef struct fs_pool_demand {
    char pool[FS_NAME_MAX];
    char instance[160];      /* the pool's price source ("catalog NAME ...") */
    char pricing[32];
    int gpus_per_instance;   /* 0: not stored */
    double *demand;
    size_t hours;
} fs_pool_demand;

/* Every pool of run in stored order, with its hourly demand, malloc'd into
 * *out (free with fs_pool_demands_free).  0, or -1 with err (no such run;
 * utilization sampled more coarsely than hourly). */
int fs_store_pool_demands(fs_store *s, long run, fs_pool_demand **out,
                          size_t *n, fs_error *err);
void fs_pool_demands_free(fs_pool_demand *p, size_t n);

#endif
