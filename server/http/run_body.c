/*
 * run_body: POST /v1/runs' body in one pass. The bytes are checked as UTF-8 once (a repaired
 * copy is made only when some are invalid), parsed by json_parse, then every member is visited
 * once through json_first/json_next: a top-level member is dispatched on its key to its check,
 * each check counts as it goes and stops at its bound. Only the bounded sets are checked for
 * repeated keys (pairwise: at most RUN_MAX_MEMBERS or RUN_MAX_MAP keys), so no step is more
 * than linear in the body, and store_put_run can append members without looking them up.
 */
#include "server/http/run_body.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/util/utf8.h"

const char RUN_BODY_OOM[] = "out of memory";
const char RUN_BODY_NOT_JSON[] = "JSON decode error";

static bool text_ok(const struct json *v, size_t min, size_t max)
{
    const char *s;
    return json_str(v, &s) && strlen(s) >= min && strlen(s) <= max;
}

/* pass_at_k's key as the store keeps it ("1" -> "pass@1"), into buf. */
static void pass_key(const char *k, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s", strspn(k, "0123456789") == strlen(k) ? "pass@" : "", k);
}

/* pass_at_k (pk: true) or verdicts: an object of at most RUN_MAX_MAP numbers (pass_at_k's may
 * be null), keys of at most RUN_MAX_KEY bytes, distinct (pass_at_k's as "pass@k"). */
static const char *map_invalid(const struct json *m, bool pk)
{
    if (json_is_null(m))
        return NULL;
    if (!json_is_object(m))
        return pk ? "must be an object of numbers (or null)" : "must be an object of numbers";
    char keys[RUN_MAX_MAP][RUN_MAX_KEY + 8];
    int n = 0;
    double d;
    for (const struct json *e = json_first(m); e; e = json_next(e)) {
        if (n == RUN_MAX_MAP)
            return "at most 64 members";
        if (!json_num(e, &d) && !(pk && json_is_null(e)))
            return pk ? "must be an object of numbers (or null)" : "must be an object of numbers";
        if (strlen(json_key(e)) > RUN_MAX_KEY)
            return "a key is at most 64 bytes";
        if (pk)
            pass_key(json_key(e), keys[n], sizeof(keys[n]));
        else
            snprintf(keys[n], sizeof(keys[n]), "%s", json_key(e));
        for (int i = 0; i < n; i++)
            if (strcmp(keys[i], keys[n]) == 0)
                return "a key appears twice";
        n++;
    }
    return NULL;
}

/* "results" (true) or "failed": a list of at most RUN_MAX_RESULTS small objects. */
static const char *list_invalid(const struct json *list, bool results)
{
    if (!results && json_is_null(list))
        return NULL;
    if (!json_is_array(list))
        return results ? "results must be a list of {task_id, language, samples, passed, verdicts}"
                       : "failed must be a list of objects";
    long count = 0;
    for (const struct json *r = json_first(list); r; r = json_next(r)) {
        if (++count > RUN_MAX_RESULTS)
            return "at most 100000 entries";
        if (!json_is_object(r))
            return "each entry must be an object";
        int members = 0;
        for (const struct json *m = json_first(r); m; m = json_next(m))
            if (++members > RUN_MAX_ENTRY)
                return "an entry has at most 16 members";
        if (!results)
            continue;
        if (!text_ok(json_get(r, "task_id"), 1, RUN_MAX_TEXT))
            return "each result must be an object with a task_id string of 1 to 256 bytes";
        const struct json *v = json_get(r, "verdicts");
        if (v && !json_is_null(v) && map_invalid(v, false))
            return "a result's verdicts must be an object of at most 64 numbers, keys distinct";
    }
    return NULL;
}

