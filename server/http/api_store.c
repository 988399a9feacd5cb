/*
 * api_store: the results store's JSON routes (GET /v1/submissions, /v1/submissions/{id},
 * /v1/runs, /v1/runs/{id}, POST /v1/runs, GET /v1/datasets, /v1/datasets/{name}), GET
 * /v1/stats (from memory: server/http/stats), the store's health, and the dashboard token.
 *
 * Threads: the HTTP thread validates the query (422 naming the field) and hands it to
 * store_query; the answer comes on the store's reader thread, which replies (http_reply is
 * safe from any thread) and, for the datasets' routes, reads the dataset registry there too,
 * so neither the HTTP thread nor a judging worker waits on SQLite.
 */
#include "server/http/api_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/http/run_body.h"
#include "server/util/strset.h"

#define MAX_FILTER 256 /* bytes of one query filter's value */

/* ---- the token ---------------------------------------------------------------------------- */

bool api_token_matches(struct api *a, const char *token)
{
    const char *want = a->cfg.dashboard_token;
    if (!want || !*want || !token)
        return false;
    size_t n = strlen(want), m = strlen(token);
    unsigned char diff = n != m;
    for (size_t i = 0; i < n; i++) /* as long as the secret, whatever the guess */
        diff |= (unsigned char)want[i] ^ (unsigned char)(i < m ? token[i] : 0);
    return diff == 0;
}

bool api_dashboard_allowed(struct api *a, struct http_exchange *x)
{
    const char *want = a->cfg.dashboard_token;
    if (!want || !*want) {
        if (a->loopback)
            return true;
        api_reply_detail(a, x, 403,
                         "the dashboard and the store's routes show code and outputs, and the "
                         "server is listening beyond loopback: start the server with "
                         "--dashboard-token");
        return false;
    }
    const char *auth = http_header(x, "Authorization");
    const char *token = NULL;
    if (auth && strncasecmp(auth, "Bearer ", 7) == 0)
        token = auth + 7;
    else
        token = http_cookie(x, "verdict_token");
    if (api_token_matches(a, token))
        return true;
    http_add_header(x, "WWW-Authenticate", "Bearer");
    api_reply_detail(a, x, 401,
                     token ? "wrong dashboard token"
                           : "the dashboard token is required (Authorization: Bearer TOKEN, or "
                             "open /?token=TOKEN once)");
    return false;
}

/* ---- the store's health --------------------------------------------------------------------- */

struct json *api_store_health(struct api *a, bool deleted)
{
    struct json *o = json_object();
    struct store *s = api_store(a);
    json_set_bool(o, "enabled", s != NULL);
    struct store_stats st;
    memset(&st, 0, sizeof(st));
    if (s)
        store_get_stats(s, &st);
    json_set_bool(o, "ok", s && st.ok);
    json_set_num(o, "queued", (double)st.queued);
    json_set_num(o, "written", (double)st.written);
    json_set_num(o, "dropped", (double)st.dropped);
    json_set_num(o, "errors", (double)st.errors);
    if (deleted)
        json_set_num(o, "deleted", (double)st.deleted);
    json_set_num(o, "db_bytes", (double)st.db_bytes);
    if (st.last_error[0])
        json_set_str(o, "last_error", st.last_error);
    else
        json_set_null(o, "last_error");
    return o;
}

/* ---- /v1/stats -------------------------------------------------------------------------- */

void api_sample(void *arg, struct stats_sample *out)
{
    struct api *a = arg;
    struct sched_stats st;
    struct pool_stats ps;
    sched_get_stats(a->cfg.sched, &st);
    pool_get_stats(a->cfg.pool, &ps);
    *out = (struct stats_sample){st.queued, st.running, ps.busy};
}

void api_stats(struct api *a, struct http_exchange *x)
{
    struct json *d = json_object();
    stats_render(a->stats, d);
    json_set_num(d, "uptime_s", (double)(time(NULL) - a->started));
    struct sched_stats st;
    struct pool_stats ps;
    sched_get_stats(a->cfg.sched, &st);
    pool_get_stats(a->cfg.pool, &ps);
    struct json *q = json_set(d, "queue", json_object());
    json_set_num(q, "queued", st.queued);
    json_set_num(q, "running", st.running);
    json_set_num(q, "capacity", st.capacity);
    json_set_num(d, "in_flight", st.running);
    struct json *c = json_set(d, "cells", json_object());
    json_set_num(c, "started", ps.cells);
    json_set_num(c, "busy", ps.busy);
    json_set_num(c, "max", ps.max);
    json_set(d, "store", api_store_health(a, false));
    api_reply_json(a, x, 200, d);
}

