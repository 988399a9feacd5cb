/*
 * api_judge: the routes that judge programs: SandboxFusion's /run_code, verdict's /v1/judge
 * and /v1/judge/batch. (/submit, which judges a dataset problem, is in api_datasets.c.)
 *
 * One way through for all of them, on two threads:
 *   HTTP thread: api_read_request (NUL check, JSON, request_parse: 422 naming the field),
 *     then sched_submit of a struct judged; the connection waits suspended, no thread held.
 *   worker: judge_run (blocks in the sandbox), metrics_judged, render_*, the reply, which
 *     resumes the connection; the worker frees the request.
 * /run_code follows ../shared/reference/sandboxfusion-api.md §1 field for field (see
 * server/http/render.h); run_timeout limits CPU time and wall time alike (SandboxFusion's is
 * wall clock only), compile_timeout likewise for the compile step; a request that waited in
 * the queue past its client's deadline (veRL: compile + run timeouts + 10 s) answers 504.
 *
 * A batch is many programs in one request, answered as NDJSON in completion order, one line
 * per item: {"id": ..., "result": {...as /v1/judge...}} or {"id": ..., "error": {type, loc,
 * msg}}. Items that are the same program with the same tests (everything but the id) are
 * judged once and the result given to each.
 */
#include "server/http/api_impl.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/http/render.h"
#include "server/http/request.h"
#include "server/util/sha256.h"

#define API_LATE_MARGIN_S 1.0 /* a /run_code answer's slack before its client's timeout */

/* ---- /run_code and /v1/judge ------------------------------------------------------------ */

struct judged {
    struct api *api;
    struct http_exchange *x;
    struct judge_request *req;
    double queued_at; /* when it entered the scheduler's queue */
    double start_by;  /* /run_code: the latest start that answers before its client gives
                         up; 0: none */
};

/* Answered 504 (veRL retries on it) and not run. */
static void judged_late(struct judged *w)
{
    api_reply_detail(w->api, w->x, 504,
                     "the request waited in the queue too long to be answered before its "
                     "client's timeout (compile_timeout + run_timeout + 10 s); retry");
    judge_request_free(w->req);
    free(w);
}

/* The scheduler's expiry: still queued at start_by. */
static void judged_expire(void *arg)
{
    struct judged *w = arg;
    metrics_observe(w->api->metrics, HIST_QUEUE, api_now_s() - w->queued_at);
    judged_late(w);
}

static void judged_work(void *arg)
{
    struct judged *w = arg;
    struct api *a = w->api;
    double started = api_now_s();
    metrics_observe(a->metrics, HIST_QUEUE, started - w->queued_at);
    if (w->start_by && started > w->start_by) /* taken between two expiry ticks */
        return judged_late(w);
    struct judge_result res;
    judge_run(&a->env, w->req, &res);
    struct record_origin o = record_origin_of(w->x);
    api_judged(a, w->x, &o, w->req, &res);
    api_reply_json(a, w->x, 200, w->req->run_only ? render_run_code(&res) : render_judged(&res));
    judge_result_fini(&res);
    judge_request_free(w->req);
    free(w);
}

/* Reads, validates and queues one judging request of the route's shape. */
static void judge_route(struct api *a, struct http_exchange *x, enum request_shape shape)
{
    struct json *body = api_read_body(a, x);
    if (!body)
        return;
    struct request_error e;
    struct judge_request *req = NULL;
    struct json *stored = NULL; /* the body a named problem gives */
    int rc = shape == REQUEST_JUDGE ? api_problem_body(a, body, &stored, &e) : 0;
    if (rc == 0)
        rc = request_parse(a->cfg.langs, stored ? stored : body, shape, &req, &e);
    json_free(stored);
    json_free(body);
    if (rc < 0) {
        api_reply_error(a, x, &e);
        return;
    }
    struct judged *w = malloc(sizeof(*w));
    if (!w) {
        judge_request_free(req);
        api_reply_detail(a, x, 500, "out of memory");
        return;
    }
    *w = (struct judged){a, x, req, api_now_s(), 0};
    enum sched_class kind = req->lang->needs_gpu ? SCHED_GPU : SCHED_CPU;
    if (shape == REQUEST_RUN_CODE) {
        /* veRL waits compile_timeout + run_timeout + 10 s and retries on 504: a request
         * that could not be answered in that time if it started now (its run taking up to
         * the backstop) is answered 504 while the client still listens. CPU work starts on
         * a cell of its own at once, up to --max-cells (SCHED_WALL's workers). So does a
         * GPU language on a server without GPUs: it is answered SandboxError at once, and
         * would otherwise wait for one of verdict API's workers (the scheduler's fallback
         * for a class without workers) behind their long compiles, until 504. */
        kind = req->lang->needs_gpu && a->cfg.gpus > 0 ? SCHED_GPU : SCHED_WALL;
        w->start_by = w->queued_at + (double)req->compile_limits.cpu_ms / 1000.0 + 10.0 -
                      (double)(req->limits.backstop_ms - req->limits.wall_ms) / 1000.0 -
                      API_LATE_MARGIN_S;
    }
    if ((rc = api_queue(a, x, kind, 1, w->start_by, judged_work, judged_expire, w)) == 0)
        return; /* answered by a worker; the connection waits suspended */
    judge_request_free(req);
    free(w);
    api_reply_busy(a, x, rc);
}

