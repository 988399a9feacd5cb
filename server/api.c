/*
 * api: routes and the SandboxFusion-compatible /run_code.
 *
 * /run_code follows ../shared/reference/sandboxfusion-api.md §1 field for field: `status` is
 * Success / Failed / SandboxError, `compile_result` and `run_result` are CommandRunResults
 * (Finished / TimeLimitExceeded / Error, execution_time, return_code, stdout, stderr), `files`
 * holds the fetched files in base64. Differences, kept to what clients cannot depend on:
 * - `language` defaults to python when absent (a veRL tutorial sends none) and `c` is
 *   accepted; languages verdict does not offer are refused with 422 rather than failing later.
 * - Each CommandRunResult also carries verdict's own `verdict` (OK/RE/TLE/MLE/OLE/SE),
 *   `cpu_time`, `memory_kib`, `memory_limit_exceeded` and `output_truncated`.
 * - run_timeout limits CPU time and wall time alike (SandboxFusion's is wall clock only);
 *   compile_timeout likewise for the compile step.
 * - Files are relative to the work dir; absolute paths are refused (the root is read-only).
 */
#include "server/api.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/base64.h"
#include "server/harness.h"
#include "server/json.h"
#include "server/judge.h"
#include "server/loader.h"
#include "server/metrics.h"
#include "server/openapi.h"
#include "server/program.h"
#include "server/sha256.h"

#define MAX_TIMEOUT_S 300.0
#define MAX_MEMORY_MB 65536
#define MAX_FILES     256

struct api {
    struct api_config cfg;
    struct program_env env;
    struct metrics *metrics;
    time_t started;
    atomic_ulong answered;
};

/* ---- replies ----------------------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void reply_json(struct api *a, struct http_exchange *x, int status, struct json *doc)
{
    char *text = json_render(doc, false);
    json_free(doc);
    atomic_fetch_add(&a->answered, 1);
    metrics_request(a->metrics, http_path(x), text ? status : 500);
    if (!text) {
        char *oom = strdup("{\"detail\":\"out of memory\"}");
        http_reply(x, 500, "application/json", oom, oom ? strlen(oom) : 0);
        return;
    }
    http_reply(x, status, "application/json", text, strlen(text));
}

static void reply_detail(struct api *a, struct http_exchange *x, int status, const char *detail)
{
    struct json *d = json_object();
    json_set_str(d, "detail", detail);
    reply_json(a, x, status, d);
}

/* FastAPI's validation error: {"detail": [{"type", "loc": ["body", field...], "msg"}]}. */
static void reply_422_at(struct api *a, struct http_exchange *x, const char *type,
                         const char *const *locs, int nloc, const char *msg)
{
    struct json *d = json_object();
    struct json *e = json_push(json_set(d, "detail", json_array()), json_object());
    json_set_str(e, "type", type);
    struct json *loc = json_set(e, "loc", json_array());
    json_push_str(loc, "body");
    for (int i = 0; i < nloc; i++)
        if (locs[i])
            json_push_str(loc, locs[i]);
    json_set_str(e, "msg", msg);
    reply_json(a, x, 422, d);
}

static void reply_422(struct api *a, struct http_exchange *x, const char *type, const char *field,
                      const char *sub, const char *msg)
{
    const char *locs[2] = {field, sub};
    reply_422_at(a, x, type, locs, 2, msg);
}

/* ---- /run_code ------------------------------------------------------------------------- */

struct run_code {
    struct api *api;
    struct http_exchange *x;
    double queued_at; /* when it entered the scheduler's queue */
    double deadline;  /* when the client gives up (veRL: compile + run timeouts + 10 s) */
    const struct lang *lang;
    int nfiles;
    struct job_file files[MAX_FILES + 1]; /* [0] is the source */
    uint8_t *data[MAX_FILES + 1];
    char *paths[MAX_FILES + 1];
    uint8_t *in;
    size_t in_len;
    int nfetch;
    char *fetch[MAX_FILES];
    struct job_limits compile, run;
};

static void run_code_free(struct run_code *r)
{
    for (int i = 0; i < r->nfiles; i++) {
        free(r->data[i]);
        free(r->paths[i]);
    }
    for (int i = 0; i < r->nfetch; i++)
        free(r->fetch[i]);
    free(r->in);
    free(r);
}

/* A number of seconds in (0, MAX_TIMEOUT_S], or the default when absent. */
static int seconds(const struct json *req, const char *key, double def, int64_t *ms)
{
    const struct json *v = json_get(req, key);
    double s = def;
    if (v && !json_num(v, &s))
        return -EINVAL;
    if (!(s > 0) || s > MAX_TIMEOUT_S || !isfinite(s))
        return -ERANGE;
    *ms = (int64_t)ceil(s * 1000);
    return 0;
}

static bool parse_limits(struct api *a, struct http_exchange *x, const struct json *req,
                         struct run_code *r)
{
    int64_t cms, rms;
    if (seconds(req, "compile_timeout", 10, &cms) < 0) {
        reply_422(a, x, "value_error", "compile_timeout", NULL,
                  "compile_timeout must be a number of seconds in (0, 300]");
        return false;
    }
    if (seconds(req, "run_timeout", 10, &rms) < 0) {
        reply_422(a, x, "value_error", "run_timeout", NULL,
                  "run_timeout must be a number of seconds in (0, 300]");
        return false;
    }
    r->compile.cpu_ms = r->compile.wall_ms = cms;
    r->run.cpu_ms = r->run.wall_ms = rms;
    const struct json *m = json_get(req, "memory_limit_MB");
    double mb = -1;
    if (m && (!json_num(m, &mb) || mb != floor(mb) || mb > MAX_MEMORY_MB)) {
        reply_422(a, x, "int_parsing", "memory_limit_MB", NULL,
                  "memory_limit_MB must be a whole number of MiB up to 65536 (-1: default)");
        return false;
    }
    if (mb > 0)
        r->run.memory_bytes = (uint64_t)mb << 20;
    return true;
}

