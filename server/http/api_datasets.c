/*
 * api_datasets: SandboxFusion's dataset endpoints over the datasets in server/datasets/dataset (or
 * rows sent inline): ../shared/reference/sandboxfusion-api.md §2-3.
 *
 * /list_datasets, /list_ids, /get_prompts, /get_prompt_by_id and /submit, with `config`
 * (TestConfig) honoured for provided_data (the problem's row inline), language and
 * extra.is_freeform; custom_extract_logic (Python their server exec's) is refused. /submit
 * takes the completion as a continuation of the prompt (cut at the problem's stops) when
 * extra.is_freeform is false, or is missing for a problem that continues by default (the
 * HumanEval family: SandboxFusion's pretrain mode); otherwise it extracts the code (fenced,
 * incomplete fence, heuristic). Bodies are read by server/http/query; a route then finds the
 * stored dataset and problem they name.
 *
 * Threads: /list_datasets, /list_ids, /get_prompts and /get_prompt_by_id run whole on a
 * scheduler worker (the HTTP thread only queues them: no SQLite there); their loops walk
 * JSON arrays with json_first/json_next, linear in the rows.
 */
#include "server/http/api_impl.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/datasets/dataset.h"
#include "server/datasets/harness.h"
#include "server/http/query.h"
#include "server/http/render.h"
#include "server/judge/judge.h"

/* Whether id is all digits (SandboxFusion shows such ids as numbers, as MBPP's are). */
static bool numeric_id(const char *id, long *v)
{
    char *end;
    *v = strtol(id, &end, 10);
    return *id && !*end && strlen(id) < 16 && isdigit((unsigned char)id[0]);
}

static void set_id(struct json *o, const char *id)
{
    long v;
    if (numeric_id(id, &v))
        json_set_num(o, "id", (double)v);
    else
        json_set_str(o, "id", id);
}

static void push_id(struct json *arr, const char *id)
{
    long v;
    if (numeric_id(id, &v))
        json_push_num(arr, (double)v);
    else
        json_push_str(arr, id);
}

/* Reads a dataset request's body for route into q (server/http/query). Replies itself (422,
 * 400 or 500) and returns NULL when it is malformed; else the body, which q borrows from. */
static struct json *dataset_request(struct api *a, struct http_exchange *x, enum query_route route,
                                    struct query *q)
{
    struct json *body = api_read_body(a, x); /* a NUL in it, or not JSON: 422 sent */
    if (!body)
        return NULL;
    struct request_error e;
    int rc = query_parse(body, route, q, &e);
    if (rc == 0)
        return body;
    if (rc == -EINVAL)
        api_reply_error(a, x, &e);
    else if (rc == -EBADMSG)
        api_reply_detail(a, x, 400, q->detail);
    else
        api_reply_detail(a, x, 500, "out of memory");
    json_free(body);
    return NULL;
}

/* The stored dataset a request names (an alias resolved into name); replies 400 when there
 * is none. */
static bool stored_dataset(struct api *a, struct http_exchange *x, const char *dataset,
                           char name[80])
{
    if (a->cfg.datasets && dataset_resolve(a->cfg.datasets, dataset, name, 80))
        return true;
    char msg[200];
    snprintf(msg, sizeof(msg), "no eval class found for dataset %.120s", dataset);
    api_reply_detail(a, x, 400, msg);
    return false;
}

/* The one problem a request names: its provided row, or body.id in the stored dataset.
 * Replies itself and returns NULL on an error. */
static struct json *request_problem(struct api *a, struct http_exchange *x, const struct query *q)
{
    char name[80];
    if (q->provided)
        return json_dup(json_first(q->provided));
    if (!stored_dataset(a, x, q->dataset, name))
        return NULL;
    if (!q->has_id) {
        api_reply_422(a, x, "missing", "id", NULL,
                      "Field required (the problem's id: a string or an integer)");
        return NULL;
    }
    struct json *p = dataset_problem(a->cfg.datasets, name, q->id);
    if (!p) {
        char msg[400];
        snprintf(msg, sizeof(msg), "no problem %.200s in dataset %.120s", q->id, q->dataset);
        api_reply_detail(a, x, 404, msg);
    }
    return p;
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
    for (const struct json *d = json_first(l); d; d = json_next(d)) {
        const char *n;
        if (json_str(json_get(d, "name"), &n))
            json_push_str(names, n);
    }
    json_free(l);
    api_reply_json(a, x, 200, names);
}

/* /list_ids and /get_prompts: every problem's id or Prompt (a window of them for prompts),
 * inline or stored; ids of a stored dataset come from its index, not its documents. */
