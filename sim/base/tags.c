/* tags.c -- showback tags: parsing and merging into JSON; see tags.h. */
#include "sim/base/tags.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct tag {
    const char *key, *value;
    size_t klen, vlen;
} tag;

/* [a, b) without the spaces at its ends. */
static void trim(const char **a, const char **b)
{
    while (*a < *b && isspace((unsigned char)**a))
        (*a)++;
    while (*b > *a && isspace((unsigned char)(*b)[-1]))
        (*b)--;
}

static int key_char_ok(int c)
{
    return isalnum(c) || c == '_' || c == '-' || c == '.' || c == '/' ||
           c == '@';
}

/* One key:value part [a, b) into *t; -1 with why. */
static int parse_part(const char *a, const char *b, tag *t, char *why,
                      size_t len)
{
    trim(&a, &b);
    const char *colon = memchr(a, ':', (size_t)(b - a));
    if (a == b)
        return snprintf(why, len, "an empty tag (two commas, or a comma at "
                        "an end)"), -1;
    if (!colon)
        return snprintf(why, len, "tag '%.*s' has no ':' (write "
                        "key:value)", (int)(b - a), a), -1;
    const char *k = a, *ke = colon, *v = colon + 1, *ve = b;
    trim(&k, &ke);
    trim(&v, &ve);
    if (k == ke || v == ve)
        return snprintf(why, len, "tag '%.*s' has an empty %s", (int)(b - a),
                        a, k == ke ? "key" : "value"), -1;
    if ((size_t)(ke - k) > FS_TAG_KEY_MAX || (size_t)(ve - v) >
        FS_TAG_VALUE_MAX)
        return snprintf(why, len, "tag '%.20s...' is too long (keys at most "
                        "%d bytes, values at most %d)", k, FS_TAG_KEY_MAX,
                        FS_TAG_VALUE_MAX), -1;
    for (const char *c = k; c < ke; c++)
        if (!key_char_ok((unsigned char)*c))
            return snprintf(why, len, "tag key '%.*s' may hold only letters, "
                            "digits and _ - . / @", (int)(ke - k), k), -1;
    for (const char *c = v; c < ve; c++)
        if ((unsigned char)*c < 0x20 || *c == '"' || *c == '\\')
            return snprintf(why, len, "tag value '%.*s' may not hold quotes, "
                            "backslashes or control characters",
                            (int)(ve - v), v), -1;
    *t = (tag){k, v, (size_t)(ke - k), (size_t)(ve - v)};
    return 0;
}

/* Splits text into tags; the count, or -1 with why. */
static int split(const char *text, tag *tags, char *why, size_t len)
{
    int n = 0;
    const char *a = text;
    for (;;) {
        const char *b = strchr(a, ',');
        if (!b)
            b = a + strlen(a);
        if (n == FS_TAGS_COUNT_MAX)
            return snprintf(why, len, "too many tags (at most %d)",
                            FS_TAGS_COUNT_MAX), -1;
        if (parse_part(a, b, &tags[n], why, len))
            return -1;
        for (int i = 0; i < n; i++)
            if (tags[i].klen == tags[n].klen &&
                !memcmp(tags[i].key, tags[n].key, tags[n].klen))
                return snprintf(why, len, "tag key '%.*s' given twice",
                                (int)tags[n].klen, tags[n].key), -1;
        n++;
        if (!*b)
            return n;
        a = b + 1;
    }
}

int fs_tags_parse(const char *text, char out[FS_TAGS_MAX], char *why,
                  size_t why_len)
{
    tag tags[FS_TAGS_COUNT_MAX];
    int n = split(text, tags, why, why_len);
    if (n < 0)
        return -1;
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        size_t need = tags[i].klen + tags[i].vlen + 2;
        if (at + need > FS_TAGS_MAX)
            return snprintf(why, why_len, "tags too long (at most %d bytes "
                            "in all)", FS_TAGS_MAX - 1), -1;
        at += (size_t)sprintf(out + at, "%s%.*s:%.*s", i ? "," : "",
                              (int)tags[i].klen, tags[i].key,
                              (int)tags[i].vlen, tags[i].value);
    }
    out[at] = '\0';
    return 0;
}

/* Appends "key":"value" to out, escaping what JSON needs (split refuses
 * quotes, backslashes and control characters: this is belt and braces). */
static size_t put_pair(char *out, size_t at, size_t len, const tag *t)
{
    const char *parts[2] = {t->key, t->value};
    size_t lens[2] = {t->klen, t->vlen};
    for (int p = 0; p < 2; p++) {
        if (at + 2 < len)
            out[at++] = '"';
        for (size_t i = 0; i < lens[p] && at + 4 < len; i++) {
            unsigned char c = (unsigned char)parts[p][i];
            if (c == '"' || c == '\\')
                out[at++] = '\\';
            out[at++] = c < 0x20 ? ' ' : (char)c;
        }
        if (at + 2 < len)
            out[at++] = '"';
        if (p == 0 && at + 2 < len)
            out[at++] = ':';
    }
    return at;
}

/* A list that does not split (not one fs_tags_parse wrote) adds no tag. */
void fs_tags_json(const char *pool_tags, const char *workload_tags,
                  char *out, size_t out_len)
{
    tag pt[FS_TAGS_COUNT_MAX], wt[FS_TAGS_COUNT_MAX];
    char why[256];
    int np = pool_tags && *pool_tags ? split(pool_tags, pt, why, sizeof why)
                                     : 0;
    int nw = workload_tags && *workload_tags
                 ? split(workload_tags, wt, why, sizeof why) : 0;
    np = np < 0 ? 0 : np;
    nw = nw < 0 ? 0 : nw;
    size_t at = 0;
    out[at++] = '{';
    int first = 1;
    for (int i = 0; i < np + nw; i++) {
        const tag *t = i < np ? &pt[i] : &wt[i - np];
        if (i < np) {
            int shadowed = 0;
            for (int j = 0; j < nw; j++)
                shadowed |= wt[j].klen == t->klen &&
                            !memcmp(wt[j].key, t->key, t->klen);
            if (shadowed)
                continue;
        }
        if (!first && at + 2 < out_len)
            out[at++] = ',';
        first = 0;
        at = put_pair(out, at, out_len, t);
    }
    if (at + 1 < out_len)
        out[at++] = '}';
    out[at] = '\0';
}