static bool add_file(struct run_code *r, const char *path, uint8_t *data, size_t len)
{
    char *p = strdup(path);
    if (!p) {
        free(data);
        return false;
    }
    r->paths[r->nfiles] = p;
    r->data[r->nfiles] = data;
    r->files[r->nfiles] = (struct job_file){p, 0644, data, len};
    r->nfiles++;
    return true;
}

static bool parse_files(struct api *a, struct http_exchange *x, const struct json *req,
                        struct run_code *r)
{
    const struct json *files = json_get(req, "files");
    if (files && !json_is_object(files)) {
        reply_422(a, x, "dict_type", "files", NULL, "files must be an object of path: base64");
        return false;
    }
    for (int i = 0; i < json_members(files); i++) {
        const struct json *m = json_member(files, i);
        const char *path = json_key(m), *b64;
        size_t len;
        if (json_str(m, &b64) == false)
            continue; /* null: skipped, as SandboxFusion does */
        if (strstr(path, "IGNORE_THIS_FILE"))
            continue;
        if (!job_path_ok(path) || strcmp(path, r->lang->source) == 0) {
            reply_422(a, x, "value_error", "files", path,
                      "file paths must be relative to the work dir, without ..");
            return false;
        }
        uint8_t *data = base64_decode(b64, &len);
        if (!data) {
            reply_422(a, x, "value_error", "files", path, "not valid base64");
            return false;
        }
        if (r->nfiles > MAX_FILES || !add_file(r, path, data, len)) {
            reply_422(a, x, "value_error", "files", NULL, "too many files");
            return false;
        }
    }
    const struct json *fetch = json_get(req, "fetch_files");
    if (fetch && !json_is_array(fetch)) {
        reply_422(a, x, "list_type", "fetch_files", NULL, "fetch_files must be a list of paths");
        return false;
    }
    for (int i = 0; i < json_len(fetch) && r->nfetch < MAX_FILES; i++) {
        const char *p;
        if (!json_str(json_at(fetch, i), &p)) {
            reply_422(a, x, "string_type", "fetch_files", NULL, "fetch_files must hold strings");
            return false;
        }
        if (job_path_ok(p) && !(r->fetch[r->nfetch] = strdup(p)))
            return false;
        r->nfetch += job_path_ok(p); /* others cannot exist in the sandbox: omitted */
    }
    return true;
}

/* Validates a /run_code body into r; on failure the 422 has been sent. */
static bool parse_run_code(struct api *a, struct http_exchange *x, struct run_code *r)
{
    size_t len;
    struct json *req = json_parse(http_body(x, &len));
    bool ok = false;
    const char *code = NULL, *lang = "python";
    if (!req) {
        reply_422(a, x, "json_invalid", NULL, NULL, "JSON decode error");
        return false;
    }
    const struct json *lv = json_get(req, "language"), *sv = json_get(req, "stdin");
    if (!json_is_object(req))
        reply_422(a, x, "model_attributes_type", NULL, NULL, "Input should be an object");
    else if (!json_str(json_get(req, "code"), &code))
        reply_422(a, x, json_get(req, "code") ? "string_type" : "missing", "code", NULL,
                  json_get(req, "code") ? "Input should be a valid string" : "Field required");
    else if (lv && !json_is_null(lv) && !json_str(lv, &lang))
        reply_422(a, x, "string_type", "language", NULL, "Input should be a valid string");
    else if (!(r->lang = lang_find(a->cfg.langs, lang)))
        reply_422(a, x, "enum", "language", NULL, "unsupported language");
    else if (!r->lang->available)
        reply_422(a, x, "enum", "language", NULL, "language unavailable on this server");
    else if (sv && !json_is_null(sv) && !json_is_string(sv))
        reply_422(a, x, "string_type", "stdin", NULL, "Input should be a valid string or null");
    else
        ok = true;
    if (ok && sv && !json_is_null(sv)) {
        const char *in;
        json_str(sv, &in);
        r->in_len = strlen(in);
        ok = (r->in = (uint8_t *)strdup(in)) != NULL;
    }
    if (ok) {
        size_t n = strlen(code);
        uint8_t *src = malloc(n + 1);
        ok = src && (memcpy(src, code, n + 1), add_file(r, r->lang->source, src, n));
    }
    ok = ok && parse_limits(a, x, req, r) && parse_files(a, x, req, r);
    json_free(req);
    return ok;
}

/* A CommandRunResult from one of our results. */
static struct json *command_result(const struct job_result *r)
{
    struct json *o = json_object();
    const char *status = r->status == JOB_TLE  ? "TimeLimitExceeded"
                         : r->status == JOB_SE ? "Error"
                                               : "Finished";
    json_set_str(o, "status", status);
    if (r->status == JOB_SE)
        json_set_null(o, "execution_time");
    else
        json_set_num(o, "execution_time", (double)r->wall_ms / 1000.0);
    if (r->status == JOB_TLE || r->status == JOB_SE)
        json_set_null(o, "return_code");
    else
        json_set_num(o, "return_code", r->signal ? -r->signal : r->exit_code);
    json_set_bytes(o, "stdout", r->out, r->out_len);
    if (r->status == JOB_SE)
        json_set_str(o, "stderr", r->message);
    else
        json_set_bytes(o, "stderr", r->err, r->err_len);
    /* verdict's own, beside SandboxFusion's fields. */
    json_set_str(o, "verdict", job_status_name(r->status));
    json_set_num(o, "cpu_time", (double)r->cpu_ms / 1000.0);
    json_set_num(o, "memory_kib", (double)r->memory_kib);
    json_set_bool(o, "memory_limit_exceeded", r->status == JOB_MLE);
    json_set_bool(o, "output_truncated", r->stdout_truncated || r->stderr_truncated);
    if (r->status != JOB_OK && r->status != JOB_SE && r->message[0])
        json_set_str(o, "reason", r->message);
    return o;
}