/* ---- queries ---------------------------------------------------------------------------- */

struct asked {
    struct api *api;
    struct http_exchange *x;
    enum store_query_kind kind;
    int64_t id;
    char name[80]; /* /v1/datasets/{name} */
};

/* The store is off: 404 (true), else false. */
static bool store_off(struct api *a, struct http_exchange *x)
{
    if (api_store(a))
        return false; /* (a route that then finds it detached is answered 503 by store_query) */
    api_reply_detail(a, x, 404, "the store is off (--store off)");
    return true;
}

static void datasets_answer(struct asked *q, struct json *doc);
static void dataset_answer(struct asked *q, struct json *doc);

/* store_answer_fn: on the reader thread (or at once with 503). */
static void answered(void *arg, struct json *doc, int status, const char *why)
{
    struct asked *q = arg;
    struct api *a = q->api;
    char msg[200];
    if (!doc && status == 404) {
        snprintf(msg, sizeof(msg), "no %s %lld",
                 q->kind == STORE_GET_SUBMISSION ? "submission" : "run", (long long)q->id);
        api_reply_detail(a, q->x, 404, msg);
    } else if (!doc) {
        snprintf(msg, sizeof(msg), "the store cannot answer: %.150s", why ? why : "unknown");
        if (status == 503)
            http_add_header(q->x, "Retry-After", "1");
        api_reply_detail(a, q->x, status ? status : 503, msg);
    } else if (q->kind == STORE_DATASET_STATS) {
        datasets_answer(q, doc);
    } else if (q->kind == STORE_PROBLEM_STATS) {
        dataset_answer(q, doc);
    } else {
        api_reply_json(a, q->x, 200, doc);
    }
    free(q);
}

static void ask(struct api *a, struct http_exchange *x, const struct store_filter *f,
                const char *name)
{
    struct asked *q = calloc(1, sizeof(*q));
    if (!q) {
        api_reply_detail(a, x, 500, "out of memory");
        return;
    }
    *q = (struct asked){a, x, f->kind, f->id, ""};
    if (name)
        snprintf(q->name, sizeof(q->name), "%s", name);
    store_query(api_store(a), f, answered, q); /* NULL (detached since): 503 at once */
}

/* A query argument that must be an integer in [lo, hi]: false after a 422. Absent: *v kept. */
static bool query_int(struct api *a, struct http_exchange *x, const char *name, int64_t lo,
                      int64_t hi, int64_t *v)
{
    const char *s = http_query(x, name);
    if (!s)
        return true;
    char *end;
    errno = 0;
    long long n = strtoll(s, &end, 10);
    if (!*s || *end || errno || n < lo || n > hi) {
        char msg[160];
        snprintf(msg, sizeof(msg), "%s must be an integer from %lld to %lld", name, (long long)lo,
                 (long long)hi);
        api_reply_422_in(a, x, "query", "int_parsing", name, msg);
        return false;
    }
    *v = n;
    return true;
}

/* A text filter: NULL or "" for none; false after a 422 (too long). */
static bool query_text(struct api *a, struct http_exchange *x, const char *name, const char **v)
{
    const char *s = http_query(x, name);
    if (s && strlen(s) > MAX_FILTER) {
        api_reply_422_in(a, x, "query", "string_too_long", name, "a filter is at most 256 bytes");
        return false;
    }
    *v = s && *s ? s : NULL;
    return true;
}

/* limit and before of a list: false after a 422. */
static bool query_page(struct api *a, struct http_exchange *x, struct store_filter *f)
{
    int64_t limit = 50, before = 0;
    if (!query_int(a, x, "limit", 1, STORE_MAX_LIMIT, &limit) ||
        !query_int(a, x, "before", 1, INT64_MAX, &before))
        return false;
    f->limit = (int)limit;
    f->before = before;
    return true;
}

void api_list_submissions(struct api *a, struct http_exchange *x)
{
    if (store_off(a, x))
        return;
    struct store_filter f = {.kind = STORE_LIST_SUBMISSIONS};
    if (!query_page(a, x, &f) || !query_text(a, x, "language", &f.language) ||
        !query_text(a, x, "verdict", &f.verdict) || !query_text(a, x, "dataset", &f.dataset) ||
        !query_text(a, x, "problem", &f.problem) || !query_text(a, x, "route", &f.route) ||
        !query_text(a, x, "client", &f.client) || !query_text(a, x, "grading", &f.grading))
        return;
    enum verdict v;
    if (f.verdict && verdict_parse(f.verdict, &v) < 0) {
        api_reply_422_in(a, x, "query", "enum", "verdict",
                         "verdict must be one of OK WA TLE MLE OLE RE CE SE");
        return;
    }
    enum judge_grading g;
    if (f.grading && (judge_grading_parse(f.grading, &g) < 0 || g == JUDGE_GRADING_NONE)) {
        api_reply_422_in(a, x, "query", "enum", "grading",
                         "grading must be one of isolated output in-process exit-status");
        return;
    }
    ask(a, x, &f, NULL);
}

