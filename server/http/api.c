/*
 * api: the route table, the replies every route shares, and the small routes (/v1/ping,
 * /healthz, /v1/languages, /metrics, /openapi.json). The judging routes are in
 * api_judge.c, SandboxFusion's dataset routes in api_datasets.c; what they share is
 * api_impl.h. Handlers run on libmicrohttpd's thread and never block: anything that waits
 * (the sandbox, SQLite) is queued on the scheduler's workers.
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

#include "server/http/dashboard.h"
#include "server/http/metrics.h"
#include "server/http/openapi.h"
#include "server/judge/packages.h"
#include "server/util/json.h"

/* ---- replies ----------------------------------------------------------------------------- */

void api_count(struct api *a, struct http_exchange *x, int status)
{
    atomic_fetch_add(&a->answered, 1);
    metrics_request(a->metrics, api_route_name(http_path(x)), status);
    stats_request(a->stats, status, api_now_s() - http_started(x));
}

int64_t api_judged(struct api *a, struct http_exchange *x, const struct record_origin *o,
                   const struct judge_request *req, const struct judge_result *res)
{
    metrics_judged(a->metrics, req->lang, res);
    int failed;
    const char *why;
    stats_judged(a->stats, req->lang, o->route, judge_outcome(res, &failed, &why));
    int64_t id = record_put(api_store(a), o, req, res);
    if (id > 0 && x) {
        char v[24];
        snprintf(v, sizeof(v), "%lld", (long long)id);
        http_add_header(x, "X-Verdict-Submission", v);
    }
    return id;
}