/* The compile step as SandboxFusion reports it: a CE is a finished compiler with exit 1. */
static struct json *compile_result(const struct program *p)
{
    struct json *o = json_object();
    bool tle = !p->cached && p->compile.status == JOB_TLE;
    json_set_str(o, "status", tle ? "TimeLimitExceeded" : "Finished");
    json_set_num(o, "execution_time", p->cached ? 0.0 : (double)p->compile.wall_ms / 1000.0);
    if (tle)
        json_set_null(o, "return_code");
    else
        json_set_num(o, "return_code", p->ok ? 0 : 1);
    json_set_str(o, "stdout", "");
    json_set_str(o, "stderr", p->message ? p->message : "");
    json_set_str(o, "verdict", p->ok ? "OK" : "CE");
    json_set_bool(o, "cached", p->cached);
    return o;
}

static void run_code_work(void *arg)
{
    struct run_code *r = arg;
    struct api *a = r->api;
    double started = now_s();
    metrics_observe(a->metrics, HIST_QUEUE, started - r->queued_at);
    if (started > r->deadline) { /* its client has given up: say so (veRL retries a 504) */
        reply_detail(a, r->x, 504, "the request waited in the queue past its deadline");
        run_code_free(r);
        return;
    }
    struct program p;
    char err[ERR_LEN] = "";
    struct json *d = json_object();
    int rc = program_build(&a->env, r->lang, r->files, r->nfiles, &r->compile, &p, err);
    const char *status = "Success", *message = "";
    struct job_result res;
    uint8_t *payload = NULL;
    memset(&res, 0, sizeof(res));
    bool ran = false;
    if (rc == 0 && r->lang->compiled && !p.cached)
        metrics_observe(a->metrics, HIST_COMPILE, (double)p.compile.wall_ms / 1000.0);
    if (rc < 0) {
        status = "SandboxError";
        message = err;
        metrics_verdict(a->metrics, r->lang, "SE");
    } else if (!p.ok) {
        status = "Failed";
        metrics_verdict(a->metrics, r->lang, "CE");
    } else {
        struct program_io io = {.in = r->in,
                                .in_len = r->in_len,
                                .limits = &r->run,
                                .nfetch = r->nfetch,
                                .fetch = (const char *const *)r->fetch};
        program_run(&a->env, &p, &io, &res, &payload);
        ran = true;
        metrics_observe(a->metrics, HIST_RUN, (double)res.wall_ms / 1000.0);
        metrics_verdict(a->metrics, r->lang, job_status_name(res.status));
        if (res.status == JOB_SE) {
            status = "SandboxError";
            message = res.message;
        } else if (res.status != JOB_OK) {
            status = "Failed";
        }
    }
    json_set_str(d, "status", status);
    json_set_str(d, "message", message);
    if (rc == 0 && r->lang->compiled)
        json_set(d, "compile_result", compile_result(&p));
    else
        json_set_null(d, "compile_result");
    if (ran)
        json_set(d, "run_result", command_result(&res));
    else
        json_set_null(d, "run_result");
    json_set_null(d, "executor_pod_name");
    struct json *files = json_set(d, "files", json_object());
    for (int i = 0; ran && i < res.nfetched; i++) {
        const struct job_fetched *f = &res.fetched[i];
        char *b64 = f->error ? NULL : base64_encode(f->data, f->len);
        if (b64)
            json_set_str(files, f->path, b64);
        free(b64);
    }
    reply_json(a, r->x, 200, d);
    if (ran)
        job_result_fini(&res);
    free(payload);
    if (rc == 0)
        program_free(&a->env, &p);
    run_code_free(r);
}

static void run_code(struct api *a, struct http_exchange *x)
{
    struct run_code *r = calloc(1, sizeof(*r));
    if (!r) {
        reply_detail(a, x, 500, "out of memory");
        return;
    }
    r->api = a;
    r->x = x;
    if (!parse_run_code(a, x, r)) {
        run_code_free(r);
        return;
    }
    r->queued_at = now_s();
    r->deadline = r->queued_at + (double)(r->compile.wall_ms + r->run.wall_ms) / 1000.0 + 10.0;
    int rc = sched_submit(a->cfg.sched, run_code_work, r);
    if (rc == 0)
        return; /* answered by a worker; the connection waits suspended */
    run_code_free(r);
    http_add_header(x, "Retry-After", "1");
    reply_detail(a, x, 503,
                 rc == -EBUSY ? "server busy: the queue is full, retry" : "server shutting down");
}

/* ---- /v1/judge ------------------------------------------------------------------------- */

struct judge_work {
    struct api *api;
    struct http_exchange *x;
    struct judge_request *req;
};

