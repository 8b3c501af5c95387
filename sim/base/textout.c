/* textout.c -- escaping stored text for people, JSON and CSV; see
 * textout.h. */
#include "sim/base/textout.h"

#include <stdlib.h>
#include <string.h>

#define REPLACEMENT "\xef\xbf\xbd"      /* U+FFFD in UTF-8 */

static int continuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

/* The well-formed UTF-8 sequences, the Unicode Standard's Table 3-7: by
 * lead byte, the sequence's length and the second byte's range, which
 * rules out overlong forms (after E0, F0), surrogates (after ED) and code
 * points above U+10FFFF (after F4).  The bytes after the second are
 * 80..BF. */
static const struct utf8_lead {
    unsigned char first, last, len, lo, hi;
} utf8_leads[] = {
    {0xC2, 0xDF, 2, 0x80, 0xBF},
    {0xE0, 0xE0, 3, 0xA0, 0xBF},
    {0xE1, 0xEC, 3, 0x80, 0xBF},
    {0xED, 0xED, 3, 0x80, 0x9F},
    {0xEE, 0xEF, 3, 0x80, 0xBF},
    {0xF0, 0xF0, 4, 0x90, 0xBF},
    {0xF1, 0xF3, 4, 0x80, 0xBF},
    {0xF4, 0xF4, 4, 0x80, 0x8F},
};

size_t fs_utf8_char(const char *s, unsigned long *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned char c = u[0];
    if (c == 0)
        return 0;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    const struct utf8_lead *l = NULL;
    for (size_t k = 0; k < sizeof utf8_leads / sizeof *utf8_leads; k++)
        if (c >= utf8_leads[k].first && c <= utf8_leads[k].last)
            l = &utf8_leads[k];
    if (!l || u[1] < l->lo || u[1] > l->hi)
        return 0;
    /* The lead byte keeps 7 - len bits of the code point. */
    unsigned long v = c & (0x7Fu >> l->len);
    for (size_t i = 1; i < l->len; i++) {
        if (!continuation(u[i]))
            return 0;
        v = v << 6 | (u[i] & 0x3F);
    }
    *cp = v;
    return l->len;
}

/* ---- for people --------------------------------------------------------- */

/* Characters that reorder or break the text around them without being
 * seen: bidirectional controls (U+202E makes "exe.txt" of "txt.exe") and
 * the Unicode line and paragraph separators. */
static int invisible(unsigned long cp)
{
    return cp == 0x061C || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* The escape for the character of len bytes at s, or NULL to copy it. */
static const char *escape_for(const char *s, size_t len, unsigned long cp,
                              char buf[8])
{
    if (len == 0) {
        snprintf(buf, 8, "\\x%02x", (unsigned char)*s);
        return buf;
    }
    switch (cp) {
    case '\\': return "\\\\";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default:
        break;
    }
    if (cp < 0x20 || cp == 0x7F)
        snprintf(buf, 8, "\\x%02lx", cp);
    else if ((cp >= 0x80 && cp <= 0x9F) || invisible(cp))
        snprintf(buf, 8, "\\u%04x", (unsigned)cp & 0xFFFFu);
    else
        return NULL;
    return buf;
}

static char *escape(const char *s, int keep_backslash);

char *fs_text_escape(const char *s)
{
    return escape(s, 0);
}

char *fs_text_visible(const char *s)
{
    return escape(s, 1);
}

static char *escape(const char *s, int keep_backslash)
{
    if (!s)
        s = "";
    /* at most 4 output bytes per input byte: "\xNN" for one byte,
     * "\u0085" for the two of a C1 control */
    char *out = malloc(4 * strlen(s) + 1);
    if (!out)
        return NULL;
    char *o = out;
    while (*s) {
        unsigned long cp = 0;
        size_t len = fs_utf8_char(s, &cp);
        char buf[8];
        const char *esc = keep_backslash && cp == '\\' && len == 1
                              ? NULL : escape_for(s, len, cp, buf);
        if (esc) {
            size_t n = strlen(esc);
            memcpy(o, esc, n);
            o += n;
        } else {
            memcpy(o, s, len);
            o += len;
        }
        s += len ? len : 1;
    }
    *o = '\0';
    return out;
}

size_t fs_text_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += !continuation((unsigned char)*s);
    return w;
}

void fs_url_write_path(FILE *out, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            (*p >= '0' && *p <= '9') || strchr("/._-~", *p))
            fputc(*p, out);
        else
            fprintf(out, "%%%02X", *p);
    }
}

/* ---- JSON --------------------------------------------------------------- */

void fs_json_write_string(FILE *out, const char *s)
{
    fputc('"', out);
    while (s && *s) {
        unsigned long cp = 0;
        size_t len = fs_utf8_char(s, &cp);
        if (len == 0) {
            fputs("\\ufffd", out);
            s++;
            continue;
        }
        switch (cp) {
        case '"':  fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        case '\b': fputs("\\b", out); break;
        case '\f': fputs("\\f", out); break;
        /* valid JSON raw, but not inside a JavaScript string */
        case 0x2028: fputs("\\u2028", out); break;
        case 0x2029: fputs("\\u2029", out); break;
        default:
            if (cp < 0x20)
                fprintf(out, "\\u%04lx", cp);
            else
                fwrite(s, 1, len, out);
        }
        s += len;
    }
    fputc('"', out);
}

/* ---- CSV ---------------------------------------------------------------- */

static int needs_quotes(const char *s)
{
    size_t n = strlen(s);
    if (n > 0 && (s[0] == ' ' || s[n - 1] == ' '))
        return 1;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == ',' || c == '"' || c < 0x20 || c == 0x7F)
            return 1;
    }
    return 0;
}

int fs_csv_is_number(const char *s)
{
    const char *p = s;
    int digits = 0;
    if (*p == '+' || *p == '-')
        p++;
    for (; *p >= '0' && *p <= '9'; p++)
        digits++;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++)
            digits++;
    if (!digits)
        return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return 0;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return *p == '\0';
}

/* A text cell a spreadsheet would run as a formula (OWASP, "CSV
 * Injection"): one that starts with = + - @, a tab or a carriage return
 * and is not a plain number. */
static int formula_like(const char *s)
{
    return s[0] && strchr("=+-@\t\r", s[0]) && !fs_csv_is_number(s);
}

void fs_csv_write_field(FILE *out, const char *s)
{
    if (!s)
        return;
    int formula = formula_like(s);
    int quote = formula || needs_quotes(s);
    if (quote)
        fputc('"', out);
    if (formula)
        fputc('\'', out);
    while (*s) {
        unsigned long cp = 0;
        size_t len = fs_utf8_char(s, &cp);
        if (len == 0) {
            fputs(REPLACEMENT, out);
            s++;
            continue;
        }
        if (cp == '"')
            fputc('"', out);
        fwrite(s, 1, len, out);
        s += len;
    }
    if (quote)
        fputc('"', out);
}
