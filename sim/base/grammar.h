/* grammar.h -- the small value grammar shared by every scenario key.
 *
 * Durations (250ms 90s 15m 4h 30d 2w; a bare number is seconds), rates
 * (3.2/s 100/m 5000/h 1M/d), money ($4.10 or 4.10), percentages (70% or
 * 0.7) and calls: NAME or NAME(arg, key=value, ...) used by arrival
 * processes and distributions.  Parsers reject negative, NaN and infinite
 * values, and durations beyond FS_DURATION_MAX (nothing a planner simulates
 * lasts longer; beyond it times lose their sub-second precision): a
 * why-string says what was expected. */
#ifndef FS_GRAMMAR_H
#define FS_GRAMMAR_H

#include <stddef.h>

#define FS_CALL_MAX_ARGS 12
#define FS_DURATION_MAX (3650 * 86400.0)   /* 3650d, 10 years */

typedef struct fs_call_arg {
    char key[32];     /* "" for a positional argument */
    char value[256];
} fs_call_arg;

typedef struct fs_call {
    char name[32];
    int nargs;
    fs_call_arg args[FS_CALL_MAX_ARGS];
} fs_call;

/* Each returns 0 on success, -1 with a short reason in why[0..whylen). */
int fs_parse_number(const char *s, double *out, char *why, size_t whylen);
int fs_parse_duration(const char *s, double *seconds, char *why, size_t whylen);
int fs_parse_rate(const char *s, double *per_second, char *why, size_t whylen);
int fs_parse_money(const char *s, double *usd, char *why, size_t whylen);
int fs_parse_fraction(const char *s, double *out, char *why, size_t whylen);
int fs_parse_count(const char *s, long *out, char *why, size_t whylen);
int fs_parse_bool(const char *s, int *out, char *why, size_t whylen);
/* A UTC date, "YYYY-MM-DD" or "YYYY-MM-DD HH:MM", from 1970 on: *t the
 * seconds since the epoch (the scenario's start, a capacity block's). */
int fs_parse_utc_time(const char *s, long long *t, char *why, size_t whylen);
/* A call; an argument named twice is refused, naming it. */
int fs_parse_call(const char *s, fs_call *out, char *why, size_t whylen);

/* A name (of a scenario, run, pool, ...) that must fit a buffer of size
 * bytes with its terminator: non-empty, valid UTF-8, no control
 * characters.  Names are refused, never cut (a cut can split a UTF-8
 * character and make JSON output invalid). */
int fs_check_name(const char *s, size_t size, char *why, size_t whylen);

/* Argument lookup: the value of key, or NULL.  fs_call_positional gives the
 * i-th argument without a key. */
const char *fs_call_get(const fs_call *c, const char *key);
const char *fs_call_positional(const fs_call *c, int i);

/* Checks that every keyed argument is one of the NULL-terminated allowed
 * names; on failure names the stray key and suggests the nearest one. */
int fs_call_check_keys(const fs_call *c, const char *const *allowed,
                       char *why, size_t whylen);

/* Formats seconds as an exact duration when one fits ("90s", "4h",
 * "30d"), else with three significant digits ("1.52d", "250ms"). */
void fs_format_duration(double seconds, char *buf, size_t len);

#endif
