/*
 * scheduler: per-client sub-queues taken in turn, under one mutex.
 *
 * Storage is allocated once, at sched_new: `capacity` items and `capacity` clients (a client
 * exists only while it has an item queued, so there are never more clients than items), each
 * on a free list, and a hash table of clients by (name, class). Submission finds or makes the
 * client (O(1) on average), appends the item to the client's FIFO and, when the client was
 * idle, appends the client to its class's ring. A worker of a class takes the ring's first
 * client, pops its oldest item, and puts the client back at the ring's end while it has more
 * (round robin), or frees it. So dispatch is fair between clients and FIFO within one.
 *
 * Bytes: `held` counts the weights of queued and running items; a worker subtracts an item's
 * weight after its fn returns, when the request's memory is gone.
 *
 * Expiry: the timer thread wakes every SCHED_TICK_MS while items with deadlines are queued
 * (`timed` counts them; a submission wakes it only when it had stopped ticking), unlinks those past
 * due from their clients' FIFOs and calls their expire functions after dropping the lock.
 *
 * Invariants under the lock: count = sum of clients' n = items not on the free list;
 * a client is in the hash and in exactly one ring iff n > 0.
 */
#include "server/judge/scheduler.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NCLASS 3

struct item {
    sched_fn fn;
    void *arg;
    uint64_t bytes;
    double deadline; /* 0: none */
    sched_fn expire;
    struct item *next; /* in its client's FIFO, or the free list */
};

struct client {
    char name[SCHED_CLIENT_LEN];
    int kind;
    int n;                        /* items queued */
    struct item *head, *tail;     /* its FIFO */
    struct client *next_in_ring;  /* in its class's ring, or the free list */
    struct client *next_in_chain; /* in its hash bucket */
};

struct ring {
    struct client *head, *tail;
    pthread_cond_t work;
};

struct worker {
    struct sched *s;
    int kind;
    pthread_t thread;
};

struct sched {
    pthread_mutex_t lock;
    struct ring rings[NCLASS];
    struct item *items, *free_items;
    struct client *clients, *free_clients;
    struct client **buckets;
    size_t nbuckets; /* a power of two */
    int cap, share, count, running, nclients;
    uint64_t max_bytes, held;
    uint64_t refused_full, refused_share, refused_bytes, expired;
    bool stopping;
    int nworkers, ngpu, nwall;
    struct worker *workers;
    int timed; /* items queued with a deadline */
    pthread_cond_t timed_work;
    bool timer_idle; /* the timer waits for a first timed item (not ticking) */
    pthread_t timer;
    bool timing; /* the timer thread was started */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t hash(const char *name, int kind, size_t nbuckets)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)kind; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return (size_t)(h & (nbuckets - 1));
}

static struct client **find(struct sched *s, const char *name, int kind)
{
    struct client **c = &s->buckets[hash(name, kind, s->nbuckets)];
    while (*c && ((*c)->kind != kind || strcmp((*c)->name, name) != 0))
        c = &(*c)->next_in_chain;
    return c;
}

/* The client's entry, made (and put in the hash) when it has none. */
static struct client *client_get(struct sched *s, const char *name, int kind)
{
    struct client **slot = find(s, name, kind);
    if (*slot)
        return *slot;
    struct client *c = s->free_clients; /* never NULL: clients <= items < capacity */
    s->free_clients = c->next_in_ring;
    memset(c, 0, sizeof(*c));
    snprintf(c->name, sizeof(c->name), "%s", name);
    c->kind = kind;
    *slot = c;
    s->nclients++;
    return c;
}

static void client_put(struct sched *s, struct client *c)
{
    struct client **slot = find(s, c->name, c->kind);
    *slot = c->next_in_chain;
    c->next_in_ring = s->free_clients;
    s->free_clients = c;
    s->nclients--;
}

static void ring_push(struct ring *r, struct client *c)
{
    c->next_in_ring = NULL;
    if (r->tail)
        r->tail->next_in_ring = c;
    else
        r->head = c;
    r->tail = c;
}

static struct client *ring_pop(struct ring *r)
{
    struct client *c = r->head;
    r->head = c->next_in_ring;
    if (!r->head)
        r->tail = NULL;
    return c;
}

/* The next item of a class, round robin over its clients. The ring must not be empty. */
static struct item take(struct sched *s, int kind)
{
    struct ring *r = &s->rings[kind];
    struct client *c = ring_pop(r);
    struct item *it = c->head;
    c->head = it->next;
    if (!c->head)
        c->tail = NULL;
    if (--c->n > 0)
        ring_push(r, c);
    else
        client_put(s, c);
    struct item copy = *it;
    it->next = s->free_items;
    s->free_items = it;
    s->count--;
    s->timed -= copy.deadline > 0;
    return copy;
}

/* Unlinks the items of client c past due at now onto *out (a list through next); frees the
 * client when it has none left. */
