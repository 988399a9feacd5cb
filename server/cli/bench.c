/*
 * bench: samples -> judge requests (server/datasets/harness) -> workers -> results.
 *
 * Workers take the next sample from a shared counter until the samples run out or a stop is
 * asked for, so an interrupt leaves no half-queued work: each worker finishes the sample it
 * holds. Results are written (and flushed) as they come, in completion order.
 */
#include "server/cli/bench.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build_info.h"
#include "runners/buf.h"
#include "server/datasets/dataset.h"
#include "server/datasets/harness.h"
#include "server/datasets/passk.h"
#include "server/http/client.h"
#include "server/http/request.h"
#include "server/judge/engine.h"
#include "server/judge/judge.h"
#include "server/store/store.h"
#include "server/util/slurp.h"
#include "server/util/strset.h"

#define EXIT_FAIL 1
#define EXIT_SE   3
#define EXIT_INT  130
#define MAX_KS    16

struct sample {
    int problem; /* index into problems */
    int line;    /* in the samples file (0 for reference solutions) */
    const char *completion;
    const char *language; /* what it is judged in (resolved when read) */
    bool whole;           /* evalplus's "solution": the whole program */
    /* results */
    bool done, passed;
    enum verdict verdict;
};

struct bench {
    const struct bench_opts *o;
    struct json *problems, *samples_doc;
    int nproblems, nsamples;
    struct sample *samples;
    const char **ids;          /* problems' ids, in order */
    const struct json **probs; /* the problems, in order (borrowed from problems) */
    struct strset *id_index;   /* id -> index */
    int shard, shards;         /* --shard I/N (0/1: every problem) */
    struct engine engine;
    bool local, engine_open;
    atomic_int next, finished, passed;
    atomic_int live; /* workers still running */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    FILE *out;
    int se;
    double started;
};

static volatile sig_atomic_t interrupted;
static atomic_bool stopping;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
    signal(SIGINT, SIG_DFL); /* a second one ends the process */
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The index of problem id, or -1. O(1) on average (a hash of the ids). */
static int find_problem(const struct bench *b, const char *id)
{
    long i;
    return strset_find(b->id_index, id, &i) == 1 ? (int)i : -1;
}

/* ---- samples ------------------------------------------------------------------------------ */

/* Adds s, its language resolved: the sample's own, else --language for a stdin/stdout
 * problem, else the problem's. */
static int add_sample(struct bench *b, struct sample s)
{
    const struct json *p = b->probs[s.problem];
    const char *kind = json_get_str(p, "kind");
    if (!s.language && b->o->language && kind && strcmp(kind, "stdio") == 0)
        s.language = b->o->language;
    if (!s.language)
        s.language = json_get_str(p, "language");
    if (b->nsamples % 256 == 0) {
        struct sample *n = realloc(b->samples, (size_t)(b->nsamples + 256) * sizeof(*n));
        if (!n)
            return -ENOMEM;
        b->samples = n;
    }
    b->samples[b->nsamples++] = s;
    return 0;
}

/* --shard I/N: problem i is judged when i mod N is I (the dataset's own order), so that N
 * runs with I = 0..N-1 judge every problem once, and any one of them a spread sample. */
static bool in_shard(const struct bench *b, int problem)
{
    return problem % b->shards == b->shard;
}

static int parse_shard(struct bench *b, char err[ERR_LEN])
{
    b->shard = 0;
    b->shards = 1;
    if (!b->o->shard)
        return 0;
    char *end;
    errno = 0;
    long i = strtol(b->o->shard, &end, 10), n = 0;
    bool ok = end != b->o->shard && *end == '/' && b->o->shard[0] != '-';
    if (ok) {
        const char *d = end + 1;
        n = strtol(d, &end, 10);
        ok = end != d && *end == '\0' && *d != '-' && errno == 0;
    }
    if (!ok || n < 1 || n > 1000000 || i < 0 || i >= n)
        return err_set(err, -EINVAL,
                       "--shard: expected I/N with 0 <= I < N <= 1000000, got \"%.40s\"",
                       b->o->shard);
    b->shard = (int)i;
    b->shards = (int)n;
    return 0;
}