static void list_problems(struct api *a, struct http_exchange *x, bool ids)
{
    struct query q;
    struct json *body = dataset_request(a, x, ids ? QUERY_IDS : QUERY_PROMPTS, &q);
    if (!body)
        return;
    long first = ids ? 0 : q.first, count = ids ? -1 : q.count;
    struct json *out = NULL, *ps = NULL;
    char name[80];
    if (q.provided) {
        out = json_array();
        const struct json *p = json_first(q.provided);
        for (long i = 0; p && i < first; i++) /* to the window's first row */
            p = json_next(p);
        for (long n = 0; out && p && (count < 0 || n < count); p = json_next(p), n++) {
            const char *id = "";
            json_str(json_get(p, "id"), &id);
            if (ids)
                push_id(out, id);
            else
                json_push(out, prompt_of(p));
        }
    } else if (stored_dataset(a, x, q.dataset, name)) {
        out = json_array();
        if (ids) {
            struct json *all = dataset_ids(a->cfg.datasets, name);
            for (const struct json *e = json_first(all); e; e = json_next(e)) {
                const char *id;
                if (json_str(e, &id))
                    push_id(out, id);
            }
            json_free(all);
        } else {
            ps = dataset_problems(a->cfg.datasets, name, first, count);
            for (const struct json *p = json_first(ps); p; p = json_next(p))
                json_push(out, prompt_of(p));
        }
    }
    json_free(ps);
    query_fini(&q);
    json_free(body);
    if (out)
        api_reply_json(a, x, 200, out);
}

static void list_ids(struct api *a, struct http_exchange *x)
{
    list_problems(a, x, true);
}

static void get_prompts(struct api *a, struct http_exchange *x)
{
    list_problems(a, x, false);
}

static void get_prompt_by_id(struct api *a, struct http_exchange *x)
{
    struct query q;
    struct json *body = dataset_request(a, x, QUERY_PROMPT, &q);
    if (!body)
        return;
    struct json *p = request_problem(a, x, &q);
    query_fini(&q);
    json_free(body);
    if (p)
        api_reply_json(a, x, 200, prompt_of(p));
    json_free(p);
}

/* ---- off the HTTP thread ----------------------------------------------------------------
 * The four routes above, and /submit below, read the store (SQLite, which may also wait out another
 * process's write for its busy timeout) and build replies as large as a dataset, none of which the
 * one HTTP thread may do: each runs whole on a scheduler worker, as the judging routes do, and the
 * HTTP thread only queues it. The connection waits suspended until the worker replies. */

typedef void (*dataset_route)(struct api *a, struct http_exchange *x);

struct dataset_call {
    struct api *api;
    struct http_exchange *x;
    dataset_route fn;
};

static void dataset_call_work(void *arg)
{
    struct dataset_call *c = arg;
    c->fn(c->api, c->x);
    free(c);
}

static void on_worker(struct api *a, struct http_exchange *x, dataset_route fn)
{
    struct dataset_call *c = malloc(sizeof(*c));
    if (!c) {
        api_reply_detail(a, x, 500, "out of memory");
        return;
    }
    *c = (struct dataset_call){a, x, fn};
    int rc = api_queue(a, x, SCHED_WALL, 1, 0, dataset_call_work, NULL, c);
    if (rc == 0)
        return;
    free(c);
    api_reply_busy(a, x, rc);
}

void api_list_datasets(struct api *a, struct http_exchange *x)
{
    on_worker(a, x, list_datasets);
}

void api_list_ids(struct api *a, struct http_exchange *x)
{
    on_worker(a, x, list_ids);
}

void api_get_prompts(struct api *a, struct http_exchange *x)
{
    on_worker(a, x, get_prompts);
}

void api_get_prompt_by_id(struct api *a, struct http_exchange *x)
{
    on_worker(a, x, get_prompt_by_id);
}

struct submit_work {
    struct api *api;
    struct http_exchange *x;
    struct json *problem;
    struct harness h;
    struct judge_request *req;
    char dataset[80]; /* the stored dataset's name, or the request's (provided_data) */
};

/* One test's EvalResult entry. */
static struct json *eval_test(const struct judge_test_result *t)
{
    struct json *o = json_object();
    bool ok = t->verdict == VERDICT_OK;
    json_set_bool(o, "passed", ok);
    struct json *ex = json_set(o, "exec_info", json_object());
    json_set_str(ex, "status", render_run_status(t->verdict));
    json_set_str(ex, "message", "");
    json_set_null(ex, "compile_result");
    struct json *run = json_set(ex, "run_result", json_object());
    json_set_str(run, "status", t->verdict == VERDICT_TLE ? "TimeLimitExceeded" : "Finished");
    json_set_num(run, "execution_time", (double)t->wall_ms / 1000.0);
    json_set_num(run, "return_code", t->exit_code);
    json_set_bytes(run, "stdout", t->out, t->out_len);
    json_set_bytes(run, "stderr", t->err, t->err_len);
    struct json *info = json_set(o, "test_info", json_object());
    json_set_num(info, "index", t->index);
    json_set_str(info, "verdict", verdict_name(t->verdict));
    if (t->reason[0])
        json_set_str(info, "reason", t->reason);
    else
        json_set_null(info, "reason");
    return o;
}

