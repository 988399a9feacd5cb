/*
 * api: the HTTP routes: SandboxFusion's /run_code and /v1/ping, and verdict's /healthz and
 * /v1/languages. Requests are validated in the HTTP thread (422 with FastAPI's `detail`
 * shape, naming the field); the sandbox work runs on the scheduler's workers and the reply
 * resumes the suspended connection.
 */
#ifndef VERDICT_API_H
#define VERDICT_API_H

#include "runners/pool.h"
#include "server/datasets/dataset.h"
#include "server/http/http.h"
#include "server/judge/cache.h"
#include "server/judge/lang.h"
#include "server/judge/scheduler.h"

struct api_config {
    struct lang_set *langs; /* probed */
    struct cache *cache;
    struct pool *pool;
    struct sched *sched;
    int cells, gpus;
    const char *cuda_arch;
    struct dataset_store *datasets; /* NULL: none (provided_data still works) */
};

struct api;

int api_new(const struct api_config *cfg, struct api **out, char err[ERR_LEN]);

/* The http_handler: ctx is the struct api. */
void api_handle(struct http_exchange *x, void *ctx);

/* Requests answered so far (for shutdown and tests). */
unsigned long api_answered(struct api *a);

void api_free(struct api *a);

#endif