void api_list_runs(struct api *a, struct http_exchange *x)
{
    if (store_off(a, x))
        return;
    struct store_filter f = {.kind = STORE_LIST_RUNS};
    if (!query_page(a, x, &f) || !query_text(a, x, "dataset", &f.dataset))
        return;
    ask(a, x, &f, NULL);
}

/* The last path segment (after the route's prefix). */
static const char *path_param(struct http_exchange *x)
{
    const char *slash = strrchr(http_path(x), '/');
    return slash ? slash + 1 : "";
}

/* The {id} of the path: false after a 422. */
static bool path_id(struct api *a, struct http_exchange *x, int64_t *id)
{
    const char *s = path_param(x);
    char *end;
    errno = 0;
    long long n = strtoll(s, &end, 10);
    if (!*s || *end || errno || n < 1) {
        api_reply_422_in(a, x, "path", "int_parsing", "id", "id must be a positive integer");
        return false;
    }
    *id = n;
    return true;
}

void api_get_submission(struct api *a, struct http_exchange *x)
{
    struct store_filter f = {.kind = STORE_GET_SUBMISSION};
    if (!store_off(a, x) && path_id(a, x, &f.id))
        ask(a, x, &f, NULL);
}

void api_get_run(struct api *a, struct http_exchange *x)
{
    struct store_filter f = {.kind = STORE_GET_RUN};
    if (!store_off(a, x) && path_id(a, x, &f.id))
        ask(a, x, &f, NULL);
}

/* ---- POST /v1/runs ------------------------------------------------------------------------ */

void api_post_run(struct api *a, struct http_exchange *x)
{
    if (store_off(a, x))
        return;
    size_t len;
    const char *body = http_body(x, &len), *why;
    char field[RUN_FIELD_LEN];
    struct json *doc = run_body_parse(body, len, field, &why); /* linear, bounded: run_body.h */
    if (!doc && why == RUN_BODY_OOM) {
        api_reply_detail(a, x, 500, "out of memory");
        return;
    }
    if (!doc) {
        api_reply_422(a, x, why == RUN_BODY_NOT_JSON ? "json_invalid" : "value_error",
                      field[0] ? field : NULL, NULL, why);
        return;
    }
    int64_t id = store_put_run(api_store(a), doc); /* consumed */
    if (id <= 0) {
        http_add_header(x, "Retry-After", "1");
        api_reply_detail(a, x, 503, "the store's queue is full; retry");
        return;
    }
    struct json *r = json_object();
    json_set_num(r, "id", (double)id);
    api_reply_json(a, x, 201, r);
}

/* ---- /v1/datasets ------------------------------------------------------------------------- */

static void copy_counts(struct json *to, const struct json *from)
{
    double n = 0;
    json_num(json_get(from, "submissions"), &n);
    json_set_num(to, "submissions", n);
    n = 0;
    json_num(json_get(from, "passed"), &n);
    json_set_num(to, "passed", n);
    const struct json *bv = json_get(from, "by_verdict");
    json_set(to, "by_verdict", bv ? json_dup(bv) : json_object());
}

void api_store_datasets(struct api *a, struct http_exchange *x)
{
    struct store_filter f = {.kind = STORE_DATASET_STATS};
    if (!store_off(a, x))
        ask(a, x, &f, NULL);
}

/* On the reader thread: the registry's datasets with the store's counts, then the datasets
 * only the store knows (submissions with provided_data). */
