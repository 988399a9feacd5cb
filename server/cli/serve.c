/*
 * serve: wiring and lifetime.
 *
 * Start-up order: signals blocked (every thread inherits the mask, and the main thread
 * collects them with sigwait), templates loaded and probed, cache opened, GPUs found, cells
 * started (from the main thread, which outlives them: they die with it; their uids locked
 * host-wide, so a `verdict bench` beside the server never shares one), scheduler workers
 * (CPU and GPU apart; per-client shares and a bound on request bytes held), routes, and
 * last the listening socket; the results store opens after the dataset registry (the same
 * file unless --store says otherwise) and closes after the scheduler has answered
 * everything, so that every answered request is queued for its writer, and before the HTTP
 * server stops, so that its waiting queries are answered. Stop order: stop accepting,
 * let the scheduler finish every queued and running request (their replies go out on the
 * still-running HTTP thread), then close the server, the cells and the rest. No cell or job
 * outlives the server.
 */
#include "server/cli/serve.h"

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_info.h"
#include "runners/cpus.h"
#include "server/datasets/dataset.h"
#include "server/http/api.h"
#include "server/http/request.h"
#include "server/judge/engine.h"
#include "server/store/store.h"

#define EXIT_FAIL        1
#define DEFAULT_MAX_BODY (16u << 20)
/* Idle connections and unfinished requests: seconds, as uvicorn's 5 s keep-alive (docs/design.md,
 * "Connections and framing"). */
#define DEFAULT_IDLE_MS     15000
#define DEFAULT_PEER_STREAM (64ull << 20)

static int parse_listen(const char *s, char *host, size_t cap, int *port)
{
    const char *colon = strrchr(s, ':');
    if (!colon || colon == s || (size_t)(colon - s) >= cap)
        return -EINVAL;
    char *end;
    long p = strtol(colon + 1, &end, 10);
    if (*end || p < 0 || p > 65535 || end == colon + 1)
        return -EINVAL;
    snprintf(host, cap, "%.*s", (int)(colon - s), s);
    *port = (int)p;
    return 0;
}

struct parts {
    struct engine engine;
    struct sessions *sessions;
    struct dataset_store *datasets;
    struct store *store;
    struct sched *sched;
    struct api *api;
    struct http_server *http;
};

static void teardown(struct parts *p)
{
    if (p->http)
        http_quiesce(p->http);
    api_quiesce(p->api);        /* the bodies still waiting for an intake thread: queued */
    sched_free(p->sched);       /* finishes what is queued: every request is answered */
    sessions_stop(p->sessions); /* no call runs now: each session's cell wiped, given back */
    /* every judged request is queued for the store's writer now; closing it commits them
     * and answers the store's queries still waiting, whose connections the HTTP thread
     * then sends before it stops */
    api_detach_store(p->api);
    store_stop(p->store); /* a handler that took the store before the detach: 503 */
    http_stop(p->http);
    sessions_free(p->sessions);
    store_close(p->store);
    api_free(p->api);
    engine_close(&p->engine);
    dataset_close(p->datasets);
}

/* Workers: one per CPU cell, and one per GPU cell for GPU work of its own. Admission: the
 * queue's length, each client's share of it, and the request bytes held (the body of every
 * waiting and running request; the server holds about twice that, body and decoded form). */
static int start_sched(const struct serve_opts *o, int cells, int max_cells, struct parts *p,
                       char err[ERR_LEN])
{
    uint64_t max_body = o->max_body ? o->max_body : DEFAULT_MAX_BODY;
    struct sched_config sc = {.workers = cells,
                              .gpu_workers = p->engine.gpus,
                              .wall_workers = max_cells,
                              .capacity = o->queue ? (int)o->queue : 4096,
                              .client_share = (int)o->client_share,
                              .max_bytes = o->queue_bytes ? o->queue_bytes : 256ull << 20};
    if (sc.max_bytes < max_body) /* else a request the body limit admits could never run */
        return err_set(err, -EINVAL, "--queue-bytes (%llu) must be at least --max-body (%llu)",
                       (unsigned long long)sc.max_bytes, (unsigned long long)max_body);
    sc.client_bytes = o->client_bytes ? o->client_bytes : sc.max_bytes / 4 * 3;
    if (!o->client_bytes && sc.client_bytes < max_body)
        sc.client_bytes = max_body;
    if (sc.client_bytes < max_body || sc.client_bytes > sc.max_bytes)
        return err_set(err, -EINVAL,
                       "--client-bytes (%llu) must be from --max-body (%llu) to --queue-bytes "
                       "(%llu)",
                       (unsigned long long)sc.client_bytes, (unsigned long long)max_body,
                       (unsigned long long)sc.max_bytes);
    return sched_new(&sc, &p->sched, err);
}

