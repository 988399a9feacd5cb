/*
 * test_store: the results store (server/store/store) on real files in a temp directory:
 * batching, filters and keyset paging, runs, retention by rows and by age, the file's size
 * under a row cap, crash safety (a SIGKILLed writer), a full disk (a small tmpfs in a private
 * mount namespace: root only), a corrupt file, readers beside the writer, and the migration
 * of an older schema.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "server/store/db.h"
#include "server/store/store.h"
#include "test.h"

static char dir[256];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void db_path(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", dir, name);
}

static void remove_db(const char *path)
{
    char p[400];
    unlink(path);
    snprintf(p, sizeof(p), "%s-wal", path);
    unlink(p);
    snprintf(p, sizeof(p), "%s-shm", path);
    unlink(p);
}

static const char *const langs[] = {"python", "cpp", "go"};
static const char *const verdicts[] = {"OK", "WA", "TLE", "OK"};
/* how submission i was decided: /run_code (odd i) none, else by i % 3 */
static const char *const gradings[] = {"output", "isolated", "in-process"};

/* Submission i: its language, verdict and label cycle; code "print(i)". */
static int64_t put_one(struct store *s, int i, int64_t at_ms, size_t code_pad)
{
    static char code[16384];
    int n = snprintf(code, sizeof(code), "print(%d)", i);
    if (code_pad > (size_t)n && code_pad < sizeof(code)) {
        memset(code + n, '#', code_pad - (size_t)n);
        n = (int)code_pad;
    }
    char client[32];
    snprintf(client, sizeof(client), "10.0.0.%d", i % 5);
    struct store_submission sub = {
        .at_ms = at_ms,
        .route = i % 2 ? "/run_code" : "/v1/judge",
        .client = client,
        .label = i % 7 == 0 ? "trainer" : NULL,
        .language = langs[i % 3],
        .dataset = i % 2 ? NULL : "mbpp",
        .problem = i % 2 ? NULL : (i % 4 ? "p1" : "p2"),
        .code = code,
        .code_len = (size_t)n,
        .code_sha256 = "00ff",
        .verdict = verdicts[i % 4],
        .grading = i % 2 ? NULL : gradings[i % 3],
        .reward = i % 4 == 0 || i % 4 == 3 ? 1.0 : 0.0,
        .passed = 1,
        .total = 2,
        .cpu_ms = i,
        .wall_ms = 2 * i,
        .memory_kib = 1024,
        .compiled = i % 3 == 1,
        .detail = "{\"message\": \"m\", \"tests\": [{\"index\": 0, \"verdict\": \"OK\"}]}",
    };
    return store_put_submission(s, &sub);
}

/* ---- synchronous queries --------------------------------------------------------------------- */

struct answer {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done;
    struct json *doc;
    int status;
    char why[256];
};

static void on_answer(void *arg, struct json *doc, int status, const char *why)
{
    struct answer *a = arg;
    pthread_mutex_lock(&a->lock);
    a->doc = doc;
    a->status = status;
    snprintf(a->why, sizeof(a->why), "%s", why ? why : "");
    a->done = true;
    pthread_cond_signal(&a->cond);
    pthread_mutex_unlock(&a->lock);
}

/* Runs f and returns the document (caller frees), *status its status. */
static struct json *query(struct store *s, struct store_filter f, int *status)
{
    struct answer a = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};
    store_query(s, &f, on_answer, &a);
    pthread_mutex_lock(&a.lock);
    while (!a.done)
        pthread_cond_wait(&a.cond, &a.lock);
    pthread_mutex_unlock(&a.lock);
    if (status)
        *status = a.status;
    return a.doc;
}

static double num(const struct json *j, const char *key)
{
    double v = -1;
    json_num(json_get(j, key), &v);
    return v;
}

static int64_t count_rows(const char *path, const char *where)
{
    struct db *d;
    char err[ERR_LEN], sql[256];
    if (db_open(path, &d, err) < 0)
        return -1;
    snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM submission %s", where);
    struct db_stmt *st;
    int64_t n = -1;
    if (db_prepare(d, sql, &st, err) == 0) {
        if (db_step(st, err) == 1)
            n = db_int(st, 0);
        db_finalize(st);
    }
    db_close(d);
    return n;
}

static struct store *open_store(const char *path, int64_t rows, int64_t days)
{
    struct store *s = NULL;
    char err[ERR_LEN] = "";
    struct store_config cfg = {.path = path, .retain_rows = rows, .retain_days = days};
    if (store_open(&cfg, &s, err) < 0)
        fprintf(stderr, "store_open %s: %s\n", path, err);
    return s;
}

/* Waits (10 s at most) until the store has deleted n rows. */
static void wait_deleted(struct store *s, uint64_t n)
{
    struct store_stats st;
    for (int i = 0; i < 1000; i++) {
        store_get_stats(s, &st);
        if (st.deleted >= n)
            return;
        usleep(10000);
    }
}

/* ---- tests ------------------------------------------------------------------------------------
 */

