/*
 * api_impl: what the api module's source files share: api.c (routes, replies, small routes),
 * api_judge.c (/run_code, /v1/judge, /v1/judge/batch), api_problem.c (a judging body naming a
 * stored problem), api_jupyter.c (/run_jupyter) and
 * api_datasets.c (SandboxFusion's
 * dataset endpoints and /submit) and api_store.c (the results store's routes, /v1/stats and
 * the dashboard token). Not a contract for other modules: they use api.h.
 */
#ifndef VERDICT_API_IMPL_H
#define VERDICT_API_IMPL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#include "server/http/api.h"
#include "server/http/metrics.h"
#include "server/http/peer.h"
#include "server/http/record.h"
#include "server/http/request.h"
#include "server/http/stats.h"
#include "server/judge/program.h"
#include "server/util/json.h"

struct api {
    struct api_config cfg;
    struct program_env env;
    struct metrics *metrics;
    struct stats *stats;
    _Atomic(struct store *) store; /* cfg.store until api_detach_store */
    bool loopback;                 /* listening on 127.0.0.1 (or ::1) only */
    char listen[64];               /* the address listened on (cfg.listen_host, copied) */
    atomic_int port;               /* the port listened on (api_set_port); 0: not yet */
    struct peer_proxies proxies;   /* cfg.trusted_proxies, parsed */
    time_t started;
    atomic_ulong answered;
    struct api_intake *intake; /* api_intake.c; NULL: every route on the HTTP thread */
};

/* The results store, or NULL (off, or detached for the server's stop). */
static inline struct store *api_store(struct api *a)
{
    return atomic_load_explicit(&a->store, memory_order_acquire);
}

/* Counts an answered request (answered, the metrics, /v1/stats' latency); the replies below
 * call it. */
void api_count(struct api *a, struct http_exchange *x, int status);
/* The route a path is counted under: the route table's path ("/v1/submissions/{id}" for
 * "/v1/submissions/7"), or the path itself. */
const char *api_route_name(const char *path);
/* A judged request: the metrics' verdicts, /v1/stats' mix, and the store (its id in the
 * reply's X-Verdict-Submission header, when stored). Call on the worker, before replying.
 * Returns the submission's id, or 0. */
int64_t api_judged(struct api *a, struct http_exchange *x, const struct record_origin *o,
                   const struct judge_request *req, const struct judge_result *res);

/* A /v1/judge body or batch item naming a stored problem ({"dataset", "problem", "code",
 * "language"?, "extract"? (default true; false: the code continues the prompt, cut as /submit
 * cuts it), "limits"?, "reward"?, "stop_on_failure"?, "allow_exit_status"?}): 0 with *out the
 * body its harness gives (the caller frees it), as /submit builds it; 0 with *out NULL for a
 * body that names no problem; -EINVAL with e (no such dataset or problem, tests beside it, a
 * language the problem refuses). api_problem.c. */
int api_problem_body(struct api *a, const struct json *body, struct json **out,
                     struct request_error *e);

/* Replies (each counts the request as answered and in the metrics). doc is consumed. */
void api_reply_json(struct api *a, struct http_exchange *x, int status, struct json *doc);
void api_reply_detail(struct api *a, struct http_exchange *x, int status, const char *detail);
/* FastAPI's validation error: {"detail": [{"type", "loc": ["body", locs...], "msg"}]}. */
void api_reply_422_at(struct api *a, struct http_exchange *x, const char *type,
                      const char *const *locs, int nloc, const char *msg);
void api_reply_422(struct api *a, struct http_exchange *x, const char *type, const char *field,
                   const char *sub, const char *msg);
/* The same for a query argument or a path parameter: loc [where ("query", "path"), field]. */
void api_reply_422_in(struct api *a, struct http_exchange *x, const char *where, const char *type,
                      const char *field, const char *msg);
/* A request_error as FastAPI's 422 (loc prefixed with "body"). */
void api_reply_error(struct api *a, struct http_exchange *x, const struct request_error *e);
/* Who x is counted under (server/http/peer.h): its address (a trusted proxy's forwarded one)
 * into peer, its label (X-Verdict-Client, "" none) into label (cap bytes). Valid from any
 * thread until the reply (an intake thread's handler too). */
void api_client(struct api *a, struct http_exchange *x, char peer[PEER_ADDR_LEN], char *label,
                size_t cap);
/* Queues fn(arg) as this exchange's work: its client (api_client), its class and its weight, the
 * body's length shared out over share items (1 for a whole request; a batch's distinct items);
 * still queued at deadline (monotonic seconds, 0: never) it gets expire(arg) instead. Returns
 * sched_submit's code; fn owns arg once it is 0. Never blocks. */
int api_queue(struct api *a, struct http_exchange *x, enum sched_class kind, unsigned share,
              double deadline, sched_fn fn, sched_fn expire, void *arg);
