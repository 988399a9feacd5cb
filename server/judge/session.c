/*
 * session: the table of open sessions, their calls, and the reaper that closes them.
 *
 * One mutex guards the table. An entry is busy while a call (or its open) runs; a busy entry
 * is never closed under the call: a DELETE or an expiry marks it doomed, and the call's end
 * closes it. Every close hands the session's pool handle to the reaper thread, which ends the
 * session's processes and gives the wiped cell back (pool_session_close), so the HTTP thread
 * never waits for a cell.
 *
 * What a session's processes do between calls (a background process spending its CPU, killed
 * by the cell when the session's CPU limit is reached) shows in GET at once, not at the next
 * call: the reaper asks each idle session's cell for its totals every PROBE_MS (an entry is
 * "probing" meanwhile: a call waits for the probe to end, a close is deferred as for a busy
 * entry).
 */
#include "server/judge/session.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "server/util/json.h"
#include "server/util/utf8.h"

#define REAP_MS            200
#define PROBE_MS           1000               /* an idle session's totals are at most this old */
#define PYTHON_STREAMS_DIR ".verdict_session" /* the interpreter's files of a call's output */

/* Defaults (docs/api.md, "Sessions"). */
#define DEF_MEMORY    (512ull << 20)
#define DEF_CPU_MS    600000
#define DEF_PIDS      64
#define DEF_CALL_CPU  10000
#define DEF_CALL_WALL 30000
#define DEF_IDLE      300000
#define DEF_LIFETIME  3600000

static const char *const end_names[SESSION_NENDS] = {"deleted", "idle", "lifetime", "lost",
                                                     "shutdown"};

const char *session_end_name(enum session_end e)
{
    return (unsigned)e < SESSION_NENDS ? end_names[e] : "?";
}

const char *session_state_name(enum session_state s)
{
    static const char *const names[] = {"new", "kept", "lost", "restarted"};
    return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

void session_spec_defaults(struct session_spec *s)
{
    if (!s->lim.memory_bytes)
        s->lim.memory_bytes = DEF_MEMORY;
    if (!s->lim.cpu_ms)
        s->lim.cpu_ms = DEF_CPU_MS;
    if (!s->lim.pids)
        s->lim.pids = DEF_PIDS;
    if (!s->call_memory_bytes || s->call_memory_bytes > s->lim.memory_bytes)
        s->call_memory_bytes = s->lim.memory_bytes;
    if (!s->call_cpu_ms)
        s->call_cpu_ms = DEF_CALL_CPU;
    if (!s->call_wall_ms)
        s->call_wall_ms = DEF_CALL_WALL;
    if (!s->idle_ms)
        s->idle_ms = DEF_IDLE;
    if (!s->lifetime_ms)
        s->lifetime_ms = DEF_LIFETIME;
}

bool session_id_ok(const char *id)
{
    size_t n = 0;
    for (; id[n]; n++)
        if (!((id[n] >= '0' && id[n] <= '9') || (id[n] >= 'a' && id[n] <= 'f')))
            return false;
    return n == SESSION_ID_LEN;
}

void session_outcome_fini(struct session_outcome *o)
{
    job_result_fini(&o->run);
    job_result_fini(&o->compile);
    free(o->payload[0]);
    free(o->payload[1]);
    json_free(o->reply);
    memset(o, 0, sizeof(*o));
}

/* ---- the table --------------------------------------------------------------------------- */

struct entry {
    bool used;                   /* a session, or one being opened (id still empty) */
    char peer[SESSION_PEER_LEN]; /* the opening client's address: its part of the table */
    bool busy;                   /* a call (or the open) runs */
    bool probing;                /* the reaper asks its cell for its totals */
    double probed_mono;          /* when it last did */
    bool doomed;                 /* close when the call ends, for doom */
    enum session_end doom;
    struct pool_session *ps;
    double created_mono, last_mono; /* monotonic seconds: expiry */
    struct session_info s;          /* what GET shows; busy, idle_s, expires set by snapshot */
};

struct tomb {
    char id[SESSION_ID_LEN + 1];
    enum session_end end;
};

/* A session handed to the reaper to close. */
struct closing {
    struct pool_session *ps;
    struct closing *next;
};

struct sessions {
    struct sessions_config cfg;
    char run[9]; /* this server run's id prefix (8 hex) */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_cond_t probed; /* a probe ended */
    pthread_t reaper;
    bool reaping, stopping;
    struct entry *e;
    struct tomb *tombs; /* a ring of SESSION_TOMBS */
    unsigned tomb_next;
    struct closing *closing;
    unsigned long long opened, refused, calls, closed[SESSION_NENDS], verdicts[VERDICT_COUNT];
};

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void hex(const uint8_t *b, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * n] = '\0';
}

