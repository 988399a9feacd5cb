/*
 * query: a dataset request's body into a struct query, in the order the routes have always
 * checked it (their errors name the first problem): the body is an object, config is null or an
 * object, dataset is a string, custom_extract_logic is absent (it is Python their server exec's;
 * verdict runs no code outside its sandbox), /submit's completion is a string, then
 * provided_data's rows are normalised one by one (server/datasets/loader: a row that is no
 * problem is a 400 naming it). /get_prompts' window and /submit's options are read without
 * errors, as SandboxFusion's server reads them. Linear in the body's members and rows.
 */
#include "server/http/query.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "server/datasets/loader.h"

/* The members every route shares: config, dataset, custom_extract_logic. */
static int parse_common(const struct json *body, const struct json **config, struct query *q,
                        struct request_error *e)
{
    if (!json_is_object(body))
        return request_fail(e, "json_invalid", "JSON decode error (an object expected)", NULL, NULL,
                            NULL);
    *config = json_get(body, "config");
    if (*config && !json_is_null(*config) && !json_is_object(*config))
        return request_fail(e, "dict_type", "config must be an object (TestConfig)", "config", NULL,
                            NULL);
    if (!json_str(json_get(body, "dataset"), &q->dataset))
        return request_fail(e, "missing", "Field required (a dataset id)", "dataset", NULL, NULL);
    const struct json *logic = json_get(*config, "custom_extract_logic");
    if (logic && !json_is_null(logic))
        return request_fail(e, "value_error",
                            "custom_extract_logic is not supported: it is Python run on the "
                            "server, and verdict runs no code outside its sandbox; send the code, "
                            "or extract it yourself",
                            "config", "custom_extract_logic", NULL);
    return 0;
}

/* config.provided_data: the problem's row inline (one), or a list of rows, normalised. */
static int parse_provided(const struct json *provided, bool one, struct query *q)
{
    char err[ERR_LEN];
    if (one ? !json_is_object(provided) : !json_is_array(provided)) {
        snprintf(q->detail, sizeof(q->detail), "%s",
                 one ? "config.provided_data must be one problem row (an object)"
                     : "config.provided_data must be a list of problem rows");
        return -EBADMSG;
    }
    if (!(q->provided = json_array()))
        return -ENOMEM;
    for (const struct json *row = one ? provided : json_first(provided); row;
         row = one ? NULL : json_next(row)) { /* O(1) a step */
        struct json *p = NULL;
        int rc = loader_record(row, NULL, &p, err);
        if (rc == -ENOMEM)
            return rc;
        if (rc < 0) {
            snprintf(q->detail, sizeof(q->detail), "config.provided_data: %s", err);
            return -EBADMSG;
        }
        if (!json_push(q->provided, p)) /* json_push frees p when it fails */
            return -ENOMEM;
    }
    return 0;
}

/* /get_prompts' window: rows i with offset <= i < offset + limit (SandboxFusion's default
 * limit is a million), as the first row and a count (-1: to the end). Non-numbers are ignored,
 * infinities clamped. */
static void parse_window(const struct json *body, struct query *q)
{
    double offset = 0, limit = -1;
    json_num(json_get(body, "offset"), &offset);
    bool limited = json_num(json_get(body, "limit"), &limit);
    double lo = ceil(offset < 0 ? 0 : offset), hi = ceil(offset + limit);
    q->first = (long)fmin(lo, QUERY_MAX_WINDOW);
    q->count = !limited ? -1 : hi > lo ? (long)fmin(hi - lo, QUERY_MAX_WINDOW) : 0;
}

/* /submit's options: config.language, config.extra.is_freeform and allow_exit_status. */
static void parse_submit_options(const struct json *config, struct query *q)
{
    bool freeform;
    const struct json *extra = json_get(config, "extra");
    q->language = NULL;
    json_str(json_get(config, "language"), &q->language);
    q->freeform = json_bool(json_get(extra, "is_freeform"), &freeform) ? (int)freeform : -1;
    q->allow_exit_status = false;
    json_bool(json_get(extra, "allow_exit_status"), &q->allow_exit_status);
}

int query_parse(const struct json *body, enum query_route route, struct query *q,
                struct request_error *e)
{
    const struct json *config = NULL;
    *q = (struct query){.count = -1, .freeform = -1};
    int rc = parse_common(body, &config, q, e);
    if (rc == 0 && route == QUERY_SUBMIT && !json_str(json_get(body, "completion"), &q->completion))
        rc = request_fail(e, "missing", "Field required (a string)", "completion", NULL, NULL);
    if (rc < 0)
        return rc;
    if (route == QUERY_PROMPTS)
        parse_window(body, q);
    if (route == QUERY_SUBMIT)
        parse_submit_options(config, q);
    q->has_id = loader_id(json_get(body, "id"), q->id, sizeof(q->id));
    const struct json *provided = json_get(config, "provided_data");
    if (provided && !json_is_null(provided))
        rc = parse_provided(provided, route == QUERY_PROMPT || route == QUERY_SUBMIT, q);
    if (rc < 0)
        query_fini(q);
    return rc;
}

void query_fini(struct query *q)
{
    json_free(q->provided);
    q->provided = NULL;
}
