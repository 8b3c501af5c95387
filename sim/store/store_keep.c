/* store_keep.c -- where a finished run goes when its database cannot take
 * it; see store.h.
 *
 * A run may take hours to simulate.  If it then cannot be stored (another
 * process held the lock past the busy timeout, the disk filled up), it is
 * not thrown away: it is written, the same way, to a fleetsim database of
 * its own, so that every command reads it with --db and `fleetsim import`
 * copies it into the database it was meant for.  That database is beside
 * the target ("runs.db" -> "runs.kept-PID.db"), where the user looks;
 * failing that (a full disk), in $TMPDIR or /tmp.  Once one run of a
 * command is kept, its later runs go to the same file, so they stay
 * together. */
#include "sim/store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void fs_keeper_init(fs_keeper *k, const char *target)
{
    memset(k, 0, sizeof *k);
    k->target = target;
}

void fs_keeper_close(fs_keeper *k)
{
    fs_store_close(k->kept);
    k->kept = NULL;
}

/* "DIR/NAME.kept-PID.db" for target "TARGETDIR/NAME.db"; DIR is target's
 * directory when dir is NULL.  0 when it fits. */
static int kept_name(const char *target, const char *dir, char *buf,
                     size_t len)
{
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    size_t n = strlen(base);
    if (n > 3 && strcmp(base + n - 3, ".db") == 0)
        n -= 3;
    int w;
    if (dir)
        w = snprintf(buf, len, "%s/%.*s.kept-%ld.db", dir, (int)n, base,
                     (long)getpid());
    else
        w = snprintf(buf, len, "%.*s%.*s.kept-%ld.db",
                     (int)(base - target), target, (int)n, base,
                     (long)getpid());
    return w >= 0 && (size_t)w < len ? 0 : -1;
}

/* Removes a kept database this process created and could not write a run
 * into: it is ours alone (its name has our pid), and empty. */
static void remove_kept(const char *path)
{
    static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
    char name[sizeof ((fs_keeper *)0)->path + 16];
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        snprintf(name, sizeof name, "%s%s", path, suffixes[i]);
        unlink(name);
    }
}

/* Writes r to the kept database, opening it on first use: beside the
 * target, else in the temporary directory. */
static int keep(fs_keeper *k, const fs_results *r, long *id, fs_error *err)
{
    if (k->kept)
        return fs_store_write_run(k->kept, r, id, err);
    const char *tmp = getenv("TMPDIR");
    const char *dirs[] = { NULL, tmp && *tmp ? tmp : "/tmp" };
    fs_error first = { "" };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        fs_error e;
        struct stat st;
        if (kept_name(k->target, dirs[i], k->path, sizeof k->path)) {
            fs_error_set(&e, "%s: path too long", k->target);
        } else {
            int existed = stat(k->path, &st) == 0;
            k->kept = fs_store_open(k->path, FS_STORE_CREATE, &e);
            if (k->kept && fs_store_write_run(k->kept, r, id, &e) == 0)
                return 0;
            fs_store_close(k->kept);
            k->kept = NULL;
            if (!existed)
                remove_kept(k->path);
        }
        if (!first.msg[0])
            first = e;
    }
    k->path[0] = '\0';
    return fs_error_set(err, "%s", first.msg);
}

int fs_store_or_keep(fs_store *store, fs_keeper *k, const fs_results *r,
                     long *id, fs_error *why)
{
    if (!k->kept && fs_store_write_run(store, r, id, why) == 0)
        return 0;
    if (k->kept)
        why->msg[0] = '\0';
    fs_error e;
    if (keep(k, r, id, &e) == 0)
        return 1;
    char reason[sizeof why->msg];
    snprintf(reason, sizeof reason, "%s", why->msg);
    fs_error_set(why, "%s%sthe finished run could not be kept either: %s",
                 reason, reason[0] ? "; " : "", e.msg);
    return -1;
}
