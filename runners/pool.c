/*
 * pool: cells, a free list, cells started on demand, and replacement of the dead.
 *
 * Slots: max_cells CPU slots, then one per GPU. The first `cells` CPU slots and the GPU slots
 * are started by pool_new and kept; the others are dormant (no cell, no uids held) until a job
 * finds every started cell busy. A mutex guards the flags; a caller takes a free started cell,
 * or a dormant slot to start (without the lock held), or waits in line (a FIFO of waiters,
 * each with its own condition variable: a returned cell is handed to the first waiter of its
 * kind, and only that one is woken); it runs its job without the lock held and returns the
 * cell. A cell whose run fails (it died
 * or spoke garbage) is stopped and restarted in place before the job is retried once. The
 * reaper thread stops cells beyond the warm ones that have been idle for idle_ms.
 */
#include "runners/pool.h"

#include <errno.h>
#include <linux/capability.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "runners/cell.h"
#include "runners/cgroup.h"
#include "runners/cpus.h"
#include "runners/file.h"
#include "runners/uidlock.h"

#define DEFAULT_IDLE_MS 30000
#define GROWTH_PAUSE_NS (5 * 1000000000LL) /* after a failed start, no other for this long */
/* A job that finds every started cell busy starts another only once no cell has come free for
 * GROW_AFTER_NS while it waited (the cells are held by long jobs: a sleeping or slow
 * program), or after GROW_CAP_NS whatever happens. Cells that keep coming free are shared
 * instead: a pool grown to one cell per connection for jobs of a few ms (a cached C program)
 * switches between so many cells that each job costs more CPU than it did with the cells
 * there were (docs/performance.md). 20 ms is about what starting a cell takes; the cap keeps
 * the wait within the 1 s of slack veRL's client timeout leaves a /run_code (docs/api.md). */
#define GROW_AFTER_NS (20 * 1000000LL)
#define GROW_CAP_NS   (500 * 1000000LL)

struct slot {
    struct cell *cell; /* NULL while dormant, or being replaced after a failed restart */
    struct cell_config cfg;
    struct uid_slot uid; /* cfg.uid's lock, held while the slot is started (replacements keep it) */
    struct uid_slot guid; /* cfg.grader_uid's, likewise */
    bool busy;
    bool session;         /* held by a session (busy too) */
    bool started;         /* false: dormant (a CPU slot beyond the warm ones) */
    long long idle_since; /* when its last job ended (monotonic ns) */
};

/* A job waiting in acquire: a cell that comes free is handed to the first waiter of its kind
 * (got), and only that waiter is woken. */
struct waiter {
    pthread_cond_t cv;
    bool gpu;
    struct slot *got;
    struct waiter *next;
};

struct pool {
    pthread_mutex_t lock;
    pthread_condattr_t monotonic; /* for the waiters' condition variables */
    struct waiter *head, *tail;   /* jobs waiting for a cell, first come first served */
    pthread_cond_t tick;          /* wakes the reaper early: pool_free */
    struct cg_tree tree;
    int n;    /* slots allocated and initialised */
    int warm; /* CPU slots started at once and kept */
    int max;  /* CPU slots; the GPU ones follow */
    int gpus;
    long long idle_ns;
    long long no_growth_until; /* monotonic ns: no on-demand start before then */
    long long released_ns;     /* monotonic ns: when a cell last came free */
    unsigned replaced, grown, shrunk, no_growth, waited;
    bool stopping, reaping;
    pthread_t reaper;
    struct slot *slots;
    char *exe; /* copies of the configuration's strings, which every slot's cfg borrows */
    char *uid_lock_dir;
    unsigned uid_base, uid_count;
    int nbinds;
    char **binds;
};

/* Wakes every waiter to look again (growth paused, a slot went back to dormant). Under the
 * lock. */