static int reference_samples(struct bench *b)
{
    for (int i = 0; i < b->nproblems; i++) {
        if (!in_shard(b, i))
            continue;
        const struct json *sols = json_get(b->probs[i], "solutions");
        for (const struct json *m = json_first(sols); m; m = json_next(m)) {
            const char *code;
            if (json_str(m, &code) &&
                add_sample(b, (struct sample){
                                  .problem = i, .completion = code, .language = json_key(m)}) < 0)
                return -ENOMEM;
        }
    }
    return 0;
}

static int read_samples(struct bench *b, char err[ERR_LEN])
{
    char *text;
    size_t len;
    int rc = slurp(b->o->samples, 1u << 30, &text, &len, err);
    if (rc < 0)
        return rc;
    b->samples_doc = json_array();
    int no = 0;
    for (char *line = text, *nl; rc == 0 && line < text + len; line = nl ? nl + 1 : text + len) {
        no++;
        if ((nl = strchr(line, '\n')))
            *nl = '\0';
        if (strspn(line, " \t\r") == strlen(line))
            continue;
        struct json *s = json_parse(line);
        const char *id = json_get_str(s, "task_id"), *code = json_get_str(s, "completion");
        bool whole = !code && (code = json_get_str(s, "solution"));
        int p = id ? find_problem(b, id) : -1;
        if (!json_is_object(s))
            rc = err_set(err, -EINVAL, "%s: line %d: not a JSON object", b->o->samples, no);
        else if (!id)
            rc =
                err_set(err, -EINVAL, "%s: line %d: field \"task_id\": missing", b->o->samples, no);
        else if (p < 0)
            rc = err_set(err, -EINVAL, "%s: line %d: field \"task_id\": \"%.80s\" is not in %s",
                         b->o->samples, no, id, b->o->dataset);
        else if (!code)
            rc = err_set(err, -EINVAL,
                         "%s: line %d: field \"completion\" (or \"solution\"): missing",
                         b->o->samples, no);
        else if (!harness_accepts(b->probs[p], json_get_str(s, "language")))
            rc = err_set(err, -EINVAL, "%s: line %d: field \"language\": %s is judged in %s",
                         b->o->samples, no, id, json_get_str(b->probs[p], "language"));
        if (rc < 0) {
            json_free(s);
            break;
        }
        json_push(b->samples_doc, s); /* owns the strings the sample borrows */
        if (!in_shard(b, p))
            continue; /* checked, not judged */
        rc = add_sample(b, (struct sample){.problem = p,
                                           .line = no,
                                           .completion = code,
                                           .language = json_get_str(s, "language"),
                                           .whole = whole});
    }
    free(text);
    if (rc == 0 && b->nsamples == 0)
        rc = err_set(err, -EINVAL, "%s: no samples%s", b->o->samples,
                     b->shards > 1 ? " in this --shard" : "");
    return rc;
}

/* ---- judging ----------------------------------------------------------------------------- */

/* What a sample came to, from a local judge_result or a server's /v1/judge answer. */
struct outcome {
    enum verdict verdict;
    int test; /* the first failing test's index, or -1 */
    char reason[ERR_LEN];
    bool built;       /* the program compiled (for the no-GPU SKIP) */
    char grading[16]; /* how it was decided (judge.h), or "" */
};

static void outcome_local(const struct judge_result *res, struct outcome *o)
{
    const char *reason = "";
    o->verdict = judge_outcome(res, &o->test, &reason);
    snprintf(o->reason, sizeof(o->reason), "%s", reason ? reason : "");
    o->built = res->compile.built && res->compile.verdict == VERDICT_OK;
    snprintf(o->grading, sizeof(o->grading), "%s",
             res->grading == JUDGE_GRADING_NONE ? "" : judge_grading_name(res->grading));
}