static void take_expired(struct sched *s, struct client *c, double now, struct item **out)
{
    struct item **pp = &c->head, *last = NULL;
    while (*pp) {
        struct item *it = *pp;
        if (it->deadline > 0 && it->deadline <= now) {
            *pp = it->next;
            it->next = *out;
            *out = it;
            c->n--;
            s->count--;
            s->timed--;
            s->expired++;
        } else {
            last = it;
            pp = &it->next;
        }
    }
    c->tail = last;
}

/* Every client of ring r with expired items loses them; emptied clients leave the ring. */
static void expire_ring(struct sched *s, struct ring *r, double now, struct item **out)
{
    struct client *keep_head = NULL, *keep_tail = NULL;
    while (r->head) {
        struct client *c = ring_pop(r);
        take_expired(s, c, now, out);
        if (c->n == 0) {
            client_put(s, c);
            continue;
        }
        c->next_in_ring = NULL;
        if (keep_tail)
            keep_tail->next_in_ring = c;
        else
            keep_head = c;
        keep_tail = c;
    }
    r->head = keep_head;
    r->tail = keep_tail;
}

static void *timer(void *arg)
{
    struct sched *s = arg;
    pthread_mutex_lock(&s->lock);
    while (!s->stopping) {
        if (!s->timed) {
            s->timer_idle = true;
            pthread_cond_wait(&s->timed_work, &s->lock);
            s->timer_idle = false;
            continue;
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += SCHED_TICK_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&s->timed_work, &s->lock, &until);
        struct item *gone = NULL;
        for (int k = 0; k < NCLASS && s->timed; k++)
            expire_ring(s, &s->rings[k], now_s(), &gone);
        if (!gone)
            continue;
        pthread_mutex_unlock(&s->lock);
        for (struct item *it = gone; it; it = it->next)
            it->expire(it->arg);
        pthread_mutex_lock(&s->lock);
        while (gone) {
            struct item *it = gone;
            gone = it->next;
            s->held -= it->bytes;
            it->next = s->free_items;
            s->free_items = it;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static void *worker(void *arg)
{
    struct worker *w = arg;
    struct sched *s = w->s;
    struct ring *r = &s->rings[w->kind];
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!r->head && !s->stopping)
            pthread_cond_wait(&r->work, &s->lock);
        if (!r->head)
            break; /* stopping, and nothing left of this class */
        struct item it = take(s, w->kind);
        s->running++;
        pthread_mutex_unlock(&s->lock);
        it.fn(it.arg);
        pthread_mutex_lock(&s->lock);
        s->running--;
        s->held -= it.bytes;
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static int check_config(const struct sched_config *c, char err[ERR_LEN])
{
    if (c->workers < 1 || c->gpu_workers < 0 || c->wall_workers < 0 || c->capacity < 1 ||
        c->client_share < 0)
        return err_set(err, -EINVAL, "scheduler needs at least one worker and one slot");
    if (c->capacity > (1 << 24) || c->workers + c->gpu_workers + c->wall_workers > 4096)
        return err_set(err, -EINVAL, "scheduler: at most 16M slots and 4096 workers");
    return 0;
}

/* Storage for capacity items and clients, all on their free lists. */
static int alloc_storage(struct sched *s, const struct sched_config *c)
{
    s->cap = c->capacity;
    for (s->nbuckets = 16; s->nbuckets < (size_t)c->capacity * 2; s->nbuckets *= 2) {
    }
    s->items = calloc((size_t)s->cap, sizeof(*s->items));
    s->clients = calloc((size_t)s->cap, sizeof(*s->clients));
    s->buckets = calloc(s->nbuckets, sizeof(*s->buckets));
    s->workers =
        calloc((size_t)(c->workers + c->gpu_workers + c->wall_workers), sizeof(*s->workers));
    if (!s->items || !s->clients || !s->buckets || !s->workers)
        return -ENOMEM;
    for (int i = s->cap - 1; i >= 0; i--) {
        s->items[i].next = s->free_items;
        s->free_items = &s->items[i];
        s->clients[i].next_in_ring = s->free_clients;
        s->free_clients = &s->clients[i];
    }
    return 0;
}

static int default_share(int capacity)
{
    int share = capacity / 4 > 64 ? capacity / 4 : 64;
    return share < capacity ? share : capacity;
}

static int start_workers(struct sched *s, const struct sched_config *c, char err[ERR_LEN])
{
    for (int i = 0; i < c->workers + c->gpu_workers + c->wall_workers; i++) {
        struct worker *w = &s->workers[i];
        *w = (struct worker){.s = s,
                             .kind = i < c->workers                    ? SCHED_CPU
                                     : i < c->workers + c->gpu_workers ? SCHED_GPU
                                                                       : SCHED_WALL};
        int rc = pthread_create(&w->thread, NULL, worker, w);
        if (rc != 0)
            return err_set(err, -rc, "start worker thread: %s", strerror(rc));
        s->nworkers = i + 1;
        s->ngpu += w->kind == SCHED_GPU;
        s->nwall += w->kind == SCHED_WALL;
    }
    int rc = pthread_create(&s->timer, NULL, timer, s);
    if (rc != 0)
        return err_set(err, -rc, "start timer thread: %s", strerror(rc));
    s->timing = true;
    return 0;
}

int sched_new(const struct sched_config *c, struct sched **out, char err[ERR_LEN])
{
    *out = NULL;
    int rc = check_config(c, err);
    if (rc < 0)
        return rc;
    struct sched *s = calloc(1, sizeof(*s));
    if (!s)
        return err_set(err, -ENOMEM, "out of memory");
    pthread_mutex_init(&s->lock, NULL);
    for (int k = 0; k < NCLASS; k++)
        pthread_cond_init(&s->rings[k].work, NULL);
    pthread_cond_init(&s->timed_work, NULL);
    s->share = c->client_share ? c->client_share : default_share(c->capacity);
    s->max_bytes = c->max_bytes;
    if (alloc_storage(s, c) < 0) {
        sched_free(s);
        return err_set(err, -ENOMEM, "out of memory");
    }
    if ((rc = start_workers(s, c, err)) < 0) {
        sched_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

/* 0, or why t is refused now (the lock held). */
static int admit(struct sched *s, const struct sched_ticket *t, const char *name, int kind)
{
    if (s->stopping)
        return -ESHUTDOWN;
    if (s->count == s->cap) {
        s->refused_full++;
        return -EBUSY;
    }
    if (s->max_bytes && (t->bytes > s->max_bytes || s->held > s->max_bytes - t->bytes)) {
        s->refused_bytes++;
        return -EBUSY;
    }
    struct client *c = *find(s, name, kind);
    if (c && c->n >= s->share) {
        s->refused_share++;
        return -EBUSY;
    }
    return 0;
}

int sched_submit(struct sched *s, const struct sched_ticket *t, sched_fn fn, void *arg)
{
    char name[SCHED_CLIENT_LEN];
    snprintf(name, sizeof(name), "%s", t->client ? t->client : "");
    int kind = (t->kind == SCHED_GPU && s->ngpu > 0) || (t->kind == SCHED_WALL && s->nwall > 0)
                   ? (int)t->kind
                   : SCHED_CPU;
    pthread_mutex_lock(&s->lock);
    int rc = admit(s, t, name, kind);
    if (rc == 0) {
        struct item *it = s->free_items;
        s->free_items = it->next;
        bool timed = t->deadline > 0 && t->expire;
        *it = (struct item){fn, arg, t->bytes, timed ? t->deadline : 0, t->expire, NULL};
        struct client *c = client_get(s, name, kind);
        if (c->tail)
            c->tail->next = it;
        else
            c->head = it;
        c->tail = it;
        if (c->n++ == 0)
            ring_push(&s->rings[kind], c);
        s->count++;
        s->held += t->bytes;
        /* Only a timer that stopped ticking needs waking: one that ticks sees the item at its
         * next tick (waking it on every submission cost a context switch per request). */
        if (timed && s->timed++ == 0 && s->timer_idle)
            pthread_cond_signal(&s->timed_work);
        pthread_cond_signal(&s->rings[kind].work);
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

void sched_get_stats(struct sched *s, struct sched_stats *st)
{
    pthread_mutex_lock(&s->lock);
    *st = (struct sched_stats){.workers = s->nworkers,
                               .gpu_workers = s->ngpu,
                               .wall_workers = s->nwall,
                               .queued = s->count,
                               .running = s->running,
                               .capacity = s->cap,
                               .client_share = s->share,
                               .clients = s->nclients,
                               .bytes = s->held,
                               .max_bytes = s->max_bytes,
                               .refused_full = s->refused_full,
                               .refused_share = s->refused_share,
                               .refused_bytes = s->refused_bytes,
                               .expired = s->expired,
                               .stopping = s->stopping};
    pthread_mutex_unlock(&s->lock);
}

void sched_free(struct sched *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    s->stopping = true;
    for (int k = 0; k < NCLASS; k++)
        pthread_cond_broadcast(&s->rings[k].work);
    pthread_cond_broadcast(&s->timed_work);
    pthread_mutex_unlock(&s->lock);
    if (s->timing)
        pthread_join(s->timer, NULL);
    for (int i = 0; i < s->nworkers; i++)
        pthread_join(s->workers[i].thread, NULL);
    for (int k = 0; k < NCLASS; k++)
        pthread_cond_destroy(&s->rings[k].work);
    pthread_cond_destroy(&s->timed_work);
    pthread_mutex_destroy(&s->lock);
    free(s->workers);
    free(s->buckets);
    free(s->clients);
    free(s->items);
    free(s);
}
