/*
 * store_rec: the records of the store's queue (server/store/store.c), each a copy of what
 * store_put_* were given, made on the caller's thread: the code cut at STORE_MAX_CODE on a
 * UTF-8 boundary (and hashed when the caller gave no SHA-256), an oversized detail cut to
 * STORE_MAX_DETAIL by dropping tests, a run's document split into its summary and its
 * per-problem results (pass_at_k's keys as "pass@k"), both rendered to text. A run is copied in
 * one pass: its members' keys are distinct (store_put_run's contract), so each is appended
 * (json_append) without a lookup, and the copy is linear in the document.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/store/store_internal.h"
#include "server/util/sha256.h"

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static char *dup_str(const char *s, size_t *bytes)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) {
        memcpy(d, s, n);
        *bytes += n;
    }
    return d;
}

void rec_free(struct rec *r)
{
    if (!r)
        return;
    free(r->dataset);
    free(r->label);
    free(r->route);
    free(r->client);
    free(r->language);
    free(r->problem);
    free(r->verdict);
    free(r->grading);
    free(r->detail);
    free(r->code);
    free(r->source);
    free(r->model);
    free(r->summary);
    free(r->results);
    free(r);
}

void rec_free_list(struct rec *r)
{
    while (r) {
        struct rec *next = r->next;
        rec_free(r);
        r = next;
    }
}

/* The detail cut to STORE_MAX_DETAIL by keeping the tests that fit ("tests_dropped": how many
 * were left out); NULL when it is not JSON or nothing fits. */
static char *cut_detail(const char *text)
{
    struct json *d = json_parse(text), *out = json_object();
    const struct json *tests = json_get(d, "tests"), *prior = json_get(d, "tests_dropped");
    double dropped = 0;
    json_num(prior, &dropped);
    for (const struct json *m = json_first(d); out && m; m = json_next(m))
        if (strcmp(json_key(m), "tests") != 0 && strcmp(json_key(m), "tests_dropped") != 0)
            json_set(out, json_key(m), json_dup(m));
    char *base = json_render(out, false);
    size_t used = base ? strlen(base) + 64 : STORE_MAX_DETAIL;
    free(base);
    struct json *kept = json_set(out, "tests", json_array());
    for (const struct json *t = json_first(tests); t; t = json_next(t)) {
        char *one = used < STORE_MAX_DETAIL ? json_render(t, false) : NULL;
        size_t n = one ? strlen(one) + 1 : STORE_MAX_DETAIL;
        free(one);
        if (used + n <= STORE_MAX_DETAIL) {
            json_push(kept, json_dup(t));
            used += n;
        } else {
            dropped++;
        }
    }
    json_set_num(out, "tests_dropped", dropped);
    char *text_out = d && used <= STORE_MAX_DETAIL ? json_render(out, false) : NULL;
    json_free(out);
    json_free(d);
    return text_out;
}

struct rec *rec_submission(const struct store_submission *sub)
{
    struct rec *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    r->kind = REC_SUBMISSION;
    r->at_ms = sub->at_ms > 0 ? sub->at_ms : wall_ms();
    r->bytes = sizeof(*r);
    r->route = dup_str(sub->route, &r->bytes);
    r->client = dup_str(sub->client, &r->bytes);
    r->label = dup_str(sub->label, &r->bytes);
    r->language = dup_str(sub->language, &r->bytes);
    r->dataset = dup_str(sub->dataset, &r->bytes);
    r->problem = dup_str(sub->problem, &r->bytes);
    r->verdict = dup_str(sub->verdict, &r->bytes);
    r->grading = dup_str(sub->grading, &r->bytes);
    if (sub->detail && strlen(sub->detail) > STORE_MAX_DETAIL) {
        r->detail = cut_detail(sub->detail);
        r->bytes += STORE_MAX_DETAIL;
    } else {
        r->detail = dup_str(sub->detail, &r->bytes);
    }
    size_t len = sub->code ? sub->code_len : 0, keep = len < STORE_MAX_CODE ? len : STORE_MAX_CODE;
    while (keep > 0 && keep < len && ((unsigned char)sub->code[keep] & 0xc0) == 0x80)
        keep--; /* not inside a UTF-8 sequence */
    r->code = malloc(keep + 1);
    if (r->code) {
        memcpy(r->code, sub->code ? sub->code : "", keep);
        r->code[keep] = '\0';
        r->bytes += keep;
    }
    r->code_len = keep;
    r->code_bytes = len;
    if (sub->code_sha256[0]) {
        snprintf(r->code_sha256, sizeof(r->code_sha256), "%s", sub->code_sha256);
    } else if (sub->code) { /* the caller left it to the store: of the whole code */
        struct sha256 h;
        sha256_init(&h);
        sha256_update(&h, sub->code, len);
        sha256_hex(&h, r->code_sha256);
    }
    r->reward = sub->reward;
    r->passed = sub->passed;
    r->total = sub->total;
    r->cpu_ms = sub->cpu_ms;
    r->wall_ms = sub->wall_ms;
    r->memory_kib = sub->memory_kib;
    r->compiled = sub->compiled;
    r->cached = sub->cached;
    if (!r->code || (sub->route && !r->route) || (sub->verdict && !r->verdict)) {
        rec_free(r);
        return NULL;
    }
    return r;
}

/* pass_at_k's keys as "pass@k" (bench's summary says "1", "10"); a key is never cut (a cut
 * could split a UTF-8 sequence, or make two keys one). NULL when out of memory. */
static struct json *pass_at_k(const struct json *pk)
{
    struct json *o = json_object();
    for (const struct json *m = json_first(pk); o && m; m = json_next(m)) {
        const char *k = json_key(m);
        size_t n = strlen(k) + sizeof("pass@");
        char *key = malloc(n);
        if (key)
            snprintf(key, n, "%s%s", strspn(k, "0123456789") == strlen(k) ? "pass@" : "", k);
        if (!key || !json_append(o, key, json_dup(m))) { /* json_append copies the key */
            free(key);
            json_free(o);
            return NULL;
        }
        free(key);
    }
    return o;
}

struct rec *rec_run(const struct json *doc)
{
    struct rec *r = calloc(1, sizeof(*r));
    struct json *sum = json_object(), *res = json_object();
    if (!r || !sum || !res)
        goto fail;
    r->kind = REC_RUN;
    r->at_ms = wall_ms();
    r->bytes = sizeof(*r);
    r->dataset = dup_str(json_get_str(doc, "dataset"), &r->bytes);
    r->label = dup_str(json_get_str(doc, "label"), &r->bytes);
    r->model = dup_str(json_get_str(doc, "model"), &r->bytes);
    r->source = dup_str(json_get_str(doc, "source"), &r->bytes);
    static const char *const columns[] = {"id", "at", "dataset", "label", "model", "source"};
    for (const struct json *m = json_first(doc); m; m = json_next(m)) {
        const char *k = json_key(m);
        bool column = false;
        for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
            column = column || strcmp(k, columns[i]) == 0;
        if (strcmp(k, "results") == 0 || strcmp(k, "failed") == 0)
            json_append(res, k, json_dup(m));
        else if (strcmp(k, "pass_at_k") == 0)
            json_append(sum, k, pass_at_k(m));
        else if (!column)
            json_append(sum, k, json_dup(m));
    }
    r->summary = json_render(sum, false);
    r->results = json_render(res, false);
    if (!r->summary || !r->results)
        goto fail;
    r->bytes += strlen(r->summary) + strlen(r->results);
    json_free(sum);
    json_free(res);
    return r;
fail:
    json_free(sum);
    json_free(res);
    rec_free(r);
    return NULL;
}