static int random_bytes(uint8_t *b, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom(b + got, n - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -errno;
        got += (size_t)r;
    }
    return 0;
}

/* The open session with this id, or NULL. Under the lock. */
static struct entry *find(struct sessions *ss, const char *id)
{
    for (int i = 0; i < ss->cfg.max; i++)
        if (ss->e[i].used && ss->e[i].s.id[0] && strcmp(ss->e[i].s.id, id) == 0)
            return &ss->e[i];
    return NULL;
}

/* Why a session that is not open is not: closed (with *end), from an earlier run, or
 * unknown. Under the lock. */
static enum session_lookup missing(struct sessions *ss, const char *id, enum session_end *end)
{
    for (unsigned i = 0; i < SESSION_TOMBS; i++)
        if (ss->tombs[i].id[0] && strcmp(ss->tombs[i].id, id) == 0) {
            *end = ss->tombs[i].end;
            return LOOKUP_CLOSED;
        }
    return strncmp(id, ss->run, 8) != 0 ? LOOKUP_RESTARTED : LOOKUP_UNKNOWN;
}

static void snapshot(const struct entry *en, struct session_info *info)
{
    *info = en->s;
    info->busy = en->busy;
    info->idle_s = en->busy ? 0 : mono_s() - en->last_mono;
    info->expires = en->s.created + (double)en->s.spec.lifetime_ms / 1000;
}

/* Takes the session out of the table (remembered as closed for why) and hands its cell to
 * the reaper. Under the lock; the entry must not be busy. */
static void retire(struct sessions *ss, struct entry *en, enum session_end why)
{
    struct tomb *t = &ss->tombs[ss->tomb_next++ % SESSION_TOMBS];
    memcpy(t->id, en->s.id, sizeof(t->id));
    t->end = why;
    ss->closed[why]++;
    struct closing *c = malloc(sizeof(*c));
    if (c) {
        c->ps = en->ps;
        c->next = ss->closing;
        ss->closing = c;
        pthread_cond_signal(&ss->wake);
    } else {
        pthread_mutex_unlock(&ss->lock); /* no memory for the hand-over: close it here */
        pool_session_close(en->ps);
        pthread_mutex_lock(&ss->lock);
    }
    memset(en, 0, sizeof(*en));
}

/* Closes what was handed over, outside the lock. */
static void close_handed(struct sessions *ss)
{
    for (;;) {
        pthread_mutex_lock(&ss->lock);
        struct closing *c = ss->closing;
        if (c)
            ss->closing = c->next;
        pthread_mutex_unlock(&ss->lock);
        if (!c)
            return;
        pool_session_close(c->ps);
        free(c);
    }
}

/* Refreshes the totals of the idle sessions not looked at for PROBE_MS. Under the lock; drops
 * it around each cell's answer. A session whose cell failed is closed (lost); one closed
 * meanwhile (doomed) is closed now, unless a call began and waits: its end closes it. */
