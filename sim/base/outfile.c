/* outfile.c -- --out files through a mkstemp() temporary renamed over
 * regular files only; see outfile.h. */
#include "sim/base/outfile.h"
#include "sim/base/owned.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What the name is now: 0 missing or regular (replace it), 1 write in
 * place, -1 refused (message set). */
static int classify(const char *path, fs_error *err)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : fs_error_set(err, "%s: cannot write: "
                                                  "%s", path,
                                                  strerror(errno));
    if (S_ISREG(st.st_mode))
        return 0;
    if (S_ISLNK(st.st_mode)) {
        if (stat(path, &st) != 0)
            return fs_error_set(err, "%s: cannot write: a symbolic link to "
                                "a missing file (name the file itself)",
                                path);
        if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
            return fs_error_set(err, "%s: cannot write: a symbolic link "
                                "(name the file itself)", path);
    }
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
        return 1;
    return fs_error_set(err, "%s: cannot write: %s", path,
                        S_ISDIR(st.st_mode) ? "a directory"
                                            : "not a regular file, device "
                                              "or pipe");
}

/* The temporary: DIR/.BASE.XXXXXX beside path. */
static char *temp_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    size_t n = strlen(path) + sizeof "/..XXXXXX";
    char *t = malloc(n);
    if (t)
        snprintf(t, n, "%.*s.%s.XXXXXX", (int)dir, path, path + dir);
    return t;
}

static int open_in_place(fs_outfile *o, fs_error *err)
{
    int fd = open(o->path, O_WRONLY | O_NOCTTY);
    struct stat st;
    if (fd < 0)
        return fs_error_set(err, "%s: cannot write: %s", o->path,
                            strerror(errno));
    if (fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) ||
                                 S_ISFIFO(st.st_mode))) {
        close(fd);      /* replaced since it was looked at */
        return fs_error_set(err, "%s: cannot write: it changed while "
                            "being opened", o->path);
    }
    if (!(o->f = fdopen(fd, "w"))) {
        close(fd);
        return fs_error_set(err, "%s: cannot write: %s", o->path,
                            strerror(errno));
    }
    return 0;
}

static int open_temp(fs_outfile *o, fs_error *err)
{
    if (!(o->tmp = temp_name(o->path)))
        return fs_error_set(err, "out of memory");
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        free(o->tmp);
        o->tmp = NULL;
        return fs_error_set(err, "%s: cannot write: %s", o->path,
                            strerror(e));
    }
    /* the file's own mode when it exists (a private file stays private),
     * else what a plain create would give: 0666 less the umask */
    mode_t mask = umask(0);
    umask(mask);
    struct stat st;
    mode_t mode = lstat(o->path, &st) == 0 && S_ISREG(st.st_mode)
                      ? st.st_mode & 07777 : 0666 & ~mask;
    if (fchmod(fd, mode) != 0 || !(o->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        unlink(o->tmp);
        return fs_error_set(err, "%s: cannot write: %s", o->path,
                            strerror(e));
    }
    return 0;
}

int fs_outfile_open(fs_outfile *o, const char *path, fs_error *err)
{
    memset(o, 0, sizeof *o);
    if (!(o->path = strdup(path)))
        return fs_error_set(err, "out of memory");
    int kind = classify(path, err);
    int rc = kind < 0 ? -1
           : kind == 1 ? open_in_place(o, err) : open_temp(o, err);
    if (rc)
        fs_outfile_abort(o);
    return rc;
}

int fs_outfile_commit(fs_outfile *o, fs_error *err)
{
    int e = 0;
    if (fflush(o->f) != 0 || ferror(o->f))
        e = errno ? errno : EIO;
    if (!e && o->tmp && fsync(fileno(o->f)) != 0)
        e = errno;
    if (fclose(o->f) != 0 && !e)
        e = errno ? errno : EIO;
    o->f = NULL;
    if (!e && o->tmp) {
        /* the name may have become something else meanwhile */
        fs_error why;
        if (classify(o->path, &why) != 0) {
            fs_error_set(err, "%s", why.msg);
            fs_outfile_abort(o);
            return -1;
        }
        if (rename(o->tmp, o->path) != 0)
            e = errno;
    }
    if (e) {
        fs_error_set(err, "%s: cannot write: %s", o->path, strerror(e));
        fs_outfile_abort(o);
        return -1;
    }
    free(o->tmp);
    o->tmp = NULL;
    fs_outfile_abort(o);
    return 0;
}

void fs_outfile_abort(fs_outfile *o)
{
    if (o->f)
        fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    FS_FREE_ALL(o->tmp, o->path);
    memset(o, 0, sizeof *o);
}

int fs_outfile_write(const char *path, const void *data, size_t n,
                     fs_error *err)
{
    fs_outfile o;
    if (fs_outfile_open(&o, path, err))
        return -1;
    if (n && fwrite(data, 1, n, o.f) != n) {
        int e = errno;
        fs_error_set(err, "%s: cannot write: %s", path,
                     strerror(e ? e : EIO));
        fs_outfile_abort(&o);
        return -1;
    }
    return fs_outfile_commit(&o, err);
}