static void judge_work(void *arg)
{
    struct judge_work *w = arg;
    struct json *d = judge_run(&w->api->env, w->req);
    const char *status;
    if (json_str(json_get(d, "status"), &status) && strcmp(status, "OK") != 0)
        metrics_verdict(w->api->metrics, judge_language(w->req), status); /* CE or SE */
    const struct json *tests = json_get(d, "tests");
    for (int i = 0; i < json_len(tests); i++) {
        const char *v;
        double ms;
        if (json_str(json_get(json_at(tests, i), "verdict"), &v))
            metrics_verdict(w->api->metrics, judge_language(w->req), v);
        if (json_num(json_get(json_at(tests, i), "wall_ms"), &ms))
            metrics_observe(w->api->metrics, HIST_RUN, ms / 1000.0);
    }
    reply_json(w->api, w->x, 200, d);
    judge_request_free(w->req);
    free(w);
}

static void judge(struct api *a, struct http_exchange *x)
{
    size_t len;
    struct json *body = json_parse(http_body(x, &len));
    if (!body) {
        reply_422(a, x, "json_invalid", NULL, NULL, "JSON decode error");
        return;
    }
    struct judge_error e;
    struct judge_request *req = NULL;
    int rc = judge_parse(a->cfg.langs, body, &req, &e);
    json_free(body);
    if (rc < 0) {
        const char *locs[3] = {e.loc[0], e.loc[1], e.loc[2]};
        reply_422_at(a, x, e.type, locs, e.nloc, e.msg);
        return;
    }
    struct judge_work *w = malloc(sizeof(*w));
    if (!w) {
        judge_request_free(req);
        reply_detail(a, x, 500, "out of memory");
        return;
    }
    *w = (struct judge_work){a, x, req};
    if ((rc = sched_submit(a->cfg.sched, judge_work, w)) == 0)
        return;
    judge_request_free(req);
    free(w);
    http_add_header(x, "Retry-After", "1");
    reply_detail(a, x, 503,
                 rc == -EBUSY ? "server busy: the queue is full, retry" : "server shutting down");
}

/* ---- /v1/judge/batch ---------------------------------------------------------------------
 * Many programs in one request, answered as NDJSON in completion order, one line per item:
 * {"id": ..., "result": {...as /v1/judge...}} or {"id": ..., "error": {type, loc, msg}}.
 * Items that are the same program with the same tests (everything but the id) are judged
 * once and the result given to each. */

#define MAX_BATCH 4096

struct batch {
    struct api *api;
    struct http_exchange *x;
    pthread_mutex_t lock;
    int remaining; /* programs not yet answered (+1 while the handler is still submitting) */
};

struct batch_job {
    struct batch *b;
    struct judge_request *req;
    int nids;
    char **ids; /* rendered JSON of each item's id */
};

static void batch_line(struct batch *b, const char *id, const char *field, struct json *value)
{
    char *v = json_render(value, false);
    size_t n = strlen(id) + (v ? strlen(v) : 4) + strlen(field) + 16;
    char *line = malloc(n);
    if (line) {
        int len = snprintf(line, n, "{\"id\":%s,\"%s\":%s}\n", id, field, v ? v : "null");
        http_stream_write(b->x, line, (size_t)len);
    }
    free(line);
    free(v);
}

static void batch_done(struct batch *b)
{
    pthread_mutex_lock(&b->lock);
    bool last = --b->remaining == 0;
    pthread_mutex_unlock(&b->lock);
    if (last) {
        metrics_request(b->api->metrics, "/v1/judge/batch", 200);
        atomic_fetch_add(&b->api->answered, 1);
        http_stream_end(b->x);
        pthread_mutex_destroy(&b->lock);
        free(b);
    }
}

static void batch_job_free(struct batch_job *j)
{
    for (int i = 0; i < j->nids; i++)
        free(j->ids[i]);
    free(j->ids);
    judge_request_free(j->req);
    free(j);
}

static void batch_work(void *arg)
{
    struct batch_job *j = arg;
    struct json *d = judge_run(&j->b->api->env, j->req);
    for (int i = 0; i < j->nids; i++)
        batch_line(j->b, j->ids[i], "result", d);
    json_free(d);
    struct batch *b = j->b;
    batch_job_free(j);
    batch_done(b);
}

/* What makes two items the same program: every member but the id, rendered. */
static void item_key(const struct json *item, char key[65])
{
    struct sha256 h;
    sha256_init(&h);
    for (int i = 0; i < json_members(item); i++) {
        const struct json *m = json_member(item, i);
        if (strcmp(json_key(m), "id") == 0)
            continue;
        char *v = json_render(m, false);
        sha256_update(&h, json_key(m), strlen(json_key(m)) + 1);
        if (v)
            sha256_update(&h, v, strlen(v) + 1);
        free(v);
    }
    sha256_hex(&h, key);
}

static void batch_error(struct batch *b, const char *id, const struct judge_error *e)
{
    struct json *err = json_object();
    json_set_str(err, "type", e->type);
    struct json *loc = json_set(err, "loc", json_array());
    for (int i = 0; i < e->nloc; i++)
        json_push_str(loc, e->loc[i]);
    json_set_str(err, "msg", e->msg);
    batch_line(b, id, "error", err);
    json_free(err);
}

static void batch_item(struct batch *b, const struct json *item, struct batch_job **jobs,
                       char (*keys)[65], int *njobs)
{
    const struct json *idv = json_get(item, "id");
    char *id = idv ? json_render(idv, false) : strdup("null");
    struct judge_error e;
    struct judge_request *req = NULL;
    if (!id)
        return;
    char key[65];
    item_key(item, key);
    for (int k = 0; k < *njobs; k++) {
        if (strcmp(keys[k], key) == 0) { /* the same program and tests: judged once */
            char **ids = realloc(jobs[k]->ids, (size_t)(jobs[k]->nids + 1) * sizeof(*ids));
            if (ids) {
                jobs[k]->ids = ids;
                ids[jobs[k]->nids++] = id;
                return;
            }
        }
    }
    if (judge_parse(b->api->cfg.langs, item, &req, &e) < 0) {
        batch_error(b, id, &e);
        free(id);
        return;
    }
    struct batch_job *j = calloc(1, sizeof(*j));
    char **ids = malloc(sizeof(*ids));
    if (!j || !ids) {
        free(j);
        free(ids);
        free(id);
        judge_request_free(req);
        return;
    }
    *j = (struct batch_job){b, req, 1, ids};
    ids[0] = id;
    memcpy(keys[*njobs], key, 65);
    jobs[(*njobs)++] = j;
}