void api_run_code(struct api *a, struct http_exchange *x)
{
    judge_route(a, x, REQUEST_RUN_CODE);
}

void api_judge(struct api *a, struct http_exchange *x)
{
    judge_route(a, x, REQUEST_JUDGE);
}

/* ---- /v1/judge/batch ---------------------------------------------------------------------- */

struct batch {
    struct api *api;
    struct http_exchange *x;
    pthread_mutex_t lock;
    int remaining; /* programs not yet answered (+1 while the handler is still submitting) */
};

struct batch_job {
    struct batch *b;
    struct judge_request *req;
    int nids, cap;
    char **ids; /* rendered JSON of each item's id */
};

/* One NDJSON line; submission > 0: the stored submission's id, as "submission". */
static void batch_line(struct batch *b, const char *id, const char *field, const char *v,
                       int64_t submission)
{
    size_t n = strlen(id) + (v ? strlen(v) : 4) + strlen(field) + 48;
    char *line = malloc(n);
    if (line) {
        char sub[40] = "";
        if (submission > 0)
            snprintf(sub, sizeof(sub), ",\"submission\":%lld", (long long)submission);
        int len = snprintf(line, n, "{\"id\":%s,\"%s\":%s%s}\n", id, field, v ? v : "null", sub);
        http_stream_write(b->x, line, (size_t)len);
    }
    free(line);
}

