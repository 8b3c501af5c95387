/* test_keys.c -- the tables declared once: scenario keys (keys.c and the
 * purchase options') and run_summary columns (columns.c).
 *
 * The tables are well formed (no key twice, none both accepted and of a
 * later version, a type and one line of help each); the parser accepts
 * every key they declare and refuses each later key as not implemented,
 * naming its capability; and the view generated from the columns computes
 * what the contract says on a run with known rows. */
#include "tests/check.h"
#include "models/purchase/purchase.h"
#include "sim/scenario/keys.h"
#include "sim/scenario/scenario.h"
#include "sim/store/columns.h"

#include <sqlite3.h>
#include <unistd.h>

static char dir[] = "/tmp/fleetsim-keys-XXXXXX";

/* A key's documentation: a name, a type, help of one line without a final
 * period (the man page adds one). */
static void check_doc(const fs_key_doc *k)
{
    CHECK(k->name && k->name[0] && strspn(k->name, "abcdefghijklmnopqrstuvwxyz"
                                          "0123456789_") == strlen(k->name));
    CHECK(k->type && k->type[0]);
    CHECK(k->help && k->help[0] && !strchr(k->help, '\n'));
    CHECK(k->help && k->help[strlen(k->help) - 1] != '.');
}

static void test_tables(void)
{
    size_t total = 0;
    CHECK(fs_key_sections[FS_SECTIONS].name == NULL);
    for (int s = 0; s < FS_SECTIONS; s++) {
        const fs_key_section *sec = &fs_key_sections[s];
        CHECK(fs_key_section_find(sec->name) == sec);
        fs_key_ref k, e;
        size_t n = 0;
        for (size_t i = 0; fs_key_at(sec, i, &k); i++, n++) {
            check_doc(k.doc);
            /* found as itself: no earlier key of that name shadows it */
            CHECK(fs_key_find(sec, k.doc->name, &e) && e.doc == k.doc);
            CHECK(fs_key_find_later(sec, k.doc->name) == NULL);
        }
        CHECK(n > 0 && n <= FS_KEYS_MAX);
        total += n;
        for (const fs_key_later *l = sec->later; l->name; l++) {
            CHECK(!fs_key_find(sec, l->name, &e));
            CHECK(l->capability && l->capability[0]);
        }
    }
    CHECK(fs_key_section_find("pol") == NULL);

    /* every purchase option's keys are pool keys, and only pool keys */
    const fs_key_section *pool = &fs_key_sections[FS_SECTION_POOL];
    const fs_key_section *wl = &fs_key_sections[FS_SECTION_WORKLOAD];
    int option_keys = 0;
    for (const fs_purchase_option *const *o = fs_purchase_options; *o; o++)
        for (const fs_key_doc *k = (*o)->keys; k && k->name; k++) {
            fs_key_ref r;
            CHECK(fs_key_find(pool, k->name, &r) && r.option &&
                  strcmp(r.option, (*o)->name) == 0);
            /* a workload key may share the name (fallback_after: spot
             * pools and training workloads), never the option */
            CHECK(!fs_key_find(wl, k->name, &r) || r.option == NULL);
            option_keys++;
        }
    CHECK(option_keys >= 4);   /* min_billed, term, upfront, upfront_price */
    fs_key_ref r;
    CHECK(fs_key_find(pool, "term", &r) && strcmp(r.option, "reserved") == 0);
    CHECK(fs_key_find(pool, "count", &r) && r.option == NULL);
    CHECK(total >= 40);

    /* columns: unique names, a kind with a name, help */
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++) {
        const fs_column *col = &fs_summary_columns[c];
        CHECK(col->sql && col->help && col->help[0]);
        CHECK(strcmp(fs_column_kind_name(col->kind), "?") != 0);
        /* only the heading's columns go without a label */
        CHECK((col->label == NULL) == (c <= 1));
        for (int d = 0; d < c; d++)
            CHECK(strcmp(fs_summary_columns[d].name, col->name) != 0);
    }
    CHECK(!fs_column_kind_compares(FS_COL_ID));
    CHECK(!fs_column_kind_compares(FS_COL_TEXT));
    CHECK(fs_column_kind_compares(FS_COL_MONEY));
    char list[600], tiny[8];
    size_t n = fs_summary_column_list(list, sizeof list);
    CHECK(n == strlen(list) && n < sizeof list);
    CHECK(strncmp(list, "run_id, name, scenario, seed,", 29) == 0);
    CHECK(strcmp(list + n - 19, ", cost_per_mtok_usd") == 0);
    CHECK(fs_summary_column_list(tiny, sizeof tiny) == n);
    CHECK(strcmp(tiny, "run_id,") == 0);
}