void api_reply_json(struct api *a, struct http_exchange *x, int status, struct json *doc)
{
    char *text = json_render(doc, false);
    json_free(doc);
    api_count(a, x, text ? status : 500);
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

void api_reply_422_in(struct api *a, struct http_exchange *x, const char *where, const char *type,
                      const char *field, const char *msg)
{
    struct json *d = json_object();
    struct json *e = json_push(json_set(d, "detail", json_array()), json_object());
    json_set_str(e, "type", type);
    struct json *loc = json_set(e, "loc", json_array());
    json_push_str(loc, where);
    json_push_str(loc, field);
    json_set_str(e, "msg", msg);
    api_reply_json(a, x, 422, d);
}

void api_reply_error(struct api *a, struct http_exchange *x, const struct request_error *e)
{
    struct json *d = json_object();
    json_push(json_set(d, "detail", json_array()), request_error_json(e, "body"));
    api_reply_json(a, x, 422, d);
}

double api_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void api_client(struct api *a, struct http_exchange *x, char peer[PEER_ADDR_LEN], char *label,
                size_t cap)
{
    peer_address(&a->proxies, x, peer, PEER_ADDR_LEN);
    peer_label(x, label, cap);
}

int api_queue(struct api *a, struct http_exchange *x, enum sched_class kind, unsigned share,
              double deadline, sched_fn fn, sched_fn expire, void *arg)
{
    char peer[PEER_ADDR_LEN], label[SCHED_CLIENT_LEN];
    api_client(a, x, peer, label, sizeof(label));
    size_t len;
    http_body(x, &len); /* the body stays held until the reply */
    struct sched_ticket t = {.peer = peer,
                             .client = label,
                             .bytes = len / (share ? share : 1) + 1,
                             .kind = kind,
                             .deadline = deadline,
                             .expire = expire};
    return sched_submit(a->cfg.sched, &t, fn, arg);
}

struct json *api_read_body(struct api *a, struct http_exchange *x)
{
    size_t len;
    const char *text = http_body(x, &len);
    struct request_error e;
    if (request_check_text(text, len, &e) < 0) {
        api_reply_error(a, x, &e);
        return NULL;
    }
    struct json *body = json_parse(text);
    if (!body)
        api_reply_422(a, x, "json_invalid", NULL, NULL, "JSON decode error");
    return body;
}

const char *api_busy_text(int rc)
{
    switch (rc) {
    case -EDQUOT:
        return "server busy: this client's share of the queue is full (--client-share requests "
               "waiting from one address, all its X-Verdict-Client labels together); retry";
    case -ENOBUFS:
        return "server busy: this client's share of the request bytes is full (--client-bytes "
               "held by one address's waiting and running requests); retry";
    case -EBUSY:
        return "server busy: the queue or the request bytes it may hold (--queue, "
               "--queue-bytes) are full; retry";
    default:
        return "server shutting down";
    }
}

void api_reply_busy(struct api *a, struct http_exchange *x, int rc)
{
    http_add_header(x, "Retry-After", "1");
    struct json *d = json_object();
    json_set_str(d, "detail", api_busy_text(rc));
    json_set_str(d, "reason",
                 rc == -EDQUOT    ? "client_share"
                 : rc == -ENOBUFS ? "client_bytes"
                 : rc == -EBUSY   ? "queue_full"
                                  : "stopping");
    api_reply_json(a, x, 503, d);
}

/* ---- other routes ---------------------------------------------------------------------- */

static void ping(struct api *a, struct http_exchange *x)
{
    char *body = strdup("\"pong\"");
    api_count(a, x, 200);
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
    /* Stopping: 503, so that a readiness probe or a balancer's health check takes this
     * replica out while it finishes what it holds. */
    json_set_str(d, "status", st.stopping ? "stopping" : "ok");
    json_set_num(d, "cells", a->cfg.cells);
    if (a->cfg.max_body) /* a batch's body past it is 413: clients split theirs below it */
        json_set_num(d, "max_body", (double)a->cfg.max_body);
    json_set_num(d, "gpu_cells", a->cfg.gpus);
    json_set_num(d, "cells_replaced", pool_replaced(a->cfg.pool));
    struct pool_stats ps;
    pool_get_stats(a->cfg.pool, &ps);
    json_set_num(d, "cells_started", ps.cells);
    json_set_num(d, "cells_max", ps.max);
    json_set_num(d, "cells_busy", ps.busy);
    json_set_num(d, "cells_waiting", ps.waiting);
    json_set_num(d, "cell_start_failures", ps.no_growth);
    struct json *q = json_set(d, "queue", json_object());
    json_set_num(q, "queued", st.queued);
    json_set_num(q, "running", st.running);
    json_set_num(q, "capacity", st.capacity);
    json_set_num(q, "expired", (double)st.expired);
    json_set_num(q, "client_share", st.client_share);
    json_set_num(q, "client_bytes", (double)st.client_bytes);
    struct json *refused = json_set(q, "refused", json_object()); /* by the 503's reason */
    json_set_num(refused, "queue_full", (double)(st.refused_full + st.refused_bytes));
    json_set_num(refused, "client_share", (double)st.refused_share);
    json_set_num(refused, "client_bytes", (double)st.refused_client_bytes);
    struct json *c = json_set(d, "compile_cache", json_object());
    json_set_num(c, "hits", (double)cs.hits);
    json_set_num(c, "misses", (double)cs.misses);
    json_set_num(c, "entries", (double)cs.entries);
    json_set_num(c, "bytes", (double)cs.bytes);
    json_set_num(c, "write_errors", (double)cs.write_errors);
    json_set_num(d, "uptime_s", (double)(time(NULL) - a->started));
    json_set(d, "store", api_store_health(a, true));
    if (a->cfg.sessions) {
        struct sessions_stats sst;
        sessions_list(a->cfg.sessions, NULL, 0, &sst);
        struct json *s = json_set(d, "sessions", api_sessions_totals(&sst));
        json_set_num(s, "open", sst.open);
        json_set_num(s, "max", sst.max);
        json_set_num(s, "cells", ps.sessions); /* cells held by sessions (opening ones too) */
    } else {
        json_set_null(d, "sessions");
    }
    json_set(d, "routes", route_list());
    api_reply_json(a, x, st.stopping ? 503 : 200, d);
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
        /* how a /v1/judge harness (a dataset's function tests) in it is decided */
        json_set_str(o, "harness_grading", judge_grading_name(judge_harness_grading(l)));
        /* the libraries programs may import beyond the standard library (packages.h) */
        struct json *pk = json_set(o, "packages", json_array());
        for (int k = 0; k < l->npackages; k++) {
            struct json *e = json_push(pk, json_object());
            json_set_str(e, "name", l->packages[k].name);
            json_set_str(e, "version", l->packages[k].version);
            json_set_str(e, "import", l->packages[k].import);
        }
    }
    api_reply_json(a, x, 200, list);
}