static void batch_done(struct batch *b)
{
    pthread_mutex_lock(&b->lock);
    bool last = --b->remaining == 0;
    pthread_mutex_unlock(&b->lock);
    if (last) {
        api_count(b->api, b->x, 200);
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
    struct api *a = j->b->api;
    struct judge_result res;
    judge_run(&a->env, j->req, &res);
    struct record_origin o = record_origin_of(j->b->x);
    struct json *d = render_judged(&res);
    char *v = json_render(d, false);
    json_free(d);
    /* each id is a submission of its own */
    int64_t one, *sids = j->nids > 1 ? calloc((size_t)j->nids, sizeof(*sids)) : &one;
    if (!sids) /* out of memory: the first id stored, the others not */
        sids = &one;
    one = api_judged(a, NULL, &o, j->req, &res);
    if (sids != &one) {
        sids[0] = one;
        record_put_n(api_store(a), &o, j->req, &res, j->nids - 1, sids + 1);
    }
    for (int i = 0; i < j->nids; i++)
        batch_line(j->b, j->ids[i], "result", v, sids == &one && i > 0 ? 0 : sids[i]);
    if (sids != &one)
        free(sids);
    free(v);
    judge_result_fini(&res);
    struct batch *b = j->b;
    batch_job_free(j);
    batch_done(b);
}

/* What makes two items the same program: every member but the id, rendered. */
static void item_key(const struct json *item, char key[65])
{
    struct sha256 h;
    sha256_init(&h);
    for (const struct json *m = json_first(item); m; m = json_next(m)) { /* O(1) a step */
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

static void batch_error(struct batch *b, const char *id, const struct request_error *e)
{
    struct json *err = request_error_json(e, NULL);
    char *v = json_render(err, false);
    batch_line(b, id, "error", v, 0);
    free(v);
    json_free(err);
}

/* Items by key, then by position: sorting them finds every item's first twin in
 * O(n log n), whatever keys a client makes (a scan of the jobs so far per item was
 * quadratic in the batch). */
struct batch_key {
    char hex[65];
    int at;
};

static int key_order(const void *l, const void *r)
{
    const struct batch_key *a = l, *b = r;
    int c = strcmp(a->hex, b->hex);
    return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* Adds id to job j's; false when out of memory. Doubling: linear in a job's twins. */
static bool job_add_id(struct batch_job *j, char *id)
{
    if (j->nids == j->cap) {
        int cap = j->cap ? 2 * j->cap : 4;
        char **ids = realloc(j->ids, (size_t)cap * sizeof(*ids));
        if (!ids)
            return false;
        j->ids = ids;
        j->cap = cap;
    }
    j->ids[j->nids++] = id;
    return true;
}

/* One item: given to the job of its first twin (twin; the same program and tests: judged
 * once), or parsed into a new job (returned; NULL after an error line). */
static struct batch_job *batch_item(struct batch *b, const struct json *item,
                                    struct batch_job *twin)
{
    const struct json *idv = json_get(item, "id");
    char *id = idv ? json_render(idv, false) : strdup("null");
    struct request_error e;
    struct judge_request *req = NULL;
    if (!id)
        return NULL;
    if (twin && job_add_id(twin, id))
        return NULL;
    struct json *stored = NULL; /* the body a named problem gives */
    int rc = api_problem_body(b->api, item, &stored, &e);
    if (rc == 0)
        rc = request_parse(b->api->cfg.langs, stored ? stored : item, REQUEST_JUDGE, &req, &e);
    json_free(stored);
    if (rc < 0) {
        batch_error(b, id, &e);
        free(id);
        return NULL;
    }
    struct batch_job *j = calloc(1, sizeof(*j));
    if (!j || !job_add_id(j, id)) {
        free(j);
        free(id);
        judge_request_free(req);
        return NULL;
    }
    j->b = b;
    j->req = req;
    return j;
}

/* Every item of the batch in order, each distinct program a job in jobs (*njobs); false when
 * out of memory (nothing queued then). */
static bool batch_items(struct batch *b, const struct json *items, int n, struct batch_job **jobs,
                        int *njobs)
{
    struct batch_key *keys = calloc((size_t)n, sizeof(*keys));
    const struct json **its = calloc((size_t)n, sizeof(*its));
    int *first = calloc((size_t)n, sizeof(*first));
    struct batch_job **job_of = calloc((size_t)n, sizeof(*job_of));
    bool ok = keys && its && first && job_of;
    int i = 0;
    for (const struct json *it = json_first(items); ok && it && i < n; it = json_next(it), i++) {
        its[i] = it;
        item_key(it, keys[i].hex);
        keys[i].at = i;
    }
    if (ok) {
        qsort(keys, (size_t)i, sizeof(*keys), key_order);
        for (int k = 0; k < i; k++) /* the first of a run of equal keys is the earliest */
            first[keys[k].at] = k > 0 && strcmp(keys[k].hex, keys[k - 1].hex) == 0
                                    ? first[keys[k - 1].at]
                                    : keys[k].at;
        for (int k = 0; k < i; k++) {
            struct batch_job *j = batch_item(b, its[k], first[k] != k ? job_of[first[k]] : NULL);
            if (j)
                jobs[(*njobs)++] = job_of[k] = j;
        }
    }
    free(keys);
    free(its);
    free(first);
    free(job_of);
    return ok;
}

/* Queues every distinct program; an item the scheduler refuses is answered "busy". */
static void batch_submit(struct batch *b, struct batch_job **jobs, int njobs)
{
    for (int k = 0; k < njobs; k++) {
        pthread_mutex_lock(&b->lock);
        b->remaining++;
        pthread_mutex_unlock(&b->lock);
        int rc = api_queue(b->api, b->x, jobs[k]->req->lang->needs_gpu ? SCHED_GPU : SCHED_CPU,
                           (unsigned)njobs, 0, batch_work, NULL, jobs[k]);
        if (rc == 0)
            continue;
        struct request_error e;
        request_fail(&e, "busy", api_busy_text(rc), NULL, NULL, NULL);
        for (int i = 0; i < jobs[k]->nids; i++)
            batch_error(b, jobs[k]->ids[i], &e);
        batch_job_free(jobs[k]);
        batch_done(b);
    }
}

void api_judge_batch(struct api *a, struct http_exchange *x)
{
    struct json *body = api_read_body(a, x);
    if (!body)
        return;
    const struct json *items;
    struct request_error e;
    int n = request_batch_items(body, &items, &e);
    if (n < 0) {
        json_free(body);
        api_reply_error(a, x, &e);
        return;
    }
    /* A stopping server answers the whole batch 503 before its stream begins, so that a
     * balancer can send it to another replica (once streaming, only the client can). */
    struct sched_stats st;
    sched_get_stats(a->cfg.sched, &st);
    if (st.stopping) {
        json_free(body);
        api_reply_busy(a, x, -ESHUTDOWN);
        return;
    }
    struct batch *b = calloc(1, sizeof(*b));
    struct batch_job **jobs = calloc((size_t)n, sizeof(*jobs));
    if (!b || !jobs) {
        free(b);
        free(jobs);
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
    if (!batch_items(b, items, n, jobs, &njobs)) {
        struct request_error oom;
        request_fail(&oom, "internal", "out of memory", NULL, NULL, NULL);
        batch_error(b, "null", &oom);
    }
    json_free(body);
    batch_submit(b, jobs, njobs);
    free(jobs);
    batch_done(b); /* the handler's reference */
}
