/*
 * scheduler: bounded queues of work and the threads that do it.
 *
 * Three classes of work, each with its own workers: CPU items (verdict's own API, judged by
 * CPU time: as many workers as warm cells), WALL items (SandboxFusion's routes, whose clients
 * wait with a timeout: as many workers as the pool may grow to, so they start at once
 * rather than queue) and GPU items (as many workers as GPU cells), so a CUDA run waiting for
 * a GPU cell never holds a worker that CPU work needs.
 *
 * A client is a (peer, label) pair: the peer is the address the request came from (which a
 * client cannot choose), the label the name a request gives itself (X-Verdict-Client), which
 * it can. Within a class, workers take the peers in turn, and within a peer its labels in
 * turn, each label's items oldest first: a client's 4096-item batch delays another peer's
 * single request by at most one item per worker, not by the whole batch, and a peer that
 * sends under many labels gets one peer's turns, not one per label.
 *
 * Admission, at submission and never by waiting: an item is refused when the queue holds
 * `capacity` items in all or the bytes held by queued and running items would pass
 * `max_bytes` (-EBUSY), when its peer already has `client_share` items queued in that class,
 * all its labels together (-EDQUOT), or when the bytes its peer's queued and running items
 * hold would pass `client_bytes` (-ENOBUFS). Each item's weight is what its caller says it
 * holds: its request's size. The API answers each 503 with Retry-After, or a per-item "busy"
 * error in a batch.
 *
 * Expiry: an item with a deadline still queued at that time is taken off the queue and its
 * `expire` function called instead of fn (on the scheduler's own timer thread, within about
 * SCHED_TICK_MS), so that a client which would time out hears an answer it can retry on.
 *
 * Threads: sched_submit and sched_get_stats may be called from any thread and never block
 * (one mutex, held for O(1) work). fn runs on a worker thread, without the scheduler's lock,
 * and may block (pool_run waits for a cell there) or submit more work. sched_new and
 * sched_free block (sched_free until every queued and running item has finished); neither
 * may be called from fn.
 */
#ifndef VERDICT_SCHEDULER_H
#define VERDICT_SCHEDULER_H

#include <stdbool.h>
#include <stdint.h>

#include "runners/err.h"

/* Runs one item. It owns arg from the moment sched_submit returns 0 (the submitter keeps it
 * on a refusal) and must free it. */
typedef void (*sched_fn)(void *arg);

struct sched;

enum sched_class {
    SCHED_CPU,  /* runs on CPU cells only */
    SCHED_GPU,  /* needs a GPU cell: its own workers (the CPU workers without GPU workers) */
    SCHED_WALL, /* CPU cells, its own workers (the CPU workers without WALL workers) */
};

#define SCHED_TICK_MS 100 /* how often queued items are checked against their deadlines */

#define SCHED_CLIENT_LEN 64 /* bytes of a client's label kept (longer labels are cut) */
#define SCHED_PEER_LEN   48 /* bytes of a peer's name kept (an IPv4 or IPv6 address fits) */

struct sched_config {
    int workers;           /* CPU-class workers, >= 1 (one per CPU cell) */
    int gpu_workers;       /* GPU-class workers, >= 0 (one per GPU cell) */
    int wall_workers;      /* WALL-class workers, >= 0 (the most CPU cells the pool may have) */
    int capacity;          /* items queued in all, >= 1 */
    int client_share;      /* items one peer may have queued in one class, all its labels
                              together; 0: the default, max(capacity / 4, 64), never more than
                              capacity */
    uint64_t max_bytes;    /* bytes held by queued and running items; 0: no bound */
    uint64_t client_bytes; /* bytes one peer's queued and running items may hold; 0: no
                              bound */
};

/* What an item is, for admission and fairness. */
struct sched_ticket {
    const char *peer;      /* whose address (copied, cut to SCHED_PEER_LEN - 1); NULL: the
                              client's label stands for its peer too */
    const char *client;    /* its label (copied, cut to SCHED_CLIENT_LEN - 1); NULL: "" */
    uint64_t bytes;        /* bytes the item holds until it finishes */
    enum sched_class kind; /* SCHED_GPU or SCHED_WALL without their workers run as
                              SCHED_CPU */
    double deadline;       /* CLOCK_MONOTONIC seconds: still queued then, it expires; 0: never */
    sched_fn expire;       /* called instead of fn when it expires (owns arg); with deadline */
};

struct sched_stats {
    int workers;      /* CPU, GPU and WALL workers */
    int gpu_workers;  /* of which GPU */
    int wall_workers; /* of which WALL */
    int queued;       /* waiting for a worker */
    int running;      /* being worked on */
    int capacity;
    int client_share;
    int clients;                                  /* clients (peer and label) with items queued */
    int peers;                                    /* peers with items queued or running */
    uint64_t bytes;                               /* held by queued and running items */
    uint64_t max_bytes;                           /* 0: no bound */
    uint64_t client_bytes;                        /* 0: no bound */
    uint64_t refused_full, refused_bytes;         /* -EBUSY answers: queue full, max_bytes */
    uint64_t refused_share, refused_client_bytes; /* -EDQUOT, -ENOBUFS answers */
    uint64_t expired;                             /* items that expired queued */
    bool stopping; /* refusing new work (sched_free has begun): -ESHUTDOWN */
};

/* Starts the workers. Returns 0 with *out, or -EINVAL / -ENOMEM / a thread error with the
 * reason in err. Blocks only to start threads. */
int sched_new(const struct sched_config *c, struct sched **out, char err[ERR_LEN]);

/* Queues fn(arg) for t's client and class. Returns 0 (fn now owns arg), or why it is refused:
 * -EBUSY (the queue full, or max_bytes passed), -EDQUOT (its peer's client_share of the class
 * queued), -ENOBUFS (its peer's client_bytes held), -ESHUTDOWN (the scheduler is stopping).
 * Never blocks. */
int sched_submit(struct sched *s, const struct sched_ticket *t, sched_fn fn, void *arg);

/* A snapshot. Never blocks. */
void sched_get_stats(struct sched *s, struct sched_stats *st);

/* Refuses new work, runs everything already queued, joins the workers, frees. Blocks until
 * then. NULL: no-op. */
void sched_free(struct sched *s);

#endif
