/*
 * test_scheduler: fairness between clients, the per-client share, the byte bound, the GPU
 * and WALL classes' own workers, and the expiry of queued items past their deadlines.
 *
 * Each test holds its workers on a gate (the first item waits until the test opens it), so
 * everything submitted meanwhile is queued and the dispatch order is the scheduler's choice.
 * The 8c38c95 scheduler, one FIFO of 4096 for everyone, fails each: B's item ran 1001st,
 * A's 1000 items were all admitted, queued bytes were not counted, and a GPU item waited
 * behind CPU items on the same workers. The scheduler that took a client to be its label
 * alone admitted 4096 items from one peer that rotated labels (share: 1024), gave that peer
 * one turn per label, and let one peer hold all of max_bytes.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "server/judge/scheduler.h"
#include "test.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static bool gate_open;
static int order[4096], norder;
static atomic_int entered;

static void reset(void)
{
    gate_open = false;
    norder = 0;
    atomic_store(&entered, 0);
}

static void open_gate(void)
{
    pthread_mutex_lock(&mu);
    gate_open = true;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
}

/* Waits at the gate, then records its tag in the dispatch order. */
static void gated(void *arg)
{
    atomic_fetch_add(&entered, 1);
    pthread_mutex_lock(&mu);
    while (!gate_open)
        pthread_cond_wait(&cv, &mu);
    order[norder++] = (int)(intptr_t)arg;
    pthread_mutex_unlock(&mu);
}

static void wait_entered(int n)
{
    for (int i = 0; i < 5000 && atomic_load(&entered) < n; i++)
        usleep(1000);
}

static struct sched_ticket from(const char *client)
{
    return (struct sched_ticket){.client = client};
}

static void test_round_robin_between_clients(void)
{
    reset();
    struct sched *s;
    char err[ERR_LEN];
    struct sched_config c = {.workers = 1, .capacity = 4096};
    ASSERT_INT_EQ(sched_new(&c, &s, err), 0);
    struct sched_ticket a = from("A"), b = from("B");
    ASSERT_INT_EQ(sched_submit(s, &a, gated, (void *)(intptr_t)0), 0);
    wait_entered(1); /* the worker holds A's first item */
    for (int i = 1; i < 1000; i++)
        ASSERT_INT_EQ(sched_submit(s, &a, gated, (void *)(intptr_t)i), 0);
    ASSERT_INT_EQ(sched_submit(s, &b, gated, (void *)(intptr_t)-1), 0);
    open_gate();
    sched_free(s);
    ASSERT_INT_EQ(norder, 1001);
    int at = -1;
    for (int i = 0; i < norder; i++)
        if (order[i] == -1)
            at = i;
    ASSERT_TRUE(at >= 0 && at <= 2);            /* B ran second (FIFO: 1001st) */
    for (int i = 1, last = -2; i < norder; i++) /* A's own items stay in order */
        if (order[i] >= 0) {
            ASSERT_TRUE(order[i] > last);
            last = order[i];
        }
}

static void test_share_refuses_a_not_b(void)
{
    reset();
    struct sched *s;
    char err[ERR_LEN];
    struct sched_config c = {.workers = 1, .capacity = 4096}; /* share: 1024 */
    ASSERT_INT_EQ(sched_new(&c, &s, err), 0);
    struct sched_ticket a = from("10.0.0.1"), b = from("10.0.0.2");
    ASSERT_INT_EQ(sched_submit(s, &a, gated, NULL), 0);
    wait_entered(1);
    int ok = 0, busy = 0;
    for (int i = 0; i < 4096; i++) {
        int rc = sched_submit(s, &a, gated, NULL);
        ok += rc == 0;
        busy += rc == -EDQUOT;
    }
    ASSERT_INT_EQ(ok, 1024);
    ASSERT_INT_EQ(busy, 4096 - 1024);
    ASSERT_INT_EQ(sched_submit(s, &b, gated, NULL), 0);
    struct sched_stats st;
    sched_get_stats(s, &st);
    ASSERT_INT_EQ(st.client_share, 1024);
    ASSERT_INT_EQ(st.queued, 1025);
    ASSERT_INT_EQ(st.clients, 2);
    ASSERT_UINT_EQ(st.refused_share, 4096 - 1024);
    open_gate();
    sched_free(s);
}