/* The message of loading text as a scenario, "" when it loads. */
static void load(const char *text, char *msg, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/s.ini", dir);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    fs_error err = {{0}};
    fs_scenario *sc = fs_scenario_load(path, NULL, 0, &err);
    snprintf(msg, len, "%s", sc ? "" : err.msg);
    fs_scenario_free(sc);
}

/* A scenario with `key = value` in the section of kind s. */
static void with_key(int s, const char *key, const char *value, char *msg,
                     size_t len)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 1h\n%s%s%s%s"
             "[pool.p]\ngpu = L4\nprice = 1\n%s%s%s%s"
             "[workload.w]\npools = p\narrivals = poisson(rate=1/s)\n"
             "service = const(1s)\n%s%s%s%s"
             "[window.n]\nduration = 1h\n%s%s%s%s",
             s == 0 ? key : "", s == 0 ? " = " : "", s == 0 ? value : "",
             s == 0 ? "\n" : "",
             s == 1 ? key : "", s == 1 ? " = " : "", s == 1 ? value : "",
             s == 1 ? "\n" : "",
             s == 2 ? key : "", s == 2 ? " = " : "", s == 2 ? value : "",
             s == 2 ? "\n" : "",
             s == 3 ? key : "", s == 3 ? " = " : "", s == 3 ? value : "",
             s == 3 ? "\n" : "");
    load(text, msg, len);
}

static void test_parser(void)
{
    char msg[1024];
    with_key(-1, "", "", msg, sizeof msg);
    CHECK(msg[0] == '\0');   /* the frame loads */
    if (msg[0])
        printf("  frame: %s\n", msg);

    /* Every declared key is accepted: a value may be refused, the key
     * never ("unknown key", "not implemented"). */
    for (int s = 0; s < FS_SECTIONS; s++) {
        const fs_key_section *sec = &fs_key_sections[s];
        fs_key_ref k;
        for (size_t i = 0; fs_key_at(sec, i, &k); i++) {
            if (strcmp(k.doc->name, "include") == 0)
                continue;   /* read by the INI reader before any section */
            with_key(s, k.doc->name, "x", msg, sizeof msg);
            int ok = !strstr(msg, "unknown key") &&
                     !strstr(msg, "not implemented in this version");
            CHECK(ok);
            if (!ok)
                printf("  %s.%s: %s\n", sec->name, k.doc->name, msg);
        }
        /* each later key is refused as such, naming its capability */
        for (const fs_key_later *l = sec->later; l->name; l++) {
            with_key(s, l->name, "x", msg, sizeof msg);
            char want[256];
            snprintf(want, sizeof want, "%s.%s: is part of the contract but "
                     "not implemented in this version of fleetsim (%s come "
                     "in a later version)", s == 1 ? "pool.p" : "workload.w",
                     l->name, l->capability);
            CHECK_CONTAINS(msg, want);
        }
    }
    /* a later key of another section is just unknown there */
    with_key(2, "mig", "3g.40gb", msg, sizeof msg);
    CHECK_CONTAINS(msg, "workload.w.mig: unknown key");
    /* misspelt keys: own and purchase-option keys are suggested */
    with_key(1, "upfrnt", "all", msg, sizeof msg);
    CHECK_CONTAINS(msg, "pool.p.upfrnt: unknown key (did you mean "
                        "'upfront'?)");
    with_key(1, "min_biled", "1m", msg, sizeof msg);
    CHECK_CONTAINS(msg, "did you mean 'min_billed'?");
    with_key(2, "batch_mx", "4", msg, sizeof msg);
    CHECK_CONTAINS(msg, "did you mean 'batch_max'?");
    with_key(3, "evry", "1d", msg, sizeof msg);
    CHECK_CONTAINS(msg, "window.n.evry: unknown key (did you mean 'every'?)");
    with_key(0, "zzzzzz", "1", msg, sizeof msg);
    CHECK_CONTAINS(msg, "unknown key (see `fleetsim help scenario`)");
}

/* Values of the view generated from columns.c, on rows whose figures are
 * known. */
