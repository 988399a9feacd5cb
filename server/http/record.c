/*
 * record: store_submission from a judged request. The detail stays under STORE_MAX_DETAIL:
 * excerpts shrink (down to 256 bytes) as the tests grow in number, and past the cap tests
 * are dropped and counted ("tests_dropped"), the passed ones first.
 */
#include "server/http/record.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/util/json.h"
#include "server/util/sha256.h"

#define MIN_EXCERPT 256u
#define DETAIL_ROOM (STORE_MAX_DETAIL - (16u << 10)) /* tests' share; the rest is headroom */

struct record_origin record_origin_of(const struct http_exchange *x)
{
    return (struct record_origin){
        .route = http_path(x), .client = http_peer(x), .label = http_label(x)};
}

/* An excerpt of data: at most cap bytes, cut back to a UTF-8 character's start; *cut says
 * whether anything was left out. */
static void excerpt(struct json *o, const char *key, const void *data, size_t len, size_t cap,
                    bool *cut)
{
    const unsigned char *p = data;
    size_t n = len;
    if (n > cap) {
        n = cap;
        for (int back = 0; back < 3 && n > 0 && (p[n] & 0xC0) == 0x80; back++)
            n--;
        if (cut)
            *cut = true;
    }
    json_set_bytes(o, key, p ? p : (const unsigned char *)"", p ? n : 0);
}

static struct json *test_json(const struct judge_request *req, const struct judge_test_result *t,
                              size_t cap)
{
    struct json *o = json_object();
    json_set_num(o, "index", t->index);
    json_set_str(o, "verdict", verdict_name(t->verdict));
    json_set_num(o, "exit_code", t->exit_code);
    json_set_num(o, "signal", t->signal);
    json_set_num(o, "cpu_ms", (double)t->cpu_ms);
    json_set_num(o, "wall_ms", (double)t->wall_ms);
    json_set_num(o, "memory_kib", (double)t->memory_kib);
    const struct judge_test *in =
        t->index >= 0 && t->index < req->ntests ? &req->tests[t->index] : NULL;
    if (in && in->in_len)
        excerpt(o, "stdin", in->in, in->in_len, cap, NULL);
    if (in && in->want)
        excerpt(o, "expected", in->want, in->want_len, cap, NULL);
    bool out_cut = t->stdout_truncated, err_cut = t->stderr_truncated;
    excerpt(o, "stdout", t->out, t->out_len, cap, &out_cut);
    excerpt(o, "stderr", t->err, t->err_len, cap, &err_cut);
    if (t->reason[0])
        json_set_str(o, "reason", t->reason);
    json_set_bool(o, "stdout_truncated", out_cut);
    json_set_bool(o, "stderr_truncated", err_cut);
    return o;
}

