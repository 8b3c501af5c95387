/* test_parse_options.c -- the option parser of the subcommands
 * (sim/cli/shared/parse_options.c): every spelling of a value ("--db F",
 * "--db=F", "-j4", "-j 4", "-j=4"), an option given twice refused unless it
 * may repeat, bounds of whole numbers, durations in their grammar, "--"
 * ending the options, an included table's fields at their offset, and the
 * usage messages (exit status 2) naming the option as typed. */
#include "tests/check.h"
#include "sim/cli/commands.h"
#include "sim/cli/shared/parse_options.h"

#include <unistd.h>

typedef struct inner {
    long jobs;
    double wait;
} inner;

typedef struct opts {
    const char *db;
    int quiet;
    inner in;
    int nsets;
    const char *sets[8];
} opts;

static int take_set(const char *cmd, const char *name, const char *v,
                    void *base)
{
    (void)cmd, (void)name;
    opts *o = base;
    o->sets[o->nsets++] = v;
    return 0;
}

static const fs_option inner_options[] = {
    OPT_INT('j', "jobs", inner, jobs, "N", "at once", 1, 64),
    OPT_DURATION(0, "wait", inner, wait, "D", "how long"),
    OPT_END(),
};

static const fs_option options[] = {
    OPT_STRING(0, "db", opts, db, "FILE", "the database"),
    OPT_BOOL('q', "quiet", opts, quiet, "say less"),
    OPT_INCLUDE(inner_options, opts, in),
    OPT_CALLBACK_F(0, "set", "S.K=V", "a key", take_set, FS_OPTION_MULTI),
    OPT_END(),
};

/* Parses the NULL-terminated words after "cmd" into *o; the stderr it
 * wrote goes to err (room len).  Returns fs_parse_options' status. */
static int parse(opts *o, const char **ops, int *n, char *err, size_t len,
                 const char *const *words)
{
    char *argv[16] = {"cmd"};
    int argc = 1;
    for (; words[argc - 1]; argc++)
        argv[argc] = (char *)words[argc - 1];
    memset(o, 0, sizeof *o);
    o->db = "default.db";
    *n = 0;
    fflush(stderr);
    FILE *tmp = tmpfile();
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    int rc = fs_parse_options("cmd", argc, argv, options, o, ops, n);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t got = fread(err, 1, len - 1, tmp);
    err[got] = '\0';
    fclose(tmp);
    return rc;
}

#define PARSE(...) parse(&o, ops, &n, err, sizeof err, \
                         (const char *const[]){__VA_ARGS__, NULL})

int main(void)
{
    opts o;
    const char *ops[16];
    int n;
    char err[1024];

    CHECK(PARSE("--db", "a.db", "RUN1", "-j4", "--wait=2m", "RUN2") == 0);
    CHECK(strcmp(o.db, "a.db") == 0);
    CHECK(o.in.jobs == 4);
    CHECK_NEAR(o.in.wait, 120, 1e-9);
    CHECK(n == 2 && strcmp(ops[0], "RUN1") == 0 && strcmp(ops[1], "RUN2") == 0);
    CHECK(err[0] == '\0');

    CHECK(PARSE("--db=b.db", "-j", "8", "-q") == 0);
    CHECK(strcmp(o.db, "b.db") == 0 && o.in.jobs == 8 && o.quiet == 1);
    CHECK(PARSE("-j=3", "--jobs", "5") == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "fleetsim cmd: --jobs is given twice");
    CHECK(PARSE("--set", "a.b=1", "--set=c.d=2") == 0);
    CHECK(o.nsets == 2 && strcmp(o.sets[1], "c.d=2") == 0);

    /* "--" ends the options: what follows is an operand. */
    CHECK(PARSE("--", "--db", "-q") == 0);
    CHECK(n == 2 && strcmp(ops[0], "--db") == 0 && !o.quiet);
    CHECK(strcmp(o.db, "default.db") == 0);

    CHECK(PARSE("--db") == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "fleetsim cmd: --db needs a value\n");
    CHECK_CONTAINS(err, "Run `fleetsim help cmd` for usage.");
    CHECK(PARSE("--db=") == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "--db needs a value, not an empty string");
    CHECK(PARSE("--dbb", "x") == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "unknown option '--dbb'; did you mean '--db'?");
    CHECK(PARSE("--quiet=1") == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "--quiet takes no value");
    CHECK(PARSE("-j0") == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "-j needs a whole number of at least 1, got '0'");
    CHECK(PARSE("--jobs", "65") == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "--jobs: at most 64, got '65'");
    CHECK(PARSE("--jobs", "4x") == FS_EXIT_USAGE);
    CHECK(PARSE("--wait", "soon") == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "--wait: ");
    CHECK(PARSE("-x") == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "unknown option '-x'");
    /* "-" alone is an operand (standard input, by convention). */
    CHECK(PARSE("-") == 0 && n == 1);

    /* The few-operands form counts them all, keeps the first room. */
    char *argv[] = {"cmd", "a", "b", "c", NULL};
    const char *two[2];
    int k = 0;
    memset(&o, 0, sizeof o);
    CHECK(fs_parse_options_few("cmd", 4, argv, options, &o, two, 2, &k) == 0);
    CHECK(k == 3 && strcmp(two[1], "b") == 0);
    return check_report("parse_options");
}