/* SandboxFusion's EvalResult for a judged completion (res NULL: nothing was run). */
static struct json *eval_result(const struct submit_work *w, const struct judge_result *res)
{
    const char *id = "", *after;
    json_str(json_get(w->problem, "id"), &id);
    struct json *r = json_object();
    set_id(r, id);
    bool accepted = res && res->status == VERDICT_OK && res->ntests > 0;
    struct json *ts = json_array();
    for (int i = 0; res && i < res->ntests; i++) {
        accepted = accepted && res->tests[i].verdict == VERDICT_OK;
        json_push(ts, eval_test(&res->tests[i]));
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
    int failed_test;
    const char *why;
    /* the outcome, as a sample is scored: OK only when every test passed */
    json_set_str(extra, "verdict",
                 res ? verdict_name(judge_outcome(res, &failed_test, &why)) : "not run");
    /* how the tests decided it (docs/integrity/grading.md); null when nothing ran */
    if (res)
        json_set_str(extra, "grading", judge_grading_name(res->grading));
    else
        json_set_null(extra, "grading");
    if (res)
        json_set(extra, "judge", render_judged(res));
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
    struct judge_result res;
    judge_run(&w->api->env, w->req, &res);
    const char *problem = NULL;
    json_str(json_get(w->problem, "id"), &problem);
    struct record_origin o = record_origin_of(w->x);
    o.dataset = w->dataset[0] ? w->dataset : NULL;
    o.problem = problem;
    api_judged(w->api, w->x, &o, w->req, &res);
    if (res.status == VERDICT_SE) { /* ours, not the program's: SandboxFusion answers 500 */
        char msg[sizeof(res.message) + 40];
        snprintf(msg, sizeof(msg), "failed to run in the sandbox: %s", res.message);
        api_reply_detail(w->api, w->x, 500, msg);
    } else {
        api_reply_json(w->api, w->x, 200, eval_result(w, &res));
    }
    judge_result_fini(&res);
    submit_free(w);
}

/* /submit on a worker: the problem is read from the store (SQLite), the harness built and
 * the request parsed there, then judged at once, or handed to the GPU workers for a CUDA
 * problem so that a CPU worker never waits for a GPU cell. */
static void submit_route(struct api *a, struct http_exchange *x)
{
    struct query q;
    struct json *body = dataset_request(a, x, QUERY_SUBMIT, &q);
    if (!body)
        return;
    struct json *p = request_problem(a, x, &q);
    struct submit_work *w = p ? calloc(1, sizeof(*w)) : NULL;
    if (!w) {
        if (p)
            api_reply_detail(a, x, 500, "out of memory");
        json_free(p);
        query_fini(&q);
        json_free(body);
        return;
    }
    *w = (struct submit_work){.api = a, .x = x, .problem = p};
    if (!a->cfg.datasets ||
        !dataset_resolve(a->cfg.datasets, q.dataset, w->dataset, sizeof(w->dataset)))
        snprintf(w->dataset, sizeof(w->dataset), "%s", q.dataset);
    /* SandboxFusion's default is the prompt's continuation for the HumanEval family and
     * extraction for the others (MBPP, stdin/stdout problems) */
    bool continues = false;
    json_bool(json_get(p, "continues"), &continues);
    bool freeform = q.freeform < 0 ? !continues : q.freeform == 1;
    char err[ERR_LEN];
    int rc = harness_build(w->problem, q.completion, q.language,
                           freeform ? HARNESS_EXTRACT : HARNESS_CONTINUE, &w->h, err);
    if (rc == 0 && q.allow_exit_status && !json_set_bool(w->h.request, "allow_exit_status", true)) {
        snprintf(err, sizeof(err), "out of memory");
        rc = -ENOMEM;
    }
    query_fini(&q);
    json_free(body);
    if (rc < 0) {
        api_reply_422(a, x, "value_error", "config", "language", err);
        submit_free(w);
        return;
    }
    if (freeform && !*w->h.code) { /* nothing to run: not accepted, nothing run */
        api_reply_json(a, x, 200, eval_result(w, NULL));
        submit_free(w);
        return;
    }
    struct request_error e;
    if (request_parse(a->cfg.langs, w->h.request, REQUEST_JUDGE, &w->req, &e) < 0) {
        /* the harness made the request: its fault is the problem's or the language's */
        snprintf(e.loc[0], sizeof(e.loc[0]), "config");
        snprintf(e.loc[1], sizeof(e.loc[1]), "language");
        e.nloc = 2;
        api_reply_error(a, x, &e);
        submit_free(w);
        return;
    }
    if (!w->req->lang->needs_gpu) {
        submit_work(w);
        return;
    }
    if ((rc = api_queue(a, x, SCHED_GPU, 1, 0, submit_work, NULL, w)) == 0)
        return;
    submit_free(w);
    api_reply_busy(a, x, rc);
}

void api_submit(struct api *a, struct http_exchange *x)
{
    on_worker(a, x, submit_route);
}