char *record_detail(const struct judge_request *req, const struct judge_result *res)
{
    struct json *d = json_object();
    json_set_str(d, "message", res->message);
    const struct judge_compile *c = &res->compile;
    struct json *co = json_set(d, "compile", json_object());
    json_set_bool(co, "compiled", c->compiled_language);
    json_set_bool(co, "cached", c->cached);
    if (c->built)
        json_set_str(co, "verdict", verdict_name(c->verdict));
    else
        json_set_null(co, "verdict");
    json_set_num(co, "wall_ms", (double)c->wall_ms);
    if (c->output)
        excerpt(co, "output", c->output, strlen(c->output), RECORD_EXCERPT, NULL);
    else
        json_set_null(co, "output");
    /* the run's limits: the request's, the language's where it left one at zero */
    const struct job_limits *dl = req->lang ? &req->lang->run.limits : NULL;
    struct json *lim = json_set(d, "limits", json_object());
    json_set_num(lim, "cpu_ms",
                 (double)(req->limits.cpu_ms ? req->limits.cpu_ms
                          : dl               ? dl->cpu_ms
                                             : 0));
    json_set_num(lim, "wall_ms",
                 (double)(req->limits.wall_ms ? req->limits.wall_ms
                          : dl                ? dl->wall_ms
                                              : 0));
    uint64_t mem = req->limits.memory_bytes ? req->limits.memory_bytes : dl ? dl->memory_bytes : 0;
    json_set_num(lim, "memory_kib", (double)(mem >> 10));
    struct json *tests = json_set(d, "tests", json_array());
    size_t cap = RECORD_EXCERPT;
    if (res->ntests > 0 && cap * 4 * (size_t)res->ntests > DETAIL_ROOM) {
        cap = DETAIL_ROOM / (4 * (size_t)res->ntests);
        if (cap < MIN_EXCERPT)
            cap = MIN_EXCERPT;
    }
    /* each test's object and its rendered size; past the room, the failed tests are kept
     * first (what the reader looks for), then the passed ones, each in index order */
    int n = res->ntests > 0 ? res->ntests : 0;
    struct json **objs = n ? calloc((size_t)(unsigned)n, sizeof(*objs)) : NULL;
    size_t *sizes = n ? calloc((size_t)(unsigned)n, sizeof(*sizes)) : NULL;
    bool *keep = n ? calloc((size_t)(unsigned)n, sizeof(*keep)) : NULL;
    int dropped = 0;
    if (n && (!objs || !sizes || !keep)) {
        dropped = n;
        n = 0;
    }
    for (int i = 0; i < n; i++) {
        objs[i] = test_json(req, &res->tests[i], cap);
        char *text = json_render(objs[i], false);
        sizes[i] = text ? strlen(text) + 1 : SIZE_MAX / 4;
        free(text);
    }
    size_t used = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            bool ok = res->tests[i].verdict == VERDICT_OK;
            if (ok != (pass == 1) || used + sizes[i] > DETAIL_ROOM)
                continue;
            used += sizes[i];
            keep[i] = true;
        }
    for (int i = 0; i < n; i++) {
        if (keep[i]) {
            json_push(tests, objs[i]);
        } else {
            json_free(objs[i]);
            dropped++;
        }
    }
    free(objs);
    free(sizes);
    free(keep);
    json_set_num(d, "tests_dropped", dropped);
    char *text = json_render(d, false);
    json_free(d);
    return text;
}

int64_t record_put(struct store *s, const struct record_origin *o, const struct judge_request *req,
                   const struct judge_result *res)
{
    int64_t id = 0;
    record_put_n(s, o, req, res, 1, &id);
    return id;
}

void record_put_n(struct store *s, const struct record_origin *o, const struct judge_request *req,
                  const struct judge_result *res, int n, int64_t *ids)
{
    for (int i = 0; i < n; i++)
        ids[i] = 0;
    if (!s || n < 1)
        return;
    const char *code = o->code ? o->code : req->code ? req->code : "";
    size_t code_len = o->code ? o->code_len : strlen(code);
    int failed;
    const char *why;
    enum verdict v = judge_outcome(res, &failed, &why);
    struct store_submission sub = {
        .route = o->route,
        .client = o->client,
        .label = o->label,
        .language = req->lang ? req->lang->name : NULL,
        .dataset = o->dataset,
        .problem = o->problem,
        .code = code,
        .code_len = code_len,
        .verdict = verdict_name(v),
        .grading = res->grading == JUDGE_GRADING_NONE ? NULL : judge_grading_name(res->grading),
        .reward = res->reward,
        .passed = res->passed,
        .total = res->total,
        .compiled = res->compile.compiled_language,
        .cached = res->compile.cached,
    };
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    sub.at_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    struct sha256 h;
    sha256_init(&h);
    sha256_update(&h, code, code_len);
    sha256_hex(&h, sub.code_sha256);
    for (int i = 0; i < res->ntests; i++) {
        sub.cpu_ms += res->tests[i].cpu_ms;
        sub.wall_ms += res->tests[i].wall_ms;
        if (res->tests[i].memory_kib > sub.memory_kib)
            sub.memory_kib = res->tests[i].memory_kib;
    }
    char *detail = record_detail(req, res);
    sub.detail = detail;
    for (int i = 0; i < n; i++) {
        int64_t id = store_put_submission(s, &sub);
        ids[i] = id > 0 ? id : 0;
    }
    free(detail);
}
