/* tags.h -- showback tags: `tags = team:search,env:prod`.
 *
 * A tag list is key:value pairs separated by commas.  fs_tags_parse checks
 * one (no empty key or value, bounded lengths, no duplicate key) and keeps
 * it normalised (spaces around parts removed); fs_tags_json writes a
 * workload's tags merged with its pool's as a JSON object (the workload's
 * value wins for a key both have), for cost_allocation and FOCUS Tags. */
#ifndef FS_TAGS_H
#define FS_TAGS_H

#include <stddef.h>

#define FS_TAGS_MAX 256        /* a normalised list, with its NUL */
#define FS_TAG_KEY_MAX 63
#define FS_TAG_VALUE_MAX 127
#define FS_TAGS_COUNT_MAX 16
/* Room for fs_tags_json of two lists: every byte may be escaped (\\ or
 * \"), plus quotes, colons, commas and braces. */
#define FS_TAGS_JSON_MAX (4 * FS_TAGS_MAX + 8 * FS_TAGS_COUNT_MAX + 8)

/* Checks text and writes it normalised into out (FS_TAGS_MAX bytes); 0, or
 * -1 with why set. */
int fs_tags_parse(const char *text, char out[FS_TAGS_MAX], char *why,
                  size_t why_len);

/* {"k":"v",...}: the pool's tags, then the workload's (either may be NULL
 * or ""), a key of both once with the workload's value.  out holds
 * FS_TAGS_JSON_MAX bytes. */
void fs_tags_json(const char *pool_tags, const char *workload_tags,
                  char *out, size_t out_len);

#endif