static void test_batching(void)
{
    char path[300];
    db_path(path, sizeof(path), "batch.db");
    struct store *s = open_store(path, -1, -1);
    ASSERT_NOT_NULL(s);
    double t0 = now_s();
    int64_t prev = 0;
    bool increasing = true;
    struct store_stats st;
    for (int i = 0; i < 10000; i++) {
        if (i % 2000 == 0) /* the queue (STORE_QUEUE) kept from filling: nothing dropped */
            for (store_get_stats(s, &st); st.queued > 4000; store_get_stats(s, &st))
                usleep(1000);
        int64_t id = put_one(s, i, 0, 0);
        increasing = increasing && id > prev;
        prev = id;
    }
    ASSERT_INT_EQ(store_flush(s), 0);
    double secs = now_s() - t0;
    store_get_stats(s, &st);
    printf("  10000 submissions in %.3f s through the writer (%.0f/s), %llu transactions\n", secs,
           10000 / secs, (unsigned long long)st.batches);
    ASSERT_TRUE(increasing);
    ASSERT_INT_EQ(prev, 10000);
    ASSERT_UINT_EQ(st.written, 10000);
    ASSERT_UINT_EQ(st.dropped, 0);
    ASSERT_UINT_EQ(st.queued, 0);
    ASSERT_TRUE(st.batches >= 10000 / 512 && st.batches <= 1000);
    ASSERT_TRUE(st.ok);
    ASSERT_TRUE(st.db_bytes > 0);
    /* all readable, page by page */
    int seen = 0, status = 0;
    int64_t before = 0;
    for (int page = 0; page < 30; page++) {
        struct json *d =
            query(s,
                  (struct store_filter){
                      .kind = STORE_LIST_SUBMISSIONS, .limit = STORE_MAX_LIMIT, .before = before},
                  &status);
        ASSERT_INT_EQ(status, 200);
        seen += json_len(json_get(d, "submissions"));
        before = (int64_t)num(d, "next_before");
        json_free(d);
        if (before <= 0)
            break;
    }
    ASSERT_INT_EQ(seen, 10000);
    store_close(s);
    ASSERT_INT_EQ(count_rows(path, ""), 10000);
    /* ids go on from the largest at the next open */
    s = open_store(path, -1, -1);
    ASSERT_NOT_NULL(s);
    ASSERT_INT_EQ(put_one(s, 1, 0, 0), 10001);
    store_close(s);
}

/* Pages through f's rows (f.limit at a time): how many, -1 when the ids do not fall or a
 * page is too long. */
static int page_all(struct store *s, struct store_filter f)
{
    int seen = 0, status = 0;
    int64_t last = INT64_MAX;
    for (int pages = 0; pages < 1000; pages++) {
        struct json *d = query(s, f, &status);
        const struct json *rows = json_get(d, "submissions");
        if (status != 200 || json_len(rows) > f.limit)
            seen = -1;
        for (const struct json *r = json_first(rows); seen >= 0 && r; r = json_next(r)) {
            if (num(r, "id") >= (double)last)
                seen = -1;
            last = (int64_t)num(r, "id");
            seen += seen >= 0;
        }
        f.before = json_is_null(json_get(d, "next_before")) ? 0 : (int64_t)num(d, "next_before");
        json_free(d);
        if (f.before <= 0 || seen < 0)
            break;
    }
    return seen;
}

