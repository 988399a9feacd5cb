/*
 * metrics: counters and histograms for GET /metrics (Prometheus text format 0.0.4).
 *
 * Everything is a relaxed atomic in a table sized at start (the API's routes, the languages
 * and the verdicts are known then), so recording costs no lock on the request path.
 */
#ifndef VERDICT_METRICS_H
#define VERDICT_METRICS_H

#include "server/judge/judge.h"
#include "server/judge/lang.h"
#include "server/judge/session.h"

enum metrics_hist { HIST_QUEUE, HIST_COMPILE, HIST_RUN, HIST_COUNT };

struct metrics;

/* Gauges read at render time, from the modules that own them. */
struct metrics_gauges {
    int queued, running, cells, gpu_cells;
    int cells_started, cells_max; /* CPU cells started now, and at most */
    int cells_waiting;            /* jobs waiting for a CPU cell */
    unsigned cells_replaced, cells_grown, cells_shrunk, cells_not_started;
    unsigned long long expired; /* requests answered 504 from the queue */
    unsigned long long cache_hits, cache_misses, cache_entries, cache_bytes;
    unsigned long long cache_write_errors; /* builds the compile cache could not keep */
    bool store_enabled, store_ok;          /* the results store (server/store/store.h) */
    unsigned long long store_written, store_dropped, store_errors, store_deleted, store_queued;
    long long store_db_bytes;
    const struct sessions_stats *sessions; /* NULL: sessions off */
};

/* Counters for the API's routes (paths borrowed: they must outlive m; any other path counts
 * as "other") and for the languages of langs. NULL when out of memory. */
struct metrics *metrics_new(const struct lang_set *langs, const char *const *routes, int nroutes);
void metrics_free(struct metrics *m);

/* A request answered on path with an HTTP status. */
void metrics_request(struct metrics *m, const char *path, int status);
/* A program's verdict in a language (SKIP is not counted). */
void metrics_verdict(struct metrics *m, const struct lang *l, enum verdict v);
/* A judged request: each test's verdict and run time once, or, when no test ran, the
 * result's own verdict (CE, a compile TLE/MLE, SE) once; the compile time when it ran; and,
 * unless it is run_only, its outcome (judge_outcome) once under its grading. */
void metrics_judged(struct metrics *m, const struct lang *l, const struct judge_result *res);
/* A duration in seconds. */
void metrics_observe(struct metrics *m, enum metrics_hist h, double seconds);

/* The exposition text (heap; caller frees), or NULL. */
char *metrics_render(struct metrics *m, const struct metrics_gauges *g);

#endif
