/*
 * store: the results store's threads (store.h is the contract; the SQL is in store_sql.c, the
 * records in store_rec.c).
 *
 * Theory of operation.
 *
 * Putting. store_put_* copy the record into a struct rec (store_rec.c: the code cut at
 * STORE_MAX_CODE on a UTF-8 boundary, an oversized detail cut by dropping tests), take the
 * store's lock, give the record the next id of its table (counters seeded at open from the
 * largest id the table ever held), append it to the queue and return. The lock is held for a few
 * pointer moves only: the writer never holds it while it talks to SQLite. A queue holding
 * STORE_QUEUE records (or QUEUE_BYTES of them) drops the new record and counts it.
 *
 * Ids. Another process writing the same file (`verdict bench` adding its run beside the server)
 * is noticed within a second (PRAGMA data_version, looked at by the writer) and the counters
 * moved past its ids; a run id that both gave out within that second is stored under a fresh id
 * by the second to commit.
 *
 * Writing. One writer thread owns the writing connection. It waits for a first record, then at
 * most flush_ms for batch_max of them (no wait when a flush or close is asked for), takes them
 * off the queue (they count as queued while in flight) and inserts them in one transaction. After
 * each commit it runs one retention step (at most STORE_RETAIN_STEP deletions in a transaction of
 * their own: the oldest rows beyond the row cap, then rows past the age limit, looked for at most
 * once a second), and keeps stepping while idle until retention has no more work; an idle writer
 * looks for aged-out rows a second after its last write and then every minute. Pages freed by
 * retention are reused by the next inserts, and the WAL is checkpointed by SQLite every 1000
 * pages and cut back to 4 MiB (journal_size_limit), so the file stops growing once the cap is
 * reached.
 *
 * Faults. A failed transaction is rolled back and the batch kept; the writer retries it with a
 * doubling backoff (50 ms to 2 s) while the queue has room. It drops the batch (counted) when the
 * queue is full, when a flush has waited for three tries, when closing has used its few seconds,
 * or after three tries at a fault that does not pass by waiting (a constraint, a schema newer
 * than this build). Each fault counts in errors, turns ok false and sets last_error; the first
 * fault of each kind (disk full, locked, corrupt or unreadable, other) since the store last wrote
 * is logged to stderr. After -EIO (corruption, an I/O error) the writer closes its connection and
 * reopens the file at the next try (every 2 s while that fails; the ids and the row count are
 * read again from what it opens). The first successful commit turns ok true.
 *
 * Reading. Queries go to a bounded queue served by the reader thread on a connection of its own
 * (WAL: it reads the last committed state while the writer writes). An in-memory database
 * (":memory:", tests) has one connection, shared under a lock.
 *
 * Locks. `lock`: the queue, the counters and the stats (held for pointer moves and copies).
 * `wlock`: the writer's connection (held for a transaction; in memory, also for a query).
 * `rlock`: the reader's queue. When two are held, wlock is taken first, then lock; nothing
 * waits on the disk holding lock, which is all that store_put_* and store_get_stats take.
 */
#include "server/store/store.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "server/store/store_internal.h"

#define QUEUE_BYTES    (64u << 20) /* bytes of queued records before drops */
#define READER_QUEUE   256         /* queries waiting for the reader */
#define CLOSE_BUDGET   5000        /* ms store_close spends writing what is queued */
#define AGE_CHECK_MS   60000       /* an idle writer looks for aged-out rows this often */
#define AGE_STEP_MS    1000        /* a busy one, at most this often */
#define FOLLOW_MS      1000        /* ids others gave out looked for this often */
#define BACKOFF_MIN_MS 50
#define BACKOFF_MAX_MS 2000
#define FLUSH_TRIES    3

struct query {
    struct query *next;
    struct store_filter f;
    store_answer_fn fn;
    void *arg;
    char strings[]; /* the filter's strings */
};

struct store {
    char *path;
    bool memory; /* one connection, shared under wlock */
    int64_t retain_rows, retain_days, flush_ms;
    int batch_max;

