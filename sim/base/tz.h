/* tz.h -- local time in a named time zone, from the system's tz database
 * (/usr/share/zoneinfo, Debian's tzdata).
 *
 * Windows and office hours are stated in the scenario's time zone
 * (timezone = Europe/Paris).  The conversions go through the C library
 * with TZ set for the call and restored after it, so the same database
 * gives the same times on every run.  Not for threads (fleetsim runs a
 * sweep's scenarios in processes). */
#ifndef FS_TZ_H
#define FS_TZ_H

#include <time.h>

/* 0 when name is UTC or a zone of the tz database, -1 otherwise. */
int fs_tz_check(const char *name);

/* The UTC time of local date y-mon-d (mon 1..12) at sec seconds after
 * local midnight, in zone name (a time skipped by a DST change moves
 * forward with it). */
time_t fs_tz_time(const char *name, int y, int mon, int d, double sec);

/* The local calendar of UTC time t in zone name. */
void fs_tz_local(const char *name, time_t t, struct tm *out);

#endif