static void probe_idle(struct sessions *ss)
{
    for (int i = 0; i < ss->cfg.max && !ss->stopping; i++) {
        struct entry *en = &ss->e[i];
        double now = mono_s();
        if (!en->used || !en->s.id[0] || en->busy || en->doomed ||
            now - en->probed_mono < PROBE_MS / 1000.0)
            continue;
        en->probing = true;
        en->probed_mono = now;
        struct pool_session *ps = en->ps;
        pthread_mutex_unlock(&ss->lock);
        struct session_totals t;
        int rc = pool_session_status(ps, &t);
        pthread_mutex_lock(&ss->lock);
        en->probing = false;
        pthread_cond_broadcast(&ss->probed);
        if (en->busy) /* a call waits: its answer brings the totals, and closes a doomed one */
            continue;
        if (rc == 0)
            en->s.totals = t;
        if (rc < 0)
            retire(ss, en, SESSION_LOST);
        else if (en->doomed)
            retire(ss, en, en->doom);
    }
}

static void *reaper(void *arg)
{
    struct sessions *ss = arg;
    for (;;) {
        close_handed(ss);
        pthread_mutex_lock(&ss->lock);
        if (ss->stopping && !ss->closing) {
            pthread_mutex_unlock(&ss->lock);
            return NULL;
        }
        double now = mono_s();
        for (int i = 0; i < ss->cfg.max; i++) {
            struct entry *en = &ss->e[i];
            if (!en->used || !en->s.id[0])
                continue;
            bool old = now - en->created_mono >= (double)en->s.spec.lifetime_ms / 1000;
            bool idle = !en->busy && now - en->last_mono >= (double)en->s.spec.idle_ms / 1000;
            if (en->busy && old && !en->doomed) {
                en->doomed = true;
                en->doom = SESSION_LIFETIME;
            } else if (!en->busy && (old || idle)) {
                retire(ss, en, old ? SESSION_LIFETIME : SESSION_IDLE);
            }
        }
        probe_idle(ss);
        if (!ss->closing && !ss->stopping) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += REAP_MS * 1000000L;
            until.tv_sec += until.tv_nsec / 1000000000L;
            until.tv_nsec %= 1000000000L;
            pthread_cond_timedwait(&ss->wake, &ss->lock, &until);
        }
        pthread_mutex_unlock(&ss->lock);
    }
}

int sessions_new(const struct sessions_config *c, struct sessions **out, char err[ERR_LEN])
{
    *out = NULL;
    if (c->max < 0 || c->max > SESSION_MAX)
        return err_set(err, -EINVAL, "max sessions must be 0..%d, not %d", SESSION_MAX, c->max);
    if (c->client_max < 0 || c->ceil.idle_ms < 0 || c->ceil.idle_ms > SESSION_CEILING_MAX ||
        c->ceil.lifetime_ms < 0 || c->ceil.lifetime_ms > SESSION_CEILING_MAX)
        return err_set(err, -EINVAL,
                       "client sessions must be >= 0, the idle and lifetime ceilings at most %d ms",
                       SESSION_CEILING_MAX);
    struct sessions *ss = calloc(1, sizeof(*ss));
    if (!ss || !(ss->e = calloc((size_t)c->max + 1, sizeof(*ss->e))) ||
        !(ss->tombs = calloc(SESSION_TOMBS, sizeof(*ss->tombs)))) {
        if (ss)
            free(ss->e);
        free(ss);
        return err_set(err, -ENOMEM, "out of memory");
    }
    ss->cfg = *c;
    if (!ss->cfg.client_max)
        ss->cfg.client_max = c->max * 3 / 4 > 1 ? c->max * 3 / 4 : 1;
    if (!ss->cfg.ceil.idle_ms)
        ss->cfg.ceil.idle_ms = SESSION_IDLE_CEILING;
    if (!ss->cfg.ceil.lifetime_ms)
        ss->cfg.ceil.lifetime_ms = SESSION_LIFETIME_CEILING;
    uint8_t run[4];
    int rc = random_bytes(run, sizeof(run));
    if (rc < 0) {
        free(ss->tombs);
        free(ss->e);
        free(ss);
        return err_set(err, rc, "getrandom: %s", strerror(-rc));
    }
    hex(run, sizeof(run), ss->run);
    pthread_mutex_init(&ss->lock, NULL);
    pthread_cond_init(&ss->wake, NULL);
    pthread_cond_init(&ss->probed, NULL);
    if ((rc = -pthread_create(&ss->reaper, NULL, reaper, ss)) < 0) {
        sessions_free(ss);
        return err_set(err, rc, "start the sessions' reaper: %s", strerror(-rc));
    }
    ss->reaping = true;
    *out = ss;
    return 0;
}

