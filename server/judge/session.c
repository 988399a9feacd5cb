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

#include "server/judge/session_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "server/util/json.h"
#include "server/util/utf8.h"

#define REAP_MS  200
#define PROBE_MS 1000 /* an idle session's totals are at most this old */

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
    session_run_call(&ss->cfg, ps, &spec, c, o, &dead);
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
