/* Unit tests for server/http/stats: the series' shape, counts in the open bucket, latency
 * quantiles within a bin, the verdict mix by route, and the sampled gauges. */
#include "server/http/stats.h"

#include <stdlib.h>
#include <string.h>

#include "server/util/json.h"
#include "test.h"

static int samples;

static void sample(void *arg, struct stats_sample *out)
{
    (void)arg;
    samples++;
    *out = (struct stats_sample){3, 2, 1};
}

static double num(const struct json *o, const char *key)
{
    double v = -1;
    json_num(json_get(o, key), &v);
    return v;
}

static void test_series_and_counts(void)
{
    struct stats *s = stats_new(NULL, sample, NULL);
    ASSERT_NOT_NULL(s);
    for (int i = 0; i < 98; i++)
        stats_request(s, 200, 0.010); /* 10 ms */
    stats_request(s, 500, 2.0);
    stats_request(s, 503, 2.0);
    stats_judged(s, NULL, "/v1/judge", VERDICT_OK);
    stats_judged(s, NULL, "/v1/judge", VERDICT_WA);
    stats_judged(s, NULL, "/nowhere", VERDICT_SE);
    struct json *d = json_object();
    stats_render(s, d);
    const struct json *series = json_get(d, "series");
    ASSERT_INT_EQ(json_len(series), STATS_BUCKETS);
    double t0 = -1, prev = -1;
    for (const struct json *b = json_first(series); b; b = json_next(b)) {
        double t = num(b, "t");
        if (prev >= 0)
            ASSERT_TRUE(t == prev + STATS_BUCKET_S * 1000);
        prev = t;
        if (t0 < 0)
            t0 = t;
    }
    ASSERT_TRUE(num(d, "now_ms") >= prev && num(d, "now_ms") < prev + STATS_BUCKET_S * 1000);
    /* everything above fell in the last bucket (or, at a boundary, the one before) */
    double requests = 0, judged = 0, errors = 0;
    for (const struct json *b = json_first(series); b; b = json_next(b)) {
        requests += num(b, "requests");
        judged += num(b, "judged");
        errors += num(b, "errors");
    }
    ASSERT_TRUE(requests == 100 && judged == 3 && errors == 2);
    const struct json *lat = json_get(d, "latency_ms");
    ASSERT_TRUE(num(lat, "p50") >= 10 && num(lat, "p50") <= 12.5);   /* a bin: within 25% */
    ASSERT_TRUE(num(lat, "p99") >= 2000 && num(lat, "p99") <= 2500); /* the two slow ones */
    const struct json *route = json_get(json_get(d, "by_route"), "/v1/judge");
    ASSERT_TRUE(num(route, "OK") == 1 && num(route, "WA") == 1);
    ASSERT_TRUE(num(json_get(json_get(d, "by_route"), "other"), "SE") == 1);
    ASSERT_TRUE(num(d, "sandbox_errors") == 1);
    ASSERT_TRUE(num(d, "throughput_rps") > 0);
    const struct json *last = json_at(series, STATS_BUCKETS - 1);
    ASSERT_TRUE(num(last, "queued") == 3 && num(last, "running") == 2 &&
                num(last, "cells_busy") == 1); /* sampled when asked */
    ASSERT_TRUE(samples >= 1);
    ASSERT_TRUE(json_is_null(json_get(json_at(series, 0), "p50_ms"))); /* before any request */
    json_free(d);
    stats_free(s);
}

int main(void)
{
    TEST_RUN(test_series_and_counts);
    return TEST_EXIT();
}