/* One top-level member's check; NULL when it is fine (or not one verdict knows). */
static const char *member_invalid(const struct json *m)
{
    static const char *const texts[] = {"label", "model", "source"};
    static const char *const numbers[] = {"problems", "samples", "judged", "seconds"};
    const char *k = json_key(m), *s;
    double d;
    bool b;
    if (strcmp(k, "dataset") == 0)
        return text_ok(m, 1, 128) ? NULL : "dataset must be a string of 1 to 128 bytes";
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
        if (strcmp(k, texts[i]) == 0 && !json_is_null(m) && !text_ok(m, 0, RUN_MAX_TEXT))
            return "must be a string of at most 256 bytes";
    if (strcmp(k, "source") == 0 && json_str(m, &s) && strcmp(s, "local") != 0 &&
        strcmp(s, "server") != 0)
        return "source must be \"local\" or \"server\"";
    for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++)
        if (strcmp(k, numbers[i]) == 0 && !json_is_null(m) && (!json_num(m, &d) || d < 0))
            return "must be a number at least 0";
    if (strcmp(k, "interrupted") == 0 && !json_is_null(m) && !json_bool(m, &b))
        return "interrupted must be a boolean";
    if (strcmp(k, "pass_at_k") == 0 || strcmp(k, "verdicts") == 0)
        return map_invalid(m, k[0] == 'p');
    if (strcmp(k, "results") == 0 || strcmp(k, "failed") == 0)
        return list_invalid(m, k[0] == 'r');
    return NULL;
}

/* The document's own checks: its members' count, keys and values. */
static const char *doc_invalid(const struct json *doc, const char **field)
{
    const struct json *seen[RUN_MAX_MEMBERS];
    int n = 0;
    bool dataset = false, results = false;
    size_t summary = 2;
    *field = NULL;
    if (!json_is_object(doc))
        return "the body must be a run (an object)";
    for (const struct json *m = json_first(doc); m; m = json_next(m)) {
        *field = json_key(m);
        if (n == RUN_MAX_MEMBERS)
            return "a run has at most 32 members";
        for (int i = 0; i < n; i++)
            if (strcmp(json_key(seen[i]), json_key(m)) == 0)
                return "a member appears twice";
        seen[n++] = m;
        const char *why = member_invalid(m);
        if (why)
            return why;
        if (strcmp(json_key(m), "results") != 0 && strcmp(json_key(m), "failed") != 0) {
            char *text = json_render(m, false); /* the summary, listed 500 runs a page */
            summary += text ? strlen(text) + strlen(json_key(m)) + 4 : 0;
            free(text);
            if (!text)
                return RUN_BODY_OOM;
            if (summary > RUN_MAX_SUMMARY)
                return "the run but its results and failed is at most 64 KiB of JSON";
        }
        dataset = dataset || strcmp(json_key(m), "dataset") == 0;
        results = results || strcmp(json_key(m), "results") == 0;
    }
    *field = !dataset ? "dataset" : !results ? "results" : NULL;
    return !dataset   ? "dataset must be a string of 1 to 128 bytes"
           : !results ? "results must be a list of {task_id, language, samples, passed, verdicts}"
                      : NULL;
}

struct json *run_body_parse(const char *body, size_t len, char field[RUN_FIELD_LEN],
                            const char **why)
{
    field[0] = '\0';
    *why = NULL;
    char *fixed = NULL;
    size_t fixed_len;
    if (!utf8_valid(body, len) && !(fixed = utf8_repair(body, len, &fixed_len))) {
        *why = RUN_BODY_OOM;
        return NULL;
    }
    struct json *doc = json_parse(fixed ? fixed : body);
    free(fixed);
    if (!doc) {
        *why = RUN_BODY_NOT_JSON;
        return NULL;
    }
    const char *at = NULL;
    if ((*why = doc_invalid(doc, &at))) {
        size_t n = at ? strlen(at) : 0;
        if (n >= RUN_FIELD_LEN) /* cut on a UTF-8 boundary */
            for (n = RUN_FIELD_LEN - 1; n > 0 && ((unsigned char)at[n] & 0xc0) == 0x80; n--)
                ;
        memcpy(field, at ? at : "", n);
        field[n] = '\0';
        json_free(doc);
        return NULL;
    }
    return doc;
}