/* The same from a server's answer: the HTTP API's edge, read by its documented keys. */
static void outcome_remote(const struct json *d, struct outcome *o)
{
    const char *status = json_get_str(d, "status"), *reason;
    double passed = 0, total = 0;
    o->test = -1;
    if (!status || verdict_parse(status, &o->verdict) < 0)
        o->verdict = VERDICT_SE;
    reason = json_get_str(d, json_get(d, "compile_output") ? "compile_output" : "message");
    snprintf(o->reason, sizeof(o->reason), "%s", reason ? reason : "");
    json_bool(json_get(json_get(d, "compile"), "ok"), &o->built);
    const char *grading = json_get_str(d, "grading");
    snprintf(o->grading, sizeof(o->grading), "%s", grading ? grading : "");
    const struct json *tests = json_get(d, "tests");
    int i = 0;
    for (const struct json *t = json_first(tests); o->verdict == VERDICT_OK && t;
         t = json_next(t), i++) {
        const char *tv = json_get_str(t, "verdict");
        enum verdict v;
        if (tv && verdict_parse(tv, &v) == 0 && v != VERDICT_OK) {
            double idx = i;
            json_num(json_get(t, "index"), &idx);
            o->verdict = v;
            o->test = (int)idx;
            reason = json_get_str(t, "reason");
            snprintf(o->reason, sizeof(o->reason), "%s", reason ? reason : "");
            return;
        }
    }
    if (o->verdict == VERDICT_OK && json_num(json_get(d, "passed"), &passed) &&
        json_num(json_get(d, "total"), &total) && (passed != total || total == 0))
        o->verdict = VERDICT_WA;
}

static int judge_local(struct bench *b, const struct json *req, struct outcome *o,
                       char err[ERR_LEN])
{
    struct judge_request *r;
    struct request_error e;
    if (request_parse(b->engine.langs, req, REQUEST_JUDGE, &r, &e) < 0)
        return err_set(err, -EINVAL, "%s (at %s%s%s)", e.msg, e.loc[0], e.nloc > 1 ? "." : "",
                       e.nloc > 1 ? e.loc[1] : "");
    struct judge_result res;
    judge_run(&b->engine.env, r, &res);
    outcome_local(&res, o);
    judge_result_fini(&res);
    judge_request_free(r);
    return 0;
}

static int judge_remote(struct client *c, const struct json *req, struct outcome *o,
                        char err[ERR_LEN])
{
    char *body = json_render(req, false), *reply = NULL;
    size_t len;
    if (!body)
        return err_set(err, -ENOMEM, "out of memory");
    int status = 0;
    for (int attempt = 0; attempt < 30; attempt++) { /* 503: the queue is full; wait */
        status = client_post(c, "/v1/judge", body, strlen(body), 600, &reply, &len, err);
        if (status != 503)
            break;
        free(reply);
        reply = NULL;
        sleep(1);
    }
    free(body);
    if (status < 0)
        return status;
    struct json *d = json_parse(reply);
    int rc = 0;
    if (status != 200 || !d)
        rc = err_set(err, -EPROTO, "the server answered %d: %.150s", status, reply ? reply : "");
    else
        outcome_remote(d, o);
    free(reply);
    json_free(d);
    return rc;
}

/* o NULL: the sample could not be judged (fault says why): SE. */
static void record(struct bench *b, struct sample *s, const struct harness *h,
                   const struct outcome *o, const char *fault, double seconds)
{
    int test = o ? o->test : -1;
    const char *reason = o ? o->reason : fault;
    s->verdict = o ? o->verdict : VERDICT_SE;
    const struct lang *l = b->local ? lang_find(b->engine.langs, s->language) : NULL;
    if (l && l->needs_gpu && b->engine.gpus == 0 && o && o->built && s->verdict == VERDICT_SE) {
        /* compiled, but there is no GPU to run it on: neither a pass nor a failure */
        s->verdict = VERDICT_SKIP;
        reason = "no GPU on this machine (compiled, not run)";
    }
    s->passed = s->verdict == VERDICT_OK;
    struct json *line = json_object();
    json_set_str(line, "task_id", b->ids[s->problem]);
    json_set_num(line, "sample", (double)(s - b->samples));
    json_set_str(line, "language", s->language);
    json_set_bool(line, "passed", s->passed);
    json_set_str(line, "verdict", verdict_name(s->verdict));
    if (test >= 0)
        json_set_num(line, "failed_test", test);
    if (!s->passed)
        json_set_str(line, "reason", reason ? reason : "");
    if (h && h->extracted_type)
        json_set_str(line, "extracted_type", h->extracted_type);
    if (o && o->grading[0])
        json_set_str(line, "grading", o->grading);
    json_set_num(line, "seconds", round(seconds * 1000) / 1000);
    char *text = json_render(line, false);
    json_free(line);
    pthread_mutex_lock(&b->lock);
    s->done = true;
    b->se += s->verdict == VERDICT_SE;
    if (b->out && text) {
        fprintf(b->out, "%s\n", text);
        fflush(b->out);
    }
    atomic_fetch_add(&b->finished, 1);
    atomic_fetch_add(&b->passed, s->passed);
    pthread_cond_broadcast(&b->changed);
    pthread_mutex_unlock(&b->lock);
    free(text);
}