static void wake_all(struct pool *p)
{
    for (struct waiter *w = p->head; w; w = w->next)
        pthread_cond_signal(&w->cv);
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Copies exe (or /proc/self/exe's target), the uid lock directory and binds into p. */
static int keep_strings(struct pool *p, const struct pool_config *cfg, char err[ERR_LEN])
{
    char self[4096];
    const char *exe = cfg->exe;
    if (!exe) {
        ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
        if (n < 0)
            return err_set(err, -errno, "/proc/self/exe: %m");
        self[n] = '\0';
        exe = self;
    }
    if (!(p->exe = strdup(exe)) ||
        (cfg->uid_lock_dir && !(p->uid_lock_dir = strdup(cfg->uid_lock_dir))) ||
        !(p->binds = calloc((size_t)cfg->nbinds + 1, sizeof(*p->binds))))
        return err_set(err, -ENOMEM, "out of memory");
    for (; p->nbinds < cfg->nbinds; p->nbinds++)
        if (!(p->binds[p->nbinds] = strdup(cfg->binds[p->nbinds])))
            return err_set(err, -ENOMEM, "out of memory");
    return 0;
}

/* Takes the slot's uids and starts its cell. Called without the lock, by whoever holds the
 * slot (pool_new, or a job that marked it busy); on failure the slot holds nothing. The
 * caller marks it started, under the lock. */
static int start_slot(struct pool *p, struct slot *s, char err[ERR_LEN])
{
    int rc = uidlock_take(p->uid_lock_dir, p->uid_base, p->uid_count, &s->uid, err);
    if (rc == 0)
        rc = uidlock_take(p->uid_lock_dir, p->uid_base, p->uid_count, &s->guid, err);
    if (rc == 0) {
        s->cfg.uid = s->cfg.gid = s->uid.uid;
        s->cfg.grader_uid = s->guid.uid;
        rc = cell_start(&s->cfg, &s->cell, err);
    }
    if (rc < 0) {
        uidlock_give(&s->uid);
        uidlock_give(&s->guid);
        return rc;
    }
    return 0;
}

/* Stops the slot's cell and gives its uids back (after the cell and its jobs are gone). The
 * caller marks it dormant, under the lock. */
static void stop_slot(struct slot *s)
{
    cell_stop(s->cell);
    s->cell = NULL;
    uidlock_give(&s->uid);
    uidlock_give(&s->guid);
}

/* Stops cells beyond the warm ones once idle for idle_ns, until pool_free. */
static void *reaper(void *arg)
{
    struct pool *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        pthread_cond_timedwait(&p->tick, &p->lock, &until);
        for (int i = p->warm; i < p->max && !p->stopping; i++) {
            struct slot *s = &p->slots[i];
            if (!s->started || s->busy || now_ns() - s->idle_since < p->idle_ns)
                continue;
            s->busy = true; /* no job takes it while it stops */
            pthread_mutex_unlock(&p->lock);
            stop_slot(s);
            pthread_mutex_lock(&p->lock);
            s->started = false;
            s->busy = false;
            p->shrunk++;
            wake_all(p); /* a slot to start, for a job that has waited long enough */
        }
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static int check_config(const struct pool_config *cfg, int max, char err[ERR_LEN])
{
    if (cfg->cells < 1 || cfg->cells > POOL_MAX_CELLS)
        return err_set(err, -EINVAL, "cells must be 1..%d, not %d", POOL_MAX_CELLS, cfg->cells);
    if (max < cfg->cells || max > POOL_MAX_CELLS)
        return err_set(err, -EINVAL, "max cells must be %d..%d, not %d", cfg->cells, POOL_MAX_CELLS,
                       max);
    if (cfg->gpus < 0 || cfg->gpus > 64)
        return err_set(err, -EINVAL, "gpus must be 0..64, not %d", cfg->gpus);
    if (cfg->idle_ms < 0)
        return err_set(err, -EINVAL, "idle_ms must be >= 0, not %d", cfg->idle_ms);
    return 0;
}

/* The capabilities a cell's recipe uses (docker/README.md says for what). Without one a step
 * would fail later: a cell's set-up, every job as SE, or, for CAP_KILL, a job of another uid
 * that cannot be stopped, whose request would never be answered. A container or a service
 * started with fewer is refused at once, naming what it lacks. */
static const struct {
    int bit;
    const char *name;
} needed_caps[] = {
    {CAP_SYS_ADMIN, "SYS_ADMIN"}, {CAP_NET_ADMIN, "NET_ADMIN"}, {CAP_MKNOD, "MKNOD"},
    {CAP_SETUID, "SETUID"},       {CAP_SETGID, "SETGID"},       {CAP_SETPCAP, "SETPCAP"},
    {CAP_KILL, "KILL"},           {CAP_CHOWN, "CHOWN"},         {CAP_DAC_OVERRIDE, "DAC_OVERRIDE"}};

int pool_missing_caps(const char *proc_status, char *names, size_t cap)
{
    const char *p = strstr(proc_status, "CapEff:");
    unsigned long long eff = 0;
    if (!p || sscanf(p + 7, " %llx", &eff) != 1)
        eff = 0;
    int missing = 0;
    size_t len = 0;
    if (cap)
        names[0] = '\0';
    for (size_t i = 0; i < sizeof(needed_caps) / sizeof(needed_caps[0]); i++) {
        if ((eff >> needed_caps[i].bit) & 1)
            continue;
        missing++;
        if (len < cap) {
            int n =
                snprintf(names + len, cap - len, "%sCAP_%s", len ? ", " : "", needed_caps[i].name);
            len += n > 0 ? (size_t)n : 0;
        }
    }
    return missing;
}

static int check_caps(char err[ERR_LEN])
{
    char status[4096] = "", names[256];
    if (file_read("/proc/self/status", status, sizeof(status)) < 0)
        return err_set(err, -errno, "cannot read /proc/self/status: %m");
    if (pool_missing_caps(status, names, sizeof(names)) > 0)
        return err_set(err, -EPERM,
                       "the sandbox needs capabilities this process lacks: %s (run as root "
                       "with them; in a container, docker/README.md lists the set)",
                       names);
    return 0;
}

int pool_new(const struct pool_config *cfg, struct pool **out, char err[ERR_LEN])
{
    *out = NULL;
    int max = cfg->max_cells ? cfg->max_cells : cfg->cells;
    int rc = check_config(cfg, max, err);
    if (rc < 0 || (rc = check_caps(err)) < 0)
        return rc;
    struct cg_host host;
    if ((rc = cg_detect(&host, err)) < 0)
        return rc;
    struct pool *p = calloc(1, sizeof(*p));
    int total = max + cfg->gpus;
    if (!p || !(p->slots = calloc((size_t)total, sizeof(*p->slots)))) {
        free(p);
        return err_set(err, -ENOMEM, "out of memory");
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_condattr_init(&p->monotonic);
    pthread_condattr_setclock(&p->monotonic, CLOCK_MONOTONIC); /* acquire's timed wait */
    pthread_cond_init(&p->tick, NULL);
    p->warm = cfg->cells;
    p->max = max;
    p->gpus = cfg->gpus;
    p->idle_ns = (long long)(cfg->idle_ms ? cfg->idle_ms : DEFAULT_IDLE_MS) * 1000000LL;
    p->uid_base = cfg->uid_base;
    p->uid_count = cfg->uid_count;
    if ((rc = keep_strings(p, cfg, err)) < 0 || (rc = cg_tree_create(&host, &p->tree, err)) < 0) {
        pool_free(p);
        return rc;
    }
    /* the tree weighs as its warm cells' jobs would, each a task (cpus.h); without it the
     * host's other processes would each weigh as much as all of verdict's jobs together. A
     * failure costs fairness only, never accounting. */
    char werr[ERR_LEN];
    (void)cpus_weigh_tree(&p->tree, cfg->cells, werr);
    for (int i = 0; i < total; i++) {
        struct slot *s = &p->slots[i];
        uidlock_init(&s->uid);
        uidlock_init(&s->guid);
        s->cfg = (struct cell_config){.exe = p->exe,
                                      .index = i,
                                      .tree = &p->tree,
                                      .nbinds = p->nbinds,
                                      .binds = (const char *const *)p->binds,
                                      .tmpfs_bytes = cfg->tmpfs_bytes,
                                      .tmpfs_inodes = cfg->tmpfs_inodes,
                                      .gpu_cell = i >= max,
                                      .gpu = i - max};
        p->n = i + 1;
    }
    for (int i = 0; i < total && rc == 0; i++)
        if (i < p->warm || i >= max)
            p->slots[i].started = (rc = start_slot(p, &p->slots[i], err)) == 0;
    if (rc == 0 && max > p->warm) {
        if ((rc = -pthread_create(&p->reaper, NULL, reaper, p)) < 0)
            err_set(err, rc, "start the pool's reaper thread: %s", strerror(-rc));
        p->reaping = rc == 0;
    }
    if (rc < 0) {
        pool_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

/* When a job that began waiting at since may start a cell (see GROW_AFTER_NS). */
static long long grow_at(const struct pool *p, long long since)
{
    long long quiet = p->released_ns + GROW_AFTER_NS, at = since + GROW_AFTER_NS;
    if (quiet > at)
        at = quiet;
    return at < since + GROW_CAP_NS ? at : since + GROW_CAP_NS;
}

static void unlink_waiter(struct pool *p, struct waiter *w)
{
    for (struct waiter **pp = &p->head, *prev = NULL; *pp; prev = *pp, pp = &(*pp)->next)
        if (*pp == w) {
            *pp = w->next;
            if (p->tail == w)
                p->tail = prev;
            return;
        }
}

/* A dormant CPU slot, or NULL. */
static struct slot *dormant_slot(struct pool *p)
{
    for (int i = p->warm; i < p->max; i++)
        if (!p->slots[i].started && !p->slots[i].busy)
            return &p->slots[i];
    return NULL;
}

/* A free started cell of the kind, or NULL. */
static struct slot *free_cell(struct pool *p, bool gpu)
{
    for (int i = 0; i < p->n; i++)
        if (p->slots[i].started && !p->slots[i].busy && p->slots[i].cfg.gpu_cell == gpu)
            return &p->slots[i];
    return NULL;
}

/* The first job waiting for a cell of this kind (a GPU cell or an ordinary one); NULL: none. */
static struct waiter *first_waiter(const struct pool *p, bool gpu)
{
    struct waiter *w = p->head;
    while (w && w->gpu != gpu)
        w = w->next;
    return w;
}

/* A free cell of the kind asked for (a GPU cell or an ordinary one), or, when grow_at says
 * so, a dormant CPU slot for the caller to start (*start set); waits for one, after the jobs
 * that were waiting already. */
static struct slot *acquire(struct pool *p, bool gpu, bool *start)
{
    pthread_mutex_lock(&p->lock);
    *start = false;
    struct slot *s = first_waiter(p, gpu) ? NULL : free_cell(p, gpu);
    if (s) {
        s->busy = true;
        pthread_mutex_unlock(&p->lock);
        return s;
    }
    struct waiter w = {.gpu = gpu};
    pthread_cond_init(&w.cv, &p->monotonic);
    p->waited += !gpu;
    if (p->tail)
        p->tail->next = &w;
    else
        p->head = &w;
    p->tail = &w;
    long long since = now_ns();
    while (!w.got) {
        /* Cells are handed over on release; one free with nobody handed it (none so far) is
         * taken by the first in line all the same. */
        struct slot *f = first_waiter(p, gpu) == &w ? free_cell(p, gpu) : NULL;
        struct slot *d = gpu || f ? NULL : dormant_slot(p);
        long long at = grow_at(p, since);
        if (d && at < p->no_growth_until) /* growth paused after a failed start */
            at = p->no_growth_until;
        if (f || (d && now_ns() >= at)) {
            unlink_waiter(p, &w);
            (f ? f : d)->busy = true;
            *start = !f;
            w.got = f ? f : d;
        } else if (d) {
            struct timespec until = {.tv_sec = at / 1000000000LL, .tv_nsec = at % 1000000000LL};
            pthread_cond_timedwait(&w.cv, &p->lock, &until);
        } else {
            pthread_cond_wait(&w.cv, &p->lock);
        }
    }
    pthread_mutex_unlock(&p->lock);
    pthread_cond_destroy(&w.cv);
    return w.got;
}

/* The cell goes to the first job waiting for its kind, still busy, or back to the free ones. */
static void release(struct pool *p, struct slot *s)
{
    pthread_mutex_lock(&p->lock);
    s->idle_since = p->released_ns = now_ns();
    struct waiter *w = first_waiter(p, s->cfg.gpu_cell);
    if (w) {
        unlink_waiter(p, w);
        w->got = s;
        pthread_cond_signal(&w->cv);
    } else {
        s->busy = false;
    }
    pthread_mutex_unlock(&p->lock);
}

/* Starts the dormant slot s (held busy by the caller). On failure the slot goes back to
 * dormant, growth pauses, and the caller waits for a started cell instead. */
static struct slot *grow(struct pool *p, struct slot *s)
{
    char err[ERR_LEN] = "";
    int rc = start_slot(p, s, err);
    pthread_mutex_lock(&p->lock);
    if (rc == 0) {
        s->started = true;
        p->grown++;
        pthread_mutex_unlock(&p->lock);
        return s;
    }
    p->no_growth++;
    p->no_growth_until = now_ns() + GROWTH_PAUSE_NS;
    s->busy = false;
    wake_all(p);
    pthread_mutex_unlock(&p->lock);
    fprintf(stderr, "verdict: could not start another cell (jobs wait for a free one): %s\n", err);
    bool start;
    s = acquire(p, false, &start);
    return start ? grow(p, s) : s;
}

/* Replaces a dead cell; on failure the slot stays empty and the next run tries again. */
static void replace(struct pool *p, struct slot *s, char err[ERR_LEN])
{
    cell_stop(s->cell);
    s->cell = NULL;
    pthread_mutex_lock(&p->lock);
    p->replaced++;
    pthread_mutex_unlock(&p->lock);
    cell_start(&s->cfg, &s->cell, err);
}

static void run_on(struct pool *p, bool gpu, const struct job *j, struct job_result *res,
                   uint8_t **payload)
{
    bool start;
    struct slot *s = acquire(p, gpu, &start);
    if (start)
        s = grow(p, s);
    char err[ERR_LEN] = "";
    int rc = -EIO;
    *payload = NULL;
    for (int attempt = 0; attempt < 2 && rc < 0; attempt++) {
        if (!s->cell)
            replace(p, s, err);
        if (s->cell && (rc = cell_run(s->cell, j, res, payload, err)) < 0)
            replace(p, s, err); /* so the next job finds a working cell */
    }
    release(p, s);
    if (rc < 0) {
        memset(res, 0, sizeof(*res));
        res->status = JOB_SE;
        res->exit_code = -1;
        snprintf(res->message, sizeof(res->message), "sandbox cell failed twice: %.200s", err);
    }
}

void pool_run(struct pool *p, const struct job *j, struct job_result *res, uint8_t **payload)
{
    run_on(p, false, j, res, payload);
}

void pool_run_gpu(struct pool *p, const struct job *j, struct job_result *res, uint8_t **payload)
{
    if (p->gpus == 0) {
        *payload = NULL;
        memset(res, 0, sizeof(*res));
        res->status = JOB_SE;
        res->exit_code = -1;
        snprintf(res->message, sizeof(res->message), "no GPU on this server");
        return;
    }
    run_on(p, true, j, res, payload);
}

struct pool_session {
    struct pool *p;
    struct slot *s;
    bool dead; /* the cell failed under the session: replaced, the session gone */
};

int pool_session_open(struct pool *p, const struct session_limits *l, struct pool_session **out,
                      char err[ERR_LEN])
{
    *out = NULL;
    struct pool_session *ps = calloc(1, sizeof(*ps));
    if (!ps)
        return err_set(err, -ENOMEM, "out of memory");
    pthread_mutex_lock(&p->lock);
    /* A started cell beyond the warm ones, else one started for it (growth pauses after a
     * failed start), else a warm one: the warm cells are what verdict's API judges on. */
    struct slot *s = NULL;
    bool start = false;
    for (int i = p->warm; !first_waiter(p, false) && i < p->max && !s; i++)
        if (p->slots[i].started && !p->slots[i].busy)
            s = &p->slots[i];
    if (!s && !p->stopping && now_ns() >= p->no_growth_until && (s = dormant_slot(p)))
        start = true;
    if (!s && !first_waiter(p, false))
        s = free_cell(p, false);
    if (s) {
        s->busy = true;
        s->session = true;
    }
    pthread_mutex_unlock(&p->lock);
    if (!s) {
        free(ps);
        return err_set(err, -EBUSY, "every cell is busy and the pool is at its maximum");
    }
    int rc = 0;
    if (start && (rc = start_slot(p, s, err)) == 0) {
        pthread_mutex_lock(&p->lock);
        s->started = true;
        p->grown++;
        pthread_mutex_unlock(&p->lock);
    }
    if (rc == 0 && !s->cell) /* a cell that failed earlier: start it again */
        rc = cell_start(&s->cfg, &s->cell, err);
    char msg[JOB_MSG_LEN] = "";
    if (rc == 0 && (rc = cell_session_open(s->cell, l, msg, err)) > 0)
        rc = err_set(err, -EIO, "the cell could not open a session: %s", msg);
    else if (rc < 0 && s->cell && s->started)
        replace(p, s, err);
    if (rc < 0) {
        pthread_mutex_lock(&p->lock);
        s->session = false;
        if (start && !s->started) {
            s->busy = false;
            p->no_growth++;
            p->no_growth_until = now_ns() + GROWTH_PAUSE_NS;
            wake_all(p);
            pthread_mutex_unlock(&p->lock);
        } else {
            pthread_mutex_unlock(&p->lock);
            release(p, s);
        }
        free(ps);
        return rc;
    }
    ps->p = p;
    ps->s = s;
    *out = ps;
    return 0;
}

void pool_session_call(struct pool_session *ps, enum session_mode mode, const struct job *j,
                       struct session_result *out, uint8_t **payload, bool *dead)
{
    char err[ERR_LEN] = "";
    *payload = NULL;
    int rc = ps->dead || !ps->s->cell ? -EIO
                                      : cell_session_call(ps->s->cell, mode, j, out, payload, err);
    if (rc < 0) {
        if (!ps->dead && ps->s->cell)
            replace(ps->p, ps->s, err); /* its replacement serves jobs, not this session */
        ps->dead = true;
        memset(out, 0, sizeof(*out));
        out->res.status = JOB_SE;
        out->res.exit_code = -1;
        out->lost = true;
        snprintf(out->res.message, sizeof(out->res.message), "the session's cell failed: %.200s",
                 err[0] ? err : "gone");
    }
    *dead = ps->dead;
}

int pool_session_status(struct pool_session *ps, struct session_totals *t)
{
    char err[ERR_LEN] = "";
    int rc = ps->dead || !ps->s->cell ? -EIO : cell_session_status(ps->s->cell, t, err);
    if (rc < 0) {
        if (!ps->dead && ps->s->cell)
            replace(ps->p, ps->s, err);
        ps->dead = true;
        return -EIO;
    }
    return 0;
}

void pool_session_close(struct pool_session *ps)
{
    if (!ps)
        return;
    char err[ERR_LEN] = "";
    if (!ps->dead && ps->s->cell && cell_session_close(ps->s->cell, err) < 0)
        replace(ps->p, ps->s, err);
    pthread_mutex_lock(&ps->p->lock);
    ps->s->session = false;
    pthread_mutex_unlock(&ps->p->lock);
    release(ps->p, ps->s);
    free(ps);
}

unsigned pool_replaced(struct pool *p)
{
    pthread_mutex_lock(&p->lock);
    unsigned n = p->replaced;
    pthread_mutex_unlock(&p->lock);
    return n;
}

void pool_get_stats(struct pool *p, struct pool_stats *st)
{
    pthread_mutex_lock(&p->lock);
    *st = (struct pool_stats){.warm = p->warm,
                              .max = p->max,
                              .started = p->grown,
                              .stopped = p->shrunk,
                              .no_growth = p->no_growth,
                              .waited = p->waited};
    for (int i = 0; i < p->max; i++) {
        st->cells += p->slots[i].started;
        st->busy += p->slots[i].started && p->slots[i].busy;
        st->sessions += p->slots[i].session;
    }
    for (struct waiter *w = p->head; w; w = w->next)
        st->waiting += !w->gpu;
    pthread_mutex_unlock(&p->lock);
}

unsigned pool_cell_uid(struct pool *p, int i)
{
    pthread_mutex_lock(&p->lock);
    unsigned uid = i >= 0 && i < p->n ? p->slots[i].uid.uid : 0;
    pthread_mutex_unlock(&p->lock);
    return uid;
}

int pool_cell_pid(struct pool *p, int i)
{
    pthread_mutex_lock(&p->lock);
    int pid = i >= 0 && i < p->n && p->slots[i].cell ? (int)cell_pid(p->slots[i].cell) : -1;
    pthread_mutex_unlock(&p->lock);
    return pid;
}

void pool_free(struct pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stopping = true;
    pthread_cond_broadcast(&p->tick);
    pthread_mutex_unlock(&p->lock);
    if (p->reaping)
        pthread_join(p->reaper, NULL);
    for (int i = 0; i < p->n; i++)
        stop_slot(&p->slots[i]);
    cg_tree_remove(&p->tree);
    pthread_cond_destroy(&p->tick);
    pthread_condattr_destroy(&p->monotonic);
    pthread_mutex_destroy(&p->lock);
    free(p->slots);
    for (int i = 0; i < p->nbinds; i++)
        free(p->binds[i]);
    free(p->binds);
    free(p->uid_lock_dir);
    free(p->exe);
    free(p);
}