static int start(const struct serve_opts *o, struct parts *p, char err[ERR_LEN])
{
    const char *listen = o->listen ? o->listen : "127.0.0.1:8080";
    /* verdict's API admits as many CPU-bound jobs at once as it has CPUs (cpus.h): more
     * would wait inside the kernel, slowed and charged for it, instead of in the queue */
    struct cg_host cg;
    char cg_err[ERR_LEN];
    long usable = cpus_usable(cg_detect(&cg, cg_err) == 0 ? &cg : NULL);
    long cells = o->cells ? o->cells : usable;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
    long max_cells = o->max_cells ? o->max_cells : 64 * ncpu;
    if (!o->max_cells && max_cells > POOL_MAX_CELLS)
        max_cells = POOL_MAX_CELLS;
    if (!o->max_cells && max_cells < cells)
        max_cells = cells;
    int64_t cell_idle_ms = o->cell_idle_ms ? o->cell_idle_ms : 30000;
    uint64_t max_header = o->max_header ? o->max_header : 32u << 10;
    int64_t idle_ms = o->idle_timeout_ms ? o->idle_timeout_ms : DEFAULT_IDLE_MS;
    long connections = o->connections ? o->connections : 4096;
    long peer_connections = o->peer_connections   ? o->peer_connections
                            : connections / 4 > 0 ? connections / 4
                                                  : 1;
    if (peer_connections > connections)
        peer_connections = connections;
    uint64_t peer_stream = o->peer_stream_bytes ? o->peer_stream_bytes : DEFAULT_PEER_STREAM;
    char host[64];
    int port, rc;
    if (parse_listen(listen, host, sizeof(host), &port) < 0)
        return err_set(err, -EINVAL, "--listen %.100s: expected HOST:PORT", listen);
    if (cells < 1 || cells > POOL_MAX_CELLS)
        return err_set(err, -EINVAL, "--cells must be 1..%d", POOL_MAX_CELLS);
    if (max_cells < cells || max_cells > POOL_MAX_CELLS)
        return err_set(err, -EINVAL, "--max-cells must be --cells (%ld)..%d", cells,
                       POOL_MAX_CELLS);
    if (o->python_warm && strcmp(o->python_warm, "on") != 0 && strcmp(o->python_warm, "off") != 0)
        return err_set(err, -EINVAL, "--python-warm must be on or off");
    if (cell_idle_ms < 1000 || cell_idle_ms > 86400000)
        return err_set(err, -EINVAL, "--cell-idle must be 1 s..1 day");
    if (max_header < (4u << 10) || max_header > (1u << 20))
        return err_set(err, -EINVAL, "--max-header must be 4K..1M");
    if (idle_ms < 1000 || idle_ms > 86400000)
        return err_set(err, -EINVAL, "--idle-timeout must be 1 s..1 day");
    if (peer_stream < (64u << 10))
        return err_set(err, -EINVAL, "--peer-stream-bytes must be at least 64K");
    if ((o->session_idle_max_ms && o->session_idle_max_ms < 1000) ||
        o->session_idle_max_ms > SESSION_CEILING_MAX ||
        (o->session_lifetime_max_ms && o->session_lifetime_max_ms < 1000) ||
        o->session_lifetime_max_ms > SESSION_CEILING_MAX)
        return err_set(err, -EINVAL,
                       "--session-idle-max and --session-lifetime-max must be "
                       "1 s..1 day");
    const char *db = o->db ? o->db : VERDICT_DB;
    if ((rc = dataset_open(db, &p->datasets, err)) < 0)
        return rc;
    for (int i = 0; i < o->datasets.n; i++)
        if ((rc = dataset_import_dir(p->datasets, o->datasets.items[i], stderr, err)) < 0)
            return rc; /* a directory that is not there; a bad file is reported and skipped */
    const char *store_path = o->store ? o->store : db;
    if (strcmp(store_path, "off") != 0) {
        struct store_config stc = {
            .path = store_path, .retain_rows = o->retain_rows, .retain_days = o->retain_days};
        if ((rc = store_open(&stc, &p->store, err)) < 0)
            return rc;
    }
    struct engine_config ec = {.languages = o->languages,
                               .cache = o->cache,
                               .cells = (int)cells,
                               .max_cells = (int)max_cells,
                               .cell_idle_ms = (int)cell_idle_ms,
                               .python_warm = o->python_warm};
    if ((rc = engine_open(&ec, &p->engine, err)) < 0)
        return rc;
    if ((rc = start_sched(o, (int)cells, (int)max_cells, p, err)) < 0)
        return rc;
    int gpus = p->engine.gpus;
    long max_sessions = o->max_sessions >= 0 ? o->max_sessions : SESSION_DEFAULTS;
    if (max_sessions > max_cells)
        max_sessions = max_cells; /* each holds a cell */
    struct sessions_config sc = {.pool = p->engine.pool,
                                 .env = &p->engine.env,
                                 .max = (int)max_sessions,
                                 .client_max = (int)o->client_sessions,
                                 .ceil = {o->session_idle_max_ms, o->session_lifetime_max_ms},
                                 .interp = verdict_jupyter_driver,
                                 .interp_len = verdict_jupyter_driver_len};
    if (max_sessions > 0 && (rc = sessions_new(&sc, &p->sessions, err)) < 0)
        return rc;
    struct api_config ac = {.langs = p->engine.langs,
                            .cache = p->engine.cache,
                            .pool = p->engine.pool,
                            .sched = p->sched,
                            .cells = (int)cells,
                            .gpus = gpus,
                            .cold = p->engine.env.cold,
                            .cuda_arch = p->engine.env.cuda_arch,
                            .datasets = p->datasets,
                            .store = p->store,
                            .listen_host = host,
                            .dashboard_token = o->dashboard_token,
                            .sessions = p->sessions,
                            .trusted_proxies = o->trusted_proxy,
                            .max_body = o->max_body ? o->max_body : DEFAULT_MAX_BODY};
    if ((rc = api_new(&ac, &p->api, err)) < 0)
        return rc;
    struct http_config hc = {.host = host,
                             .port = port,
                             .max_body = o->max_body ? o->max_body : DEFAULT_MAX_BODY,
                             .max_header = (size_t)max_header,
                             .connections = (unsigned)connections,
                             .peer_connections = (unsigned)peer_connections,
                             .timeout_s = (unsigned)((idle_ms + 999) / 1000),
                             .peer_stream_bytes = (size_t)peer_stream};
    if ((rc = http_start(&hc, api_handle, p->api, &p->http, err)) < 0)
        return rc;
    api_set_port(p->api, http_port(p->http));
    fprintf(stderr,
            "verdict %s: serving on http://%s:%d with %ld cells (up to %ld for /run_code), "
            "%d GPU cells; store %s%s\n",
            VERDICT_VERSION, host, http_port(p->http), cells, max_cells, gpus,
            p->store ? store_path : "off",
            o->dashboard_token && *o->dashboard_token ? "; dashboard token required" : "");
    return 0;
}

int serve_main(const struct serve_opts *o)
{
    if (geteuid() != 0) {
        fprintf(stderr, "verdict serve: needs root (cells use namespaces and cgroups)\n");
        return EXIT_FAIL;
    }
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* Program outputs reach 16 MiB each. glibc raises its mmap threshold to the size of the
     * largest block freed, after which such buffers come from the heaps of worker threads
     * and stay resident; a fixed threshold keeps them mmapped, returned on free, and a bound
     * on arenas keeps what is cached per thread small. */
    mallopt(M_MMAP_THRESHOLD, 256 << 10);
    mallopt(M_ARENA_MAX, 4);
    struct parts p;
    memset(&p, 0, sizeof(p));
    char err[ERR_LEN] = "";
    int rc = start(o, &p, err);
    if (rc < 0) {
        fprintf(stderr, "verdict serve: %s\n", err);
        teardown(&p);
        return EXIT_FAIL;
    }
    int sig = 0;
    sigwait(&set, &sig);
    fprintf(stderr, "verdict: %s, finishing in-flight requests\n", strsignal(sig));
    teardown(&p);
    fprintf(stderr, "verdict: stopped\n");
    return 0;
}