struct session_ceilings sessions_ceilings(const struct sessions *ss)
{
    return ss->cfg.ceil; /* set once, at sessions_new */
}

void sessions_stop(struct sessions *ss)
{
    if (!ss)
        return;
    pthread_mutex_lock(&ss->lock);
    ss->stopping = true;
    for (int i = 0; i < ss->cfg.max; i++) {
        struct entry *en = &ss->e[i];
        if (!en->used || !en->s.id[0] || en->busy)
            continue;
        if (en->probing) { /* the reaper closes it when its probe ends */
            en->doomed = true;
            en->doom = SESSION_SHUTDOWN;
        } else {
            retire(ss, en, SESSION_SHUTDOWN);
        }
    }
    pthread_cond_signal(&ss->wake);
    pthread_mutex_unlock(&ss->lock);
    close_handed(ss);
}

void sessions_free(struct sessions *ss)
{
    if (!ss)
        return;
    sessions_stop(ss);
    if (ss->reaping)
        pthread_join(ss->reaper, NULL);
    close_handed(ss);
    pthread_cond_destroy(&ss->wake);
    pthread_cond_destroy(&ss->probed);
    pthread_mutex_destroy(&ss->lock);
    free(ss->tombs);
    free(ss->e);
    free(ss);
}

int sessions_open(struct sessions *ss, const struct session_spec *spec, const char *client,
                  const char *peer, struct session_info *info, char err[ERR_LEN])
{
    char who[SESSION_PEER_LEN];
    snprintf(who, sizeof(who), "%s", peer ? peer : "");
    pthread_mutex_lock(&ss->lock);
    struct entry *en = NULL;
    int open = 0, mine = 0;
    for (int i = 0; i < ss->cfg.max; i++) {
        open += ss->e[i].used;
        mine += ss->e[i].used && strcmp(ss->e[i].peer, who) == 0;
        if (!ss->e[i].used && !en)
            en = &ss->e[i];
    }
    int rc = 0;
    if (ss->stopping)
        rc = err_set(err, -ESHUTDOWN, "server shutting down");
    else if (!en)
        rc = err_set(err, -EBUSY,
                     "%d sessions are open, the most this server keeps (--max-sessions)", open);
    else if (mine >= ss->cfg.client_max)
        rc = err_set(err, -EDQUOT,
                     "this client (%s) holds %d sessions, the most one client may "
                     "(--client-sessions %d); close one first",
                     who, mine, ss->cfg.client_max);
    if (rc < 0) {
        ss->refused += rc == -EBUSY || rc == -EDQUOT;
        pthread_mutex_unlock(&ss->lock);
        return rc;
    }
    en->used = en->busy = true; /* held while its cell is found; no id yet */
    memcpy(en->peer, who, sizeof(who));
    pthread_mutex_unlock(&ss->lock);

    struct pool_session *ps = NULL;
    rc = pool_session_open(ss->cfg.pool, &spec->lim, &ps, err);
    uint8_t raw[(SESSION_ID_LEN - 8) / 2]; /* 128 bits */
    if (rc == 0 && (rc = random_bytes(raw, sizeof(raw))) < 0)
        err_set(err, rc, "getrandom: %s", strerror(-rc));
    pthread_mutex_lock(&ss->lock);
    if (rc < 0) {
        ss->refused += rc == -EBUSY;
        memset(en, 0, sizeof(*en));
        pthread_mutex_unlock(&ss->lock);
        pool_session_close(ps);
        return rc;
    }
    memcpy(en->s.id, ss->run, 8);
    hex(raw, sizeof(raw), en->s.id + 8);
    utf8_copy(en->s.client, sizeof(en->s.client), client); /* shown: valid UTF-8, cut whole */
    en->s.spec = *spec;
    en->ps = ps;
    en->busy = false;
    en->created_mono = en->last_mono = mono_s();
    en->s.created = wall_s();
    ss->opened++;
    snapshot(en, info);
    pthread_mutex_unlock(&ss->lock);
    return 0;
}