static void test_filters_and_paging(void)
{
    char path[300];
    db_path(path, sizeof(path), "filters.db");
    struct store *s = open_store(path, -1, -1);
    ASSERT_NOT_NULL(s);
    for (int i = 0; i < 300; i++)
        put_one(s, i, 0, 0);
    ASSERT_INT_EQ(store_flush(s), 0);
    /* language=cpp AND verdict=OK: i % 3 == 1 and i % 4 in {0, 3} */
    int expect = 0;
    for (int i = 0; i < 300; i++)
        expect += i % 3 == 1 && (i % 4 == 0 || i % 4 == 3);
    int seen = 0, status = 0, pages = 0;
    int64_t before = 0, last = INT64_MAX;
    do {
        struct json *d = query(s,
                               (struct store_filter){.kind = STORE_LIST_SUBMISSIONS,
                                                     .limit = 7,
                                                     .before = before,
                                                     .language = "cpp",
                                                     .verdict = "OK"},
                               &status);
        ASSERT_INT_EQ(status, 200);
        const struct json *rows = json_get(d, "submissions");
        ASSERT_TRUE(json_len(rows) <= 7);
        for (const struct json *r = json_first(rows); r; r = json_next(r)) {
            ASSERT_STR_EQ(json_get_str(r, "language"), "cpp");
            ASSERT_STR_EQ(json_get_str(r, "verdict"), "OK");
            ASSERT_TRUE(num(r, "id") < (double)last);
            last = (int64_t)num(r, "id");
            seen++;
        }
        before = json_is_null(json_get(d, "next_before")) ? 0 : (int64_t)num(d, "next_before");
        json_free(d);
        pages++;
    } while (before > 0 && pages < 100);
    ASSERT_INT_EQ(seen, expect);
    ASSERT_INT_EQ(pages, (expect + 6) / 7);
    /* client: the label or the address, paged; a row matching both counted once */
    ASSERT_INT_EQ(page_all(s, (struct store_filter){.kind = STORE_LIST_SUBMISSIONS,
                                                    .limit = 4,
                                                    .client = "trainer"}),
                  (300 + 6) / 7);
    ASSERT_INT_EQ(page_all(s, (struct store_filter){.kind = STORE_LIST_SUBMISSIONS,
                                                    .limit = 4,
                                                    .client = "10.0.0.3",
                                                    .language = "go"}),
                  20); /* i % 5 == 3 and i % 3 == 2: i % 15 == 8 */
    ASSERT_INT_EQ(page_all(s, (struct store_filter){.kind = STORE_LIST_SUBMISSIONS, .limit = 1}),
                  300);
    struct json *d = query(
        s, (struct store_filter){.kind = STORE_LIST_SUBMISSIONS, .limit = 500, .client = "trainer"},
        &status);
    ASSERT_INT_EQ(json_len(json_get(d, "submissions")), (300 + 6) / 7);
    json_free(d);
    d = query(s,
              (struct store_filter){.kind = STORE_LIST_SUBMISSIONS,
                                    .limit = 500,
                                    .client = "10.0.0.3",
                                    .route = "/run_code"},
              &status);
    ASSERT_INT_EQ(json_len(json_get(d, "submissions")), 30); /* i % 5 == 3, odd: 30 of 300 */
    json_free(d);
    /* grading: even i with i % 3 == 1 (i % 6 == 4), paged, and with another filter */
    ASSERT_INT_EQ(page_all(s, (struct store_filter){.kind = STORE_LIST_SUBMISSIONS,
                                                    .limit = 9,
                                                    .grading = "isolated"}),
                  50);
    d = query(s,
              (struct store_filter){.kind = STORE_LIST_SUBMISSIONS,
                                    .limit = 500,
                                    .grading = "isolated",
                                    .language = "cpp",
                                    .route = "/v1/judge"},
              &status);
    ASSERT_INT_EQ(json_len(json_get(d, "submissions")), 50);
    for (const struct json *r = json_first(json_get(d, "submissions")); r; r = json_next(r))
        ASSERT_STR_EQ(json_get_str(r, "grading"), "isolated");
    json_free(d);
    d = query(
        s,
        (struct store_filter){.kind = STORE_LIST_SUBMISSIONS, .limit = 500, .route = "/run_code"},
        &status);
    ASSERT_INT_EQ(json_len(json_get(d, "submissions")), 150);
    for (const struct json *r = json_first(json_get(d, "submissions")); r; r = json_next(r))
        ASSERT_TRUE(json_is_null(json_get(r, "grading"))); /* none decided */
    json_free(d);
    d = query(s, (struct store_filter){.kind = STORE_LIST_SUBMISSIONS, .grading = "exit-status"},
              &status);
    ASSERT_INT_EQ(json_len(json_get(d, "submissions")), 0);
    json_free(d);
    d = query(s,
              (struct store_filter){
                  .kind = STORE_LIST_SUBMISSIONS, .dataset = "mbpp", .problem = "p2", .limit = 500},
              &status);
    ASSERT_INT_EQ(json_len(json_get(d, "submissions")), 75);
    const struct json *row = json_at(json_get(d, "submissions"), 0);
    ASSERT_TRUE(json_is_null(json_get(row, "label")) || json_is_string(json_get(row, "label")));
    ASSERT_STR_EQ(json_get_str(row, "code_sha256"), "00ff");
    ASSERT_TRUE(num(row, "at") > 1.6e12);
    json_free(d);
    store_close(s);
}

static void test_get_submission(void)
{
    struct store *s = open_store(":memory:", -1, -1);
    ASSERT_NOT_NULL(s);
    int64_t small = put_one(s, 3, 0, 0);
    static char big[STORE_MAX_CODE + 4096];
    memset(big, 'x', sizeof(big));
    big[STORE_MAX_CODE - 1] = (char)0xc3; /* a two-byte sequence across the cut */
    big[STORE_MAX_CODE] = (char)0xa9;
    struct store_submission sub = {.route = "/run_code",
                                   .language = "python",
                                   .code = big,
                                   .code_len = sizeof(big),
                                   .verdict = "OK",
                                   .detail = "{}"};
    int64_t cut = store_put_submission(s, &sub);
    ASSERT_INT_EQ(store_flush(s), 0);
    int status = 0;
    struct json *d =
        query(s, (struct store_filter){.kind = STORE_GET_SUBMISSION, .id = small}, &status);
    ASSERT_INT_EQ(status, 200);
    ASSERT_STR_EQ(json_get_str(d, "code"), "print(3)");
    ASSERT_TRUE(json_is_null(json_get(d, "grading"))); /* 3 is odd: a /run_code */
    ASSERT_TRUE(json_get(d, "code_truncated") && !json_is_null(json_get(d, "code_truncated")));
    ASSERT_STR_EQ(json_get_str(json_get(d, "detail"), "message"), "m");
    ASSERT_STR_EQ(json_get_str(d, "verdict"), "OK");
    ASSERT_STR_EQ(json_get_str(d, "language"), "python");
    ASSERT_TRUE(json_is_null(json_get(d, "dataset")));
    json_free(d);
    d = query(s, (struct store_filter){.kind = STORE_GET_SUBMISSION, .id = cut}, &status);
    ASSERT_INT_EQ(strlen(json_get_str(d, "code_sha256")), 64); /* computed: none was given */
    bool truncated = false;
    json_bool(json_get(d, "code_truncated"), &truncated);
    ASSERT_TRUE(truncated);
    ASSERT_INT_EQ(num(d, "code_bytes"), sizeof(big));
    ASSERT_INT_EQ(strlen(json_get_str(d, "code")), STORE_MAX_CODE - 1);
    json_free(d);
    d = query(s, (struct store_filter){.kind = STORE_GET_SUBMISSION, .id = 999}, &status);
    ASSERT_NULL(d);
    ASSERT_INT_EQ(status, 404);
    store_close(s);
}

