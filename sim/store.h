/* store.h -- the results database (SQLite).
 *
 * Creates or migrates the schema of DESIGN.md's contract, writes one run per
 * transaction (all of it or nothing), and reads runs back for `runs` and
 * `compare`.  WAL mode; PRAGMA user_version holds FS_SCHEMA_VERSION, and a
 * database from a newer fleetsim is refused, never modified. */
#ifndef FS_STORE_H
#define FS_STORE_H

#include <stdio.h>
#include "error.h"
#include "results.h"

#define FS_SCHEMA_VERSION 1

typedef struct fs_store fs_store;

/* Opens (creating if needed) the database at path and makes sure the schema
 * is current.  A read-only file or directory, a locked database (busy for
 * more than 2 s), a file that is not SQLite, or a newer schema give a
 * message naming the file.  readonly=1 opens an existing file for reading
 * only (for runs/compare) and fails if it does not exist. */
fs_store *fs_store_open(const char *path, int readonly, fs_error *err);
void fs_store_close(fs_store *s);

/* Checks, before a long simulation, that a run could be written now:
 * the database is writable and not locked.  */
int fs_store_check_writable(fs_store *s, fs_error *err);

/* Writes a whole run in one transaction; *run_id gets its id.  On any
 * failure the transaction is rolled back: no row of the run remains. */
int fs_store_write_run(fs_store *s, const fs_results *r, long *run_id,
                       fs_error *err);

/* Resolves RUN: an integer id, or a name (the most recent run of that name,
 * lowest replication).  Message names the run when none matches. */
int fs_store_find_run(fs_store *s, const char *run, long *run_id,
                      fs_error *err);

/* One run_summary row, as text columns (NULL values as NULL pointers). */
#define FS_SUMMARY_COLUMNS 21
typedef struct fs_summary {
    char *col[FS_SUMMARY_COLUMNS];   /* in run_summary's column order */
} fs_summary;
extern const char *const fs_summary_column_names[FS_SUMMARY_COLUMNS];

int fs_store_summary(fs_store *s, long run_id, fs_summary *out, fs_error *err);
void fs_summary_free(fs_summary *sm);

/* Prints every run (id, name, scenario, seed, replication, finished_at,
 * total cost) as a table to out. */
int fs_store_list_runs(fs_store *s, FILE *out, fs_error *err);

/* The underlying handle, for tests and for commands that query directly. */
struct sqlite3 *fs_store_db(fs_store *s);

/* For tests only: makes the nrows-th row insert of each later
 * fs_store_write_run fail (1 = the run row itself; 0 = never), by binding
 * NULL to a NOT NULL column, so that the failure takes SQLite's own error
 * path and the rollback can be checked. */
void fs_store_fail_after(fs_store *s, long nrows);

/* Formats v with `decimals` decimals and thousands separators
 * ("-1,234.56"), as stored amounts are shown; returns buf. */
char *fs_format_thousands(double v, int decimals, char *buf, size_t size);

#endif
