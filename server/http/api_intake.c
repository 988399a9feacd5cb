/*
 * api_intake: the routes' work that grows with a request's body (the JSON parse, validation,
 * a run's copy for the store, a batch's items) runs on a small pool of intake threads instead
 * of libmicrohttpd's only thread, so that a client sending 16 MiB bodies holds no other
 * client's request up.
 *
 * api_handle still matches the route and checks what needs the request's headers, query and
 * cookies (those are read through libmicrohttpd, valid only in the handler's call) on the
 * HTTP thread; a route whose body is larger than API_INTAKE_INLINE bytes is then queued here
 * (FIFO, at most API_INTAKE_MAX waiting: past that 503) and its handler runs whole on an
 * intake thread, where it reads only what the exchange holds (method, path, body, peer,
 * label) and replies, streams or queues judging like any worker (http_reply is safe from any
 * thread). The connection waits suspended meanwhile, holding no thread. A body up to
 * API_INTAKE_INLINE bytes is handled at once on the HTTP thread: bounded work, and no thread
 * hop for the many small requests.
 *
 * api_quiesce drains the queue (each waiting request is handled) and joins the threads; the
 * server calls it before the scheduler stops, since handlers queue work there. Requests that
 * arrive afterwards are handled on the HTTP thread as before.
 */
#include "server/http/api_impl.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

struct intake_item {
    struct intake_item *next;
    struct http_exchange *x;
    api_route_fn fn;
};

struct api_intake {
    struct api *api;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    struct intake_item *head, *tail;
    int queued;
    bool stopping;
    int threads;
    pthread_t thread[API_INTAKE_THREADS];
};

static void *intake_main(void *arg)
{
    struct api_intake *in = arg;
    pthread_mutex_lock(&in->lock);
    for (;;) {
        while (!in->head && !in->stopping)
            pthread_cond_wait(&in->cond, &in->lock);
        struct intake_item *it = in->head;
        if (!it)
            break; /* stopping, and nothing left */
        in->head = it->next;
        if (!in->head)
            in->tail = NULL;
        in->queued--;
        pthread_mutex_unlock(&in->lock);
        it->fn(in->api, it->x);
        free(it);
        pthread_mutex_lock(&in->lock);
    }
    pthread_mutex_unlock(&in->lock);
    return NULL;
}

int api_intake_start(struct api *a)
{
    struct api_intake *in = calloc(1, sizeof(*in));
    if (!in)
        return -ENOMEM;
    in->api = a;
    pthread_mutex_init(&in->lock, NULL);
    pthread_cond_init(&in->cond, NULL);
    for (; in->threads < API_INTAKE_THREADS; in->threads++)
        if (pthread_create(&in->thread[in->threads], NULL, intake_main, in) != 0)
            break;
    if (in->threads == 0) {
        pthread_cond_destroy(&in->cond);
        pthread_mutex_destroy(&in->lock);
        free(in);
        return -EAGAIN;
    }
    a->intake = in;
    return 0;
}

void api_dispatch(struct api *a, struct http_exchange *x, api_route_fn fn)
{
    struct api_intake *in = a->intake;
    size_t len;
    http_body(x, &len);
    if (!in || len <= API_INTAKE_INLINE) {
        fn(a, x);
        return;
    }
    struct intake_item *it = malloc(sizeof(*it));
    if (!it) {
        api_reply_detail(a, x, 500, "out of memory");
        return;
    }
    *it = (struct intake_item){NULL, x, fn};
    pthread_mutex_lock(&in->lock);
    bool inline_now = in->stopping, full = !inline_now && in->queued >= API_INTAKE_MAX;
    if (!inline_now && !full) {
        if (in->tail)
            in->tail->next = it;
        else
            in->head = it;
        in->tail = it;
        in->queued++;
        pthread_cond_signal(&in->cond);
    }
    pthread_mutex_unlock(&in->lock);
    if (!inline_now && !full)
        return; /* an intake thread handles it; the connection waits suspended */
    free(it);
    if (inline_now)
        fn(a, x);
    else
        api_reply_busy(a, x, -EBUSY);
}

void api_quiesce(struct api *a)
{
    struct api_intake *in = a ? a->intake : NULL;
    if (!in)
        return;
    pthread_mutex_lock(&in->lock);
    bool joined = in->stopping;
    in->stopping = true;
    pthread_cond_broadcast(&in->cond);
    pthread_mutex_unlock(&in->lock);
    if (joined)
        return;
    for (int i = 0; i < in->threads; i++)
        pthread_join(in->thread[i], NULL); /* each drains what is queued first */
}

void api_intake_free(struct api *a)
{
    api_quiesce(a);
    struct api_intake *in = a ? a->intake : NULL;
    if (!in)
        return;
    pthread_cond_destroy(&in->cond);
    pthread_mutex_destroy(&in->lock);
    free(in);
    a->intake = NULL;
}