static void test_detail_cut(void)
{
    struct store *s = open_store(":memory:", -1, -1);
    ASSERT_NOT_NULL(s);
    size_t cap = 8 << 20, len = 0;
    char *detail = malloc(cap);
    ASSERT_NOT_NULL(detail);
    len += (size_t)snprintf(detail, cap, "{\"message\": \"many\", \"tests\": [");
    for (int i = 0; i < 200; i++) {
        len += (size_t)snprintf(detail + len, cap - len, "%s{\"index\": %d, \"stdout\": \"",
                                i ? "," : "", i);
        memset(detail + len, 'a', 4000);
        len += 4000;
        len += (size_t)snprintf(detail + len, cap - len, "\"}");
    }
    snprintf(detail + len, cap - len, "]}");
    struct store_submission sub = {.route = "/v1/judge",
                                   .language = "python",
                                   .code = "x",
                                   .code_len = 1,
                                   .verdict = "WA",
                                   .detail = detail};
    int64_t id = store_put_submission(s, &sub);
    free(detail);
    ASSERT_INT_EQ(store_flush(s), 0);
    struct json *d = query(s, (struct store_filter){.kind = STORE_GET_SUBMISSION, .id = id}, NULL);
    const struct json *det = json_get(d, "detail");
    int kept = json_len(json_get(det, "tests"));
    ASSERT_TRUE(kept > 10 && kept < 200);
    ASSERT_INT_EQ(num(det, "tests_dropped"), 200 - kept);
    ASSERT_STR_EQ(json_get_str(det, "message"), "many");
    json_free(d);
    store_close(s);
}

static void test_runs(void)
{
    struct store *s = open_store(":memory:", -1, -1);
    ASSERT_NOT_NULL(s);
    int64_t ids[3];
    for (int i = 0; i < 3; i++) {
        struct json *doc = json_parse(
            "{\"dataset\": \"humaneval\", \"problems\": 2, \"samples\": 4, \"judged\": 4,"
            " \"pass_at_k\": {\"1\": 0.5, \"10\": null}, \"verdicts\": {\"OK\": 2, \"WA\": 2},"
            " \"seconds\": 1.5, \"interrupted\": false, \"source\": \"local\", \"label\": \"r\","
            " \"failed\": [{\"task_id\": \"t/1\", \"language\": \"python\", \"verdict\": \"WA\"}],"
            " \"results\": [{\"task_id\": \"t/0\", \"language\": \"python\", \"samples\": 2,"
            " \"passed\": 2, \"verdicts\": {\"OK\": 2}}]}");
        ids[i] = store_put_run(s, doc);
    }
    ASSERT_TRUE(ids[0] == 1 && ids[1] == 2 && ids[2] == 3);
    ASSERT_INT_EQ(store_put_run(s, json_array()), -EINVAL);
    ASSERT_INT_EQ(store_flush(s), 0);
    int status;
    struct json *d = query(s, (struct store_filter){.kind = STORE_LIST_RUNS, .limit = 2}, &status);
    ASSERT_INT_EQ(status, 200);
    const struct json *runs = json_get(d, "runs");
    ASSERT_INT_EQ(json_len(runs), 2);
    ASSERT_INT_EQ(num(json_at(runs, 0), "id"), 3);
    ASSERT_INT_EQ(num(d, "next_before"), 2);
    ASSERT_NULL(json_get(json_at(runs, 0), "results"));
    ASSERT_INT_EQ(num(json_get(json_at(runs, 0), "pass_at_k"), "pass@1") * 10, 5);
    ASSERT_STR_EQ(json_get_str(json_at(runs, 0), "label"), "r");
    json_free(d);
    d = query(s, (struct store_filter){.kind = STORE_GET_RUN, .id = 2}, &status);
    ASSERT_STR_EQ(json_get_str(d, "dataset"), "humaneval");
    ASSERT_STR_EQ(json_get_str(d, "source"), "local");
    ASSERT_INT_EQ(json_len(json_get(d, "results")), 1);
    ASSERT_INT_EQ(json_len(json_get(d, "failed")), 1);
    ASSERT_INT_EQ(num(d, "samples"), 4);
    json_free(d);
    d = query(s, (struct store_filter){.kind = STORE_GET_RUN, .id = 9}, &status);
    ASSERT_INT_EQ(status, 404);
    d = query(s, (struct store_filter){.kind = STORE_LIST_RUNS, .dataset = "mbpp"}, &status);
    ASSERT_INT_EQ(json_len(json_get(d, "runs")), 0);
    ASSERT_TRUE(json_is_null(json_get(d, "next_before")));
    json_free(d);
    store_close(s);
}

static void test_dataset_stats(void)
{
    struct store *s = open_store(":memory:", -1, -1);
    ASSERT_NOT_NULL(s);
    for (int i = 0; i < 40; i++)
        put_one(s, i, 0, 0);
    ASSERT_INT_EQ(store_flush(s), 0);
    int status;
    struct json *d = query(s, (struct store_filter){.kind = STORE_DATASET_STATS}, &status);
    const struct json *ds = json_get(d, "datasets");
    ASSERT_INT_EQ(json_len(ds), 1);
    ASSERT_STR_EQ(json_get_str(json_at(ds, 0), "name"), "mbpp");
    ASSERT_INT_EQ(num(json_at(ds, 0), "submissions"), 20);
    ASSERT_INT_EQ(num(json_at(ds, 0), "passed"), 10); /* even i: OK when i % 4 == 0 */
    ASSERT_INT_EQ(num(json_get(json_at(ds, 0), "by_verdict"), "TLE"), 10);
    json_free(d);
    d = query(s, (struct store_filter){.kind = STORE_PROBLEM_STATS, .dataset = "mbpp"}, &status);
    const struct json *ps = json_get(d, "problems");
    ASSERT_INT_EQ(json_len(ps), 2);
    ASSERT_STR_EQ(json_get_str(json_at(ps, 1), "problem"), "p2");
    ASSERT_INT_EQ(num(json_at(ps, 1), "passed"), 10);
    json_free(d);
    store_close(s);
}

