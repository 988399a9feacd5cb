/*
 * fuzz_runs: POST /v1/runs' body parser (run_body_parse) on arbitrary bytes, then what the
 * store makes of an accepted run (rec_run: the summary and results it renders), as
 * api_post_run and store_put_run take it.
 *
 * Invariants: the same bytes give the same answer twice; a refusal leaves no document, a
 * non-empty reason and a field that is valid UTF-8 shorter than RUN_FIELD_LEN, and renders as
 * a 422 body; an accepted run is an object of at most RUN_MAX_MEMBERS members with distinct
 * keys, a dataset of 1..128 bytes, results (and failed, when a list) of at most
 * RUN_MAX_RESULTS objects of at most RUN_MAX_ENTRY members, every result with a task_id;
 * rendered, it is valid UTF-8 (whatever bytes came in); rec_run copies it, its summary and
 * results parse back, the summary within RUN_MAX_SUMMARY (and pass_at_k's "pass@"s) with
 * distinct keys, none of them a column (id, at, dataset,
 * label, model, source), pass_at_k's keys distinct, and the results list as long as the run's.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "server/http/run_body.h"
#include "server/store/store_internal.h"
#include "server/util/utf8.h"

static void check_distinct(const struct json *o)
{
    for (const struct json *a = json_first(o); a; a = json_next(a))
        for (const struct json *b = json_next(a); b; b = json_next(b))
            FUZZ_CHECK(strcmp(json_key(a), json_key(b)) != 0);
}

static int count(const struct json *j)
{
    int n = 0;
    for (const struct json *e = json_first(j); e; e = json_next(e))
        n++;
    return n;
}

static void check_list(const struct json *list, bool results)
{
    FUZZ_CHECK(count(list) <= RUN_MAX_RESULTS);
    for (const struct json *e = json_first(list); e; e = json_next(e)) {
        FUZZ_CHECK(json_is_object(e) && count(e) <= RUN_MAX_ENTRY);
        const char *id = json_get_str(e, "task_id");
        FUZZ_CHECK(!results || (id && *id && strlen(id) <= RUN_MAX_TEXT));
    }
}

/* What the store makes of the run. */
static void check_rec(const struct json *doc)
{
    static const char *const columns[] = {"id", "at", "dataset", "label", "model", "source"};
    struct rec *r = rec_run(doc);
    if (!r)
        return; /* out of memory */
    FUZZ_CHECK(r->kind == REC_RUN && r->dataset &&
               strcmp(r->dataset, json_get_str(doc, "dataset")) == 0);
    struct json *sum = json_parse(r->summary), *res = json_parse(r->results);
    FUZZ_CHECK(json_is_object(sum) && json_is_object(res));
    check_distinct(sum);
    check_distinct(json_get(sum, "pass_at_k"));
    for (const struct json *m = json_first(sum); m; m = json_next(m))
        for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
            FUZZ_CHECK(strcmp(json_key(m), columns[i]) != 0);
    FUZZ_CHECK(count(json_get(res, "results")) == count(json_get(doc, "results")));
    FUZZ_CHECK(strlen(r->summary) <= RUN_MAX_SUMMARY + 5 * RUN_MAX_MAP); /* "pass@" added */
    FUZZ_CHECK(utf8_valid(r->summary, strlen(r->summary)) &&
               utf8_valid(r->results, strlen(r->results)));
    json_free(sum);
    json_free(res);
    rec_free(r);
}

static void check_run(const struct json *doc)
{
    FUZZ_CHECK(json_is_object(doc) && count(doc) <= RUN_MAX_MEMBERS);
    check_distinct(doc);
    const char *ds = json_get_str(doc, "dataset");
    FUZZ_CHECK(ds && *ds && strlen(ds) <= 128);
    FUZZ_CHECK(json_is_array(json_get(doc, "results")));
    check_list(json_get(doc, "results"), true);
    if (json_is_array(json_get(doc, "failed")))
        check_list(json_get(doc, "failed"), false);
    char *text = json_render(doc, false);
    FUZZ_CHECK(text && utf8_valid(text, strlen(text)));
    free(text);
    check_rec(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *body = malloc(size + 1); /* NUL-terminated, NUL bytes inside kept: as http_body */
    if (!body)
        return 0;
    memcpy(body, data, size);
    body[size] = '\0';
    char field[RUN_FIELD_LEN], field2[RUN_FIELD_LEN];
    const char *why, *why2;
    struct json *doc = run_body_parse(body, size, field, &why);
    struct json *again = run_body_parse(body, size, field2, &why2);
    FUZZ_CHECK(!doc == !again);
    if (!doc) {
        FUZZ_CHECK(why && *why && (why2 == why || strcmp(why, why2) == 0));
        FUZZ_CHECK(strcmp(field, field2) == 0 && strlen(field) < RUN_FIELD_LEN);
        FUZZ_CHECK(utf8_valid(field, strlen(field)));
    } else {
        char *a = json_render(doc, false), *b = json_render(again, false);
        FUZZ_CHECK(a && b && strcmp(a, b) == 0);
        free(a);
        free(b);
        check_run(doc);
    }
    json_free(doc);
    json_free(again);
    free(body);
    return 0;
}