/* CLOCK_MONOTONIC in seconds: the scheduler's deadlines and the queue-time histogram. */
double api_now_s(void);
/* 503 with Retry-After for a scheduler refusal (sched_submit's -EBUSY, -EDQUOT, -ENOBUFS or
 * -ESHUTDOWN), its detail naming the bound and its reason "queue_full", "client_share",
 * "client_bytes" or "stopping". */
void api_reply_busy(struct api *a, struct http_exchange *x, int rc);
/* The same refusal's text for a batch item. */
const char *api_busy_text(int rc);

/* The request body as JSON, or NULL after a 422 (a NUL in it, or not JSON). The caller frees
 * it. */
struct json *api_read_body(struct api *a, struct http_exchange *x);

/* The browser rules (api_browser.c), before any route: Host on an open loopback server,
 * Origin and Sec-Fetch-Site on a state-changing method, and, when json_body (a route taking
 * a JSON body), Content-Type. Returns true when the request may go on; false after replying
 * 421, 403 or 415 naming the header. */
bool api_browser_allowed(struct api *a, struct http_exchange *x, bool json_body);

/* Whether the dashboard and the store's routes may answer this request: true when the
 * server listens on loopback only and no token is set, or the request carries the token
 * (Authorization: Bearer T, or the cookie verdict_token=T; compared in constant time).
 * False after replying 403 (beyond loopback without a token configured) or 401. */
bool api_dashboard_allowed(struct api *a, struct http_exchange *x);
/* Whether token is the configured dashboard token (constant time); false when none is set. */
bool api_token_matches(struct api *a, const char *token);

/* A route's handler. */
typedef void (*api_route_fn)(struct api *a, struct http_exchange *x);

/* The intake threads (api_intake.c): a route whose body is larger than API_INTAKE_INLINE
 * bytes runs on one of them, not on the HTTP thread. */
#define API_INTAKE_THREADS 2
#define API_INTAKE_INLINE  4096 /* bytes of body a route is handled with on the HTTP thread */
#define API_INTAKE_MAX     4096 /* requests waiting for an intake thread (past it: 503) */
/* Starts the threads: 0, or -ENOMEM / -EAGAIN (a->intake stays NULL). */
int api_intake_start(struct api *a);
/* Runs fn(a, x) now (a small body, or the intake stopped) or queues it for an intake thread
 * (the handler must read nothing through libmicrohttpd: no http_header, http_query,
 * http_cookie); a full queue answers 503. Called on the HTTP thread. */
void api_dispatch(struct api *a, struct http_exchange *x, api_route_fn fn);
/* api_quiesce (api.h), then frees the intake. NULL a or intake: no-op. */
void api_intake_free(struct api *a);

/* The results store's routes and /v1/stats (api_store.c). */
void api_list_submissions(struct api *a, struct http_exchange *x);
void api_get_submission(struct api *a, struct http_exchange *x);
void api_list_runs(struct api *a, struct http_exchange *x);
void api_get_run(struct api *a, struct http_exchange *x);
void api_post_run(struct api *a, struct http_exchange *x);
void api_store_datasets(struct api *a, struct http_exchange *x);
void api_store_dataset(struct api *a, struct http_exchange *x);
void api_stats(struct api *a, struct http_exchange *x);
/* /healthz' and /v1/stats' "store" object. */
struct json *api_store_health(struct api *a, bool deleted);
/* The sampled gauges of /v1/stats (stats_sample_fn; arg: the struct api). */
void api_sample(void *arg, struct stats_sample *out);

/* The judging routes (api_judge.c). */
void api_run_code(struct api *a, struct http_exchange *x);
void api_judge(struct api *a, struct http_exchange *x);
void api_judge_batch(struct api *a, struct http_exchange *x);

/* The session routes (server/http/api_session.c). */
void api_session_open(struct api *a, struct http_exchange *x);
void api_session_exec(struct api *a, struct http_exchange *x);
void api_session_get(struct api *a, struct http_exchange *x);
void api_session_delete(struct api *a, struct http_exchange *x);
void api_session_list(struct api *a, struct http_exchange *x);
/* The sessions' totals: {opened, closed: {reason: n}, calls, refused} (heap). */
struct json *api_sessions_totals(const struct sessions_stats *st);

/* SandboxFusion's notebook route (server/http/api_jupyter.c). */
void api_run_jupyter(struct api *a, struct http_exchange *x);

/* SandboxFusion's dataset routes (server/http/api_datasets.c). */
void api_list_datasets(struct api *a, struct http_exchange *x);
void api_list_ids(struct api *a, struct http_exchange *x);
void api_get_prompts(struct api *a, struct http_exchange *x);
void api_get_prompt_by_id(struct api *a, struct http_exchange *x);
void api_submit(struct api *a, struct http_exchange *x);

#endif