static void test_retention_rows(void)
{
    char path[300];
    db_path(path, sizeof(path), "rows.db");
    struct store *s = open_store(path, 1000, -1);
    ASSERT_NOT_NULL(s);
    for (int i = 0; i < 5000; i++)
        put_one(s, i, 0, 0);
    ASSERT_INT_EQ(store_flush(s), 0);
    wait_deleted(s, 4000);
    struct store_stats st;
    store_get_stats(s, &st);
    ASSERT_UINT_EQ(st.deleted, 4000);
    store_close(s);
    ASSERT_INT_EQ(count_rows(path, ""), 1000);
    ASSERT_INT_EQ(count_rows(path, "WHERE id > 4000"), 1000); /* the newest kept */
}

static void test_retention_age(void)
{
    char path[300];
    db_path(path, sizeof(path), "age.db");
    struct store *s = open_store(path, -1, 1);
    ASSERT_NOT_NULL(s);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t now = (int64_t)ts.tv_sec * 1000, old = now - 2 * 86400000LL;
    for (int i = 0; i < 1200; i++)
        put_one(s, i, i % 2 ? old : now, 0);
    ASSERT_INT_EQ(store_flush(s), 0);
    wait_deleted(s, 600);
    store_close(s);
    ASSERT_INT_EQ(count_rows(path, ""), 600);
    ASSERT_INT_EQ(count_rows(path, "WHERE id % 2 = 0"), 0); /* odd i = even id: all old */
}

static int64_t file_bytes(const char *path)
{
    struct stat a, b;
    char wal[400];
    snprintf(wal, sizeof(wal), "%s-wal", path);
    return (stat(path, &a) == 0 ? a.st_size : 0) + (stat(wal, &b) == 0 ? b.st_size : 0);
}

/* Under a row cap, the file stops growing: the size after 5 caps' worth of inserts is within
 * a margin of the size after 2. */
static void test_size_bound(void)
{
    char path[300];
    db_path(path, sizeof(path), "bound.db");
    int cap = 2000;
    struct store *s = open_store(path, cap, -1);
    ASSERT_NOT_NULL(s);
    int64_t sizes[8] = {0};
    for (int round = 0; round < 8; round++) {
        for (int i = 0; i < cap; i++)
            put_one(s, round * cap + i, 0, 1024);
        ASSERT_INT_EQ(store_flush(s), 0);
        wait_deleted(s, (uint64_t)(round * cap));
        sizes[round] = file_bytes(path);
    }
    printf("  file bytes (db + WAL) after each %d inserts at a cap of %d rows:", cap, cap);
    for (int i = 0; i < 8; i++)
        printf(" %lld", (long long)sizes[i]);
    printf("\n");
    store_close(s);
    ASSERT_INT_EQ(count_rows(path, ""), cap);
    ASSERT_TRUE(sizes[7] <= sizes[2] * 3 / 2);
}

/* A child puts and flushes 2000 records, says "flushed", then puts more until it is killed. */
static void test_crash(void)
{
    char path[300];
    db_path(path, sizeof(path), "crash.db");
    int fds[2];
    ASSERT_INT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_TRUE(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        struct store *s = open_store(path, -1, -1);
        if (!s)
            _exit(2);
        for (int i = 0; i < 2000; i++)
            put_one(s, i, 0, 200);
        if (store_flush(s) != 0)
            _exit(3);
        if (write(fds[1], "flushed\n", 8) != 8)
            _exit(4);
        for (int i = 0;; i++) {
            put_one(s, i, 0, 200);
            if (i % 64 == 0)
                usleep(100);
        }
    }
    close(fds[1]);
    char buf[16] = "";
    ssize_t n = read(fds[0], buf, sizeof(buf) - 1);
    close(fds[0]);
    usleep(200000); /* mid-write: the writer commits a batch every few ms */
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(n == 8 && strcmp(buf, "flushed\n") == 0);
    ASSERT_TRUE(WIFSIGNALED(status));
    ASSERT_INT_EQ(count_rows(path, "WHERE id <= 2000"), 2000);
    int64_t all = count_rows(path, "");
    printf("  %lld rows after the kill (2000 flushed before it)\n", (long long)all);
    struct db *d;
    char err[ERR_LEN];
    ASSERT_INT_EQ(db_open(path, &d, err), 0);
    struct db_stmt *st;
    ASSERT_INT_EQ(db_prepare(d, "PRAGMA integrity_check", &st, err), 0);
    ASSERT_INT_EQ(db_step(st, err), 1);
    ASSERT_STR_EQ(db_text(st, 0), "ok");
    db_finalize(st);
    db_close(d);
    /* and the store opens it and goes on after the largest id */
    struct store *s = open_store(path, -1, -1);
    ASSERT_NOT_NULL(s);
    ASSERT_INT_EQ(put_one(s, 0, 0, 0), all + 1);
    store_close(s);
}

/* In the child: a 2 MiB tmpfs is filled; puts never block, the writer reports the fault and
 * drops, then recovers once space is freed. */
