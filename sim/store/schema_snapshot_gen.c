/* schema_snapshot_gen.c -- a build-time program, not part of fleetsim:
 * runs every migration of store_migrations.c on an empty in-memory
 * database and prints, as C, the tables and indexes that result
 * (store_snapshot.c, which the build makes from it).
 *
 * Why: a new results database used to be made by running the migrations
 * one after another, and each of their 58 ALTER TABLEs makes SQLite parse
 * the whole schema again: 7 ms of the 11 ms a short `fleetsim run` took.
 * The snapshot is their result, made once per build, so a new file takes
 * one pass (under 1 ms), while the migrations stay the one place the
 * schema is written; tests/test_store.c checks that a migrated database
 * and a new one hold the same schema.  The run_summary view is left out:
 * store_schema.c makes it from columns.c either way. */
#include "sim/store/store_impl.h"

#include <stdio.h>

/* sql as a C string literal, a line of it per line. */
static void print_literal(const char *sql)
{
    fputs("    \"", stdout);
    for (const char *p = sql; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p == '\n')
            fputs("\\n\"\n    \"", stdout);
        else
            putchar(*p);
    }
    fputs(";\\n\"\n", stdout);
}

int main(void)
{
    sqlite3 *db;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK)
        return 1;
    for (int v = 0; v < FS_SCHEMA_VERSION; v++) {
        char *msg = NULL;
        if (sqlite3_exec(db, fs_schema_migrations[v], NULL, NULL, &msg)) {
            fprintf(stderr, "schema_snapshot_gen: migration %d: %s\n", v,
                    msg ? msg : "failed");
            sqlite3_free(msg);
            sqlite3_close(db);
            return 1;
        }
    }
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT sql FROM sqlite_schema WHERE sql "
                           "NOT NULL AND type <> 'view' AND name NOT LIKE "
                           "'sqlite\\_%' ESCAPE '\\' ORDER BY rowid", -1,
                           &st, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return 1;
    }
    printf("/* store_snapshot.c -- made by sim/store/schema_snapshot_gen.c "
           "from\n * store_migrations.c when fleetsim is built: do not "
           "edit. */\n#include \"sim/store/store_impl.h\"\n\n"
           "const char fs_schema_snapshot[] =\n");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        print_literal((const char *)sqlite3_column_text(st, 0));
    printf("    \"\";\n");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rc == SQLITE_DONE ? 0 : 1;
}
