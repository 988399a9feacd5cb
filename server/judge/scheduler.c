/*
 * scheduler: per-peer, then per-label sub-queues taken in turn, under one mutex.
 *
 * Storage is allocated once, at sched_new: `capacity` items and `capacity` labels (a label
 * exists only while it has an item queued, so there are never more labels than items), and
 * capacity + workers peers (a peer exists while it has an item queued or running), each on a
 * free list, with a hash table of labels by (peer, name, class) and one of peers by name.
 *
 * Submission finds or makes the peer and the label (O(1) on average) and appends the item to
 * the label's FIFO; a label that was idle joins its peer's ring of that class, a peer that
 * was idle in that class joins the class's ring. A worker of a class takes the ring's first
 * peer, that peer's first label, and the label's oldest item; the label goes back to the end
 * of its peer's ring while it has more, the peer to the end of the class's ring while it has
 * more (round robin at both levels). So dispatch is fair between peers, fair between one
 * peer's labels, and FIFO within one label.
 *
 * Bytes: `held` counts the weights of queued and running items, and each peer's `bytes` its
 * own; a worker subtracts an item's weight after its fn returns, when the request's memory is
 * gone.
 *
 * Expiry: the timer thread wakes every SCHED_TICK_MS while items with deadlines are queued
 * (`timed` counts them; a submission wakes it only when it had stopped ticking), unlinks those past
 * due from their labels' FIFOs and calls their expire functions after dropping the lock.
 *
 * Invariants under the lock: count = sum of labels' n = sum of peers' queued; a label is in
 * the hash and in exactly one peer ring iff n > 0; a peer is in the class ring k iff it has
 * items queued in k, and in the hash iff refs (items queued, running or expiring) > 0.
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
    struct peer *peer;
    struct item *next; /* in its label's FIFO, or the free list */
};

struct client { /* a label of a peer, in one class */
    char name[SCHED_CLIENT_LEN];
    int kind;
    struct peer *peer;
    int n;                        /* items queued */
    struct item *head, *tail;     /* its FIFO */
    struct client *next_in_ring;  /* in its peer's ring of its class, or the free list */
    struct client *next_in_chain; /* in its hash bucket */
};

struct peer {
    char name[SCHED_PEER_LEN];
    int refs;                                   /* items queued, running or expiring */
    uint64_t bytes;                             /* their weights */
    int queued[NCLASS];                         /* items queued, by class */
    struct client *head[NCLASS], *tail[NCLASS]; /* its labels with items queued, by class */
    struct peer *next_in_ring[NCLASS];          /* in a class's ring */
    struct peer *next_in_chain;                 /* in its hash bucket, or the free list */
};

struct ring { /* a class's peers with items queued */
    struct peer *head, *tail;
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
    struct peer *peers, *free_peers;
    struct client **buckets;
    struct peer **peer_buckets;
    size_t nbuckets; /* a power of two, for both tables */
    int cap, share, count, running, nclients, npeers, npeer_slots;
    uint64_t max_bytes, client_bytes, held;
    uint64_t refused_full, refused_share, refused_bytes, refused_client_bytes, expired;
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

static size_t hash(const void *salt, const char *name, int kind, size_t nbuckets)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)kind ^ (uint64_t)(uintptr_t)salt; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return (size_t)(h & (nbuckets - 1));
}

static struct peer **find_peer(struct sched *s, const char *name)
{
    struct peer **p = &s->peer_buckets[hash(NULL, name, 0, s->nbuckets)];
    while (*p && strcmp((*p)->name, name) != 0)
        p = &(*p)->next_in_chain;
    return p;
}

/* The peer's entry, made when it has none, or NULL when every entry is taken (items still
 * expiring hold theirs). */
static struct peer *peer_get(struct sched *s, const char *name)
{
    struct peer **slot = find_peer(s, name);
    if (*slot)
        return *slot;
    struct peer *p = s->free_peers;
    if (!p)
        return NULL;
    s->free_peers = p->next_in_chain;
    memset(p, 0, sizeof(*p));
    snprintf(p->name, sizeof(p->name), "%s", name);
    *slot = p;
    s->npeers++;
    return p;
}

/* Drops one item's hold on its peer: its weight, and the entry with its last item. */
static void peer_drop(struct sched *s, struct peer *p, uint64_t bytes)
{
    p->bytes -= bytes;
    if (--p->refs > 0)
        return;
    struct peer **slot = find_peer(s, p->name);
    *slot = p->next_in_chain;
    p->next_in_chain = s->free_peers;
    s->free_peers = p;
    s->npeers--;
}