static void disk_full_child(const char *mnt)
{
    char path[400], filler[400];
    snprintf(path, sizeof(path), "%s/full.db", mnt);
    snprintf(filler, sizeof(filler), "%s/filler", mnt);
    struct store *s = open_store(path, -1, -1);
    ASSERT_NOT_NULL(s);
    for (int i = 0; i < 10; i++)
        put_one(s, i, 0, 0);
    ASSERT_INT_EQ(store_flush(s), 0);
    int fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ASSERT_TRUE(fd >= 0);
    static char block[4096];
    while (write(fd, block, sizeof(block)) > 0)
        ;
    close(fd);
    double t0 = now_s(), slowest = 0;
    for (int i = 0; i < 400; i++) { /* 400 x 8 KiB: more than the free space */
        double t = now_s();
        put_one(s, i, 0, 8000);
        if (now_s() - t > slowest)
            slowest = now_s() - t;
    }
    double put_s = now_s() - t0;
    int rc = store_flush(s);
    struct store_stats st;
    store_get_stats(s, &st);
    printf("  disk full: 400 puts in %.4f s (slowest %.4f s); flush %d, errors %llu, dropped %llu,"
           " \"%s\"\n",
           put_s, slowest, rc, (unsigned long long)st.errors, (unsigned long long)st.dropped,
           st.last_error);
    ASSERT_TRUE(slowest < 0.5);
    ASSERT_INT_EQ(rc, -ENOSPC);
    ASSERT_FALSE(st.ok);
    ASSERT_TRUE(st.errors > 0 && st.dropped > 0);
    ASSERT_TRUE(strlen(st.last_error) > 0);
    unlink(filler);
    for (int i = 0; i < 10; i++)
        put_one(s, i, 0, 0);
    ASSERT_INT_EQ(store_flush(s), 0);
    store_get_stats(s, &st);
    ASSERT_TRUE(st.ok);
    store_close(s);
}

static void test_disk_full(void)
{
    if (geteuid() != 0) {
        printf("  skipped: a tmpfs needs root\n");
        return;
    }
    pid_t pid = fork();
    ASSERT_TRUE(pid >= 0);
    if (pid == 0) {
        char mnt[300];
        db_path(mnt, sizeof(mnt), "tmpfs");
        mkdir(mnt, 0700);
        if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
            mount("tmpfs", mnt, "tmpfs", 0, "size=2m") < 0) {
            printf("  skipped: no private tmpfs (%s)\n", strerror(errno));
            fflush(stdout);
            _exit(77);
        }
        disk_full_child(mnt);
        fflush(stdout);
        _exit(test_failed_ ? 1 : 0);
    }
    int status;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_TRUE(WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 77);
}

static void test_corrupt(void)
{
    char path[300];
    db_path(path, sizeof(path), "corrupt.db");
    struct store *s = open_store(path, -1, -1);
    ASSERT_NOT_NULL(s);
    for (int i = 0; i < 100; i++)
        put_one(s, i, 0, 0);
    ASSERT_INT_EQ(store_flush(s), 0);
    /* garbage over the file while the store has it open */
    static char junk[65536];
    for (size_t i = 0; i < sizeof(junk); i++)
        junk[i] = (char)(i * 7 + 3);
    const char *suffixes[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; i++) { /* all three: else the WAL and the page cache hide it */
        char p[400];
        snprintf(p, sizeof(p), "%s%s", path, suffixes[i]);
        int fd = open(p, O_WRONLY);
        ASSERT_TRUE(fd >= 0);
        ASSERT_INT_EQ(write(fd, junk, sizeof(junk)), sizeof(junk));
        close(fd);
    }
    for (int i = 0; i < 100; i++)
        put_one(s, i, 0, 0);
    store_flush(s); /* a fault or not (pages may be cached), but no crash */
    struct store_stats st;
    store_get_stats(s, &st);
    printf("  garbage over an open store: written %llu, dropped %llu, errors %llu, ok %d, \"%s\"\n",
           (unsigned long long)st.written, (unsigned long long)st.dropped,
           (unsigned long long)st.errors, st.ok, st.last_error);
    ASSERT_UINT_EQ(st.written + st.dropped + st.queued, 200);
    ASSERT_TRUE(st.written == 200 || (!st.ok && st.errors > 0 && st.last_error[0]));
    int status;
    struct json *d =
        query(s, (struct store_filter){.kind = STORE_LIST_SUBMISSIONS, .limit = 5}, &status);
    ASSERT_TRUE(status == 200 || status == 503);
    json_free(d);
    /* the corrupt file moved away: the store makes a new one and writes again */
    remove_db(path);
    bool ok = false;
    for (int i = 0; i < 100 && !ok; i++) {
        put_one(s, i, 0, 0);
        store_flush(s);
        store_get_stats(s, &st);
        ok = st.ok;
        if (!ok)
            usleep(100000);
    }
    ASSERT_TRUE(ok);
    d = query(s, (struct store_filter){.kind = STORE_LIST_SUBMISSIONS, .limit = 5}, &status);
    if (status != 200) /* the reader meets the old file once, then opens the new one */
        d = query(s, (struct store_filter){.kind = STORE_LIST_SUBMISSIONS, .limit = 5}, &status);
    ASSERT_INT_EQ(status, 200);
    ASSERT_TRUE(num(json_at(json_get(d, "submissions"), 0), "id") > 200);
    json_free(d);
    double t0 = now_s();
    store_close(s);
    ASSERT_TRUE(now_s() - t0 < 20);
    /* a file of garbage from the start: the store says so */
    remove_db(path);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ASSERT_TRUE(fd >= 0);
    ASSERT_INT_EQ(write(fd, junk, sizeof(junk)), sizeof(junk));
    close(fd);
    char err[ERR_LEN] = "";
    s = NULL;
    int rc = store_open(&(struct store_config){.path = path}, &s, err);
    ASSERT_TRUE(rc < 0);
    ASSERT_NULL(s);
    ASSERT_STR_CONTAINS(err, "not a database");
}