static void judge_batch(struct api *a, struct http_exchange *x)
{
    size_t len;
    struct json *body = json_parse(http_body(x, &len));
    const struct json *items = json_get(body, "items");
    if (!body) {
        reply_422(a, x, "json_invalid", NULL, NULL, "JSON decode error");
        return;
    }
    if (!json_is_array(items) || json_len(items) == 0 || json_len(items) > MAX_BATCH) {
        json_free(body);
        reply_422(a, x, "list_type", "items", NULL, "items must be a list of 1 to 4096 programs");
        return;
    }
    int n = json_len(items);
    struct batch *b = calloc(1, sizeof(*b));
    struct batch_job **jobs = calloc((size_t)n, sizeof(*jobs));
    char(*keys)[65] = calloc((size_t)n, sizeof(*keys));
    if (!b || !jobs || !keys) {
        free(b);
        free(jobs);
        free(keys);
        json_free(body);
        reply_detail(a, x, 500, "out of memory");
        return;
    }
    b->api = a;
    b->x = x;
    pthread_mutex_init(&b->lock, NULL);
    b->remaining = 1; /* the handler's own, until everything is submitted */
    http_stream_begin(x, 200, "application/x-ndjson");
    int njobs = 0;
    for (int i = 0; i < n; i++)
        batch_item(b, json_at(items, i), jobs, keys, &njobs);
    json_free(body);
    for (int k = 0; k < njobs; k++) {
        pthread_mutex_lock(&b->lock);
        b->remaining++;
        pthread_mutex_unlock(&b->lock);
        if (sched_submit(a->cfg.sched, batch_work, jobs[k]) == 0)
            continue;
        struct judge_error e = {.nloc = 0};
        snprintf(e.type, sizeof(e.type), "busy");
        snprintf(e.msg, sizeof(e.msg), "server busy: the queue is full, retry this item");
        for (int i = 0; i < jobs[k]->nids; i++)
            batch_error(b, jobs[k]->ids[i], &e);
        batch_job_free(jobs[k]);
        batch_done(b);
    }
    free(jobs);
    free(keys);
    batch_done(b); /* the handler's reference */
}

/* ---- SandboxFusion's dataset endpoints ---------------------------------------------------
 * /list_datasets, /list_ids, /get_prompts, /get_prompt_by_id and /submit, with `config`
 * (TestConfig) honoured for provided_data (the problem's row inline), language and
 * extra.is_freeform; custom_extract_logic (Python their server exec's) is refused. /submit
 * extracts the code from the completion (fenced, incomplete fence, heuristic) unless
 * extra.is_freeform is false, when the completion continues the prompt as it is. */

/* The id as SandboxFusion shows it: a number when it is all digits. */
static void set_id(struct json *o, const char *id)
{
    char *end;
    long v = strtol(id, &end, 10);
    if (*id && !*end && strlen(id) < 16 && isdigit((unsigned char)id[0]))
        json_set_num(o, "id", (double)v);
    else
        json_set_str(o, "id", id);
}

/* The request's id (string or integer) as a string; false when absent. */
static bool request_id(const struct json *body, char *out, size_t cap)
{
    const struct json *v = json_get(body, "id");
    const char *s;
    double d;
    if (json_str(v, &s))
        snprintf(out, cap, "%s", s);
    else if (json_num(v, &d) && d == (double)(long long)d)
        snprintf(out, cap, "%lld", (long long)d);
    else
        return false;
    return true;
}

/* Parses a dataset request: the body, its config (an object when present) and dataset name.
 * Replies itself and returns NULL when they are malformed. */
static struct json *dataset_request(struct api *a, struct http_exchange *x,
                                    const struct json **config, const char **dataset)
{
    size_t len;
    struct json *body = json_parse(http_body(x, &len));
    if (!json_is_object(body)) {
        json_free(body);
        reply_422(a, x, "json_invalid", NULL, NULL, "JSON decode error (an object expected)");
        return NULL;
    }
    *config = json_get(body, "config");
    if (*config && !json_is_null(*config) && !json_is_object(*config)) {
        reply_422(a, x, "dict_type", "config", NULL, "config must be an object (TestConfig)");
    } else if (!json_str(json_get(body, "dataset"), dataset)) {
        reply_422(a, x, "missing", "dataset", NULL, "Field required (a dataset id)");
    } else if (json_get(*config, "custom_extract_logic") &&
               !json_is_null(json_get(*config, "custom_extract_logic"))) {
        const char *locs[2] = {"config", "custom_extract_logic"};
        reply_422_at(a, x, "value_error", locs, 2,
                     "custom_extract_logic is not supported: it is Python run on the server, and "
                     "verdict runs no code outside its sandbox; send the code, or extract it "
                     "yourself");
    } else {
        return body;
    }
    json_free(body);
    return NULL;
}

static void no_dataset(struct api *a, struct http_exchange *x, const char *dataset)
{
    char msg[200];
    snprintf(msg, sizeof(msg), "no eval class found for dataset %.120s", dataset);
    reply_detail(a, x, 400, msg);
}