enum session_lookup sessions_begin(struct sessions *ss, const char *id, enum session_end *end)
{
    pthread_mutex_lock(&ss->lock);
    struct entry *en = find(ss, id);
    enum session_lookup r = LOOKUP_FOUND;
    if (!en)
        r = missing(ss, id, end);
    else if (en->busy)
        r = LOOKUP_BUSY;
    else if (en->doomed) {
        *end = en->doom;
        r = LOOKUP_CLOSED;
    } else
        en->busy = true;
    pthread_mutex_unlock(&ss->lock);
    return r;
}

void sessions_end(struct sessions *ss, const char *id)
{
    pthread_mutex_lock(&ss->lock);
    struct entry *en = find(ss, id);
    if (en) {
        en->busy = false;
        if (en->doomed && !en->probing) /* else the probe's end closes it */
            retire(ss, en, en->doom);
    }
    pthread_mutex_unlock(&ss->lock);
}

enum session_lookup sessions_get(struct sessions *ss, const char *id, struct session_info *info,
                                 enum session_end *end)
{
    pthread_mutex_lock(&ss->lock);
    struct entry *en = find(ss, id);
    enum session_lookup r = en ? LOOKUP_FOUND : missing(ss, id, end);
    if (en)
        snapshot(en, info);
    pthread_mutex_unlock(&ss->lock);
    return r;
}

enum session_lookup sessions_delete(struct sessions *ss, const char *id, struct session_info *info,
                                    enum session_end *end)
{
    pthread_mutex_lock(&ss->lock);
    struct entry *en = find(ss, id);
    enum session_lookup r = en ? LOOKUP_FOUND : missing(ss, id, end);
    if (en && en->doomed) {
        *end = en->doom;
        r = LOOKUP_CLOSED;
    } else if (en) {
        snapshot(en, info);
        if (en->busy || en->probing) {
            en->doomed = true;
            en->doom = SESSION_DELETED;
        } else {
            retire(ss, en, SESSION_DELETED);
        }
    }
    pthread_mutex_unlock(&ss->lock);
    return r;
}

int sessions_list(struct sessions *ss, struct session_info *infos, int cap,
                  struct sessions_stats *st)
{
    pthread_mutex_lock(&ss->lock);
    memset(st, 0, sizeof(*st));
    memcpy(st->run, ss->run, sizeof(st->run));
    st->max = ss->cfg.max;
    st->opened = ss->opened;
    st->refused = ss->refused;
    st->calls = ss->calls;
    memcpy(st->closed, ss->closed, sizeof(st->closed));
    memcpy(st->verdicts, ss->verdicts, sizeof(st->verdicts));
    int n = 0;
    for (int i = 0; i < ss->cfg.max; i++) {
        if (!ss->e[i].used || !ss->e[i].s.id[0])
            continue;
        st->open++;
        if (n < cap)
            snapshot(&ss->e[i], &infos[n++]);
    }
    pthread_mutex_unlock(&ss->lock);
    return n;
}

/* ---- a call ------------------------------------------------------------------------------ */

bool session_interpreted(const struct lang *l)
{
    return strcmp(l->name, "python") == 0;
}