static void judge_sample(struct bench *b, struct client *c, struct sample *s)
{
    const struct json *p = b->probs[s->problem];
    bool extract = !s->whole && (b->o->extract || strstr(s->completion, "```"));
    struct harness h;
    char err[ERR_LEN] = "";
    double t0 = now_s();
    if (harness_build(p, s->completion, s->language, extract ? HARNESS_EXTRACT : HARNESS_AS_GIVEN,
                      &h, err) < 0) {
        record(b, s, NULL, NULL, err, 0);
        return;
    }
    /* an offline measurement: a language judged by exit status (MultiPL-E's jl, swift) is
     * judged so and its results say it (grading), as the operator's own choice */
    if (!json_set_bool(h.request, "allow_exit_status", true)) {
        record(b, s, NULL, NULL, "out of memory", 0);
        harness_fini(&h);
        return;
    }
    struct outcome o = {.verdict = VERDICT_SKIP, .test = -1};
    const char *lname = json_get_str(h.request, "language");
    const struct lang *l = b->local && lname ? lang_find(b->engine.langs, lname) : NULL;
    if (b->local && (!l || !l->available)) {
        /* a language this machine cannot run (no template, or its toolchain missing): neither
         * a pass nor a failure, as CUDA without a GPU */
        snprintf(o.reason, sizeof(o.reason), "%s is not available here: %.200s",
                 lname ? lname : "the language", l ? l->why : "no template");
        record(b, s, &h, &o, NULL, now_s() - t0);
        harness_fini(&h);
        return;
    }
    int rc = b->local ? judge_local(b, h.request, &o, err) : judge_remote(c, h.request, &o, err);
    record(b, s, &h, rc == 0 ? &o : NULL, err, now_s() - t0);
    harness_fini(&h);
}

static void *worker(void *arg)
{
    struct bench *b = arg;
    struct client *c = NULL;
    char err[ERR_LEN];
    if (!b->local && client_new(b->o->server, &c, err) < 0)
        return NULL;
    if (c && b->o->label) /* the run's submissions carry its label in the server's store */
        client_header(c, "X-Verdict-Client", b->o->label);
    for (;;) {
        int i = atomic_fetch_add(&b->next, 1);
        if (i >= b->nsamples || atomic_load(&stopping))
            break;
        judge_sample(b, c, &b->samples[i]);
    }
    client_free(c);
    pthread_mutex_lock(&b->lock);
    atomic_fetch_sub(&b->live, 1);
    pthread_cond_broadcast(&b->changed);
    pthread_mutex_unlock(&b->lock);
    return NULL;
}

/* ---- progress and summary ------------------------------------------------------------------ */

static void progress(struct bench *b, bool tty, bool last)
{
    static int shown = -1;
    int done = atomic_load(&b->finished), n = b->nsamples;
    double t = now_s() - b->started, rate = t > 0 ? done / t : 0;
    if (tty) {
        int width = 30, fill = n ? done * width / n : width;
        fprintf(stderr, "\r[%.*s%*s] %d/%d  passed %d  %.1f/s  ETA %.0f s   ", fill,
                "==============================", width - fill, "", done, n,
                atomic_load(&b->passed), rate, rate > 0 ? (n - done) / rate : 0.0);
        if (last)
            fputc('\n', stderr);
    } else if (last || (n >= 10 && done * 10 / n != shown)) {
        shown = n >= 10 ? done * 10 / n : shown;
        fprintf(stderr, "bench: %d/%d samples judged, %d passed, %.1f s\n", done, n,
                atomic_load(&b->passed), t);
    }
    fflush(stderr);
}

static int parse_ks(const char *s, int ks[MAX_KS])
{
    int n = 0;
    for (const char *p = s; *p && n < MAX_KS;) {
        char *end;
        long k = strtol(p, &end, 10);
        if (end == p || k < 1 || k > 100000 || (*end && *end != ','))
            return -EINVAL;
        ks[n++] = (int)k;
        p = *end ? end + 1 : end;
    }
    return n ? n : -EINVAL;
}

