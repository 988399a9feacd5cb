/*
 * scheduler: a bounded queue of work and the threads that do it.
 *
 * Each worker takes the oldest item and runs it; a worker blocks only in the sandbox (pool_run
 * waits for a free cell), so there are as many workers as cells. A full queue refuses new work
 * at once (the API answers 503), and a stopping scheduler finishes what it holds.
 */
#ifndef VERDICT_SCHEDULER_H
#define VERDICT_SCHEDULER_H

#include "runners/err.h"

typedef void (*sched_fn)(void *arg);

struct sched;

struct sched_stats {
    int workers;
    int queued;  /* waiting for a worker */
    int running; /* being worked on */
    int capacity;
};

/* Starts workers threads over a queue of at most capacity items. */
int sched_new(int workers, int capacity, struct sched **out, char err[ERR_LEN]);

/* Queues fn(arg). Returns 0, -EBUSY when the queue is full, -ESHUTDOWN when stopping. */
int sched_submit(struct sched *s, sched_fn fn, void *arg);

void sched_get_stats(struct sched *s, struct sched_stats *st);

/* Refuses new work, runs everything already queued, joins the workers, frees. NULL: no-op. */
void sched_free(struct sched *s);

#endif
