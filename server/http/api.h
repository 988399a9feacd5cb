/*
 * api: verdict's HTTP API over server/http (docs/api.md; the list is the route table in
 * api.c, also shown by GET /healthz): SandboxFusion's POST /run_code, /submit, /get_prompts,
 * /get_prompt_by_id, /list_ids, GET /list_datasets and /v1/ping; verdict's POST /v1/judge,
 * /v1/judge/batch, GET /v1/languages, /healthz, /metrics and /openapi.json; the results
 * store's GET /v1/submissions, /v1/submissions/{id}, /v1/runs, /v1/runs/{id}, POST /v1/runs,
 * GET /v1/datasets, /v1/datasets/{name}, and GET /v1/stats (server/http/api_store.c).
 *
 * Threads: api_handle runs on libmicrohttpd's thread and never blocks: it matches the route,
 * checks the token, and runs the route's handler, itself for a small body or on an intake
 * thread for a larger one (server/http/api_intake.c: no work that grows with a body on the
 * HTTP thread); the handler validates the request (422 with FastAPI's `detail` shape, naming
 * the field) and queues the work on the scheduler; a worker judges and replies, which resumes
 * the suspended connection.
 */
#ifndef VERDICT_API_H
#define VERDICT_API_H

#include <stdint.h>

#include "runners/pool.h"
#include "server/datasets/dataset.h"
#include "server/http/http.h"
#include "server/judge/cache.h"
#include "server/judge/lang.h"
#include "server/judge/scheduler.h"
#include "server/judge/session.h"
#include "server/store/store.h"

struct api_config {
    struct lang_set *langs; /* probed */
    struct cache *cache;
    struct pool *pool;
    struct sched *sched;
    int cells, gpus;
    bool cold; /* no warm Python starts (engine's program_env.cold) */
    const char *cuda_arch;
    struct dataset_store *datasets; /* NULL: none (provided_data still works) */
    struct store *store;            /* the results store; NULL: off (--store off) */
    const char *listen_host;        /* the address listened on ("127.0.0.1", "0.0.0.0"); read
                                       by api_new only */
    const char *dashboard_token;    /* NULL or "": none (see api_dashboard_allowed) */
    struct sessions *sessions;      /* NULL: sessions off (--max-sessions 0) */
    const char *trusted_proxies;    /* --trusted-proxy: whose forwarded address is the
                                       client's (server/http/peer.h); NULL: none */
    uint64_t max_body;              /* --max-body, the largest request body (said by /healthz
                                       for clients that split their batches; 0: unknown) */
};

struct api;

int api_new(const struct api_config *cfg, struct api **out, char err[ERR_LEN]);

/* The port the server listens on (http_port), for the browser rules' test of a request's
 * Origin against this server's own address; call once http_start has bound it. Until then
 * only the Host a request was reached at counts as this server's origin. */
void api_set_port(struct api *a, int port);

/* The http_handler: ctx is the struct api. */
void api_handle(struct http_exchange *x, void *ctx);

/* From now on the routes act as if the store were off (for the server's stop: call after
 * the scheduler has finished, before store_close). */
void api_detach_store(struct api *a);

/* Handles the requests still waiting for an intake thread (their handlers queue work on the
 * scheduler) and stops those threads: call before the scheduler stops. Later requests are
 * handled on the HTTP thread. Idempotent; NULL: no-op. */
void api_quiesce(struct api *a);

/* Requests answered so far (for shutdown and tests). */
unsigned long api_answered(struct api *a);

void api_free(struct api *a);

#endif