static struct json *summarise(struct bench *b, const int *ks, int nks, double seconds)
{
    int *n = calloc((size_t)b->nproblems, sizeof(int)),
        *c = calloc((size_t)b->nproblems, sizeof(int));
    int counts[VERDICT_COUNT] = {0}, judged = 0, with = 0;
    struct json *d = json_object(), *failed = json_array();
    for (int i = 0; n && c && i < b->nsamples; i++) {
        struct sample *s = &b->samples[i];
        if (!s->done)
            continue;
        judged++;
        counts[s->verdict]++;
        if (s->verdict == VERDICT_SKIP)
            continue; /* not run: left out of pass@k */
        n[s->problem]++;
        c[s->problem] += s->passed;
        if (!s->passed) {
            struct json *f = json_push(failed, json_object());
            json_set_str(f, "task_id", b->ids[s->problem]);
            json_set_str(f, "language", s->language);
            json_set_str(f, "verdict", verdict_name(s->verdict));
        }
    }
    /* Problems without a judged sample are left out of pass@k: n and c compacted. */
    for (int i = 0; n && c && i < b->nproblems; i++)
        if (n[i] > 0) {
            n[with] = n[i];
            c[with++] = c[i];
        }
    json_set_str(d, "dataset", b->o->dataset);
    json_set_num(d, "problems", b->nproblems);
    json_set_num(d, "problems_judged", with);
    if (b->shards > 1) {
        char shard[32];
        snprintf(shard, sizeof(shard), "%d/%d", b->shard, b->shards);
        json_set_str(d, "shard", shard);
    }
    json_set_num(d, "samples", b->nsamples);
    json_set_num(d, "judged", judged);
    struct json *pk = json_set(d, "pass_at_k", json_object());
    for (int i = 0; i < nks; i++) {
        char key[16];
        int counted = 0;
        double v = n && c ? passk_mean(n, c, with, ks[i], &counted) : NAN;
        snprintf(key, sizeof(key), "%d", ks[i]);
        if (isnan(v) || counted < with)
            json_set_null(pk, key); /* some problem has fewer than k samples */
        else
            json_set_num(pk, key, v);
    }
    struct json *mix = json_set(d, "verdicts", json_object());
    for (int v = 0; v < VERDICT_COUNT; v++)
        json_set_num(mix, verdict_name((enum verdict)v), counts[v]);
    json_set_num(d, "seconds", round(seconds * 100) / 100);
    json_set_bool(d, "interrupted", judged < b->nsamples);
    json_set(d, "failed", failed);
    free(n);
    free(c);
    return d;
}

static void print_table(const struct json *d, const int *ks, int nks)
{
    double v;
    printf("%-12s %s\n", "dataset", json_get_str(d, "dataset"));
    json_num(json_get(d, "problems_judged"), &v);
    double all = 0, judged = 0, samples = 0, secs = 0;
    json_num(json_get(d, "problems"), &all);
    json_num(json_get(d, "judged"), &judged);
    json_num(json_get(d, "samples"), &samples);
    json_num(json_get(d, "seconds"), &secs);
    printf("%-12s %.0f of %.0f\n", "problems", v, all);
    printf("%-12s %.0f of %.0f judged%s\n", "samples", judged, samples,
           judged < samples ? " (interrupted)" : "");
    for (int i = 0; i < nks; i++) {
        char key[16], label[16];
        snprintf(key, sizeof(key), "%d", ks[i]);
        snprintf(label, sizeof(label), "pass@%d", ks[i]);
        const struct json *p = json_get(json_get(d, "pass_at_k"), key);
        if (json_num(p, &v))
            printf("%-12s %.4f\n", label, v);
        else
            printf("%-12s n/a (a problem has fewer than %d samples)\n", label, ks[i]);
    }
    printf("%-12s", "verdicts");
    const struct json *mix = json_get(d, "verdicts");
    for (int i = 0; i < VERDICT_COUNT; i++)
        if (json_num(json_get(mix, verdict_name((enum verdict)i)), &v) && v > 0)
            printf(" %s %.0f", verdict_name((enum verdict)i), v);
    printf("\n%-12s %.1f s (%.1f samples/s)\n", "time", secs, secs > 0 ? judged / secs : 0);
}

/* ---- main -------------------------------------------------------------------------------------
 */