static void test_share_small_queue_and_total_cap(void)
{
    reset();
    struct sched *s;
    char err[ERR_LEN];
    struct sched_config c = {.workers = 1, .capacity = 8, .client_share = 6};
    ASSERT_INT_EQ(sched_new(&c, &s, err), 0);
    char name[8];
    ASSERT_INT_EQ(sched_submit(s, &(struct sched_ticket){.client = "x"}, gated, NULL), 0);
    wait_entered(1);
    for (int i = 0; i < 8; i++) {
        snprintf(name, sizeof(name), "c%d", i);
        ASSERT_INT_EQ(sched_submit(s, &(struct sched_ticket){.client = name}, gated, NULL), 0);
    }
    ASSERT_INT_EQ(sched_submit(s, &(struct sched_ticket){.client = "new"}, gated, NULL), -EBUSY);
    open_gate();
    sched_free(s);
    ASSERT_INT_EQ(norder, 9);
}

static void test_bytes_bound_and_release(void)
{
    reset();
    struct sched *s;
    char err[ERR_LEN];
    struct sched_config c = {.workers = 1, .capacity = 64, .max_bytes = 100};
    ASSERT_INT_EQ(sched_new(&c, &s, err), 0);
    struct sched_ticket big = {.client = "A", .bytes = 40}, small = {.client = "B", .bytes = 10};
    ASSERT_INT_EQ(sched_submit(s, &big, gated, NULL), 0); /* running, still held */
    wait_entered(1);
    ASSERT_INT_EQ(sched_submit(s, &big, gated, NULL), 0);
    ASSERT_INT_EQ(sched_submit(s, &big, gated, NULL), -EBUSY); /* 120 > 100 */
    ASSERT_INT_EQ(sched_submit(s, &small, gated, NULL), 0);    /* 90 */
    ASSERT_INT_EQ(sched_submit(s, &small, gated, NULL), 0);    /* 100: at the bound */
    ASSERT_INT_EQ(sched_submit(s, &small, gated, NULL), -EBUSY);
    struct sched_ticket huge = {.client = "C", .bytes = UINT64_MAX};
    ASSERT_INT_EQ(sched_submit(s, &huge, gated, NULL), -EBUSY); /* no overflow */
    struct sched_stats st;
    sched_get_stats(s, &st);
    ASSERT_UINT_EQ(st.bytes, 100);
    ASSERT_UINT_EQ(st.refused_bytes, 3);
    open_gate();
    for (int i = 0; i < 5000 && (sched_get_stats(s, &st), st.bytes > 0); i++)
        usleep(1000);
    ASSERT_UINT_EQ(st.bytes, 0); /* released as items finish */
    ASSERT_INT_EQ(sched_submit(s, &big, gated, NULL), 0);
    sched_free(s);
}

static void quick_noop(void *arg)
{
    (void)arg;
}

static void quick(void *arg)
{
    atomic_int *n = arg;
    atomic_fetch_add(n, 1);
}

static void test_gpu_items_have_their_own_workers(void)
{
    reset();
    struct sched *s;
    char err[ERR_LEN];
    struct sched_config c = {.workers = 1, .gpu_workers = 1, .capacity = 64};
    ASSERT_INT_EQ(sched_new(&c, &s, err), 0);
    struct sched_ticket gpu = {.client = "A", .kind = SCHED_GPU}, cpu = {.client = "A"};
    ASSERT_INT_EQ(sched_submit(s, &gpu, gated, NULL), 0); /* a GPU item waiting for its cell */
    wait_entered(1);
    atomic_int done = 0;
    ASSERT_INT_EQ(sched_submit(s, &cpu, quick, &done), 0);
    for (int i = 0; i < 5000 && atomic_load(&done) == 0; i++)
        usleep(1000);
    ASSERT_INT_EQ(atomic_load(&done), 1); /* CPU work ran while the GPU item waited */
    struct sched_stats st;
    sched_get_stats(s, &st);
    ASSERT_INT_EQ(st.gpu_workers, 1);
    ASSERT_INT_EQ(st.workers, 2);
    open_gate();
    sched_free(s);
}

static void test_gpu_without_gpu_workers_and_shutdown(void)
{
    struct sched *s;
    char err[ERR_LEN];
    struct sched_config c = {.workers = 2, .capacity = 4};
    ASSERT_INT_EQ(sched_new(&c, &s, err), 0);
    atomic_int done = 0;
    struct sched_ticket gpu = {.kind = SCHED_GPU};
    ASSERT_INT_EQ(sched_submit(s, &gpu, quick, &done), 0);
    sched_free(s); /* runs what it holds */
    ASSERT_INT_EQ(atomic_load(&done), 1);
    struct sched_config bad = {.workers = 0, .capacity = 4};
    ASSERT_INT_EQ(sched_new(&bad, &s, err), -EINVAL);
}

