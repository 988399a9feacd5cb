/*
 * api_impl: what the api module's source files share: api.c (routes, replies, small routes),
 * api_judge.c (/run_code, /v1/judge, /v1/judge/batch), api_jupyter.c (/run_jupyter) and
 * api_datasets.c (SandboxFusion's
 * dataset endpoints and /submit). Not a contract for other modules: they use api.h.
 */
#ifndef VERDICT_API_IMPL_H
#define VERDICT_API_IMPL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#include "server/http/api.h"
#include "server/http/metrics.h"
#include "server/http/request.h"
#include "server/judge/program.h"
#include "server/util/json.h"

struct api {
    struct api_config cfg;
    struct program_env env;
    struct metrics *metrics;
    time_t started;
    atomic_ulong answered;
};

/* Replies (each counts the request as answered and in the metrics). doc is consumed. */
void api_reply_json(struct api *a, struct http_exchange *x, int status, struct json *doc);
void api_reply_detail(struct api *a, struct http_exchange *x, int status, const char *detail);
/* FastAPI's validation error: {"detail": [{"type", "loc": ["body", locs...], "msg"}]}. */
void api_reply_422_at(struct api *a, struct http_exchange *x, const char *type,
                      const char *const *locs, int nloc, const char *msg);
void api_reply_422(struct api *a, struct http_exchange *x, const char *type, const char *field,
                   const char *sub, const char *msg);
/* A request_error as FastAPI's 422 (loc prefixed with "body"). */
void api_reply_error(struct api *a, struct http_exchange *x, const struct request_error *e);
/* Queues fn(arg) as this exchange's work: its client (X-Verdict-Client, else the peer's
 * address), its class and its weight, the body's length shared out over share items (1 for
 * a whole request; a batch's distinct items); still queued at deadline (monotonic seconds,
 * 0: never) it gets expire(arg) instead. Returns sched_submit's code; fn owns arg once it is
 * 0. Never blocks. */
int api_queue(struct api *a, struct http_exchange *x, enum sched_class kind, unsigned share,
              double deadline, sched_fn fn, sched_fn expire, void *arg);
/* CLOCK_MONOTONIC in seconds: the scheduler's deadlines and the queue-time histogram. */
double api_now_s(void);
/* 503 with Retry-After for a scheduler refusal (-EBUSY: queue full; else shutting down). */
void api_reply_busy(struct api *a, struct http_exchange *x, int rc);

/* The request body as JSON, or NULL after a 422 (a NUL in it, or not JSON). The caller frees
 * it. */
struct json *api_read_body(struct api *a, struct http_exchange *x);

/* Whether the request may see the dashboard and the store's routes (the token rule of
 * docs/api.md); when not, it has been answered (401 or 403). */
bool api_dashboard_allowed(struct api *a, struct http_exchange *x);

/* The judging routes (api_judge.c). */
void api_run_code(struct api *a, struct http_exchange *x);
void api_judge(struct api *a, struct http_exchange *x);
void api_judge_batch(struct api *a, struct http_exchange *x);

/* SandboxFusion's notebook route (server/http/api_jupyter.c). */
void api_run_jupyter(struct api *a, struct http_exchange *x);

/* SandboxFusion's dataset routes (server/http/api_datasets.c). */
void api_list_datasets(struct api *a, struct http_exchange *x);
void api_list_ids(struct api *a, struct http_exchange *x);
void api_get_prompts(struct api *a, struct http_exchange *x);
void api_get_prompt_by_id(struct api *a, struct http_exchange *x);
void api_submit(struct api *a, struct http_exchange *x);

#endif