static int load(struct bench *b, char err[ERR_LEN])
{
    struct dataset_store *st;
    int rc = dataset_open(b->o->db, &st, err);
    if (rc < 0)
        return rc;
    b->problems = dataset_problems(st, b->o->dataset, 0, -1);
    dataset_close(st);
    if (!b->problems)
        return err_set(err, -ENOENT,
                       "no dataset \"%.80s\" (see verdict datasets list; import with verdict "
                       "datasets import NAME PATH)",
                       b->o->dataset);
    if ((rc = parse_shard(b, err)) < 0)
        return rc;
    b->nproblems = json_len(b->problems);
    b->ids = calloc((size_t)b->nproblems + 1, sizeof(*b->ids));
    b->probs = calloc((size_t)b->nproblems + 1, sizeof(*b->probs));
    if (!b->ids || !b->probs || !(b->id_index = strset_new()))
        return err_set(err, -ENOMEM, "out of memory");
    int i = 0;
    for (const struct json *p = json_first(b->problems); p; p = json_next(p), i++) {
        b->probs[i] = p;
        b->ids[i] = json_get_str(p, "id");
        if (b->ids[i] && strset_add(b->id_index, b->ids[i], i, NULL) < 0)
            return err_set(err, -ENOMEM, "out of memory");
    }
    if (!b->o->reference)
        return read_samples(b, err);
    if (reference_samples(b) < 0)
        return err_set(err, -ENOMEM, "out of memory");
    return b->nsamples > 0 ? 0
                           : err_set(err, -ENOENT, "%s has no reference solutions", b->o->dataset);
}

static void bench_fini(struct bench *b)
{
    if (b->local && b->engine_open)
        engine_close(&b->engine);
    if (b->out)
        fclose(b->out);
    json_free(b->problems);
    json_free(b->samples_doc);
    free(b->samples);
    free(b->ids);
    free(b->probs);
    strset_free(b->id_index);
    pthread_cond_destroy(&b->changed);
    pthread_mutex_destroy(&b->lock);
}

/* The languages the samples are judged in (each sample's and its problem's), comma-separated
 * and each once: only their toolchains are probed, not every template's. NULL when there are
 * none or memory ran out (every language is probed then). */
static char *languages_of(const struct bench *b)
{
    struct buf list;
    buf_init(&list, 0);
    struct strset *seen = strset_new();
    for (int i = 0; seen && i < b->nsamples; i++) {
        const char *two[] = {b->samples[i].language,
                             json_get_str(b->probs[b->samples[i].problem], "language")};
        for (int k = 0; k < 2; k++)
            if (two[k] && *two[k] && !strchr(two[k], ',') && strset_add(seen, two[k], 0, NULL) == 1)
                buf_printf(&list, "%s%s", list.len ? "," : "", two[k]);
    }
    bool ok = seen && !list.err;
    strset_free(seen);
    if (!ok) {
        buf_fini(&list);
        return NULL;
    }
    return list.data;
}

/* The data, the --out file and (judging locally) the engine; *jobs gets the worker count. */
static int bench_open(struct bench *b, long *jobs, char err[ERR_LEN])
{
    const struct bench_opts *o = b->o;
    int rc = load(b, err);
    if (rc == 0 && o->out && !(b->out = fopen(o->out, "w")))
        rc = err_set(err, -errno, "%s: %m", o->out);
    *jobs = o->jobs > 0 ? o->jobs : sysconf(_SC_NPROCESSORS_ONLN);
    if (rc < 0 || !b->local)
        return rc;
    if (geteuid() != 0)
        return err_set(err, -EPERM,
                       "judging locally needs root (cells use namespaces and cgroups), or use "
                       "--server URL");
    char *langs = languages_of(b);
    rc = engine_open(&(struct engine_config){.languages = o->languages,
                                             .cache = o->cache,
                                             .cells = (int)*jobs,
                                             .probe = langs ? langs : NULL},
                     &b->engine, err);
    free(langs);
    b->engine_open = rc == 0;
    *jobs += b->engine.gpus;
    return rc;
}

/* Starts the workers with SIGINT blocked in them, then shows progress until they are done
 * (a first SIGINT stops the taking of samples). */