static void metrics(struct api *a, struct http_exchange *x)
{
    struct sched_stats st;
    struct cache_stats cs;
    sched_get_stats(a->cfg.sched, &st);
    cache_get_stats(a->cfg.cache, &cs);
    struct pool_stats ps;
    pool_get_stats(a->cfg.pool, &ps);
    struct metrics_gauges g = {.queued = st.queued,
                               .cells_started = ps.cells,
                               .cells_max = ps.max,
                               .cells_waiting = ps.waiting,
                               .cells_grown = ps.started,
                               .cells_shrunk = ps.stopped,
                               .cells_not_started = ps.no_growth,
                               .expired = st.expired,
                               .running = st.running,
                               .cells = a->cfg.cells,
                               .gpu_cells = a->cfg.gpus,
                               .cells_replaced = pool_replaced(a->cfg.pool),
                               .cache_hits = cs.hits,
                               .cache_misses = cs.misses,
                               .cache_entries = cs.entries,
                               .cache_bytes = cs.bytes,
                               .cache_write_errors = cs.write_errors};
    struct store *store = api_store(a);
    if (store) {
        struct store_stats ss;
        store_get_stats(store, &ss);
        g.store_enabled = true;
        g.store_ok = ss.ok;
        g.store_written = ss.written;
        g.store_dropped = ss.dropped;
        g.store_errors = ss.errors;
        g.store_deleted = ss.deleted;
        g.store_queued = ss.queued;
        g.store_db_bytes = ss.db_bytes;
    }
    struct sessions_stats sst;
    if (a->cfg.sessions) {
        sessions_list(a->cfg.sessions, NULL, 0, &sst);
        g.sessions = &sst;
    }
    api_count(a, x, 200); /* counted in its own exposition */
    char *text = metrics_render(a->metrics, &g);
    http_reply(x, text ? 200 : 500, "text/plain; version=0.0.4", text, text ? strlen(text) : 0);
}

static void openapi(struct api *a, struct http_exchange *x)
{
    char *body = malloc(verdict_openapi_len + 1);
    if (body)
        memcpy(body, verdict_openapi, verdict_openapi_len + 1);
    api_count(a, x, body ? 200 : 500);
    http_reply(x, body ? 200 : 500, "application/json", body, body ? verdict_openapi_len : 0);
}

/* A "{...}" segment of a route's path matches one non-empty segment of a request's path;
 * every other segment matches itself. guarded: behind the dashboard token
 * (api_dashboard_allowed). */
struct route {
    const char *method, *path;
    void (*fn)(struct api *a, struct http_exchange *x);
    bool guarded;
};

static const struct route routes[] = {
    {"POST", "/run_code", api_run_code, false},
    {"POST", "/run_jupyter", api_run_jupyter, false},
    {"POST", "/v1/judge", api_judge, false},
    {"POST", "/v1/judge/batch", api_judge_batch, false},
    {"GET", "/v1/ping", ping, false},
    {"GET", "/healthz", healthz, false},
    {"GET", "/v1/languages", languages, false},
    {"GET", "/metrics", metrics, false},
    {"GET", "/openapi.json", openapi, false},
    {"POST", "/submit", api_submit, false},
    {"POST", "/get_prompts", api_get_prompts, false},
    {"POST", "/get_prompt_by_id", api_get_prompt_by_id, false},
    {"POST", "/list_ids", api_list_ids, false},
    {"GET", "/list_datasets", api_list_datasets, false},
    {"GET", "/v1/submissions", api_list_submissions, true},
    {"GET", "/v1/submissions/{id}", api_get_submission, true},
    {"GET", "/v1/runs", api_list_runs, true},
    {"POST", "/v1/runs", api_post_run, true},
    {"GET", "/v1/runs/{id}", api_get_run, true},
    {"GET", "/v1/datasets", api_store_datasets, true},
    {"GET", "/v1/datasets/{name}", api_store_dataset, true},
    {"GET", "/v1/stats", api_stats, true},
    {"GET", "/v1/sessions", api_session_list, true},
    {"POST", "/v1/sessions", api_session_open, false},
    {"GET", "/v1/sessions/{id}", api_session_get, false},
    {"DELETE", "/v1/sessions/{id}", api_session_delete, false},
    {"POST", "/v1/sessions/{id}/exec", api_session_exec, false},
    {"GET", "/", api_dashboard, false}, /* the dashboard (dashboard.c): its own token check */
    {"GET", "/assets/{name}", api_dashboard, false},
};
#define NROUTES (sizeof(routes) / sizeof(routes[0]))

