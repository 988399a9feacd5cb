/*
 * metrics: tables of atomics, sized at start, and a text renderer.
 */
#include "server/http/metrics.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runners/buf.h"

static const int statuses[] = {200, 201, 303, 400, 401, 403, 404, 405,
                               409, 410, 413, 422, 431, 500, 503, 504};
#define NSTATUS (sizeof(statuses) / sizeof(statuses[0]))
/* Counted verdicts: the enum's, up to SE (SKIP is not a program's outcome). */
#define NVERDICTS ((size_t)VERDICT_SE + 1)
static const double bounds[] = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                0.5,   1,     2.5,  5,     10,   30,  60};
#define NBOUNDS (sizeof(bounds) / sizeof(bounds[0]))
static const char *const hist_names[HIST_COUNT] = {"queue_wait", "compile", "run"};

struct hist {
    atomic_ullong buckets[NBOUNDS + 1];
    atomic_ullong count;
    atomic_ullong micros; /* sum, in microseconds */
};

struct metrics {
    const struct lang_set *langs;
    int nroutes;
    const char **routes;     /* the API's paths (borrowed strings), then "other" */
    atomic_ullong *requests; /* [route][status]; last column: any other status */
    atomic_ullong *verdicts; /* [lang][verdict] */
    /* judged answers by grading and outcome: at most 4 x 9 series, whatever the traffic */
    atomic_ullong graded[JUDGE_GRADING_COUNT][NVERDICTS];
    atomic_ullong reruns[JUDGE_RERUN_COUNT]; /* runs discarded and run again, by reason */
    struct hist hists[HIST_COUNT];
};

static atomic_ullong *request_count(struct metrics *m, size_t route, size_t status)
{
    return &m->requests[route * (NSTATUS + 1) + status];
}

struct metrics *metrics_new(const struct lang_set *langs, const char *const *routes, int nroutes)
{
    struct metrics *m = calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    m->langs = langs;
    m->nroutes = nroutes + 1;
    m->routes = calloc((size_t)m->nroutes, sizeof(*m->routes));
    m->requests = calloc((size_t)m->nroutes * (NSTATUS + 1), sizeof(*m->requests));
    m->verdicts = calloc((size_t)lang_count(langs) * NVERDICTS + 1, sizeof(*m->verdicts));
    if (!m->routes || !m->requests || !m->verdicts) {
        metrics_free(m);
        return NULL;
    }
    for (int i = 0; i < nroutes; i++)
        m->routes[i] = routes[i];
    m->routes[nroutes] = "other";
    return m;
}

void metrics_free(struct metrics *m)
{
    if (!m)
        return;
    free(m->routes);
    free(m->requests);
    free(m->verdicts);
    free(m);
}

void metrics_request(struct metrics *m, const char *path, int status)
{
    size_t r = (size_t)m->nroutes - 1, s = NSTATUS;
    for (size_t i = 0; i + 1 < (size_t)m->nroutes; i++)
        if (strcmp(path, m->routes[i]) == 0)
            r = i;
    for (size_t i = 0; i < NSTATUS; i++)
        if (statuses[i] == status)
            s = i;
    atomic_fetch_add_explicit(request_count(m, r, s), 1, memory_order_relaxed);
}

void metrics_verdict(struct metrics *m, const struct lang *l, enum verdict v)
{
    if ((size_t)v >= NVERDICTS)
        return;
    for (int i = 0; i < lang_count(m->langs); i++) {
        if (lang_at(m->langs, i) == l) {
            atomic_fetch_add_explicit(&m->verdicts[(size_t)i * NVERDICTS + v], 1,
                                      memory_order_relaxed);
            return;
        }
    }
}

void metrics_judged(struct metrics *m, const struct lang *l, const struct judge_result *res)
{
    const struct judge_compile *c = &res->compile;
    if (c->built && c->compiled_language && !c->cached)
        metrics_observe(m, HIST_COMPILE, (double)c->wall_ms / 1000.0);
    int failed;
    const char *why;
    enum verdict outcome = judge_outcome(res, &failed, &why);
    if (res->grading != JUDGE_GRADING_NONE && (unsigned)res->grading < JUDGE_GRADING_COUNT &&
        (size_t)outcome < NVERDICTS)
        atomic_fetch_add_explicit(&m->graded[res->grading][outcome], 1, memory_order_relaxed);
    if (res->ntests == 0) /* nothing ran: the compile's verdict, or our fault, once */
        metrics_verdict(m, l, res->status);
    for (int i = 0; i < res->ntests; i++) {
        const struct judge_test_result *t = &res->tests[i];
        if (t->reruns > 0 && (unsigned)t->rerun < JUDGE_RERUN_COUNT)
            atomic_fetch_add_explicit(&m->reruns[t->rerun], (unsigned long long)t->reruns,
                                      memory_order_relaxed);
        metrics_verdict(m, l, res->tests[i].verdict);
        metrics_observe(m, HIST_RUN, (double)res->tests[i].wall_ms / 1000.0);
    }
}