static void datasets_answer(struct asked *q, struct json *doc)
{
    struct json *reg = q->api->cfg.datasets ? dataset_list(q->api->cfg.datasets) : NULL;
    const struct json *stats = json_get(doc, "datasets");
    struct strset *seen = strset_new();
    struct json *out = json_object();
    struct json *list = json_set(out, "datasets", json_array());
    for (const struct json *d = json_first(reg); d; d = json_next(d)) {
        const char *name = json_get_str(d, "name");
        if (!name)
            continue;
        strset_add(seen, name, 0, NULL);
        struct json *o = json_push(list, json_object());
        json_set_str(o, "name", name);
        json_set_str(o, "format", json_get_str(d, "format"));
        double n = 0;
        json_num(json_get(d, "problems"), &n);
        json_set_num(o, "problems", n);
        const struct json *st = NULL;
        for (const struct json *s = json_first(stats); s && !st; s = json_next(s))
            if (json_get_str(s, "name") && strcmp(json_get_str(s, "name"), name) == 0)
                st = s;
        copy_counts(o, st);
    }
    for (const struct json *s = json_first(stats); s; s = json_next(s)) {
        const char *name = json_get_str(s, "name");
        if (!name || (seen && strset_find(seen, name, NULL)))
            continue;
        struct json *o = json_push(list, json_object());
        json_set_str(o, "name", name);
        json_set_null(o, "format");
        json_set_null(o, "problems");
        copy_counts(o, s);
    }
    strset_free(seen);
    json_free(reg);
    json_free(doc);
    api_reply_json(q->api, q->x, 200, out);
}

void api_store_dataset(struct api *a, struct http_exchange *x)
{
    if (store_off(a, x))
        return;
    const char *name = path_param(x);
    if (!dataset_name_ok(name)) {
        api_reply_422_in(a, x, "path", "string_pattern_mismatch", "name",
                         "a dataset name is 1 to 64 of [a-z0-9_]");
        return;
    }
    struct store_filter f = {.kind = STORE_PROBLEM_STATS, .dataset = name};
    ask(a, x, &f, name);
}

/* On the reader thread: every registry problem (in source order) with the store's counts,
 * then the problems only the store knows; 404 when neither knows the dataset. */
static void dataset_answer(struct asked *q, struct json *doc)
{
    struct dataset_store *reg = q->api->cfg.datasets;
    struct json *list = reg ? dataset_list(reg) : NULL;
    struct json *ids = reg ? dataset_ids(reg, q->name) : NULL;
    const struct json *stats = json_get(doc, "problems");
    if (!ids && json_len(stats) == 0) {
        json_free(list);
        json_free(doc);
        char msg[160];
        snprintf(msg, sizeof(msg), "no dataset %s", q->name);
        api_reply_detail(q->api, q->x, 404, msg);
        return;
    }
    struct json *out = json_object();
    json_set_str(out, "name", q->name);
    json_set_null(out, "format");
    for (const struct json *d = json_first(list); d; d = json_next(d))
        if (json_get_str(d, "name") && strcmp(json_get_str(d, "name"), q->name) == 0)
            json_set_str(out, "format", json_get_str(d, "format"));
    /* the store's rows by problem id (index into stats) */
    struct strset *by_id = strset_new();
    int nstats = json_len(stats);
    const struct json **rows = calloc((size_t)nstats + 1, sizeof(*rows));
    long i = 0;
    for (const struct json *s = json_first(stats); s && rows; s = json_next(s), i++) {
        rows[i] = s;
        if (json_get_str(s, "problem"))
            strset_add(by_id, json_get_str(s, "problem"), i, NULL);
    }
    double subs = 0, passed = 0;
    struct json *totals = json_object();
    struct json *problems = json_array();
    struct strset *listed = strset_new();
    for (int pass = 0; pass < 2; pass++) {
        const struct json *e = pass == 0 ? json_first(ids) : json_first(stats);
        for (; e; e = json_next(e)) {
            const char *id = pass == 0 ? NULL : json_get_str(e, "problem");
            if (pass == 0)
                json_str(e, &id);
            if (!id || (listed && strset_add(listed, id, 0, NULL) == 0))
                continue;
            long at;
            const struct json *st = pass == 1                                      ? e
                                    : rows && by_id && strset_find(by_id, id, &at) ? rows[at]
                                                                                   : NULL;
            struct json *o = json_push(problems, json_object());
            json_set_str(o, "id", id);
            copy_counts(o, st);
            double n = 0;
            json_num(json_get(o, "submissions"), &n);
            subs += n;
            n = 0;
            json_num(json_get(o, "passed"), &n);
            passed += n;
            for (const struct json *v = json_first(json_get(o, "by_verdict")); v;
                 v = json_next(v)) {
                double c = 0, had = 0;
                json_num(v, &c);
                json_num(json_get(totals, json_key(v)), &had);
                json_set_num(totals, json_key(v), had + c);
            }
        }
    }
    json_set_num(out, "submissions", subs);
    json_set_num(out, "passed", passed);
    json_set(out, "by_verdict", totals);
    json_set(out, "problems", problems);
    strset_free(listed);
    strset_free(by_id);
    free(rows);
    json_free(ids);
    json_free(list);
    json_free(doc);
    api_reply_json(q->api, q->x, 200, out);
}
