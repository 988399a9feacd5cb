/*
 * stats: what GET /v1/stats reports, from memory (never SQLite): per-5-second buckets over
 * the last 15 minutes of requests answered, requests judged, 5xx answers, latency quantiles
 * (from a small histogram per bucket), the verdicts by language and by route, and the queue,
 * running and busy-cell gauges, sampled when a bucket closes and when asked.
 *
 * Threads: one mutex; each call is O(1) in the requests seen (a bucket that closes costs
 * O(languages x verdicts) once). The gauges are sampled outside the mutex.
 */
#ifndef VERDICT_STATS_H
#define VERDICT_STATS_H

#include <stdint.h>

#include "server/judge/lang.h"
#include "server/judge/verdict.h"
#include "server/util/json.h"

#define STATS_BUCKET_S 5   /* seconds a bucket covers */
#define STATS_BUCKETS  180 /* buckets kept: 15 minutes */
#define STATS_RECENT_S 60  /* "now" figures (throughput, latency) cover this many seconds */

struct stats_sample {
    int queued, running, cells_busy;
};

typedef void (*stats_sample_fn)(void *arg, struct stats_sample *out);

struct stats;

/* langs: the languages counted (borrowed); sample: reads the gauges (called without the
 * stats' lock held). NULL when out of memory. */
struct stats *stats_new(const struct lang_set *langs, stats_sample_fn sample, void *arg);
void stats_free(struct stats *s);

/* A request answered with an HTTP status after latency_s seconds. */
void stats_request(struct stats *s, int status, double latency_s);

/* A judged request's overall verdict, in its language, on its route ("/run_code",
 * "/v1/judge", "/v1/judge/batch", "/submit", "/run_jupyter"; others count as "other"). */
void stats_judged(struct stats *s, const struct lang *l, const char *route, enum verdict v);

/* Sets now_ms, bucket_s, window_s, series, throughput_rps, latency_ms, by_language,
 * by_route and sandbox_errors on doc (an object). */
void stats_render(struct stats *s, struct json *doc);

#endif
