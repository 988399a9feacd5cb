/*
 * scheduler: a ring buffer of (fn, arg) under one mutex, workers waiting on a condition
 * variable. Submission never blocks: admission control is the queue's capacity.
 */
#include "server/judge/scheduler.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct item {
    sched_fn fn;
    void *arg;
};

struct sched {
    pthread_mutex_t lock;
    pthread_cond_t work;
    struct item *ring;
    int cap, head, count, running;
    bool stopping;
    int nworkers;
    pthread_t *threads;
};

static void *worker(void *arg)
{
    struct sched *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (s->count == 0 && !s->stopping)
            pthread_cond_wait(&s->work, &s->lock);
        if (s->count == 0)
            break; /* stopping, and nothing left */
        struct item it = s->ring[s->head];
        s->head = (s->head + 1) % s->cap;
        s->count--;
        s->running++;
        pthread_mutex_unlock(&s->lock);
        it.fn(it.arg);
        pthread_mutex_lock(&s->lock);
        s->running--;
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

int sched_new(int workers, int capacity, struct sched **out, char err[ERR_LEN])
{
    *out = NULL;
    if (workers < 1 || capacity < 1)
        return err_set(err, -EINVAL, "scheduler needs at least one worker and one slot");
    struct sched *s = calloc(1, sizeof(*s));
    if (!s || !(s->ring = calloc((size_t)capacity, sizeof(*s->ring))) ||
        !(s->threads = calloc((size_t)workers, sizeof(*s->threads)))) {
        if (s)
            free(s->ring);
        free(s);
        return err_set(err, -ENOMEM, "out of memory");
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->work, NULL);
    s->cap = capacity;
    for (int i = 0; i < workers; i++) {
        int rc = pthread_create(&s->threads[i], NULL, worker, s);
        if (rc != 0) {
            err_set(err, -rc, "start worker thread: %s", strerror(rc));
            sched_free(s);
            return -rc;
        }
        s->nworkers = i + 1;
    }
    *out = s;
    return 0;
}

int sched_submit(struct sched *s, sched_fn fn, void *arg)
{
    pthread_mutex_lock(&s->lock);
    int rc = 0;
    if (s->stopping)
        rc = -ESHUTDOWN;
    else if (s->count == s->cap)
        rc = -EBUSY;
    else {
        s->ring[(s->head + s->count) % s->cap] = (struct item){fn, arg};
        s->count++;
        pthread_cond_signal(&s->work);
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

void sched_get_stats(struct sched *s, struct sched_stats *st)
{
    pthread_mutex_lock(&s->lock);
    st->workers = s->nworkers;
    st->queued = s->count;
    st->running = s->running;
    st->capacity = s->cap;
    pthread_mutex_unlock(&s->lock);
}

void sched_free(struct sched *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    s->stopping = true;
    pthread_cond_broadcast(&s->work);
    pthread_mutex_unlock(&s->lock);
    for (int i = 0; i < s->nworkers; i++)
        pthread_join(s->threads[i], NULL);
    pthread_cond_destroy(&s->work);
    pthread_mutex_destroy(&s->lock);
    free(s->threads);
    free(s->ring);
    free(s);
}
