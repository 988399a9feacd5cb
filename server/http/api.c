/*
 * api: routes and the SandboxFusion-compatible /run_code (SandboxFusion's dataset endpoints
 * are in server/api_datasets.c).
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
#include "server/http/api.h"
#include "server/http/api_impl.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/datasets/harness.h"
#include "server/datasets/loader.h"
#include "server/http/metrics.h"
#include "server/http/openapi.h"
#include "server/judge/judge.h"
#include "server/judge/program.h"
#include "server/util/base64.h"
#include "server/util/json.h"
#include "server/util/sha256.h"

#define MAX_TIMEOUT_S 300.0
#define MAX_MEMORY_MB 65536
#define MAX_FILES     256

/* ---- replies ----------------------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void api_reply_json(struct api *a, struct http_exchange *x, int status, struct json *doc)
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

void api_reply_detail(struct api *a, struct http_exchange *x, int status, const char *detail)
{
    struct json *d = json_object();
    json_set_str(d, "detail", detail);
    api_reply_json(a, x, status, d);
}

/* FastAPI's validation error: {"detail": [{"type", "loc": ["body", field...], "msg"}]}. */
void api_reply_422_at(struct api *a, struct http_exchange *x, const char *type,
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
    api_reply_json(a, x, 422, d);
}

void api_reply_422(struct api *a, struct http_exchange *x, const char *type, const char *field,
                   const char *sub, const char *msg)
{
    const char *locs[2] = {field, sub};
    api_reply_422_at(a, x, type, locs, 2, msg);
}

void api_reply_busy(struct api *a, struct http_exchange *x, int rc)
{
    http_add_header(x, "Retry-After", "1");
    api_reply_detail(
        a, x, 503, rc == -EBUSY ? "server busy: the queue is full, retry" : "server shutting down");
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
        api_reply_422(a, x, "value_error", "compile_timeout", NULL,
                      "compile_timeout must be a number of seconds in (0, 300]");
        return false;
    }
    if (seconds(req, "run_timeout", 10, &rms) < 0) {
        api_reply_422(a, x, "value_error", "run_timeout", NULL,
                      "run_timeout must be a number of seconds in (0, 300]");
        return false;
    }
    r->compile.cpu_ms = r->compile.wall_ms = cms;
    r->run.cpu_ms = r->run.wall_ms = rms;
    const struct json *m = json_get(req, "memory_limit_MB");
    double mb = -1;
    if (m && (!json_num(m, &mb) || mb != floor(mb) || mb > MAX_MEMORY_MB)) {
        api_reply_422(a, x, "int_parsing", "memory_limit_MB", NULL,
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
        api_reply_422(a, x, "dict_type", "files", NULL, "files must be an object of path: base64");
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
            api_reply_422(a, x, "value_error", "files", path,
                          "file paths must be relative to the work dir, without ..");
            return false;
        }
        uint8_t *data = base64_decode(b64, &len);
        if (!data) {
            api_reply_422(a, x, "value_error", "files", path, "not valid base64");
            return false;
        }
        if (r->nfiles > MAX_FILES || !add_file(r, path, data, len)) {
            api_reply_422(a, x, "value_error", "files", NULL, "too many files");
            return false;
        }
    }
    const struct json *fetch = json_get(req, "fetch_files");
    if (fetch && !json_is_array(fetch)) {
        api_reply_422(a, x, "list_type", "fetch_files", NULL,
                      "fetch_files must be a list of paths");
        return false;
    }
    for (int i = 0; i < json_len(fetch) && r->nfetch < MAX_FILES; i++) {
        const char *p;
        if (!json_str(json_at(fetch, i), &p)) {
            api_reply_422(a, x, "string_type", "fetch_files", NULL,
                          "fetch_files must hold strings");
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
        api_reply_422(a, x, "json_invalid", NULL, NULL, "JSON decode error");
        return false;
    }
    const struct json *lv = json_get(req, "language"), *sv = json_get(req, "stdin");
    if (!json_is_object(req))
        api_reply_422(a, x, "model_attributes_type", NULL, NULL, "Input should be an object");
    else if (!json_str(json_get(req, "code"), &code))
        api_reply_422(a, x, json_get(req, "code") ? "string_type" : "missing", "code", NULL,
                      json_get(req, "code") ? "Input should be a valid string" : "Field required");
    else if (lv && !json_is_null(lv) && !json_str(lv, &lang))
        api_reply_422(a, x, "string_type", "language", NULL, "Input should be a valid string");
    else if (!(r->lang = lang_find(a->cfg.langs, lang)))
        api_reply_422(a, x, "enum", "language", NULL, "unsupported language");
    else if (!r->lang->available)
        api_reply_422(a, x, "enum", "language", NULL, "language unavailable on this server");
    else if (sv && !json_is_null(sv) && !json_is_string(sv))
        api_reply_422(a, x, "string_type", "stdin", NULL, "Input should be a valid string or null");
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
        api_reply_detail(a, r->x, 504, "the request waited in the queue past its deadline");
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
    api_reply_json(a, r->x, 200, d);
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
        api_reply_detail(a, x, 500, "out of memory");
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
    api_reply_busy(a, x, rc);
}