static void bench_run(struct bench *b, long jobs)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    pthread_sigmask(SIG_BLOCK, &block, &old); /* workers never take SIGINT */
    b->started = now_s();
    int nworkers = (int)(jobs < b->nsamples ? jobs : b->nsamples);
    pthread_t *threads = calloc((size_t)nworkers, sizeof(*threads));
    int started = 0;
    atomic_store(&b->live, nworkers);
    for (int i = 0; threads && i < nworkers; i++)
        started += pthread_create(&threads[i], NULL, worker, b) == 0;
    atomic_fetch_sub(&b->live, nworkers - started);
    struct sigaction sa = {.sa_handler = on_sigint};
    sigaction(SIGINT, &sa, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    bool tty = isatty(STDERR_FILENO);
    pthread_mutex_lock(&b->lock);
    while (atomic_load(&b->live) > 0) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 250 * 1000000L;
        if (until.tv_nsec >= 1000000000L)
            until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&b->changed, &b->lock, &until);
        pthread_mutex_unlock(&b->lock);
        progress(b, tty, false);
        if (interrupted && !atomic_exchange(&stopping, true))
            fprintf(stderr,
                    "%sverdict bench: interrupted; finishing the samples being judged "
                    "(again to quit now)\n",
                    tty ? "\n" : "");
        pthread_mutex_lock(&b->lock);
    }
    pthread_mutex_unlock(&b->lock);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    free(threads);
    progress(b, tty, true);
}

/* ---- the run's record ---------------------------------------------------------------------- */

/* Per problem with a judged sample: task_id, language (its first sample's), samples, passed,
 * verdicts. */
static struct json *per_problem(const struct bench *b)
{
    struct json *arr = json_array();
    int *counts = calloc((size_t)b->nproblems * VERDICT_COUNT, sizeof(int));
    int *passed = calloc((size_t)b->nproblems, sizeof(int));
    const char **lang = calloc((size_t)b->nproblems, sizeof(*lang));
    for (int i = 0; counts && passed && lang && i < b->nsamples; i++) {
        const struct sample *s = &b->samples[i];
        if (!s->done)
            continue;
        counts[s->problem * VERDICT_COUNT + (int)s->verdict]++;
        passed[s->problem] += s->passed;
        if (!lang[s->problem])
            lang[s->problem] = s->language;
    }
    for (int p = 0; counts && passed && lang && p < b->nproblems; p++) {
        const int *c = &counts[p * VERDICT_COUNT];
        int n = 0;
        for (int v = 0; v < VERDICT_COUNT; v++)
            n += c[v];
        if (n == 0)
            continue;
        struct json *o = json_push(arr, json_object());
        json_set_str(o, "task_id", b->ids[p]);
        if (lang[p])
            json_set_str(o, "language", lang[p]);
        json_set_num(o, "samples", n);
        json_set_num(o, "passed", passed[p]);
        struct json *mix = json_set(o, "verdicts", json_object());
        for (int v = 0; v < VERDICT_COUNT; v++)
            if (c[v])
                json_set_num(mix, verdict_name((enum verdict)v), c[v]);
    }
    free(counts);
    free(passed);
    free(lang);
    return arr;
}

/* Puts the run into the store at db (no retention from here: that is the server's). */
static int64_t record_local(const char *db, struct json *doc, char err[ERR_LEN])
{
    struct store *s;
    int rc = store_open(&(struct store_config){.path = db, .retain_rows = -1, .retain_days = -1},
                        &s, err);
    if (rc < 0) {
        json_free(doc);
        return rc;
    }
    int64_t id = store_put_run(s, doc);
    rc = store_flush(s);
    if (id > 0 && rc < 0) {
        struct store_stats st;
        store_get_stats(s, &st);
        id = err_set(err, rc, "%s", st.last_error);
    } else if (id < 0) {
        err_set(err, (int)id, "%s", strerror((int)-id));
    }
    store_close(s);
    return id;
}

/* POSTs the run to server/v1/runs (with VERDICT_DASHBOARD_TOKEN as a bearer token, if set).
 * 0: the server keeps no runs (404: an older verdict, or its store is off), err says why. */