/* The problems a request names: config.provided_data (one row, or a list of rows when many
 * is true) normalised here, or else the stored dataset (all of it, or body.id). Replies
 * itself and returns NULL on an error. */
static struct json *request_problems(struct api *a, struct http_exchange *x,
                                     const struct json *body, const struct json *config,
                                     const char *dataset, bool many, bool by_id)
{
    const struct json *provided = json_get(config, "provided_data");
    char err[ERR_LEN], id[256];
    if (provided && !json_is_null(provided)) {
        if (many ? !json_is_array(provided) : !json_is_object(provided)) {
            reply_detail(a, x, 400,
                         many ? "config.provided_data must be a list of problem rows"
                              : "config.provided_data must be one problem row (an object)");
            return NULL;
        }
        struct json *arr = json_array();
        for (int i = 0; i < (many ? json_len(provided) : 1); i++) {
            struct json *p = NULL;
            if (loader_record(many ? json_at(provided, i) : provided, NULL, &p, err) < 0) {
                json_free(arr);
                char msg[ERR_LEN + 40];
                snprintf(msg, sizeof(msg), "config.provided_data: %s", err);
                reply_detail(a, x, 400, msg);
                return NULL;
            }
            json_push(arr, p);
        }
        return arr;
    }
    char name[80];
    if (!a->cfg.datasets || !dataset_resolve(a->cfg.datasets, dataset, name, sizeof(name))) {
        no_dataset(a, x, dataset);
        return NULL;
    }
    if (!by_id)
        return dataset_problems(a->cfg.datasets, name, 0, -1);
    if (!request_id(body, id, sizeof(id))) {
        reply_422(a, x, "missing", "id", NULL, "Field required (the problem's id)");
        return NULL;
    }
    struct json *p = dataset_problem(a->cfg.datasets, name, id), *arr = json_array();
    if (!p) {
        json_free(arr);
        char msg[400];
        snprintf(msg, sizeof(msg), "no problem %.200s in dataset %.120s", id, dataset);
        reply_detail(a, x, 404, msg);
        return NULL;
    }
    json_push(arr, p);
    return arr;
}

static struct json *prompt_of(const struct json *p)
{
    const char *id = "", *prompt = "";
    json_str(json_get(p, "id"), &id);
    json_str(json_get(p, "prompt"), &prompt);
    struct json *o = json_object();
    set_id(o, id);
    json_set_str(o, "prompt", prompt);
    json_set(o, "labels", json_dup(json_get(p, "labels")));
    return o;
}

static void list_datasets(struct api *a, struct http_exchange *x)
{
    struct json *names = json_array();
    struct json *l = a->cfg.datasets ? dataset_list(a->cfg.datasets) : NULL;
    for (int i = 0; i < json_len(l); i++) {
        const char *n;
        if (json_str(json_get(json_at(l, i), "name"), &n))
            json_push_str(names, n);
    }
    json_free(l);
    reply_json(a, x, 200, names);
}

/* /list_ids, /get_prompts, /get_prompt_by_id: what differs is the shape of the answer. */
static void prompts(struct api *a, struct http_exchange *x, int what)
{
    enum { IDS, PROMPTS, ONE };
    const struct json *config;
    const char *dataset;
    struct json *body = dataset_request(a, x, &config, &dataset);
    if (!body)
        return;
    struct json *ps = request_problems(a, x, body, config, dataset, what != ONE, what == ONE);
    if (!ps) {
        json_free(body);
        return;
    }
    double offset = 0, limit = 1e12;
    json_num(json_get(body, "offset"), &offset);
    json_num(json_get(body, "limit"), &limit);
    struct json *out = json_array();
    for (int i = 0; i < json_len(ps); i++) {
        if (what == PROMPTS && (i < offset || i >= offset + limit))
            continue;
        if (what == IDS) {
            struct json *o = prompt_of(json_at(ps, i));
            json_push(out, json_dup(json_get(o, "id")));
            json_free(o);
        } else {
            json_push(out, prompt_of(json_at(ps, i)));
        }
    }
    json_free(ps);
    json_free(body);
    if (what == ONE) {
        struct json *one = json_dup(json_at(out, 0));
        json_free(out);
        out = one;
    }
    reply_json(a, x, 200, out);
}

static void list_ids(struct api *a, struct http_exchange *x)
{
    prompts(a, x, 0);
}

static void get_prompts(struct api *a, struct http_exchange *x)
{
    prompts(a, x, 1);
}

static void get_prompt_by_id(struct api *a, struct http_exchange *x)
{
    prompts(a, x, 2);
}

struct submit_work {
    struct api *api;
    struct http_exchange *x;
    struct json *problem;
    struct harness h;
    struct judge_request *req;
};