    pthread_mutex_t lock; /* the queue, the counters, the stats */
    pthread_cond_t wake;  /* the writer: records queued, flush, close */
    pthread_cond_t done;  /* flushers: a batch done */
    struct rec *head, *tail;
    size_t count, bytes, inflight;
    uint64_t put_seq, done_seq;
    int flushers;
    bool stopping;
    bool stop_called;      /* store_stop ran (it runs once) */
    int64_t stop_deadline; /* ms, monotonic */
    int64_t next_sub, next_run;
    struct store_stats st;
    int last_rc;
    unsigned logged; /* fault kinds logged since the last successful write */
    bool retain_more;
    pthread_t writer;

    pthread_mutex_t wlock; /* the writer's connection (and the reader's, in memory) */
    struct sql_writer w;
    int64_t reopen_at; /* ms, monotonic: when a closed writer connection may reopen */
    int reopen_rc;     /* and why the last reopening failed */
    char reopen_err[ERR_LEN];
    int64_t rows;         /* submissions kept, for retention by rows */
    int64_t age_next;     /* ms, monotonic: the next look for aged-out rows (writer only) */
    bool age_dirty;       /* written since that look (writer only) */
    int64_t data_version; /* PRAGMA data_version when last looked (writer only) */

    pthread_mutex_t rlock;
    pthread_cond_t rwake;
    struct query *qhead, *qtail;
    int qcount;
    bool rstop;
    struct db *rdb;
    pthread_t reader;
};

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits on c (with the mutex held) until ms of CLOCK_MONOTONIC, or a signal. */
static void wait_until(pthread_cond_t *c, pthread_mutex_t *m, int64_t ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000};
    pthread_cond_timedwait(c, m, &ts);
}

static void init_cond(pthread_cond_t *c)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(c, &a);
    pthread_condattr_destroy(&a);
}

/* ---- the queue ------------------------------------------------------------------------------ */

/* Queues r and gives it its id; r NULL (the copy ran out of memory), a stopping store or a
 * full queue drops it and counts it. */
static int64_t enqueue(struct store *s, struct rec *r)
{
    pthread_mutex_lock(&s->lock);
    if (!r) {
        s->st.dropped++;
        pthread_mutex_unlock(&s->lock);
        return -ENOMEM;
    }
    if (s->stopping || s->count + s->inflight >= STORE_QUEUE || s->bytes + r->bytes > QUEUE_BYTES) {
        s->st.dropped++;
        pthread_mutex_unlock(&s->lock);
        rec_free(r);
        return -EAGAIN;
    }
    int64_t id = r->id = r->kind == REC_SUBMISSION ? s->next_sub++ : s->next_run++;
    r->seq = ++s->put_seq;
    r->queued_ms = mono_ms();
    if (s->tail)
        s->tail->next = r;
    else
        s->head = r;
    s->tail = r;
    s->count++;
    s->bytes += r->bytes;
    if (s->count == 1 || s->count == (size_t)s->batch_max)
        pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    return id;
}

int64_t store_put_submission(struct store *s, const struct store_submission *sub)
{
    if (!s || !sub)
        return -EINVAL;
    struct rec *r = rec_submission(sub);
    return enqueue(s, r);
}

int64_t store_put_run(struct store *s, struct json *doc)
{
    if (!s || !json_is_object(doc)) {
        json_free(doc);
        return -EINVAL;
    }
    struct rec *r = rec_run(doc);
    json_free(doc);
    return enqueue(s, r);
}

/* Takes up to batch_max records off the queue (lock held); *last: the last one's seq. */
static struct rec *take_batch(struct store *s, size_t *n, uint64_t *last)
{
    struct rec *first = s->head, *r = first, *prev = NULL;
    *n = 0;
    while (r && *n < (size_t)s->batch_max) {
        s->bytes -= r->bytes;
        *last = r->seq;
        prev = r;
        r = r->next;
        (*n)++;
    }
    if (prev)
        prev->next = NULL;
    s->head = r;
    if (!r)
        s->tail = NULL;
    s->count -= *n;
    s->inflight = *n;
    return first;
}

/* ---- the writer ----------------------------------------------------------------------------- */

static void update_size(struct store *s)
{
    if (s->memory)
        return;
    struct stat a, b;
    char wal[4200];
    snprintf(wal, sizeof(wal), "%s-wal", s->path);
    int64_t bytes = (stat(s->path, &a) == 0 ? a.st_size : 0) + (stat(wal, &b) == 0 ? b.st_size : 0);
    pthread_mutex_lock(&s->lock);
    s->st.db_bytes = bytes;
    pthread_mutex_unlock(&s->lock);
}

