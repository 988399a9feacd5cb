/*
 * store: what verdict keeps after answering: every judged request (a "submission") and every
 * benchmark run, in SQLite (through server/store/db), for the dashboard and its JSON routes.
 *
 * Threads: store_put_* copy the record into a bounded in-memory queue and return at once;
 * they never wait on the disk or on a lock the writer holds (a full queue drops the record
 * and counts it). One writer thread takes what is queued and inserts it in batched
 * transactions; it also deletes rows past the retention settings, a small batch at a time.
 * Reads (store_query) run on the store's own reader thread, on a connection of their own
 * (WAL: readers never block the writer), and answer through a callback on that thread, so
 * neither the HTTP thread nor the judging workers wait on SQLite.
 *
 * Faults (disk full, database locked or corrupt): the writer keeps the records queued while
 * it can, then drops and counts them; it logs the fault once per kind, reports it in
 * store_get_stats, and retries (reopening the database after corruption) with backoff.
 * Judging never depends on the store. A record is durable once store_get_stats counts it as
 * written: the transaction is committed (WAL, synchronous=NORMAL: a killed process loses
 * nothing committed; a power cut may lose the last transactions).
 *
 * The schema is versioned (the row "store" of the table schema_version, since the file is
 * shared) and migrated forward on open; it lives in the same database file as the dataset
 * registry (server/datasets/dataset) unless the server is given another.
 */
#ifndef VERDICT_STORE_H
#define VERDICT_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runners/err.h"
#include "server/util/json.h"

#define STORE_MAX_CODE   (64u << 10)  /* bytes of a submission's code kept (the rest cut) */
#define STORE_MAX_DETAIL (256u << 10) /* bytes of a submission's detail JSON kept */
#define STORE_QUEUE      8192         /* records waiting for the writer before drops */
#define STORE_MAX_LIMIT  500          /* rows one list query returns */

struct store_config {
    const char *path;    /* database file (":memory:" for tests of one process) */
    int64_t retain_rows; /* submissions kept (newest); 0: the default 100,000; <0: no cap */
    int64_t retain_days; /* days kept; 0: the default 30; <0: no age limit */
    int batch_max;       /* records per transaction at most (0: 512) */
    int64_t flush_ms;    /* the writer waits at most this long to fill a batch (0: 50) */
};

/* One judged request. Every pointer is borrowed for the call (store_put copies). */
struct store_submission {
    int64_t at_ms;                 /* when it was answered, ms since the epoch (0: now) */
    const char *route;             /* "/run_code", "/v1/judge", "/v1/judge/batch", "/submit"... */
    const char *client;            /* the peer's address */
    const char *label;             /* the X-Verdict-Client header, or NULL */
    const char *language;          /* template name */
    const char *dataset, *problem; /* NULL when none */
    const char *code;              /* the program's source (cut at STORE_MAX_CODE) */
    size_t code_len;
    char code_sha256[65]; /* hex of the whole code */
    const char *verdict;  /* the whole result's verdict name ("OK", "WA", ...) */
    const char *grading;  /* how its tests were decided ("isolated", "output", "in-process",
                             "exit-status": judge_grading_name), or NULL where no test
                             decides (/run_code, /run_jupyter) */
    double reward;
    int passed, total;
    int64_t cpu_ms, wall_ms; /* summed over the tests, ms */
    uint64_t memory_kib;     /* the largest peak of any test, KiB */
    bool compiled, cached;   /* has a compile step; was it served from the compile cache */
    const char *detail;      /* JSON text (an object): per-test results with excerpts, the
                                compile's output, the limits; cut records keep valid JSON by
                                dropping tests and saying so ("tests_dropped": n) */
};

struct store;

/* Opens (creating and migrating) the store and starts its threads. */
int store_open(const struct store_config *cfg, struct store **out, char err[ERR_LEN]);

/* Queues one submission and returns its id (> 0, unique in this database, increasing), or
 * -EAGAIN when the queue is full (the record is dropped and counted), -ENOMEM. Never blocks
 * on the disk. Safe from any thread. */
int64_t store_put_submission(struct store *s, const struct store_submission *sub);

/* Queues one benchmark run: doc is `verdict bench --summary json`'s object (dataset,
 * problems, samples, judged, pass_at_k, verdicts, seconds, interrupted, failed) with
 * "results": [{"task_id", "language", "samples", "passed", "verdicts": {name: n}}] (one per
 * problem judged) and optional "label", "model", "source" ("local" or "server"); its
 * top-level keys distinct, and pass_at_k's once each is read as "pass@k" (server/http/run_body
 * checks a client's; copying is then linear, without lookups). Consumed (also on failure). Returns
 * the run's id or a negative errno, like store_put_submission. */
int64_t store_put_run(struct store *s, struct json *doc);

/* Queries: each answers a JSON document (owned by the callback), or NULL with a reason. */
enum store_query_kind {
    STORE_LIST_SUBMISSIONS, /* {"submissions": [row...], "next_before": id|null} */
    STORE_GET_SUBMISSION,   /* one row with "code", "code_truncated", "detail"; NULL: none */
    STORE_LIST_RUNS,        /* {"runs": [run summary...], "next_before": id|null} */
    STORE_GET_RUN,          /* one run with "results"; NULL: none */
    STORE_DATASET_STATS,    /* {"datasets": [{"name", "submissions", "passed", "by_verdict"}]} */
    STORE_PROBLEM_STATS,    /* dataset given: {"problems": [{"problem", "submissions",
                               "passed", "by_verdict"}]} */
};

struct store_filter {
    enum store_query_kind kind;
    int64_t id;     /* GET_*: the id */
    int64_t before; /* list: rows with id < before (keyset paging); 0: the newest */
    int limit;      /* list: 1..STORE_MAX_LIMIT (0: 50) */
    /* list submissions: each NULL or "" is no filter (copied by store_query) */
    const char *language, *verdict, *dataset, *route, *client, *problem, *grading;
};

/* doc: the answer, owned by the callee; NULL with why (not found: status 404; a fault of
 * the store: 503). Runs on the store's reader thread. */
typedef void (*store_answer_fn)(void *arg, struct json *doc, int status, const char *why);

/* Queues a query; fn(arg, ...) is called exactly once, on the reader thread (or at once on
 * this thread with status 503 when the reader's queue is full or the store is closing).
 * Never blocks on the disk. */
void store_query(struct store *s, const struct store_filter *f, store_answer_fn fn, void *arg);

struct store_stats {
    uint64_t queued;      /* records waiting for the writer now */
    uint64_t written;     /* submissions and runs committed */
    uint64_t dropped;     /* records lost: the queue was full, or the writer gave up on them */
    uint64_t batches;     /* transactions committed */
    uint64_t deleted;     /* rows removed by retention */
    uint64_t errors;      /* failed writes (each fault once per attempt) */
    int64_t db_bytes;     /* the database file and its WAL, bytes */
    bool ok;              /* false while the last write failed */
    char last_error[160]; /* the last fault's text ("" none) */
};

void store_get_stats(struct store *s, struct store_stats *st);

/* Blocks until every record queued before the call is committed or dropped (tests, bench,
 * shutdown). Returns 0, or the last write's negative errno. */
int store_flush(struct store *s);

/* Flushes what is queued (bounded by a few seconds), answers the queries waiting, and stops
 * the threads; the struct stays valid: later puts drop (-EAGAIN) and
 * later queries answer 503 at once, so a thread that still holds the pointer is safe until
 * store_close. Idempotent. NULL: no-op. */
void store_stop(struct store *s);

/* store_stop, then frees the store. NULL: no-op. */
void store_close(struct store *s);

#endif