void metrics_observe(struct metrics *m, enum metrics_hist h, double seconds)
{
    struct hist *x = &m->hists[h];
    size_t b = 0;
    while (b < NBOUNDS && seconds > bounds[b])
        b++;
    atomic_fetch_add_explicit(&x->buckets[b], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&x->count, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&x->micros, (unsigned long long)(seconds * 1e6),
                              memory_order_relaxed);
}

static unsigned long long get(atomic_ullong *a)
{
    return atomic_load_explicit(a, memory_order_relaxed);
}

char *metrics_render(struct metrics *m, const struct metrics_gauges *g)
{
    struct buf t;
    buf_init(&t, 0);
    buf_printf(&t, "# HELP verdict_requests_total HTTP requests answered, by route and status.\n"
                   "# TYPE verdict_requests_total counter\n");
    for (size_t r = 0; r < (size_t)m->nroutes; r++) {
        for (size_t s = 0; s <= NSTATUS; s++) {
            unsigned long long n = get(request_count(m, r, s));
            char status[16] = "other";
            if (s < NSTATUS)
                snprintf(status, sizeof(status), "%d", statuses[s]);
            if (n)
                buf_printf(&t, "verdict_requests_total{route=\"%s\",status=\"%s\"} %llu\n",
                           m->routes[r], status, n);
        }
    }
    buf_printf(&t, "# HELP verdict_verdicts_total Program verdicts, by language.\n"
                   "# TYPE verdict_verdicts_total counter\n");
    for (int i = 0; i < lang_count(m->langs); i++)
        for (size_t v = 0; v < NVERDICTS; v++)
            if (get(&m->verdicts[(size_t)i * NVERDICTS + v]))
                buf_printf(&t, "verdict_verdicts_total{language=\"%s\",verdict=\"%s\"} %llu\n",
                           lang_at(m->langs, i)->name, verdict_name((enum verdict)v),
                           get(&m->verdicts[(size_t)i * NVERDICTS + v]));
    buf_printf(&t, "# HELP verdict_graded_total Judged answers (a /v1/judge request, a batch "
                   "item, a /submit), by how their tests were decided and their outcome.\n"
                   "# TYPE verdict_graded_total counter\n");
    for (int k = JUDGE_GRADING_NONE + 1; k < JUDGE_GRADING_COUNT; k++) /* none: run_only */
        for (size_t v = 0; v < NVERDICTS; v++)
            if (get(&m->graded[k][v]))
                buf_printf(&t, "verdict_graded_total{grading=\"%s\",verdict=\"%s\"} %llu\n",
                           judge_grading_name((enum judge_grading)k), verdict_name((enum verdict)v),
                           get(&m->graded[k][v]));
    buf_printf(&t, "# HELP verdict_reruns_total Runs the judge discarded and ran again, by "
                   "reason (starved, contended, sandbox); a test's verdict is its last run's.\n"
                   "# TYPE verdict_reruns_total counter\n");
    for (int k = JUDGE_RERUN_NONE + 1; k < JUDGE_RERUN_COUNT; k++)
        buf_printf(&t, "verdict_reruns_total{reason=\"%s\"} %llu\n",
                   judge_rerun_name((enum judge_rerun)k), get(&m->reruns[k]));
    buf_printf(&t,
               "# HELP verdict_sandbox_errors_total Runs that ended SE (a fault of the sandbox).\n"
               "# TYPE verdict_sandbox_errors_total counter\n");
    unsigned long long se = 0;
    for (int i = 0; i < lang_count(m->langs); i++)
        se += get(&m->verdicts[(size_t)i * NVERDICTS + VERDICT_SE]);
    buf_printf(&t, "verdict_sandbox_errors_total %llu\n", se);
    buf_printf(&t,
               "# TYPE verdict_queue_depth gauge\nverdict_queue_depth %d\n"
               "# TYPE verdict_in_flight gauge\nverdict_in_flight %d\n"
               "# TYPE verdict_cells gauge\nverdict_cells %d\n"
               "# TYPE verdict_gpu_cells gauge\nverdict_gpu_cells %d\n"
               "# TYPE verdict_cell_restarts_total counter\nverdict_cell_restarts_total %u\n"
               "# TYPE verdict_cells_started gauge\nverdict_cells_started %d\n"
               "# TYPE verdict_cells_max gauge\nverdict_cells_max %d\n"
               "# TYPE verdict_cells_waiting gauge\nverdict_cells_waiting %d\n"
               "# TYPE verdict_cells_grown_total counter\nverdict_cells_grown_total %u\n"
               "# TYPE verdict_cells_shrunk_total counter\nverdict_cells_shrunk_total %u\n"
               "# TYPE verdict_cell_start_failures_total counter\n"
               "verdict_cell_start_failures_total %u\n"
               "# TYPE verdict_queue_expired_total counter\nverdict_queue_expired_total %llu\n"
               "# TYPE verdict_compile_cache_hits_total counter\n"
               "verdict_compile_cache_hits_total %llu\n"
               "# TYPE verdict_compile_cache_misses_total counter\n"
               "verdict_compile_cache_misses_total %llu\n"
               "# TYPE verdict_compile_cache_entries gauge\nverdict_compile_cache_entries %llu\n"
               "# TYPE verdict_compile_cache_bytes gauge\nverdict_compile_cache_bytes %llu\n"
               "# TYPE verdict_compile_cache_write_errors_total counter\n"
               "verdict_compile_cache_write_errors_total %llu\n",
               g->queued, g->running, g->cells, g->gpu_cells, g->cells_replaced, g->cells_started,
               g->cells_max, g->cells_waiting, g->cells_grown, g->cells_shrunk,
               g->cells_not_started, g->expired, g->cache_hits, g->cache_misses, g->cache_entries,
               g->cache_bytes, g->cache_write_errors);
    buf_printf(&t,
               "# HELP verdict_store_written_total Submissions and runs the results store "
               "committed.\n"
               "# TYPE verdict_store_written_total counter\nverdict_store_written_total %llu\n"
               "# TYPE verdict_store_dropped_total counter\nverdict_store_dropped_total %llu\n"
               "# TYPE verdict_store_errors_total counter\nverdict_store_errors_total %llu\n"
               "# TYPE verdict_store_deleted_total counter\nverdict_store_deleted_total %llu\n"
               "# TYPE verdict_store_queued gauge\nverdict_store_queued %llu\n"
               "# TYPE verdict_store_db_bytes gauge\nverdict_store_db_bytes %lld\n"
               "# HELP verdict_store_ok 1 while the store writes (0: its last write failed, or "
               "it is off).\n"
               "# TYPE verdict_store_ok gauge\nverdict_store_ok %d\n",
               g->store_written, g->store_dropped, g->store_errors, g->store_deleted,
               g->store_queued, g->store_db_bytes, g->store_enabled && g->store_ok);
    const struct sessions_stats *ss = g->sessions;
    if (ss) {
        buf_printf(&t,
                   "# HELP verdict_sessions_open Sessions open now (each holds a cell).\n"
                   "# TYPE verdict_sessions_open gauge\nverdict_sessions_open %d\n"
                   "# TYPE verdict_sessions_max gauge\nverdict_sessions_max %d\n"
                   "# TYPE verdict_sessions_opened_total counter\n"
                   "verdict_sessions_opened_total %llu\n"
                   "# HELP verdict_sessions_refused_total Opens answered 503 (the most sessions "
                   "open, or no cell).\n"
                   "# TYPE verdict_sessions_refused_total counter\n"
                   "verdict_sessions_refused_total %llu\n"
                   "# HELP verdict_sessions_closed_total Sessions closed, by reason.\n"
                   "# TYPE verdict_sessions_closed_total counter\n",
                   ss->open, ss->max, ss->opened, ss->refused);
        for (int i = 0; i < SESSION_NENDS; i++)
            buf_printf(&t, "verdict_sessions_closed_total{reason=\"%s\"} %llu\n",
                       session_end_name((enum session_end)i), ss->closed[i]);
        buf_printf(&t, "# HELP verdict_session_calls_total Session calls, by verdict.\n"
                       "# TYPE verdict_session_calls_total counter\n");
        for (size_t v = 0; v < NVERDICTS; v++)
            if (ss->verdicts[v])
                buf_printf(&t, "verdict_session_calls_total{verdict=\"%s\"} %llu\n",
                           verdict_name((enum verdict)v), ss->verdicts[v]);
    }
    for (int h = 0; h < HIST_COUNT; h++) {
        struct hist *x = &m->hists[h];
        const char *n = hist_names[h];
        buf_printf(&t, "# TYPE verdict_%s_seconds histogram\n", n);
        unsigned long long cum = 0;
        for (size_t b = 0; b < NBOUNDS; b++) {
            cum += get(&x->buckets[b]);
            buf_printf(&t, "verdict_%s_seconds_bucket{le=\"%g\"} %llu\n", n, bounds[b], cum);
        }
        cum += get(&x->buckets[NBOUNDS]);
        buf_printf(&t, "verdict_%s_seconds_bucket{le=\"+Inf\"} %llu\n", n, cum);
        buf_printf(&t, "verdict_%s_seconds_sum %.6f\nverdict_%s_seconds_count %llu\n", n,
                   (double)get(&x->micros) / 1e6, n, get(&x->count));
    }
    return buf_take(&t, NULL);
}