static unsigned fault_kind(int rc)
{
    return rc == -ENOSPC ? 1u : rc == -EBUSY ? 2u : rc == -EIO ? 4u : 8u;
}

/* Counts a fault (lock held) and logs the first of its kind. */
static void note_fault(struct store *s, int rc, const char *err, const char *doing)
{
    s->st.errors++;
    s->st.ok = false;
    s->last_rc = rc;
    snprintf(s->st.last_error, sizeof(s->st.last_error), "%s: %s", doing, err);
    if (!(s->logged & fault_kind(rc))) {
        s->logged |= fault_kind(rc);
        fprintf(stderr, "verdict: store: %s: %s (%s; retrying)\n", s->path, s->st.last_error,
                rc == -ENOSPC  ? "the disk is full"
                : rc == -EBUSY ? "the database is locked"
                : rc == -EIO   ? "the database is corrupt or unreadable: reopening it"
                               : "write failed");
    }
}

static void note_written(struct store *s, size_t n)
{
    if (s->logged)
        fprintf(stderr, "verdict: store: %s: writing again\n", s->path);
    s->logged = 0;
    s->st.written += n;
    s->st.batches++;
    s->st.ok = true;
    s->last_rc = 0;
}

/* The writer's connection, (re)opened when a fault closed it. wlock held. */
static int writer_ready(struct store *s, char err[ERR_LEN])
{
    if (s->w.db)
        return 0;
    if (mono_ms() < s->reopen_at)
        return err_set(err, s->reopen_rc, "%s (trying again soon)", s->reopen_err);
    int64_t next_sub, next_run;
    int rc = sql_writer_open(&s->w, s->path, err);
    if (rc == 0)
        rc = db_exec(s->w.db, "PRAGMA busy_timeout = 1000", err);
    if (rc == 0) /* the file may be another one now (a corrupt one moved away) */
        rc = sql_seed(s->w.db, &next_sub, &next_run, &s->rows, err);
    if (rc < 0) {
        sql_writer_close(&s->w);
        s->reopen_at = mono_ms() + BACKOFF_MAX_MS;
        s->reopen_rc = rc;
        snprintf(s->reopen_err, sizeof(s->reopen_err), "reopen: %s", err);
        return rc;
    }
    pthread_mutex_lock(&s->lock); /* lock order: wlock, then lock */
    s->next_sub = next_sub > s->next_sub ? next_sub : s->next_sub;
    s->next_run = next_run > s->next_run ? next_run : s->next_run;
    pthread_mutex_unlock(&s->lock);
    return 0;
}

/* A fault: with -EIO, the file connection closed, to be reopened. wlock held. */
static void writer_fault(struct store *s, int rc)
{
    if (rc == -EIO && !s->memory && s->w.db) {
        sql_writer_close(&s->w);
        s->reopen_at = 0;
    }
}

static void retain_step(struct store *s)
{
    int64_t cap = s->retain_rows, cutoff = 0, deleted = 0;
    if (s->retain_days > 0 && mono_ms() >= s->age_next) { /* by age: once a second at most */
        cutoff = wall_ms() - s->retain_days * 86400000LL;
        s->age_next = mono_ms() + AGE_STEP_MS;
    }
    if (cutoff == 0 && (cap < 0 || s->rows <= cap))
        return; /* nothing to do: no transaction */
    bool more = false;
    char err[ERR_LEN];
    pthread_mutex_lock(&s->wlock);
    int rc = writer_ready(s, err);
    if (rc == 0)
        rc = sql_retain(&s->w, cap, cutoff, &s->rows, &deleted, &more, err);
    if (rc < 0)
        writer_fault(s, rc);
    pthread_mutex_unlock(&s->wlock);
    pthread_mutex_lock(&s->lock);
    if (rc < 0)
        note_fault(s, rc, err, "retention");
    s->st.deleted += (uint64_t)deleted;
    s->retain_more = rc == 0 && more;
    if (s->retain_more)
        s->age_next = 0; /* more old rows: the next step looks again at once */
    pthread_mutex_unlock(&s->lock);
}

/* Whether to stop retrying a failed batch (lock held): the queue is full, a flush has waited
 * for three tries, closing has used its time, or the fault is not of a kind that passes
 * (neither disk full, locked nor unreadable: a constraint, a newer schema) after three. */