/* SandboxFusion's EvalResult for a judged completion. */
static struct json *eval_result(const struct submit_work *w, const struct json *d)
{
    const char *id = "", *status = "SE", *after;
    json_str(json_get(w->problem, "id"), &id);
    json_str(json_get(d, "status"), &status);
    struct json *r = json_object();
    set_id(r, id);
    const struct json *tests = json_get(d, "tests");
    bool accepted = d && strcmp(status, "OK") == 0 && json_len(tests) > 0;
    struct json *ts = json_array();
    for (int i = 0; i < json_len(tests); i++) {
        const struct json *t = json_at(tests, i);
        const char *v = "SE";
        double wall = 0, code = 0;
        json_str(json_get(t, "verdict"), &v);
        json_num(json_get(t, "wall_ms"), &wall);
        json_num(json_get(t, "exit_code"), &code);
        bool ok = strcmp(v, "OK") == 0;
        accepted = accepted && ok;
        struct json *o = json_push(ts, json_object());
        json_set_bool(o, "passed", ok);
        struct json *ex = json_set(o, "exec_info", json_object());
        json_set_str(ex, "status",
                     ok                     ? "Success"
                     : strcmp(v, "SE") == 0 ? "SandboxError"
                                            : "Failed");
        json_set_str(ex, "message", "");
        json_set_null(ex, "compile_result");
        struct json *run = json_set(ex, "run_result", json_object());
        json_set_str(run, "status", strcmp(v, "TLE") == 0 ? "TimeLimitExceeded" : "Finished");
        json_set_num(run, "execution_time", wall / 1000.0);
        json_set_num(run, "return_code", code);
        json_set(run, "stdout", json_dup(json_get(t, "stdout")));
        json_set(run, "stderr", json_dup(json_get(t, "stderr")));
        struct json *info = json_set(o, "test_info", json_object());
        json_set_num(info, "index", i);
        json_set_str(info, "verdict", v);
        json_set(info, "reason", json_dup(json_get(t, "reason")));
    }
    json_set_bool(r, "accepted", accepted);
    json_set_str(r, "extracted_code", w->h.code);
    if (w->h.extracted_type)
        json_set_str(r, "extracted_type", w->h.extracted_type);
    else
        json_set_null(r, "extracted_type");
    json_set_str(r, "full_code", w->h.program);
    if (json_str(json_get(w->problem, "after"), &after))
        json_set_str(r, "test_code", after);
    else
        json_set_null(r, "test_code");
    json_set(r, "tests", ts);
    struct json *extra = json_set(r, "extra", json_object());
    json_set_str(extra, "verdict", d ? status : "not run");
    if (d)
        json_set(extra, "judge", json_dup(d));
    return r;
}

static void submit_free(struct submit_work *w)
{
    json_free(w->problem);
    harness_fini(&w->h);
    judge_request_free(w->req);
    free(w);
}

static void submit_work(void *arg)
{
    struct submit_work *w = arg;
    struct json *d = judge_run(&w->api->env, w->req);
    const char *status = "SE", *message = "";
    json_str(json_get(d, "status"), &status);
    json_str(json_get(d, "message"), &message);
    if (strcmp(status, "SE") == 0) { /* ours, not the program's: SandboxFusion answers 500 */
        char msg[ERR_LEN + 40];
        snprintf(msg, sizeof(msg), "failed to run in the sandbox: %s", message);
        reply_detail(w->api, w->x, 500, msg);
    } else {
        reply_json(w->api, w->x, 200, eval_result(w, d));
    }
    json_free(d);
    submit_free(w);
}

static void submit(struct api *a, struct http_exchange *x)
{
    const struct json *config, *extra;
    const char *dataset, *completion, *language = NULL;
    struct json *body = dataset_request(a, x, &config, &dataset);
    if (!body)
        return;
    if (!json_str(json_get(body, "completion"), &completion)) {
        reply_422(a, x, "missing", "completion", NULL, "Field required (a string)");
        json_free(body);
        return;
    }
    struct json *ps = request_problems(a, x, body, config, dataset, false, true);
    struct submit_work *w = ps ? calloc(1, sizeof(*w)) : NULL;
    if (!w) {
        if (ps)
            reply_detail(a, x, 500, "out of memory");
        json_free(ps);
        json_free(body);
        return;
    }
    *w = (struct submit_work){.api = a, .x = x, .problem = json_dup(json_at(ps, 0))};
    json_free(ps);
    json_str(json_get(config, "language"), &language);
    bool freeform = true;
    extra = json_get(config, "extra");
    json_bool(json_get(extra, "is_freeform"), &freeform);
    char err[ERR_LEN];
    int rc = harness_build(w->problem, completion, language, freeform, &w->h, err);
    json_free(body);
    if (rc < 0) {
        reply_422(a, x, "value_error", "config", "language", err);
        submit_free(w);
        return;
    }
    if (freeform && !*w->h.code) { /* nothing to run: not accepted, nothing run */
        reply_json(a, x, 200, eval_result(w, NULL));
        submit_free(w);
        return;
    }
    struct judge_error e;
    if (judge_parse(a->cfg.langs, w->h.request, &w->req, &e) < 0) {
        const char *locs[2] = {"config", "language"};
        reply_422_at(a, x, e.type, locs, 2, e.msg);
        submit_free(w);
        return;
    }
    if ((rc = sched_submit(a->cfg.sched, submit_work, w)) == 0)
        return;
    submit_free(w);
    http_add_header(x, "Retry-After", "1");
    reply_detail(a, x, 503,
                 rc == -EBUSY ? "server busy: the queue is full, retry" : "server shutting down");
}

/* ---- other routes ---------------------------------------------------------------------- */

static void ping(struct api *a, struct http_exchange *x)
{
    char *body = strdup("\"pong\"");
    atomic_fetch_add(&a->answered, 1);
    metrics_request(a->metrics, http_path(x), 200);
    http_reply(x, 200, "application/json", body, body ? strlen(body) : 0);
}

static struct json *route_list(void);

