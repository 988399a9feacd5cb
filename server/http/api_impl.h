/*
 * api_impl: what the api module's source files share, server/api.c (routes, /run_code,
 * /v1/judge, the rest) and server/api_datasets.c (SandboxFusion's dataset endpoints). Not a
 * contract for other modules: they use server/api.h.
 */
#ifndef VERDICT_API_IMPL_H
#define VERDICT_API_IMPL_H

#include <stdatomic.h>
#include <time.h>

#include "server/http/api.h"
#include "server/http/metrics.h"
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
/* 503 with Retry-After for a scheduler refusal (-EBUSY: queue full; else shutting down). */
void api_reply_busy(struct api *a, struct http_exchange *x, int rc);

/* Counts a /v1/judge answer's verdicts (per language l) and run times in the metrics. */
void api_count_judged(struct api *a, const struct lang *l, const struct json *d);

/* SandboxFusion's dataset routes (server/api_datasets.c). */
void api_list_datasets(struct api *a, struct http_exchange *x);
void api_list_ids(struct api *a, struct http_exchange *x);
void api_get_prompts(struct api *a, struct http_exchange *x);
void api_get_prompt_by_id(struct api *a, struct http_exchange *x);
void api_submit(struct api *a, struct http_exchange *x);

#endif