static bool give_up(struct store *s, int rc, int tries)
{
    bool passing = rc == -ENOSPC || rc == -EBUSY || rc == -EIO || rc == -ENOMEM;
    return s->count + s->inflight >= STORE_QUEUE ||
           ((s->flushers > 0 || !passing) && tries >= FLUSH_TRIES) ||
           (s->stopping && mono_ms() >= s->stop_deadline);
}

/* Writes one batch, retrying with backoff; then frees it and counts it written or dropped. */
static void write_batch(struct store *s, struct rec *batch, size_t n)
{
    int64_t subs = 0;
    for (struct rec *r = batch; r; r = r->next)
        subs += r->kind == REC_SUBMISSION;
    for (int tries = 1;; tries++) {
        char err[ERR_LEN];
        pthread_mutex_lock(&s->wlock);
        int rc = writer_ready(s, err);
        if (rc == 0)
            rc = sql_insert(&s->w, batch, err);
        if (rc < 0)
            writer_fault(s, rc);
        else
            s->rows += subs, s->age_dirty = true;
        pthread_mutex_unlock(&s->wlock);
        pthread_mutex_lock(&s->lock);
        if (rc == 0) {
            note_written(s, n);
            pthread_mutex_unlock(&s->lock);
            break;
        }
        note_fault(s, rc, err, "write");
        if (give_up(s, rc, tries)) {
            s->st.dropped += n;
            pthread_mutex_unlock(&s->lock);
            break;
        }
        int64_t backoff = BACKOFF_MIN_MS << (tries < 6 ? tries - 1 : 5);
        wait_until(&s->wake, &s->lock,
                   mono_ms() + (backoff < BACKOFF_MAX_MS ? backoff : BACKOFF_MAX_MS));
        pthread_mutex_unlock(&s->lock);
    }
    rec_free_list(batch);
    update_size(s);
}

/* Closing past its budget: what is still queued is dropped (lock held). */
static void drop_queue(struct store *s)
{
    s->st.dropped += s->count;
    rec_free_list(s->head);
    s->head = s->tail = NULL;
    s->count = s->bytes = 0;
    s->done_seq = s->put_seq;
    pthread_cond_broadcast(&s->done);
}

/* Another process (`verdict bench` beside the server) may have added rows since the counters
 * were read: they move past its ids. data_version changes when another connection commits.
 * Writer only. */
static void follow_others(struct store *s)
{
    if (s->memory)
        return;
    char err[ERR_LEN];
    int64_t sub = 0, run = 0;
    pthread_mutex_lock(&s->wlock);
    int64_t v = s->w.db ? sql_data_version(s->w.db) : -1;
    bool moved = v >= 0 && v != s->data_version && sql_next_ids(s->w.db, &sub, &run, err) == 0;
    if (v >= 0)
        s->data_version = v;
    pthread_mutex_unlock(&s->wlock);
    if (!moved)
        return;
    pthread_mutex_lock(&s->lock);
    s->next_sub = sub > s->next_sub ? sub : s->next_sub;
    s->next_run = run > s->next_run ? run : s->next_run;
    pthread_mutex_unlock(&s->lock);
}