static void healthz(struct api *a, struct http_exchange *x)
{
    struct sched_stats st;
    struct cache_stats cs;
    sched_get_stats(a->cfg.sched, &st);
    cache_get_stats(a->cfg.cache, &cs);
    struct json *d = json_object();
    json_set_str(d, "status", "ok");
    json_set_num(d, "cells", a->cfg.cells);
    json_set_num(d, "gpu_cells", a->cfg.gpus);
    json_set_num(d, "cells_replaced", pool_replaced(a->cfg.pool));
    struct json *q = json_set(d, "queue", json_object());
    json_set_num(q, "queued", st.queued);
    json_set_num(q, "running", st.running);
    json_set_num(q, "capacity", st.capacity);
    struct json *c = json_set(d, "compile_cache", json_object());
    json_set_num(c, "hits", (double)cs.hits);
    json_set_num(c, "misses", (double)cs.misses);
    json_set_num(c, "entries", (double)cs.entries);
    json_set_num(c, "bytes", (double)cs.bytes);
    json_set_num(d, "uptime_s", (double)(time(NULL) - a->started));
    json_set(d, "routes", route_list());
    reply_json(a, x, 200, d);
}

static void languages(struct api *a, struct http_exchange *x)
{
    struct json *list = json_array();
    for (int i = 0; i < lang_count(a->cfg.langs); i++) {
        const struct lang *l = lang_at(a->cfg.langs, i);
        struct json *o = json_push(list, json_object());
        json_set_str(o, "name", l->name);
        struct json *al = json_set(o, "aliases", json_array());
        for (int k = 0; k < l->naliases; k++)
            json_push_str(al, l->aliases[k]);
        json_set_bool(o, "available", l->available);
        json_set_str(o, "version", l->available ? l->version_line : NULL);
        json_set_str(o, "reason", l->available ? NULL : l->why);
        json_set_bool(o, "compiled", l->compiled);
        json_set_bool(o, "needs_gpu", l->needs_gpu);
        json_set_bool(o, "runnable", l->available && (!l->needs_gpu || a->cfg.gpus > 0));
    }
    reply_json(a, x, 200, list);
}

static void metrics(struct api *a, struct http_exchange *x)
{
    struct sched_stats st;
    struct cache_stats cs;
    sched_get_stats(a->cfg.sched, &st);
    cache_get_stats(a->cfg.cache, &cs);
    struct metrics_gauges g = {.queued = st.queued,
                               .running = st.running,
                               .cells = a->cfg.cells,
                               .gpu_cells = a->cfg.gpus,
                               .cells_replaced = pool_replaced(a->cfg.pool),
                               .cache_hits = cs.hits,
                               .cache_misses = cs.misses,
                               .cache_entries = cs.entries,
                               .cache_bytes = cs.bytes};
    metrics_request(a->metrics, http_path(x), 200); /* counted in its own exposition */
    char *text = metrics_render(a->metrics, &g);
    atomic_fetch_add(&a->answered, 1);
    http_reply(x, text ? 200 : 500, "text/plain; version=0.0.4", text, text ? strlen(text) : 0);
}

static void openapi(struct api *a, struct http_exchange *x)
{
    char *body = malloc(verdict_openapi_len + 1);
    if (body)
        memcpy(body, verdict_openapi, verdict_openapi_len + 1);
    atomic_fetch_add(&a->answered, 1);
    metrics_request(a->metrics, http_path(x), body ? 200 : 500);
    http_reply(x, body ? 200 : 500, "application/json", body, body ? verdict_openapi_len : 0);
}

struct route {
    const char *method, *path;
    void (*fn)(struct api *a, struct http_exchange *x);
};

static const struct route routes[] = {
    {"POST", "/run_code", run_code},
    {"POST", "/v1/judge", judge},
    {"POST", "/v1/judge/batch", judge_batch},
    {"GET", "/v1/ping", ping},
    {"GET", "/healthz", healthz},
    {"GET", "/v1/languages", languages},
    {"GET", "/metrics", metrics},
    {"GET", "/openapi.json", openapi},
    {"POST", "/submit", submit},
    {"POST", "/get_prompts", get_prompts},
    {"POST", "/get_prompt_by_id", get_prompt_by_id},
    {"POST", "/list_ids", list_ids},
    {"GET", "/list_datasets", list_datasets},
};

/* "METHOD /path" of every route, for /healthz (and the test that checks the OpenAPI). */
static struct json *route_list(void)
{
    struct json *rl = json_array();
    for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
        char r[96];
        snprintf(r, sizeof(r), "%s %s", routes[i].method, routes[i].path);
        json_push_str(rl, r);
    }
    return rl;
}

void api_handle(struct http_exchange *x, void *ctx)
{
    struct api *a = ctx;
    bool path_known = false;
    for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
        if (strcmp(routes[i].path, http_path(x)) != 0)
            continue;
        path_known = true;
        if (strcmp(routes[i].method, http_method(x)) == 0) {
            routes[i].fn(a, x);
            return;
        }
    }
    if (path_known)
        reply_detail(a, x, 405, "Method Not Allowed");
    else
        reply_detail(a, x, 404, "Not Found");
}

int api_new(const struct api_config *cfg, struct api **out, char err[ERR_LEN])
{
    struct api *a = calloc(1, sizeof(*a));
    if (!a)
        return err_set(err, -ENOMEM, "out of memory");
    a->cfg = *cfg;
    a->env.pool = cfg->pool;
    a->env.cache = cfg->cache;
    a->env.gpus = cfg->gpus;
    snprintf(a->env.cuda_arch, sizeof(a->env.cuda_arch), "%s",
             cfg->cuda_arch ? cfg->cuda_arch : "");
    a->started = time(NULL);
    if (!(a->metrics = metrics_new(cfg->langs))) {
        free(a);
        return err_set(err, -ENOMEM, "out of memory");
    }
    *out = a;
    return 0;
}

unsigned long api_answered(struct api *a)
{
    return atomic_load(&a->answered);
}

void api_free(struct api *a)
{
    if (a)
        metrics_free(a->metrics);
    free(a);
}