/* The limits of a call's run: the session's per call, the timeout asked. */
static struct job_limits call_limits(const struct session_spec *sp, const struct job_limits *tmpl,
                                     int64_t timeout_ms)
{
    struct job_limits l = *tmpl;
    l.cpu_ms = sp->call_cpu_ms;
    l.wall_ms = timeout_ms;
    l.backstop_ms = 0;
    l.memory_bytes = sp->call_memory_bytes;
    l.stack_bytes = 0;
    l.pids = sp->lim.pids;
    l.starved_tle = true; /* a call's timeout is wall time, as /run_code's */
    job_limits_defaults(&l);
    return l;
}

/* The interpreter's request: {"cells", "stdin", "timeout", "stop_on_error"} (heap). */
static char *kernel_request(const struct session_call *c, int64_t timeout_ms)
{
    struct json *r = json_object(), *cells = json_set(r, "cells", json_array());
    if (c->ncells == 0)
        json_push_str(cells, c->code ? c->code : "");
    for (int i = 0; i < c->ncells; i++)
        json_push_str(cells, c->cells[i]);
    json_set_bytes(r, "stdin", c->in ? (const char *)c->in : "", c->in ? c->in_len : 0);
    json_set_num(r, "timeout", (double)timeout_ms / 1000);
    json_set_bool(r, "stop_on_error", true);
    char *text = json_render(r, false);
    json_free(r);
    return text;
}

/* The first error ({ename, evalue, traceback}) a cell of the interpreter's answer raised,
 * or NULL. */
static const struct json *reply_error(const struct json *reply)
{
    const struct json *e = NULL;
    for (const struct json *c = json_first(json_get(reply, "cells")); c && !e; c = json_next(c))
        e = json_first(json_get(c, "error"));
    return e;
}

/* Whether a cell's output was cut (the interpreter's caps). */
static bool reply_truncated(const struct json *reply)
{
    for (const struct json *c = json_first(json_get(reply, "cells")); c; c = json_next(c)) {
        bool cut = false;
        if (json_bool(json_get(c, "output_truncated"), &cut) && cut)
            return true;
    }
    return false;
}

/* The source file and the call's own files, as one list (heap). */
static struct job_file *with_source(const struct lang *l, const struct session_call *c, int *n)
{
    struct job_file *f = calloc((size_t)c->nfiles + 1, sizeof(*f));
    if (!f)
        return NULL;
    f[0] = (struct job_file){.path = l->source,
                             .mode = 0644,
                             .data = (const uint8_t *)c->code,
                             .len = c->code ? strlen(c->code) : 0};
    for (int i = 0; i < c->nfiles; i++)
        f[i + 1] = c->files[i];
    *n = c->nfiles + 1;
    return f;
}