static void *writer_main(void *arg)
{
    struct store *s = arg;
    int64_t age_check = mono_ms() + AGE_CHECK_MS, follow = 0;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        if (s->stopping && (!s->head || mono_ms() >= s->stop_deadline)) {
            drop_queue(s);
            break;
        }
        if (mono_ms() >= follow) {
            pthread_mutex_unlock(&s->lock);
            follow_others(s);
            pthread_mutex_lock(&s->lock);
            follow = mono_ms() + FOLLOW_MS;
        }
        if (!s->head) {
            /* by age: a minute after the last look, or a second after the last write */
            bool dirty = s->age_dirty && s->retain_days > 0;
            int64_t now = mono_ms(),
                    look = dirty && s->age_next < age_check ? s->age_next : age_check;
            if (!s->retain_more && now >= look) {
                s->retain_more = true;
                s->age_dirty = false;
                age_check = now + AGE_CHECK_MS;
            }
            if (s->retain_more) {
                pthread_mutex_unlock(&s->lock);
                retain_step(s);
                pthread_mutex_lock(&s->lock);
            } else {
                wait_until(&s->wake, &s->lock, look < follow ? look : follow);
            }
            continue;
        }
        int64_t until = s->head->queued_ms + s->flush_ms;
        while (s->head && s->count < (size_t)s->batch_max && !s->stopping && !s->flushers &&
               mono_ms() < until)
            wait_until(&s->wake, &s->lock, until);
        size_t n;
        uint64_t last = 0;
        struct rec *batch = take_batch(s, &n, &last);
        pthread_mutex_unlock(&s->lock);
        write_batch(s, batch, n);
        pthread_mutex_lock(&s->lock);
        s->inflight = 0;
        s->done_seq = last;
        pthread_cond_broadcast(&s->done);
        pthread_mutex_unlock(&s->lock);
        retain_step(s);
        pthread_mutex_lock(&s->lock);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

int store_flush(struct store *s)
{
    if (!s)
        return 0;
    pthread_mutex_lock(&s->lock);
    uint64_t target = s->put_seq;
    s->flushers++;
    pthread_cond_signal(&s->wake);
    while (s->done_seq < target)
        pthread_cond_wait(&s->done, &s->lock);
    s->flushers--;
    int rc = s->last_rc;
    pthread_mutex_unlock(&s->lock);
    return rc;
}

void store_get_stats(struct store *s, struct store_stats *st)
{
    if (!s) {
        *st = (struct store_stats){0};
        return;
    }
    pthread_mutex_lock(&s->lock);
    *st = s->st;
    st->queued = s->count + s->inflight;
    pthread_mutex_unlock(&s->lock);
}

/* ---- the reader ----------------------------------------------------------------------------- */

static int open_reader(struct store *s, char err[ERR_LEN])
{
    int rc = db_open(s->path, &s->rdb, err);
    if (rc == 0 && (rc = db_exec(s->rdb, "PRAGMA busy_timeout = 1000", err)) < 0) {
        db_close(s->rdb);
        s->rdb = NULL;
    }
    return rc;
}

static void answer(struct store *s, struct query *q)
{
    char why[ERR_LEN] = "";
    struct json *doc = NULL;
    int rc;
    if (s->memory) {
        pthread_mutex_lock(&s->wlock);
        rc = s->w.db ? sql_query(s->w.db, &q->f, &doc, why) : -EIO;
        pthread_mutex_unlock(&s->wlock);
    } else {
        rc = s->rdb ? 0 : open_reader(s, why);
        if (rc == 0)
            rc = sql_query(s->rdb, &q->f, &doc, why);
        if (rc == -EIO) { /* corrupt, or replaced: open it afresh next time */
            db_close(s->rdb);
            s->rdb = NULL;
        }
    }
    if (rc == 0)
        q->fn(q->arg, doc, 200, NULL);
    else
        q->fn(q->arg, NULL, rc > 0 ? rc : rc == -EINVAL ? 400 : 503, why[0] ? why : "store fault");
}

static void *reader_main(void *arg)
{
    struct store *s = arg;
    pthread_mutex_lock(&s->rlock);
    for (;;) {
        while (!s->qhead && !s->rstop)
            pthread_cond_wait(&s->rwake, &s->rlock);
        struct query *q = s->qhead;
        if (!q)
            break;
        s->qhead = q->next;
        if (!s->qhead)
            s->qtail = NULL;
        s->qcount--;
        pthread_mutex_unlock(&s->rlock);
        answer(s, q);
        free(q);
        pthread_mutex_lock(&s->rlock);
    }
    pthread_mutex_unlock(&s->rlock);
    return NULL;
}

static const char *copy_into(char **p, const char *str)
{
    if (!str)
        return NULL;
    size_t n = strlen(str) + 1;
    memcpy(*p, str, n);
    const char *out = *p;
    *p += n;
    return out;
}

void store_query(struct store *s, const struct store_filter *f, store_answer_fn fn, void *arg)
{
    const char *strs[] = {f->language, f->verdict, f->dataset, f->route,
                          f->client,   f->problem, f->grading};
    size_t len = 0;
    for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
        len += strs[i] ? strlen(strs[i]) + 1 : 0;
    struct query *q = s ? malloc(sizeof(*q) + len) : NULL;
    if (!q) {
        fn(arg, NULL, 503, s ? "out of memory" : "the store is off");
        return;
    }
    q->next = NULL;
    q->f = *f;
    q->fn = fn;
    q->arg = arg;
    char *p = q->strings;
    q->f.language = copy_into(&p, f->language);
    q->f.verdict = copy_into(&p, f->verdict);
    q->f.dataset = copy_into(&p, f->dataset);
    q->f.route = copy_into(&p, f->route);
    q->f.client = copy_into(&p, f->client);
    q->f.problem = copy_into(&p, f->problem);
    q->f.grading = copy_into(&p, f->grading);
    pthread_mutex_lock(&s->rlock);
    if (s->rstop || s->qcount >= READER_QUEUE) {
        pthread_mutex_unlock(&s->rlock);
        free(q);
        fn(arg, NULL, 503, "the store is busy (too many queries waiting)");
        return;
    }
    if (s->qtail)
        s->qtail->next = q;
    else
        s->qhead = q;
    s->qtail = q;
    s->qcount++;
    pthread_cond_signal(&s->rwake);
    pthread_mutex_unlock(&s->rlock);
}

/* ---- open and close ------------------------------------------------------------------------- */

static void store_free(struct store *s)
{
    sql_writer_close(&s->w);
    db_close(s->rdb);
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->wlock);
    pthread_mutex_destroy(&s->rlock);
    pthread_cond_destroy(&s->wake);
    pthread_cond_destroy(&s->done);
    pthread_cond_destroy(&s->rwake);
    free(s->path);
    free(s);
}

