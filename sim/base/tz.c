/* tz.c -- local times in a named zone; see tz.h. */
#include "sim/base/tz.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZONEINFO "/usr/share/zoneinfo"

static int is_utc(const char *name)
{
    return strcmp(name, "UTC") == 0 || strcmp(name, "Etc/UTC") == 0;
}

int fs_tz_check(const char *name)
{
    if (is_utc(name))
        return 0;
    if (!name[0] || name[0] == '/' || strstr(name, "..") ||
        strlen(name) > 64)
        return -1;
    char path[128], magic[4];
    snprintf(path, sizeof path, "%s/%s", ZONEINFO, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t n = fread(magic, 1, 4, f);
    fclose(f);
    return n == 4 && memcmp(magic, "TZif", 4) == 0 ? 0 : -1;
}

/* Runs with TZ = name, then puts TZ back as it was. */
typedef struct saved_tz {
    char *old;
    int had;
} saved_tz;

static saved_tz enter(const char *name)
{
    saved_tz s = {NULL, 0};
    const char *o = getenv("TZ");
    if (o) {
        s.old = strdup(o);
        s.had = 1;
    }
    char spec[80];
    snprintf(spec, sizeof spec, ":%s", is_utc(name) ? "UTC" : name);
    setenv("TZ", spec, 1);
    tzset();
    return s;
}

static void leave(saved_tz s)
{
    if (s.had && s.old)
        setenv("TZ", s.old, 1);
    else
        unsetenv("TZ");
    free(s.old);
    tzset();
}

time_t fs_tz_time(const char *name, int y, int mon, int d, double sec)
{
    if (is_utc(name)) {
        struct tm tm = {0};
        tm.tm_year = y - 1900;
        tm.tm_mon = mon - 1;
        tm.tm_mday = d;
        return timegm(&tm) + (time_t)floor(sec);
    }
    saved_tz s = enter(name);
    struct tm tm = {0};
    tm.tm_year = y - 1900;
    tm.tm_mon = mon - 1;
    tm.tm_mday = d;
    tm.tm_hour = (int)(sec / 3600);
    tm.tm_min = (int)fmod(sec / 60, 60);
    tm.tm_sec = (int)fmod(sec, 60);
    tm.tm_isdst = -1;
    time_t t = mktime(&tm);
    leave(s);
    return t;
}

void fs_tz_local(const char *name, time_t t, struct tm *out)
{
    if (is_utc(name)) {
        gmtime_r(&t, out);
        return;
    }
    saved_tz s = enter(name);
    localtime_r(&t, out);
    leave(s);
}