static void test_view(void)
{
    sqlite3 *db;
    CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK);
    char *view = fs_summary_view_sql();
    CHECK(view != NULL);
    const char *tables =
        /* the store's column types: REAL sums divide as reals */
        "CREATE TABLE run (run_id INTEGER PRIMARY KEY, name, scenario, seed,"
        " replication, horizon_s REAL, months REAL, requests,"
        " requests_dropped,"
        " latency_mean_s, latency_p50_s, latency_p99_s, wait_mean_s,"
        " slo_attainment, cost_unrounded_usd REAL);"
        "CREATE TABLE cost_monthly (run_id, month, pool, pricing,"
        " cost_usd REAL, gpu_hours REAL);"
        "CREATE TABLE pool (run_id, pool, gpu_hours_provisioned REAL,"
        " gpu_hours_busy REAL, interruptions INTEGER);"
        "CREATE TABLE job (run_id, met_deadline);"
        "CREATE TABLE latency (run_id, workload, unfinished, dropped,"
        " ttft_p99_s REAL, tpot_p99_s REAL, tokens_in REAL, tokens_out REAL);"
        /* run 1: two workloads, an llm one (1.5M tokens) and another */
        "INSERT INTO latency VALUES (1, 'w', 4, 3, 0.5, 0.05, 1000000, 500000),"
        " (1, 'v', 5, NULL, NULL, NULL, NULL, NULL);"
        /* run 1: 10 days, $100.004 + $50 (billed $100.00 + $50), 2 pools;
         * run 2: nothing */
        "INSERT INTO run VALUES (1, 'a', 's.ini', 7, 0, 864000, 1, 90, 3,"
        " 0.5, 0.4, 1.9, 0.1, 0.99, 150.004);"
        "INSERT INTO run VALUES (2, 'b', 's.ini', 7, 1, 0, 0, 0, 0,"
        " NULL, NULL, NULL, NULL, NULL, NULL);"
        "INSERT INTO cost_monthly VALUES (1, '2026-01', 'p', 'on-demand',"
        " 100.00, 10), (1, '2026-01', 'q', 'reserved', 50, 5);"
        "INSERT INTO pool VALUES (1, 'p', 30, 15, 0), (1, 'q', 10, 5, 2);"
        "INSERT INTO job VALUES (1, 1), (1, 0), (1, 0);";
    CHECK(sqlite3_exec(db, tables, NULL, NULL, NULL) == SQLITE_OK);
    CHECK(view && sqlite3_exec(db, view, NULL, NULL, NULL) == SQLITE_OK);
    free(view);
    sqlite3_stmt *st;
    CHECK(sqlite3_prepare_v2(db, "SELECT * FROM run_summary ORDER BY run_id",
                             -1, &st, NULL) == SQLITE_OK);
    CHECK(sqlite3_column_count(st) == FS_SUMMARY_COLUMNS);
    for (int c = 0; c < sqlite3_column_count(st); c++)
        CHECK(strcmp(sqlite3_column_name(st, c),
                     fs_summary_columns[c].name) == 0);
    /* run 1 */
    CHECK(sqlite3_step(st) == SQLITE_ROW);
    CHECK_NEAR(sqlite3_column_double(st, 6), 150.0, 1e-12);  /* total */
    /* the unrounded 150.004 x 730 h / 240 h = 456.2621..., to the cent
     * (the bill's 150.00 would give 456.25) */
    CHECK_NEAR(sqlite3_column_double(st, 7), 456.26, 1e-9);
    CHECK_NEAR(sqlite3_column_double(st, 8), 40, 0);
    CHECK_NEAR(sqlite3_column_double(st, 9), 20, 0);
    CHECK_NEAR(sqlite3_column_double(st, 10), 0.5, 1e-15);  /* 20 / 40 */
    CHECK(sqlite3_column_int(st, 18) == 3);                  /* jobs */
    CHECK(sqlite3_column_int(st, 19) == 2);                  /* missed */
    CHECK(sqlite3_column_int(st, 20) == 2);                  /* interrupts */
    CHECK(sqlite3_column_int(st, 21) == 12);                 /* unfinished */
    CHECK_NEAR(sqlite3_column_double(st, 22), 12.0 / 90, 1e-15);
    CHECK(sqlite3_column_double(st, 23) == 0.5);             /* TTFT p99 */
    CHECK(sqlite3_column_double(st, 24) == 0.05);            /* TPOT p99 */
    CHECK(sqlite3_column_double(st, 25) == 500000);          /* tokens out */
    /* the bill, $150.00, per 0.5M output tokens, per 1.5M tokens */
    CHECK_NEAR(sqlite3_column_double(st, 26), 300.0, 1e-9);
    CHECK_NEAR(sqlite3_column_double(st, 27), 150.0 / 1.5, 1e-9);
    /* run 2: no child rows, no horizon: zeros and NULLs, one row */
    CHECK(sqlite3_step(st) == SQLITE_ROW);
    CHECK(sqlite3_column_double(st, 6) == 0);
    CHECK(sqlite3_column_type(st, 7) == SQLITE_NULL);
    CHECK(sqlite3_column_type(st, 10) == SQLITE_NULL);
    CHECK(sqlite3_column_int(st, 18) == 0);
    CHECK(sqlite3_column_int(st, 21) == 0);
    CHECK(sqlite3_column_type(st, 22) == SQLITE_NULL);      /* 0 arrived */
    CHECK(sqlite3_column_type(st, 26) == SQLITE_NULL);       /* no tokens */
    CHECK(sqlite3_step(st) == SQLITE_DONE);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_tables();
    test_parser();
    test_view();
    char path[512];
    snprintf(path, sizeof path, "%s/s.ini", dir);
    unlink(path);
    rmdir(dir);
    return check_report("keys");
}