static struct client **find(struct sched *s, const struct peer *p, const char *name, int kind)
{
    struct client **c = &s->buckets[hash(p, name, kind, s->nbuckets)];
    while (*c && ((*c)->kind != kind || (*c)->peer != p || strcmp((*c)->name, name) != 0))
        c = &(*c)->next_in_chain;
    return c;
}

/* The label's entry, made (and put in the hash) when it has none. */
static struct client *client_get(struct sched *s, struct peer *p, const char *name, int kind)
{
    struct client **slot = find(s, p, name, kind);
    if (*slot)
        return *slot;
    struct client *c = s->free_clients; /* never NULL: labels <= items < capacity */
    s->free_clients = c->next_in_ring;
    memset(c, 0, sizeof(*c));
    snprintf(c->name, sizeof(c->name), "%s", name);
    c->kind = kind;
    c->peer = p;
    *slot = c;
    s->nclients++;
    return c;
}

static void client_put(struct sched *s, struct client *c)
{
    struct client **slot = find(s, c->peer, c->name, c->kind);
    *slot = c->next_in_chain;
    c->next_in_ring = s->free_clients;
    s->free_clients = c;
    s->nclients--;
}

static void ring_push(struct ring *r, struct peer *p, int kind)
{
    p->next_in_ring[kind] = NULL;
    if (r->tail)
        r->tail->next_in_ring[kind] = p;
    else
        r->head = p;
    r->tail = p;
}

static struct peer *ring_pop(struct ring *r, int kind)
{
    struct peer *p = r->head;
    r->head = p->next_in_ring[kind];
    if (!r->head)
        r->tail = NULL;
    return p;
}

static void label_push(struct peer *p, struct client *c)
{
    int k = c->kind;
    c->next_in_ring = NULL;
    if (p->tail[k])
        p->tail[k]->next_in_ring = c;
    else
        p->head[k] = c;
    p->tail[k] = c;
}

static struct client *label_pop(struct peer *p, int kind)
{
    struct client *c = p->head[kind];
    p->head[kind] = c->next_in_ring;
    if (!p->head[kind])
        p->tail[kind] = NULL;
    return c;
}

/* The next item of a class, round robin over its peers and each peer's labels. The ring must
 * not be empty. The item keeps its hold on its peer (the caller drops it when done). */
static struct item take(struct sched *s, int kind)
{
    struct ring *r = &s->rings[kind];
    struct peer *p = ring_pop(r, kind);
    struct client *c = label_pop(p, kind);
    struct item *it = c->head;
    c->head = it->next;
    if (!c->head)
        c->tail = NULL;
    if (--c->n > 0)
        label_push(p, c);
    else
        client_put(s, c);
    if (--p->queued[kind] > 0)
        ring_push(r, p, kind);
    struct item copy = *it;
    it->next = s->free_items;
    s->free_items = it;
    s->count--;
    s->timed -= copy.deadline > 0;
    return copy;
}

/* Unlinks the items of label c past due at now onto *out (a list through next). */
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
            c->peer->queued[c->kind]--;
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

