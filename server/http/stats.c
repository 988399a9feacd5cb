/*
 * stats: a ring of STATS_BUCKETS buckets, each numbered by its start (wall-clock ms /
 * STATS_BUCKET_S); a request in a later bucket than the newest closes it (sampling the
 * gauges into it) and clears the ones between. Latency: a log histogram per bucket, bins 25%
 * apart from 1 ms (the quantiles are a bin's upper bound: within 25%).
 */
#include "server/http/stats.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NV      ((size_t)VERDICT_SKIP) /* verdicts counted: OK .. SE */
#define NBINS   64                     /* latency bins: 1 ms * 1.25^i, the last open */
#define BIN0_S  0.001
#define BIN_LOG 0.22314355131420976 /* log(1.25) */

static const char *const judged_routes[] = {"/run_code", "/v1/judge",    "/v1/judge/batch",
                                            "/submit",   "/run_jupyter", "other"};
#define NROUTES (sizeof(judged_routes) / sizeof(judged_routes[0]))

struct bucket {
    int64_t n; /* its number: start ms / (STATS_BUCKET_S * 1000); -1 unused */
    uint32_t requests, judged, errors;
    uint32_t lat[NBINS];
    struct stats_sample g;
    uint32_t by_verdict[NV];
    uint32_t by_route[NROUTES][NV];
    uint32_t *by_lang; /* [nlang][NV] */
};

