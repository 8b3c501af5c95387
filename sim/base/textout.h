/* textout.h -- writing stored text (run, scenario, pool and workload
 * names) safely for people and for programs.
 *
 * A results database may hold any text: a name with a newline, a tab, a
 * terminal escape, or bytes that are not UTF-8.  Printed raw, it breaks a
 * table across lines, drives the terminal, or makes invalid JSON.  So:
 * - for people (tables, markdown, `runs`, the run summary), control
 *   characters and invalid bytes are shown as C-style escapes;
 * - JSON strings follow RFC 8259 and are always valid UTF-8;
 * - CSV fields follow RFC 4180, are always valid UTF-8, and never start
 *   a live spreadsheet formula. */
#ifndef FS_TEXTOUT_H
#define FS_TEXTOUT_H

#include <stddef.h>
#include <stdio.h>

/* The length (1 to 4) of the well-formed UTF-8 sequence (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF) that s starts
 * with, its code point in *cp; 0 when s does not start one (and at the
 * terminating NUL). */
size_t fs_utf8_char(const char *s, unsigned long *cp);

/* A malloc'd copy of s for a terminal or a text table: "\\" for a
 * backslash, "\n", "\r", "\t", "\xNN" for other control characters
 * (C0 and DEL) and for bytes that are not UTF-8, "\u00NN" for C1
 * controls and for the invisible characters that reorder or break text
 * (bidirectional controls such as U+202E, and U+2028/U+2029);
 * everything else as is.  NULL when out of memory. */
char *fs_text_escape(const char *s);
/* The same, but a backslash stays one: for messages, and for HTML and
 * Markdown, which escape their own way. */
char *fs_text_visible(const char *s);

/* Writes a relative file name as a URL path: bytes other than letters,
 * digits and / . _ - ~ percent-encoded (a space is %20, "(" %28), so a
 * Markdown link to any file name holds. */
void fs_url_write_path(FILE *out, const char *s);

/* The columns s takes on a terminal: one per character (UTF-8
 * continuation bytes take none; wide characters are not told apart). */
size_t fs_text_width(const char *s);

/* Writes s as a JSON string, quotes included.  Bytes that are not UTF-8
 * become U+FFFD ("\ufffd"), one per byte. */
void fs_json_write_string(FILE *out, const char *s);

/* Writes s as a CSV field: quoted (quotes doubled) when it holds a comma,
 * a quote, a control character, or starts or ends with a space.  Bytes
 * that are not UTF-8 become U+FFFD.  NULL writes an empty field.
 * Formula injection: a text cell starting with = + - @, a tab or a
 * carriage return (a name such as "=cmd|' /C calc'!A0") is written
 * quoted with a single quote before it, as OWASP advises, so that a
 * spreadsheet shows it as text and never runs it; a number ("-12.5",
 * "1e-3") is written as it is.  Every CSV writer goes through here. */
void fs_csv_write_field(FILE *out, const char *s);

/* 1 when s is a plain decimal number: an optional sign, digits with an
 * optional decimal point, an optional exponent ("-12.5", "3e-7"). */
int fs_csv_is_number(const char *s);

#endif