/* Another connection holds the write lock: the writer reports "locked", keeps the records
 * and writes them once the lock is let go. */
static void test_locked(void)
{
    char path[300];
    db_path(path, sizeof(path), "locked.db");
    struct store *s = open_store(path, -1, -1);
    ASSERT_NOT_NULL(s);
    struct db *other;
    char err[ERR_LEN];
    ASSERT_INT_EQ(db_open(path, &other, err), 0);
    ASSERT_INT_EQ(db_exec(other, "BEGIN IMMEDIATE", err), 0);
    for (int i = 0; i < 50; i++)
        put_one(s, i, 0, 0);
    struct store_stats st;
    for (int i = 0; i < 500; i++) { /* the writer waits a second (busy timeout), then says so */
        store_get_stats(s, &st);
        if (st.errors > 0)
            break;
        usleep(10000);
    }
    ASSERT_TRUE(st.errors > 0);
    ASSERT_FALSE(st.ok);
    ASSERT_STR_CONTAINS(st.last_error, "locked");
    ASSERT_UINT_EQ(st.queued, 50); /* kept */
    ASSERT_INT_EQ(db_exec(other, "COMMIT", err), 0);
    db_close(other);
    for (int i = 0; i < 500; i++) {
        store_get_stats(s, &st);
        if (st.written == 50)
            break;
        usleep(10000);
    }
    ASSERT_UINT_EQ(st.written, 50);
    ASSERT_UINT_EQ(st.dropped, 0);
    ASSERT_TRUE(st.ok);
    store_close(s);
}

struct reader_arg {
    struct store *s;
    atomic_bool *stop;
    int answers, bad;
};

static void *reader_thread(void *p)
{
    struct reader_arg *a = p;
    while (!atomic_load(a->stop)) {
        int status;
        struct json *d = query(a->s,
                               (struct store_filter){.kind = STORE_LIST_SUBMISSIONS,
                                                     .limit = 50,
                                                     .language = a->answers % 2 ? "go" : NULL},
                               &status);
        const struct json *rows = json_get(d, "submissions");
        double last = 1e18;
        bool ok = status == 200 && json_is_array(rows);
        for (const struct json *r = json_first(rows); r; r = json_next(r)) {
            ok = ok && num(r, "id") < last && json_get_str(r, "verdict");
            last = num(r, "id");
        }
        a->bad += !ok;
        a->answers++;
        json_free(d);
    }
    return NULL;
}

static void test_concurrent_readers(void)
{
    char path[300];
    db_path(path, sizeof(path), "readers.db");
    struct store *s = open_store(path, 3000, -1);
    ASSERT_NOT_NULL(s);
    atomic_bool stop = false;
    struct reader_arg args[3];
    pthread_t threads[3];
    for (int i = 0; i < 3; i++) {
        args[i] = (struct reader_arg){.s = s, .stop = &stop};
        pthread_create(&threads[i], NULL, reader_thread, &args[i]);
    }
    for (int i = 0; i < 6000; i++) {
        put_one(s, i, 0, 0);
        if (i % 500 == 0)
            usleep(5000);
    }
    ASSERT_INT_EQ(store_flush(s), 0);
    atomic_store(&stop, true);
    int answers = 0, bad = 0;
    for (int i = 0; i < 3; i++) {
        pthread_join(threads[i], NULL);
        answers += args[i].answers;
        bad += args[i].bad;
    }
    struct store_stats st;
    store_get_stats(s, &st);
    printf("  %d answers beside 6000 puts\n", answers);
    ASSERT_INT_EQ(bad, 0);
    ASSERT_TRUE(answers > 3);
    ASSERT_UINT_EQ(st.written, 6000);
    ASSERT_UINT_EQ(st.errors, 0);
    store_close(s);
}

/* The schema as version 1 shipped it. */
static const char v1_schema[] =
    "CREATE TABLE schema_version (module TEXT PRIMARY KEY, version INTEGER NOT NULL);"
    "INSERT INTO schema_version VALUES ('store', 1);"
    "CREATE TABLE submission ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, route TEXT, client TEXT,"
    "  label TEXT, language TEXT, dataset TEXT, problem TEXT, verdict TEXT, reward REAL,"
    "  passed INTEGER, total INTEGER, cpu_ms INTEGER, wall_ms INTEGER, memory_kib INTEGER,"
    "  compiled INTEGER, cached INTEGER, code_sha256 TEXT, code_bytes INTEGER, code BLOB,"
    "  code_truncated INTEGER NOT NULL DEFAULT 0, detail TEXT);"
    "CREATE TABLE run ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, dataset TEXT, label TEXT,"
    "  source TEXT, model TEXT, summary TEXT NOT NULL, results TEXT NOT NULL);"
    "CREATE INDEX submission_at ON submission(at);"
    "INSERT INTO submission (id, at, route, language, verdict, code, code_bytes)"
    "  VALUES (7, 1700000000000, '/run_code', 'python', 'OK', 'print(7)', 8);";