/* Every label of peer p in class kind loses its expired items; emptied labels leave. */
static void expire_peer(struct sched *s, struct peer *p, int kind, double now, struct item **out)
{
    struct client *keep_head = NULL, *keep_tail = NULL;
    while (p->head[kind]) {
        struct client *c = label_pop(p, kind);
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
    p->head[kind] = keep_head;
    p->tail[kind] = keep_tail;
}

/* Every peer of class kind's ring loses its expired items; emptied peers leave the ring. */
static void expire_ring(struct sched *s, int kind, double now, struct item **out)
{
    struct ring *r = &s->rings[kind];
    struct peer *keep_head = NULL, *keep_tail = NULL;
    while (r->head) {
        struct peer *p = ring_pop(r, kind);
        expire_peer(s, p, kind, now, out);
        if (p->queued[kind] == 0)
            continue;
        p->next_in_ring[kind] = NULL;
        if (keep_tail)
            keep_tail->next_in_ring[kind] = p;
        else
            keep_head = p;
        keep_tail = p;
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
            expire_ring(s, k, now_s(), &gone);
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
            peer_drop(s, it->peer, it->bytes);
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
        peer_drop(s, it.peer, it.bytes);
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

/* Storage for capacity items and labels and capacity + workers peers, all on their free
 * lists. */
static int alloc_storage(struct sched *s, const struct sched_config *c)
{
    int nworkers = c->workers + c->gpu_workers + c->wall_workers;
    s->cap = c->capacity;
    s->npeer_slots = c->capacity + nworkers;
    for (s->nbuckets = 16; s->nbuckets < (size_t)s->npeer_slots * 2; s->nbuckets *= 2) {
    }
    s->items = calloc((size_t)s->cap, sizeof(*s->items));
    s->clients = calloc((size_t)s->cap, sizeof(*s->clients));
    s->peers = calloc((size_t)s->npeer_slots, sizeof(*s->peers));
    s->buckets = calloc(s->nbuckets, sizeof(*s->buckets));
    s->peer_buckets = calloc(s->nbuckets, sizeof(*s->peer_buckets));
    s->workers = calloc((size_t)nworkers, sizeof(*s->workers));
    if (!s->items || !s->clients || !s->peers || !s->buckets || !s->peer_buckets || !s->workers)
        return -ENOMEM;
    for (int i = s->cap - 1; i >= 0; i--) {
        s->items[i].next = s->free_items;
        s->free_items = &s->items[i];
        s->clients[i].next_in_ring = s->free_clients;
        s->free_clients = &s->clients[i];
    }
    for (int i = s->npeer_slots - 1; i >= 0; i--) {
        s->peers[i].next_in_chain = s->free_peers;
        s->free_peers = &s->peers[i];
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
    s->client_bytes = c->client_bytes;
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

/* 0, or why an item of t's weight from peer p (NULL: none queued or running) is refused now
 * (the lock held). The peer's own bounds come first: a peer past its share hears so. */
static int admit(struct sched *s, const struct sched_ticket *t, const struct peer *p, int kind)
{
    if (s->stopping)
        return -ESHUTDOWN;
    if (p && p->queued[kind] >= s->share) {
        s->refused_share++;
        return -EDQUOT;
    }
    uint64_t mine = p ? p->bytes : 0;
    if (s->client_bytes && (t->bytes > s->client_bytes || mine > s->client_bytes - t->bytes)) {
        s->refused_client_bytes++;
        return -ENOBUFS;
    }
    /* no free item or peer entry: items that expired still hold theirs for a moment */
    if (s->count == s->cap || !s->free_items || (!p && !s->free_peers)) {
        s->refused_full++;
        return -EBUSY;
    }
    if (s->max_bytes && (t->bytes > s->max_bytes || s->held > s->max_bytes - t->bytes)) {
        s->refused_bytes++;
        return -EBUSY;
    }
    return 0;
}

/* Appends the admitted item to its label's FIFO, the label to its peer's ring and the peer to
 * its class's ring as they were idle (the lock held). */
static void enqueue(struct sched *s, const struct sched_ticket *t, const char *peer_name,
                    const char *name, int kind, sched_fn fn, void *arg)
{
    struct peer *p = peer_get(s, peer_name); /* never NULL: admit saw a free entry */
    struct item *it = s->free_items;
    s->free_items = it->next;
    bool timed = t->deadline > 0 && t->expire;
    *it = (struct item){fn, arg, t->bytes, timed ? t->deadline : 0, t->expire, p, NULL};
    struct client *c = client_get(s, p, name, kind);
    if (c->tail)
        c->tail->next = it;
    else
        c->head = it;
    c->tail = it;
    if (c->n++ == 0)
        label_push(p, c);
    if (p->queued[kind]++ == 0)
        ring_push(&s->rings[kind], p, kind);
    p->refs++;
    p->bytes += t->bytes;
    s->count++;
    s->held += t->bytes;
    /* Only a timer that stopped ticking needs waking: one that ticks sees the item at its
     * next tick (waking it on every submission cost a context switch per request). */
    if (timed && s->timed++ == 0 && s->timer_idle)
        pthread_cond_signal(&s->timed_work);
    pthread_cond_signal(&s->rings[kind].work);
}

int sched_submit(struct sched *s, const struct sched_ticket *t, sched_fn fn, void *arg)
{
    char name[SCHED_CLIENT_LEN], peer[SCHED_PEER_LEN];
    snprintf(name, sizeof(name), "%s", t->client ? t->client : "");
    const char *who = t->peer ? t->peer : t->client;
    snprintf(peer, sizeof(peer), "%s", who ? who : "");
    int kind = (t->kind == SCHED_GPU && s->ngpu > 0) || (t->kind == SCHED_WALL && s->nwall > 0)
                   ? (int)t->kind
                   : SCHED_CPU;
    pthread_mutex_lock(&s->lock);
    int rc = admit(s, t, *find_peer(s, peer), kind);
    if (rc == 0)
        enqueue(s, t, peer, name, kind, fn, arg);
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
                               .peers = s->npeers,
                               .bytes = s->held,
                               .max_bytes = s->max_bytes,
                               .client_bytes = s->client_bytes,
                               .refused_full = s->refused_full,
                               .refused_share = s->refused_share,
                               .refused_bytes = s->refused_bytes,
                               .refused_client_bytes = s->refused_client_bytes,
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
    free(s->peer_buckets);
    free(s->buckets);
    free(s->peers);
    free(s->clients);
    free(s->items);
    free(s);
}
