/* test_tags.c -- showback tags: what fs_tags_parse accepts (normalised),
 * what it refuses and why, and fs_tags_json's merge (the workload's value
 * wins for a key both lists give). */
#include "tests/check.h"
#include "sim/base/tags.h"

static int refused(const char *text, const char *why_part)
{
    char out[FS_TAGS_MAX], why[300] = "";
    int rc = fs_tags_parse(text, out, why, sizeof why);
    if (rc == 0 || !strstr(why, why_part))
        printf("    '%s': rc %d, why '%s'\n", text, rc, why);
    return rc == -1 && strstr(why, why_part) != NULL;
}

int main(void)
{
    char out[FS_TAGS_MAX], why[300], json[FS_TAGS_JSON_MAX];
    CHECK(fs_tags_parse(" team : search ,env:prod", out, why, sizeof why)
          == 0);
    CHECK(strcmp(out, "team:search,env:prod") == 0);
    /* a value may hold a colon and spaces inside */
    CHECK(fs_tags_parse("url:http://x, owner:Ada Lovelace", out, why,
                        sizeof why) == 0);
    CHECK(strcmp(out, "url:http://x,owner:Ada Lovelace") == 0);

    CHECK(refused("team:", "empty value"));
    CHECK(refused(":search", "empty key"));
    CHECK(refused("team", "has no ':'"));
    CHECK(refused("a:1,,b:2", "empty tag"));
    CHECK(refused("a:1,", "empty tag"));
    CHECK(refused("", "empty tag"));
    CHECK(refused("a:1,a:2", "given twice"));
    CHECK(refused("te am:1", "may hold only"));
    CHECK(refused("a:\"q\"", "may not hold quotes"));

    /* bounds: a 63-byte key and a 127-byte value pass, one more does not */
    char text[400];
    memset(text, 'k', 63);
    snprintf(text + 63, sizeof text - 63, ":v");
    CHECK(fs_tags_parse(text, out, why, sizeof why) == 0);
    memset(text, 'k', 64);
    snprintf(text + 64, sizeof text - 64, ":v");
    CHECK(refused(text, "too long"));
    snprintf(text, sizeof text, "k:");
    memset(text + 2, 'v', 128);
    text[130] = '\0';
    CHECK(refused(text, "too long"));
    /* 16 tags pass, 17 do not */
    text[0] = '\0';
    for (int i = 0; i < 17; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%sk%d:v",
                 i ? "," : "", i);
    CHECK(refused(text, "too many tags"));
    *strrchr(text, ',') = '\0';
    CHECK(fs_tags_parse(text, out, why, sizeof why) == 0);
    /* three 127-byte values fit no 255-byte list */
    snprintf(text, sizeof text, "a:%0127d,b:%0127d,c:1", 0, 0);
    CHECK(refused(text, "tags too long"));

    /* merge: pool first, the workload's value for a shared key */
    fs_tags_json("team:platform,cc:100", "team:search,app:ranker", json,
                 sizeof json);
    CHECK(strcmp(json, "{\"cc\":\"100\",\"team\":\"search\","
                       "\"app\":\"ranker\"}") == 0);
    fs_tags_json("", NULL, json, sizeof json);
    CHECK(strcmp(json, "{}") == 0);
    fs_tags_json(NULL, "x:1", json, sizeof json);
    CHECK(strcmp(json, "{\"x\":\"1\"}") == 0);
    /* a stored list that would not pass validation gives no tags, never
     * broken JSON */
    fs_tags_json("k:a\\b", "x:1", json, sizeof json);
    CHECK(strcmp(json, "{\"x\":\"1\"}") == 0);
    return check_report("tags");
}