struct stats {
    pthread_mutex_t lock;
    const struct lang_set *langs;
    int nlang;
    stats_sample_fn sample;
    void *arg;
    atomic_llong newest; /* the newest bucket's number (read without the lock) */
    struct bucket ring[STATS_BUCKETS];
    uint32_t *lang_counts;
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t bucket_of(int64_t ms)
{
    return ms / (STATS_BUCKET_S * 1000);
}

static struct bucket *slot(struct stats *s, int64_t n)
{
    return &s->ring[n % STATS_BUCKETS];
}

static void clear(struct stats *s, struct bucket *b, int64_t n, const struct stats_sample *g)
{
    uint32_t *bl = b->by_lang;
    memset(b, 0, sizeof(*b));
    b->by_lang = bl;
    memset(bl, 0, (size_t)(s->nlang + 1) * NV * sizeof(*bl));
    b->n = n;
    b->g = *g;
}

struct stats *stats_new(const struct lang_set *langs, stats_sample_fn sample, void *arg)
{
    struct stats *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->langs = langs;
    s->nlang = lang_count(langs);
    s->sample = sample;
    s->arg = arg;
    s->lang_counts = calloc((size_t)STATS_BUCKETS * (size_t)(s->nlang + 1) * NV, sizeof(uint32_t));
    if (!s->lang_counts) {
        free(s);
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    for (size_t i = 0; i < STATS_BUCKETS; i++) {
        s->ring[i].n = -1;
        s->ring[i].by_lang = s->lang_counts + i * (size_t)(s->nlang + 1) * NV;
    }
    int64_t n = bucket_of(now_ms());
    struct stats_sample g = {0, 0, 0};
    clear(s, slot(s, n), n, &g);
    atomic_store(&s->newest, n);
    return s;
}

void stats_free(struct stats *s)
{
    if (!s)
        return;
    pthread_mutex_destroy(&s->lock);
    free(s->lang_counts);
    free(s);
}

/* The bucket of now, closing the newest (with the gauges g) when now is past it. Locked. */
static struct bucket *current(struct stats *s, int64_t n, const struct stats_sample *g)
{
    int64_t newest = atomic_load(&s->newest);
    if (n <= newest) /* this bucket (or a clock set back: the newest) */
        return slot(s, newest);
    if (g)
        slot(s, newest)->g = *g;
    struct stats_sample last = slot(s, newest)->g;
    int64_t from = n - newest > STATS_BUCKETS ? n - STATS_BUCKETS + 1 : newest + 1;
    for (int64_t k = from; k <= n; k++)
        clear(s, slot(s, k), k, &last);
    atomic_store(&s->newest, n);
    return slot(s, n);
}

/* Locks s and returns the bucket of now, sampling the gauges first when it closes one. */
static struct bucket *enter(struct stats *s)
{
    int64_t n = bucket_of(now_ms());
    struct stats_sample g, *gp = NULL;
    if (n > atomic_load(&s->newest) && s->sample) {
        s->sample(s->arg, &g);
        gp = &g;
    }
    pthread_mutex_lock(&s->lock);
    return current(s, n, gp);
}

void stats_request(struct stats *s, int status, double latency_s)
{
    if (!s)
        return;
    int bin = 0;
    if (latency_s > BIN0_S) {
        bin = (int)ceil(log(latency_s / BIN0_S) / BIN_LOG);
        if (bin >= NBINS)
            bin = NBINS - 1;
    }
    struct bucket *b = enter(s);
    b->requests++;
    if (status >= 500)
        b->errors++;
    b->lat[bin]++;
    pthread_mutex_unlock(&s->lock);
}

void stats_judged(struct stats *s, const struct lang *l, const char *route, enum verdict v)
{
    if (!s || (size_t)v >= NV)
        return;
    int li = s->nlang; /* a language of no index: the spare row, never rendered */
    for (int i = 0; i < s->nlang; i++)
        if (lang_at(s->langs, i) == l)
            li = i;
    size_t r = NROUTES - 1;
    for (size_t i = 0; route && i + 1 < NROUTES; i++)
        if (strcmp(route, judged_routes[i]) == 0)
            r = i;
    struct bucket *b = enter(s);
    b->judged++;
    b->by_verdict[v]++;
    b->by_route[r][v]++;
    b->by_lang[(size_t)li * NV + v]++;
    pthread_mutex_unlock(&s->lock);
}

/* The q-quantile's bin upper bound in ms, or -1 with no observations. */
static double quantile(const uint64_t *lat, uint64_t total, double q)
{
    if (!total)
        return -1;
    uint64_t want = (uint64_t)ceil(q * (double)total), cum = 0;
    if (want < 1)
        want = 1;
    for (int i = 0; i < NBINS; i++) {
        cum += lat[i];
        if (cum >= want)
            return BIN0_S * 1000.0 * pow(1.25, i);
    }
    return BIN0_S * 1000.0 * pow(1.25, NBINS - 1);
}

static void set_quantile(struct json *o, const char *key, const uint64_t *lat, uint64_t total,
                         double q)
{
    double v = quantile(lat, total, q);
    if (v < 0)
        json_set_null(o, key);
    else
        json_set_num(o, key, round(v * 10.0) / 10.0);
}

static void set_quantiles(struct json *o, const char *p50, const char *p90, const char *p99,
                          const uint64_t *lat)
{
    uint64_t total = 0;
    for (int i = 0; i < NBINS; i++)
        total += lat[i];
    set_quantile(o, p50, lat, total, 0.50);
    set_quantile(o, p90, lat, total, 0.90);
    set_quantile(o, p99, lat, total, 0.99);
}

/* {verdict: n} of the nonzero counts. */
static struct json *verdict_counts(const uint64_t *c)
{
    struct json *o = json_object();
    for (size_t v = 0; v < NV; v++)
        if (c[v])
            json_set_num(o, verdict_name((enum verdict)v), (double)c[v]);
    return o;
}

void stats_render(struct stats *s, struct json *doc)
{
    int64_t ms = now_ms();
    int64_t n = bucket_of(ms);
    struct stats_sample g = {0, 0, 0};
    if (s->sample)
        s->sample(s->arg, &g);
    uint64_t *lang = calloc((size_t)s->nlang * NV, sizeof(*lang));
    uint64_t route[NROUTES][NV], recent_lat[NBINS], recent_judged = 0;
    memset(route, 0, sizeof(route));
    memset(recent_lat, 0, sizeof(recent_lat));
    json_set_num(doc, "now_ms", (double)ms);
    json_set_num(doc, "bucket_s", STATS_BUCKET_S);
    json_set_num(doc, "window_s", STATS_BUCKET_S * STATS_BUCKETS);
    struct json *series = json_set(doc, "series", json_array());
    int64_t recent_from = bucket_of(ms - STATS_RECENT_S * 1000) + 1;
    pthread_mutex_lock(&s->lock);
    current(s, n, &g)->g = g; /* the open bucket shows the gauges as they are now */
    for (int64_t k = n - STATS_BUCKETS + 1; k <= n; k++) {
        const struct bucket *b = slot(s, k);
        bool live = b->n == k;
        struct json *o = json_push(series, json_object());
        json_set_num(o, "t", (double)(k * STATS_BUCKET_S * 1000));
        json_set_num(o, "requests", live ? b->requests : 0);
        json_set_num(o, "judged", live ? b->judged : 0);
        json_set_num(o, "errors", live ? b->errors : 0);
        uint64_t lat[NBINS] = {0}, verdicts[NV] = {0};
        for (int i = 0; live && i < NBINS; i++)
            lat[i] = b->lat[i];
        set_quantiles(o, "p50_ms", "p90_ms", "p99_ms", lat);
        json_set_num(o, "queued", live ? b->g.queued : 0);
        json_set_num(o, "running", live ? b->g.running : 0);
        json_set_num(o, "cells_busy", live ? b->g.cells_busy : 0);
        for (size_t v = 0; live && v < NV; v++)
            verdicts[v] = b->by_verdict[v];
        json_set(o, "by_verdict", verdict_counts(verdicts));
        if (!live)
            continue;
        for (size_t r = 0; r < NROUTES; r++)
            for (size_t v = 0; v < NV; v++)
                route[r][v] += b->by_route[r][v];
        for (size_t i = 0; lang && i < (size_t)s->nlang * NV; i++)
            lang[i] += b->by_lang[i];
        if (k >= recent_from) {
            recent_judged += b->judged;
            for (int i = 0; i < NBINS; i++)
                recent_lat[i] += b->lat[i];
        }
    }
    pthread_mutex_unlock(&s->lock);
    json_set_num(doc, "throughput_rps",
                 round((double)recent_judged / STATS_RECENT_S * 1000.0) / 1000.0);
    set_quantiles(json_set(doc, "latency_ms", json_object()), "p50", "p90", "p99", recent_lat);
    struct json *bl = json_set(doc, "by_language", json_object());
    uint64_t se = 0;
    for (int i = 0; lang && i < s->nlang; i++) {
        const uint64_t *c = lang + (size_t)i * NV;
        uint64_t any = 0;
        for (size_t v = 0; v < NV; v++)
            any += c[v];
        if (any)
            json_set(bl, lang_at(s->langs, i)->name, verdict_counts(c));
    }
    struct json *br = json_set(doc, "by_route", json_object());
    for (size_t r = 0; r < NROUTES; r++) {
        uint64_t any = 0;
        for (size_t v = 0; v < NV; v++)
            any += route[r][v];
        se += route[r][VERDICT_SE];
        if (any)
            json_set(br, judged_routes[r], verdict_counts(route[r]));
    }
    json_set_num(doc, "sandbox_errors", (double)se);
    free(lang);
}