/* ---- /v1/judge ------------------------------------------------------------------------- */

struct judge_work {
    struct api *api;
    struct http_exchange *x;
    struct judge_request *req;
};

/* Counts a /v1/judge answer's verdicts and run times in the metrics. */
void api_count_judged(struct api *a, const struct lang *l, const struct json *d)
{
    const char *status;
    if (json_str(json_get(d, "status"), &status) && strcmp(status, "OK") != 0)
        metrics_verdict(a->metrics, l, status); /* CE or SE */
    const struct json *tests = json_get(d, "tests");
    for (int i = 0; i < json_len(tests); i++) {
        const char *v;
        double ms;
        if (json_str(json_get(json_at(tests, i), "verdict"), &v))
            metrics_verdict(a->metrics, l, v);
        if (json_num(json_get(json_at(tests, i), "wall_ms"), &ms))
            metrics_observe(a->metrics, HIST_RUN, ms / 1000.0);
    }
}

static void judge_work(void *arg)
{
    struct judge_work *w = arg;
    struct json *d = judge_run(&w->api->env, w->req);
    api_count_judged(w->api, judge_language(w->req), d);
    api_reply_json(w->api, w->x, 200, d);
    judge_request_free(w->req);
    free(w);
}

static void judge(struct api *a, struct http_exchange *x)
{
    size_t len;
    struct json *body = json_parse(http_body(x, &len));
    if (!body) {
        api_reply_422(a, x, "json_invalid", NULL, NULL, "JSON decode error");
        return;
    }
    struct judge_error e;
    struct judge_request *req = NULL;
    int rc = judge_parse(a->cfg.langs, body, &req, &e);
    json_free(body);
    if (rc < 0) {
        const char *locs[3] = {e.loc[0], e.loc[1], e.loc[2]};
        api_reply_422_at(a, x, e.type, locs, e.nloc, e.msg);
        return;
    }
    struct judge_work *w = malloc(sizeof(*w));
    if (!w) {
        judge_request_free(req);
        api_reply_detail(a, x, 500, "out of memory");
        return;
    }
    *w = (struct judge_work){a, x, req};
    if ((rc = sched_submit(a->cfg.sched, judge_work, w)) == 0)
        return;
    judge_request_free(req);
    free(w);
    api_reply_busy(a, x, rc);
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
        api_reply_422(a, x, "json_invalid", NULL, NULL, "JSON decode error");
        return;
    }
    if (!json_is_array(items) || json_len(items) == 0 || json_len(items) > MAX_BATCH) {
        json_free(body);
        api_reply_422(a, x, "list_type", "items", NULL,
                      "items must be a list of 1 to 4096 programs");
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
        api_reply_detail(a, x, 500, "out of memory");
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
    api_reply_json(a, x, 200, d);
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
    api_reply_json(a, x, 200, list);
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
    {"POST", "/submit", api_submit},
    {"POST", "/get_prompts", api_get_prompts},
    {"POST", "/get_prompt_by_id", api_get_prompt_by_id},
    {"POST", "/list_ids", api_list_ids},
    {"GET", "/list_datasets", api_list_datasets},
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
        api_reply_detail(a, x, 405, "Method Not Allowed");
    else
        api_reply_detail(a, x, 404, "Not Found");
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
