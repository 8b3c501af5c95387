/* store_impl.h -- what the store's files share and nobody else sees.
 *
 * The results database is one concern split over several files, each
 * small: store.c (opening and closing, the busy timeout), store_sql.c
 * (messages for SQLite's errors, the shared helpers), store_write.c (writing one run in
 * one transaction), store_read.c (finding runs, summaries, the listing),
 * store_schema.c (the schema: identifying a file, creating and migrating
 * it, checking that every table a run needs is there), store_edit.c
 * (removing and importing runs) and store_keep.c (where a finished run
 * goes when its database cannot take it).  They share the handle and a
 * few SQLite helpers, declared here. */
#ifndef FS_STORE_IMPL_H
#define FS_STORE_IMPL_H

#include <sqlite3.h>
#include <sys/types.h>

#include "sim/store/store.h"

#define FS_APPLICATION_ID 0x464C5453   /* "FLTS", PRAGMA application_id */

struct fs_store {
    sqlite3 *db;
    char *path;
    int readonly;
    int busy_ms;        /* how long this connection waits for a lock */
    dev_t dev;          /* the file opened read-write, to see whether */
    ino_t ino;          /* another process removed it meanwhile */
    long fail_after;    /* tests: the Nth row insert of a write fails */
    long inserts;       /* row inserts so far in the current write */
};

/* The tables that hold a run's rows, each with a run_id column that
 * references run (ON DELETE CASCADE).  NULL-terminated. */
extern const char *const fs_store_child_tables[];
/* The schema's SQL, one migration per version (store_migrations.c). */
extern const char *const fs_schema_migrations[FS_SCHEMA_VERSION];
/* Their result on an empty database, tables and indexes, made at build
 * time (store_snapshot.c, from schema_snapshot_gen.c): what a new
 * database gets in one pass. */
extern const char fs_schema_snapshot[];

/* Fills err with one message naming the file for SQLite result code rc;
 * what is what we were doing ("cannot write the run").  Call it before
 * anything else touches the connection (a ROLLBACK resets errmsg).
 * Returns -1. */
int fs_store_sql_error(const fs_store *s, fs_error *err, int rc,
                       const char *what);

/* Refuses by name a path that exists and is not a regular file (a FIFO,
 * on which SQLite's open would wait for a writer; a device, read as an
 * empty database; a directory); 0 for a regular or missing file. */
int fs_store_check_regular(const char *path, fs_error *err);

/* The directory of path (malloc'd), "." for a bare name; NULL when out
 * of memory. */
char *fs_store_dir_of(const char *path);

int fs_store_exec(fs_store *s, const char *sql);

/* Column col of st's row as text into buf ("" for NULL). */
void fs_store_text_col(sqlite3_stmt *st, int col, char *buf, size_t size);

/* Fills item (zeroed) from st's current row. */
typedef void fs_store_row_fn(sqlite3_stmt *st, void *item);

/* Reads every row of sql, its ?1 bound to run_id, into *out: a new array
 * of *n items of size bytes, each filled by row.  0, or -1 with *out NULL,
 * *n 0 and err filled (fs_store_sql_error, saying what) when the query
 * fails or memory runs out. */
int fs_store_read_rows(fs_store *s, const char *sql, long run_id,
                       size_t size, fs_store_row_fn *row, void **out,
                       size_t *n, const char *what, fs_error *err);

/* Runs a query whose first row's first column is an integer (0 when it
 * returns no row). */
int fs_store_query_int(fs_store *s, const char *sql, long long *out);

/* Rolls back the open transaction, if any. */
int fs_store_rollback(fs_store *s);

/* The file s opened read-write is no longer at its path: another fleetsim,
 * whose first write into the new file failed or which stored nothing in
 * the file it created, removed it (store_schema.c). */
int fs_store_moved(const fs_store *s);
/* Closes s's connection and opens its path again, creating the file if it
 * is gone (store.c): for a write that found its file moved. */
int fs_store_reopen(fs_store *s, fs_error *err);

/* store_schema.c.  fs_schema_identify reads, never writes: *version gets
 * the file's schema version (0: empty, to be created); files that are not
 * SQLite, not fleetsim's, or from a newer fleetsim are refused. */
int fs_schema_identify(fs_store *s, long long *version, fs_error *err);

/* Identifies the file in one read transaction (a consistent snapshot),
 * and checks the tables of a current schema (fs_schema_check). */
int fs_schema_look(fs_store *s, long long *version, fs_error *err);

/* Every table and view a run is written to and read from, with its
 * columns, is there: a damaged database is refused before simulating. */
int fs_schema_check(fs_store *s, fs_error *err);

/* For a read-write open: identifies the file, then creates or migrates
 * the schema in one BEGIN IMMEDIATE transaction that checks again under
 * the lock, sets WAL mode and foreign keys.  created says this process
 * created the file: if the first write fails, the file is removed (while
 * the lock is still held) so no empty database is left behind.  Returns
 * 0, -1 with err set, or FS_SCHEMA_RETRY when the file was removed under
 * us by another process whose first write failed: open it again. */
#define FS_SCHEMA_RETRY 1
int fs_schema_ready(fs_store *s, int created, fs_error *err);

#endif