/* "METHOD /path" of every route, for /healthz (and the test that checks the OpenAPI). */
static struct json *route_list(void)
{
    struct json *rl = json_array();
    for (size_t i = 0; i < NROUTES; i++) {
        char r[96];
        snprintf(r, sizeof(r), "%s %s", routes[i].method, routes[i].path);
        json_push_str(rl, r);
    }
    return rl;
}

/* Whether path is the route's, segment by segment ("{...}" matching any non-empty one). */
static bool route_matches(const struct route *r, const char *path)
{
    const char *p = r->path, *q = path;
    while (*p && *q) {
        size_t pn = strcspn(p + 1, "/") + 1, qn = strcspn(q + 1, "/") + 1; /* "/seg" */
        bool param = p[1] == '{';
        if (param ? qn < 2 : pn != qn || strncmp(p, q, pn) != 0)
            return false;
        p += pn;
        q += qn;
    }
    return !*p && !*q;
}

const char *api_route_name(const char *path)
{
    for (size_t i = 0; i < NROUTES; i++)
        if (route_matches(&routes[i], path))
            return routes[i].path;
    return path;
}

/* Whether the request is a POST to a route that takes a JSON body (every POST route). */
static bool json_post(struct http_exchange *x)
{
    if (strcmp(http_method(x), "POST") != 0)
        return false;
    for (size_t i = 0; i < NROUTES; i++)
        if (strcmp(routes[i].method, "POST") == 0 && route_matches(&routes[i], http_path(x)))
            return true;
    return false;
}

void api_handle(struct http_exchange *x, void *ctx)
{
    struct api *a = ctx;
    if (!api_browser_allowed(a, x, json_post(x)))
        return;                         /* answered: 421, 403 or 415 */
    if (dashboard_path(http_path(x))) { /* any method: its headers on every reply */
        api_dashboard(a, x);
        return;
    }
    bool path_known = false;
    for (size_t i = 0; i < NROUTES; i++) {
        if (!route_matches(&routes[i], http_path(x)))
            continue;
        path_known = true;
        if (strcmp(routes[i].method, http_method(x)) == 0) {
            if (!routes[i].guarded || api_dashboard_allowed(a, x))
                api_dispatch(a, x, routes[i].fn); /* a large body: on an intake thread */
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
    int rc = peer_proxies_parse(cfg->trusted_proxies, &a->proxies, err);
    if (rc < 0) {
        free(a);
        return rc;
    }
    a->env.pool = cfg->pool;
    a->env.cache = cfg->cache;
    a->env.gpus = cfg->gpus;
    a->env.cells = cfg->cells;
    a->env.cold = cfg->cold;
    snprintf(a->env.cuda_arch, sizeof(a->env.cuda_arch), "%s",
             cfg->cuda_arch ? cfg->cuda_arch : "");
    a->started = time(NULL);
    atomic_init(&a->store, cfg->store);
    snprintf(a->listen, sizeof(a->listen), "%s", cfg->listen_host ? cfg->listen_host : "127.0.0.1");
    const char *h = a->listen;
    /* Exactly the two addresses that mean "this machine only": another of 127/8 may be
     * what the machine's own name resolves to (Debian's 127.0.1.1, listened on as the
     * network address) or one some setup forwards. */
    a->loopback = strcmp(h, "127.0.0.1") == 0 || strcmp(h, "::1") == 0;
    atomic_init(&a->port, 0);
    if (!(a->stats = stats_new(cfg->langs, api_sample, a))) {
        free(a);
        return err_set(err, -ENOMEM, "out of memory");
    }
    const char *paths[NROUTES]; /* metrics counts the route table's own paths */
    for (size_t i = 0; i < NROUTES; i++)
        paths[i] = routes[i].path;
    if (!(a->metrics = metrics_new(cfg->langs, paths, (int)NROUTES))) {
        stats_free(a->stats);
        free(a);
        return err_set(err, -ENOMEM, "out of memory");
    }
    if (api_intake_start(a) < 0) {
        metrics_free(a->metrics);
        stats_free(a->stats);
        free(a);
        return err_set(err, -ENOMEM, "cannot start the intake threads");
    }
    *out = a;
    return 0;
}

void api_detach_store(struct api *a)
{
    if (a)
        atomic_store_explicit(&a->store, NULL, memory_order_release);
}

unsigned long api_answered(struct api *a)
{
    return atomic_load(&a->answered);
}

void api_free(struct api *a)
{
    if (a) {
        api_intake_free(a);
        metrics_free(a->metrics);
        stats_free(a->stats);
    }
    free(a);
}