/* WALL items have their workers (many, like the cells the pool may grow to): eight run at
 * once while the one CPU worker is held. */
static void test_wall_items_have_their_own_workers(void)
{
    reset();
    struct sched *s;
    char err[ERR_LEN];
    struct sched_config c = {.workers = 1, .wall_workers = 8, .capacity = 64};
    ASSERT_INT_EQ(sched_new(&c, &s, err), 0);
    struct sched_ticket cpu = {.client = "A"}, wall = {.client = "B", .kind = SCHED_WALL};
    ASSERT_INT_EQ(sched_submit(s, &cpu, gated, (void *)(intptr_t)100), 0);
    for (int i = 0; i < 8; i++)
        ASSERT_INT_EQ(sched_submit(s, &wall, gated, (void *)(intptr_t)i), 0);
    wait_entered(9);
    ASSERT_INT_EQ(atomic_load(&entered), 9); /* all at once: none queued behind another */
    struct sched_stats st;
    sched_get_stats(s, &st);
    ASSERT_INT_EQ(st.wall_workers, 8);
    ASSERT_INT_EQ(st.running, 9);
    open_gate();
    sched_free(s);
}

static atomic_int expired_tag;

static void on_expire(void *arg)
{
    atomic_store(&expired_tag, (int)(intptr_t)arg);
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A queued item past its deadline gets expire, not fn, within a tick or so, and leaves the
 * queue; one without a deadline behind it stays and runs; bytes are given back. */
static void test_queued_items_expire(void)
{
    reset();
    atomic_store(&expired_tag, 0);
    struct sched *s;
    char err[ERR_LEN];
    struct sched_config c = {.workers = 1, .capacity = 8, .max_bytes = 100};
    ASSERT_INT_EQ(sched_new(&c, &s, err), 0);
    struct sched_ticket hold = {.client = "A", .bytes = 10};
    ASSERT_INT_EQ(sched_submit(s, &hold, gated, (void *)(intptr_t)1), 0);
    wait_entered(1);
    double t0 = mono_s();
    struct sched_ticket late = {
        .client = "A", .bytes = 50, .deadline = t0 + 0.2, .expire = on_expire};
    struct sched_ticket patient = {.client = "A", .bytes = 10};
    ASSERT_INT_EQ(sched_submit(s, &late, gated, (void *)(intptr_t)2), 0);
    ASSERT_INT_EQ(sched_submit(s, &patient, gated, (void *)(intptr_t)3), 0);
    for (int i = 0; i < 5000 && atomic_load(&expired_tag) == 0; i++)
        usleep(1000);
    double waited = mono_s() - t0;
    ASSERT_INT_EQ(atomic_load(&expired_tag), 2);
    ASSERT_TRUE(waited >= 0.2);
    struct sched_stats st;
    for (int i = 0; i < 1000; i++) { /* the bytes come back once expire returned */
        sched_get_stats(s, &st);
        if (st.bytes == 20)
            break;
        usleep(1000);
    }
    ASSERT_INT_EQ(st.queued, 1);
    ASSERT_INT_EQ((long long)st.expired, 1);
    ASSERT_INT_EQ((long long)st.bytes, 20);
    open_gate();
    sched_free(s);
    ASSERT_INT_EQ(norder, 2); /* the held item and the patient one ran; the late one never */
    ASSERT_INT_EQ(order[0], 1);
    ASSERT_INT_EQ(order[1], 3);
}

/* Labels of one peer share the peer's share: rotating X-Verdict-Client labels admits no more
 * than one client would get; another peer is still admitted. */
static void test_labels_share_their_peer(void)
{
    reset();
    struct sched *s;
    char err[ERR_LEN];
    struct sched_config c = {.workers = 1, .capacity = 64, .client_share = 4};
    ASSERT_INT_EQ(sched_new(&c, &s, err), 0);
    ASSERT_INT_EQ(sched_submit(s, &(struct sched_ticket){.peer = "10.0.0.1"}, gated, NULL), 0);
    wait_entered(1);
    int ok = 0, share = 0;
    char label[16];
    for (int i = 0; i < 40; i++) {
        snprintf(label, sizeof(label), "label-%d", i);
        int rc = sched_submit(s, &(struct sched_ticket){.peer = "10.0.0.1", .client = label}, gated,
                              NULL);
        ok += rc == 0;
        share += rc == -EDQUOT;
    }
    ASSERT_INT_EQ(ok, 4);
    ASSERT_INT_EQ(share, 36);
    ASSERT_INT_EQ(
        sched_submit(s, &(struct sched_ticket){.peer = "10.0.0.2", .client = "x"}, gated, NULL), 0);
    struct sched_stats st;
    sched_get_stats(s, &st);
    ASSERT_INT_EQ(st.queued, 5);
    ASSERT_INT_EQ(st.clients, 5); /* four labels of one peer, one of the other */
    ASSERT_INT_EQ(st.peers, 2);
    open_gate();
    sched_free(s);
}

/* Turns go to peers first, then to one peer's labels: a peer that sends under many labels
 * gets one peer's turns; its labels take turns among themselves. */
static void test_round_robin_peers_then_labels(void)
{
    reset();
    struct sched *s;
    char err[ERR_LEN];
    struct sched_config c = {.workers = 1, .capacity = 64};
    ASSERT_INT_EQ(sched_new(&c, &s, err), 0);
    ASSERT_INT_EQ(sched_submit(s, &(struct sched_ticket){.peer = "P"}, gated, (void *)0), 0);
    wait_entered(1);
    const char *labels[] = {"a", "b", "c"};
    for (int i = 0; i < 6; i++) /* P: a1 b2 c3 a4 b5 c6 */
        ASSERT_INT_EQ(sched_submit(s, &(struct sched_ticket){.peer = "P", .client = labels[i % 3]},
                                   gated, (void *)(intptr_t)(i + 1)),
                      0);
    for (int i = 0; i < 2; i++) /* Q: 100, 101 */
        ASSERT_INT_EQ(sched_submit(s, &(struct sched_ticket){.peer = "Q", .client = "q"}, gated,
                                   (void *)(intptr_t)(100 + i)),
                      0);
    open_gate();
    sched_free(s);
    ASSERT_INT_EQ(norder, 9);
    int want[] = {0, 1, 100, 2, 101, 3, 4, 5, 6};
    for (int i = 0; i < 9; i++)
        ASSERT_INT_EQ(order[i], want[i]);
}

/* One peer's queued and running items hold at most client_bytes, all labels together (-ENOBUFS);
 * another peer still gets the rest, and the bytes come back as items finish. */
static void test_client_bytes(void)
{
    reset();
    struct sched *s;
    char err[ERR_LEN];
    struct sched_config c = {.workers = 1, .capacity = 64, .max_bytes = 100, .client_bytes = 40};
    ASSERT_INT_EQ(sched_new(&c, &s, err), 0);
    struct sched_ticket a1 = {.peer = "A", .client = "1", .bytes = 30},
                        a2 = {.peer = "A", .client = "2", .bytes = 10},
                        b = {.peer = "B", .bytes = 40};
    ASSERT_INT_EQ(sched_submit(s, &a1, gated, NULL), 0); /* running, still held */
    wait_entered(1);
    ASSERT_INT_EQ(sched_submit(s, &a2, gated, NULL), 0);        /* A: 40 */
    ASSERT_INT_EQ(sched_submit(s, &a2, gated, NULL), -ENOBUFS); /* A: 50 > 40 */
    ASSERT_INT_EQ(sched_submit(s, &b, gated, NULL), 0);         /* B: 40, all: 80 */
    struct sched_ticket huge = {.peer = "C", .bytes = 41};
    ASSERT_INT_EQ(sched_submit(s, &huge, gated, NULL), -ENOBUFS);
    struct sched_stats st;
    sched_get_stats(s, &st);
    ASSERT_UINT_EQ(st.refused_client_bytes, 2);
    ASSERT_UINT_EQ(st.client_bytes, 40);
    open_gate();
    for (int i = 0; i < 5000 && (sched_get_stats(s, &st), st.bytes > 0); i++)
        usleep(1000);
    ASSERT_UINT_EQ(st.bytes, 0);
    ASSERT_INT_EQ(st.peers, 0); /* a peer's entry goes with its last item */
    ASSERT_INT_EQ(sched_submit(s, &a1, quick_noop, NULL), 0);
    sched_free(s);
}

int main(void)
{
    TEST_RUN(test_round_robin_between_clients);
    TEST_RUN(test_share_refuses_a_not_b);
    TEST_RUN(test_share_small_queue_and_total_cap);
    TEST_RUN(test_bytes_bound_and_release);
    TEST_RUN(test_gpu_items_have_their_own_workers);
    TEST_RUN(test_gpu_without_gpu_workers_and_shutdown);
    TEST_RUN(test_wall_items_have_their_own_workers);
    TEST_RUN(test_queued_items_expire);
    TEST_RUN(test_labels_share_their_peer);
    TEST_RUN(test_round_robin_peers_then_labels);
    TEST_RUN(test_client_bytes);
    return TEST_EXIT();
}