static int64_t record_remote(const char *server, struct json *doc, char err[ERR_LEN])
{
    struct client *c;
    char *body = json_render(doc, false), *reply = NULL;
    json_free(doc);
    int64_t rc = body ? client_new(server, &c, err) : err_set(err, -ENOMEM, "out of memory");
    if (rc < 0) {
        free(body);
        return rc;
    }
    const char *token = getenv("VERDICT_DASHBOARD_TOKEN");
    char bearer[600];
    snprintf(bearer, sizeof(bearer), "Bearer %s", token ? token : "");
    if (token && token[0] && client_header(c, "Authorization", bearer) < 0)
        rc = err_set(err, -EINVAL, "VERDICT_DASHBOARD_TOKEN: not a usable header value");
    size_t len = 0;
    int status = (int)rc;
    for (int attempt = 0; rc == 0 && attempt < 5; attempt++) { /* 503: its queue is full */
        free(reply);
        reply = NULL;
        status = client_post(c, "/v1/runs", body, strlen(body), 60, &reply, &len, err);
        if (status != 503)
            break;
        sleep(1);
    }
    struct json *d = status >= 0 ? json_parse(reply ? reply : "") : NULL;
    const char *detail = json_get_str(d, "detail");
    double id = 0;
    if (status < 0)
        rc = status;
    else if (status == 201 && json_num(json_get(d, "id"), &id) && id >= 1)
        rc = (int64_t)id;
    else if (status == 404) { /* an older server, or one with its store off */
        snprintf(err, ERR_LEN, "%.200s", detail ? detail : "no /v1/runs: an older verdict");
        rc = 0;
    } else if (status == 401 || status == 403)
        rc = err_set(err, -EACCES, "the server answered %d (%s): %.150s", status,
                     token && token[0] ? "VERDICT_DASHBOARD_TOKEN is not its token"
                                       : "set VERDICT_DASHBOARD_TOKEN to its --dashboard-token",
                     detail ? detail : "");
    else
        rc = err_set(err, -EPROTO, "the server answered %d: %.150s", status, reply ? reply : "");
    json_free(d);
    free(reply);
    free(body);
    client_free(c);
    return rc;
}

/* Records the run (its summary d, with the per-problem results) where --db or --server say. */
static void record_run(struct bench *b, const struct json *d)
{
    const struct bench_opts *o = b->o;
    struct json *doc = json_dup(d);
    json_set(doc, "results", per_problem(b));
    json_set_str(doc, "source", b->local ? "local" : "server");
    if (o->label)
        json_set_str(doc, "label", o->label);
    if (o->model)
        json_set_str(doc, "model", o->model);
    char err[ERR_LEN] = "out of memory";
    int64_t id = !doc       ? -ENOMEM
                 : b->local ? record_local(o->db, doc, err)
                            : record_remote(o->server, doc, err);
    if (id > 0)
        fprintf(stderr, "run %lld recorded\n", (long long)id);
    else if (id == 0)
        fprintf(stderr, "verdict bench: %s does not record runs (%s): not recorded\n", o->server,
                err);
    else
        fprintf(stderr, "verdict bench: the run was not recorded: %s\n", err);
}

static void bench_report(struct bench *b, const int *ks, int nks, bool json_summary)
{
    struct json *d = summarise(b, ks, nks, now_s() - b->started);
    if (json_summary) {
        char *text = json_render(d, true);
        printf("%s\n", text ? text : "{}");
        free(text);
    } else {
        print_table(d, ks, nks);
    }
    fflush(stdout);
    if (!b->o->no_record)
        record_run(b, d);
    json_free(d);
    if (b->se)
        fprintf(stderr,
                "verdict bench: %d samples met a sandbox error (SE), not counted as "
                "the programs' fault: see the reasons in --out\n",
                b->se);
}

int bench_main(const struct bench_opts *o)
{
    struct bench b = {.o = o, .local = !o->server};
    int ks[MAX_KS], nks = parse_ks(o->ks ? o->ks : "1,10,100", ks);
    char err[ERR_LEN] = "";
    bool json_summary = o->summary && strcmp(o->summary, "json") == 0;
    if (nks < 0) {
        fprintf(stderr, "verdict bench: -k: expected k values like 1,10,100\n");
        return EXIT_FAIL;
    }
    if (o->summary && !json_summary && strcmp(o->summary, "text") != 0) {
        fprintf(stderr, "verdict bench: --summary: text or json\n");
        return EXIT_FAIL;
    }
    pthread_mutex_init(&b.lock, NULL);
    pthread_cond_init(&b.changed, NULL);
    long jobs;
    if (bench_open(&b, &jobs, err) < 0) {
        fprintf(stderr, "verdict bench: %s\n", err);
        bench_fini(&b);
        return EXIT_FAIL;
    }
    bench_run(&b, jobs);
    bench_report(&b, ks, nks, json_summary);
    int exit_code = interrupted ? EXIT_INT : b.se ? EXIT_SE : 0;
    bench_fini(&b);
    return exit_code;
}