/* Runs the call on the session's cell. *dead: the cell failed. */
static void run_call(struct sessions *ss, struct pool_session *ps, const struct session_spec *sp,
                     const struct session_call *c, struct session_outcome *o, bool *dead)
{
    const struct lang *l = sp->lang;
    int64_t timeout = c->timeout_ms > 0 ? c->timeout_ms : sp->call_wall_ms;
    struct session_result sr;
    char err[ERR_LEN] = "";
    void *owned = NULL;
    *dead = false;
    o->verdict = VERDICT_SE;
    if (session_interpreted(l)) {
        const char *argv[] = {l->run.argv[0], "-I", "-c", ss->cfg.interp, "--session", NULL};
        /* the interpreter's own output files first: a call it did not answer is read from
         * them */
        const char **fetch = calloc((size_t)c->nfetch + 2, sizeof(*fetch));
        char *req = fetch ? kernel_request(c, timeout) : NULL;
        if (!req) {
            free(fetch);
            snprintf(o->run.message, sizeof(o->run.message), "out of memory");
            return;
        }
        int nfetch = 0;
        fetch[nfetch++] = PYTHON_STREAMS_DIR "/stdout";
        fetch[nfetch++] = PYTHON_STREAMS_DIR "/stderr";
        for (int i = 0; i < c->nfetch; i++)
            fetch[nfetch++] = c->fetch[i];
        struct job j = {.argc = 5,
                        .argv = argv,
                        .nenv = l->run.nenv,
                        .env = (const char *const *)l->run.env,
                        .nfiles = c->nfiles,
                        .files = c->files,
                        .stdin_data = (const uint8_t *)req,
                        .stdin_len = strlen(req),
                        .nfetch = nfetch,
                        .fetch = fetch,
                        .limits = call_limits(sp, &l->run.limits, timeout)};
        pool_session_call(ps, SESSION_CALL, &j, &sr, &o->payload[0], dead);
        free(req);
        free(fetch);
        o->run = sr.res;
        o->state = sr.lost ? STATE_LOST : sr.started ? STATE_RESTARTED : STATE_KEPT;
        /* the interpreter's answer is the cells' to forge: parsed within the budget of what
         * the sandbox may make the server hold, past it the call's output limit */
        struct json_budget budget = json_sandbox_budget(SESSION_REPLY_MAX);
        bool over = false;
        if (sr.reply) {
            char *text = strndup((const char *)sr.reply, sr.reply_len);
            over = text && json_parse_budget(text, strlen(text), &budget, &o->reply) == -E2BIG;
            free(text);
        }
        o->verdict = verdict_of_job(sr.res.status);
        const struct json *raised;
        if (o->verdict == VERDICT_OK && over) {
            o->verdict = VERDICT_OLE;
            snprintf(o->run.message, sizeof(o->run.message),
                     "output limit exceeded: the interpreter's answer passed the server's budget "
                     "(%s: %zu)",
                     budget.over, budget.over_cap);
        } else if (o->verdict == VERDICT_OK && sr.reply && !o->reply) {
            o->verdict = VERDICT_RE;
            snprintf(o->run.message, sizeof(o->run.message),
                     "the interpreter answered something that is not JSON");
        } else if (o->verdict == VERDICT_OK && (raised = reply_error(o->reply))) {
            const char *name = json_get_str(raised, "ename"), *v = json_get_str(raised, "evalue");
            /* the interpreter's own timer is the call's timeout: TLE, the state kept */
            bool timer = name && strcmp(name, "CellTimeoutError") == 0;
            o->verdict = timer ? VERDICT_TLE : VERDICT_RE;
            if (timer) {
                o->run.tle_clock = JOB_CLOCK_WALL;
                snprintf(o->run.message, sizeof(o->run.message),
                         "the call ran past its timeout (%lld ms)", (long long)timeout);
            } else {
                snprintf(o->run.message, sizeof(o->run.message), "%.100s%s%.150s",
                         name ? name : "?", v && *v ? ": " : "", v ? v : "");
            }
        } else if (o->verdict == VERDICT_OK && reply_truncated(o->reply)) {
            o->verdict = VERDICT_OLE;
            snprintf(o->run.message, sizeof(o->run.message),
                     "output limit exceeded: a cell's output was cut (1 MiB per stream)");
        } else if (o->verdict == VERDICT_OK && !sr.reply) {
            o->verdict = VERDICT_SE;
            snprintf(o->run.message, sizeof(o->run.message), "the interpreter did not answer");
        }
    } else {
        int nfiles = 0;
        struct job_file *files = with_source(l, c, &nfiles);
        if (!files) {
            snprintf(o->run.message, sizeof(o->run.message), "out of memory");
            return;
        }
        struct job j = {0};
        if (l->compiled) {
            o->compiled = true;
            if (program_step_job(ss->cfg.env, l, true, sp->lim.memory_bytes, &j, &owned, err) < 0) {
                snprintf(o->run.message, sizeof(o->run.message), "compile: %.200s", err);
                free(files);
                return;
            }
            j.limits.pids = sp->lim.pids < j.limits.pids ? sp->lim.pids : j.limits.pids;
            j.files = files;
            j.nfiles = nfiles;
            pool_session_call(ps, SESSION_RUN, &j, &sr, &o->payload[1], dead);
            free(owned);
            owned = NULL;
            if (sr.res.status == JOB_RE &&
                strncmp(sr.res.message, SESSION_PLACE_FAILED, strlen(SESSION_PLACE_FAILED)) == 0) {
                o->compiled = false; /* nothing ran: a file could not be written */
                o->run = sr.res;
                o->state = STATE_KEPT;
                o->verdict = VERDICT_RE;
                o->info.totals = sr.totals;
                free(files);
                return;
            }
            o->compile = sr.res;
            bool starved = false;
            o->compile_verdict = program_compile_outcome(&sr.res, &j.limits, &starved);
            o->state = sr.lost ? STATE_LOST : STATE_KEPT;
            if (*dead || o->compile_verdict != VERDICT_OK) {
                o->verdict = o->compile_verdict == VERDICT_SE || *dead ? VERDICT_SE : VERDICT_CE;
                o->info.totals = sr.totals;
                free(files);
                return;
            }
        }
        memset(&j, 0, sizeof(j));
        if (program_step_job(ss->cfg.env, l, false, sp->call_memory_bytes, &j, &owned, err) < 0) {
            snprintf(o->run.message, sizeof(o->run.message), "run: %.200s", err);
            free(files);
            return;
        }
        j.limits = call_limits(sp, &l->run.limits, timeout);
        j.files = l->compiled ? NULL : files;
        j.nfiles = l->compiled ? 0 : nfiles;
        j.stdin_data = c->in;
        j.stdin_len = c->in_len;
        j.fetch = c->fetch;
        j.nfetch = c->nfetch;
        pool_session_call(ps, SESSION_RUN, &j, &sr, &o->payload[0], dead);
        free(owned);
        free(files);
        o->run = sr.res;
        o->state = sr.lost ? STATE_LOST : STATE_KEPT;
        o->verdict = verdict_of_job(sr.res.status);
    }
    o->info.totals = sr.totals;
}