static void test_migration(void)
{
    char path[300];
    db_path(path, sizeof(path), "v1.db");
    struct db *d;
    char err[ERR_LEN];
    ASSERT_INT_EQ(db_open(path, &d, err), 0);
    ASSERT_INT_EQ(db_exec(d, v1_schema, err), 0);
    db_close(d);
    struct store *s = open_store(path, -1, -1);
    ASSERT_NOT_NULL(s);
    int status;
    struct json *doc =
        query(s, (struct store_filter){.kind = STORE_GET_SUBMISSION, .id = 7}, &status);
    ASSERT_STR_EQ(json_get_str(doc, "code"), "print(7)");
    ASSERT_TRUE(json_is_null(json_get(doc, "grading"))); /* kept before it was recorded */
    json_free(doc);
    ASSERT_INT_EQ(put_one(s, 4, 0, 0), 8);
    ASSERT_INT_EQ(store_flush(s), 0);
    doc = query(s, (struct store_filter){.kind = STORE_GET_SUBMISSION, .id = 8}, &status);
    ASSERT_STR_EQ(json_get_str(doc, "grading"), "isolated");
    json_free(doc);
    doc = query(s, (struct store_filter){.kind = STORE_LIST_SUBMISSIONS, .grading = "isolated"},
                &status);
    ASSERT_INT_EQ(json_len(json_get(doc, "submissions")), 1);
    json_free(doc);
    store_close(s);
    ASSERT_INT_EQ(db_open(path, &d, err), 0);
    struct db_stmt *st;
    ASSERT_INT_EQ(db_prepare(d,
                             "SELECT (SELECT version FROM schema_version WHERE module = 'store'),"
                             " (SELECT COUNT(*) FROM sqlite_master WHERE type = 'index'"
                             "  AND name IN ('submission_language', 'submission_grading'))",
                             &st, err),
                  0);
    ASSERT_INT_EQ(db_step(st, err), 1);
    int64_t version = db_int(st, 0), index = db_int(st, 1);
    db_finalize(st);
    db_close(d);
    ASSERT_INT_EQ(version, 3);
    ASSERT_INT_EQ(index, 2);
    /* a newer schema than this build knows is refused, not damaged */
    ASSERT_INT_EQ(db_open(path, &d, err), 0);
    ASSERT_INT_EQ(db_exec(d, "UPDATE schema_version SET version = 99 WHERE module = 'store'", err),
                  0);
    db_close(d);
    s = NULL;
    ASSERT_TRUE(store_open(&(struct store_config){.path = path}, &s, err) < 0);
    ASSERT_STR_CONTAINS(err, "newer");
}

/* Two stores on one file (a server and `verdict bench`): ids the other gave out are not
 * given again once it has committed. */
static void test_two_processes(void)
{
    char path[300];
    db_path(path, sizeof(path), "two.db");
    struct store *a = open_store(path, -1, -1), *b = open_store(path, -1, -1);
    ASSERT_NOT_NULL(a);
    ASSERT_NOT_NULL(b);
    int64_t rb = store_put_run(b, json_parse("{\"dataset\": \"x\", \"label\": \"b\"}"));
    int64_t sb = put_one(b, 0, 0, 0);
    ASSERT_INT_EQ(store_flush(b), 0);
    usleep(1500000); /* a looks every second */
    int64_t ra = store_put_run(a, json_parse("{\"dataset\": \"x\", \"label\": \"a\"}"));
    int64_t sa = put_one(a, 0, 0, 0);
    ASSERT_INT_EQ(store_flush(a), 0);
    ASSERT_TRUE(ra > rb);
    ASSERT_TRUE(sa > sb);
    int status;
    struct json *d = query(a, (struct store_filter){.kind = STORE_GET_RUN, .id = ra}, &status);
    ASSERT_STR_EQ(json_get_str(d, "label"), "a");
    json_free(d);
    d = query(a, (struct store_filter){.kind = STORE_GET_RUN, .id = rb}, &status);
    ASSERT_STR_EQ(json_get_str(d, "label"), "b");
    json_free(d);
    store_close(a);
    store_close(b);
}

static void test_queue_full(void)
{
    struct store *s = open_store(":memory:", -1, -1);
    ASSERT_NOT_NULL(s);
    int64_t full = 0;
    for (int i = 0; i < 4 * STORE_QUEUE && full == 0; i++)
        if (put_one(s, i, 0, 0) == -EAGAIN)
            full = i;
    store_flush(s);
    struct store_stats st;
    store_get_stats(s, &st);
    /* the writer may keep up: then nothing is dropped */
    ASSERT_UINT_EQ(st.written + st.dropped, full ? (uint64_t)full + 1 : 4 * STORE_QUEUE);
    store_close(s);
    store_close(NULL);
}

int main(void)
{
    snprintf(dir, sizeof(dir), "/tmp/test_store.XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    TEST_RUN(test_batching);
    TEST_RUN(test_filters_and_paging);
    TEST_RUN(test_get_submission);
    TEST_RUN(test_detail_cut);
    TEST_RUN(test_runs);
    TEST_RUN(test_dataset_stats);
    TEST_RUN(test_retention_rows);
    TEST_RUN(test_retention_age);
    TEST_RUN(test_size_bound);
    TEST_RUN(test_crash);
    TEST_RUN(test_disk_full);
    TEST_RUN(test_corrupt);
    TEST_RUN(test_locked);
    TEST_RUN(test_concurrent_readers);
    TEST_RUN(test_migration);
    TEST_RUN(test_two_processes);
    TEST_RUN(test_queue_full);
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return TEST_EXIT();
}