static void make_dir_of(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) { /* one level, like the dataset registry (/var/lib/verdict) */
        *slash = '\0';
        mkdir(dir, 0755);
    }
}

int store_open(const struct store_config *cfg, struct store **out, char err[ERR_LEN])
{
    struct store *s = calloc(1, sizeof(*s));
    if (!s || !(s->path = strdup(cfg->path ? cfg->path : ":memory:"))) {
        free(s);
        return err_set(err, -ENOMEM, "out of memory");
    }
    s->memory = strcmp(s->path, ":memory:") == 0;
    s->retain_rows = cfg->retain_rows == 0 ? 100000 : cfg->retain_rows < 0 ? -1 : cfg->retain_rows;
    s->retain_days = cfg->retain_days == 0 ? 30 : cfg->retain_days;
    s->batch_max = cfg->batch_max > 0 ? cfg->batch_max : 512;
    s->flush_ms = cfg->flush_ms > 0 ? cfg->flush_ms : 50;
    s->st.ok = true;
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->wlock, NULL);
    pthread_mutex_init(&s->rlock, NULL);
    init_cond(&s->wake);
    init_cond(&s->done);
    init_cond(&s->rwake);
    if (!s->memory)
        make_dir_of(s->path);
    int rc = sql_writer_open(&s->w, s->path, err);
    if (rc == 0)
        rc = db_exec(s->w.db, "PRAGMA busy_timeout = 1000", err);
    if (rc == 0)
        rc = sql_seed(s->w.db, &s->next_sub, &s->next_run, &s->rows, err);
    if (rc == 0 && !s->memory)
        rc = open_reader(s, err);
    s->retain_more = true; /* a first look at what the settings retain */
    if (rc == 0 && pthread_create(&s->writer, NULL, writer_main, s) != 0)
        rc = err_set(err, -EAGAIN, "cannot start the store's writer thread");
    if (rc == 0 && pthread_create(&s->reader, NULL, reader_main, s) != 0) {
        pthread_mutex_lock(&s->lock);
        s->stopping = true;
        pthread_cond_signal(&s->wake);
        pthread_mutex_unlock(&s->lock);
        pthread_join(s->writer, NULL);
        rc = err_set(err, -EAGAIN, "cannot start the store's reader thread");
    }
    if (rc < 0) {
        store_free(s);
        return rc;
    }
    update_size(s);
    *out = s;
    return 0;
}

void store_stop(struct store *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    bool first = !s->stop_called;
    s->stop_called = true;
    if (first) {
        s->stopping = true;
        s->stop_deadline = mono_ms() + CLOSE_BUDGET;
        pthread_cond_broadcast(&s->wake);
    }
    pthread_mutex_unlock(&s->lock);
    if (!first)
        return;
    pthread_join(s->writer, NULL);
    pthread_mutex_lock(&s->rlock);
    s->rstop = true;
    pthread_cond_broadcast(&s->rwake);
    pthread_mutex_unlock(&s->rlock);
    pthread_join(s->reader, NULL);
}

void store_close(struct store *s)
{
    if (!s)
        return;
    store_stop(s);
    store_free(s);
}