void sessions_call(struct sessions *ss, const char *id, const struct session_call *c,
                   struct session_outcome *o)
{
    memset(o, 0, sizeof(*o));
    pthread_mutex_lock(&ss->lock);
    struct entry *en = find(ss, id); /* busy: sessions_begin holds it for us */
    while (en && en->probing)        /* the reaper asks its cell for its totals: a moment */
        pthread_cond_wait(&ss->probed, &ss->lock);
    struct session_spec spec = en ? en->s.spec : (struct session_spec){0};
    struct pool_session *ps = en ? en->ps : NULL;
    bool first = en && en->s.calls == 0, had = en && en->s.totals.starts > 0;
    pthread_mutex_unlock(&ss->lock);
    if (!en) {
        o->verdict = VERDICT_SE;
        snprintf(o->run.message, sizeof(o->run.message), "session gone");
        return;
    }
    bool dead = false;
    run_call(ss, ps, &spec, c, o, &dead);
    if (o->state == STATE_RESTARTED && (first || !had))
        o->state = STATE_NEW;
    else if (o->state == STATE_KEPT && first)
        o->state = STATE_NEW;
    pthread_mutex_lock(&ss->lock);
    en->s.calls++;
    o->call = en->s.calls;
    en->s.totals = o->info.totals;
    en->last_mono = mono_s();
    en->s.last_call = wall_s();
    en->s.has_last = true;
    en->s.last_verdict = o->verdict;
    snprintf(en->s.last_message, sizeof(en->s.last_message), "%s",
             o->verdict == VERDICT_CE ? "compile error" : o->run.message);
    en->s.tle += o->verdict == VERDICT_TLE || (o->compiled && o->compile_verdict == VERDICT_TLE);
    en->s.mle += o->verdict == VERDICT_MLE || (o->compiled && o->compile_verdict == VERDICT_MLE);
    en->s.lost += o->state == STATE_LOST;
    ss->calls++;
    ss->verdicts[o->verdict < VERDICT_COUNT ? o->verdict : VERDICT_SE]++;
    en->busy = false;
    snapshot(en, &o->info);
    if (dead)
        retire(ss, en, SESSION_LOST);
    else if (en->doomed)
        retire(ss, en, en->doom);
    pthread_mutex_unlock(&ss->lock);
}
