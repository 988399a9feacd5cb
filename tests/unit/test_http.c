/*
 * test_http: a stop never cuts a reply the server has made. A streamed body ended by its
 * producer just before http_stop (a batch's last lines as SIGTERM's shutdown stops the HTTP
 * thread) reaches a client that reads it slowly whole, to its last chunk; a client that never
 * reads does not hold the stop past HTTP_DRAIN_S, and one whose request is still being read
 * (never accepted) does not hold it at all.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "server/http/http.h"
#include "test.h"

#define STREAMED (16u << 20) /* far more than the sockets' buffers hold */
#define PIECE    (64u << 10)

struct ended {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done;
};

/* Streams STREAMED bytes of 'z' (no hexadecimal digit: the chunks' sizes never count) and ends
 * the stream at once, before the client has read any of it. */
static void handler(struct http_exchange *x, void *ctx)
{
    struct ended *e = ctx;
    static char piece[PIECE];
    memset(piece, 'z', sizeof(piece));
    http_stream_begin(x, 200, "text/plain");
    for (size_t sent = 0; sent < STREAMED; sent += PIECE)
        if (http_stream_write(x, piece, PIECE) != 0)
            break;
    http_stream_end(x);
    pthread_mutex_lock(&e->lock);
    e->done = true;
    pthread_cond_signal(&e->cond);
    pthread_mutex_unlock(&e->lock);
}

struct client {
    int port;
    int read_delay_ms; /* before the first read; < 0: never reads */
    size_t zs;         /* body bytes read */
    bool terminated;   /* the chunked body's last chunk arrived */
};

static int connect_to(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int small = 4096; /* the reply waits in the server, not in this socket */
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
    if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
        close(fd);
        return -1;
    }
    const char req[] = "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n";
    if (write(fd, req, sizeof(req) - 1) != (ssize_t)(sizeof(req) - 1)) {
        close(fd);
        return -1;
    }
    return fd;
}

static void *client_main(void *arg)
{
    struct client *c = arg;
    int fd = connect_to(c->port);
    if (fd < 0)
        return NULL;
    if (c->read_delay_ms < 0) {
        sleep(HTTP_DRAIN_S + 5); /* past the stop, which closes the connection */
        close(fd);
        return NULL;
    }
    struct timespec d = {c->read_delay_ms / 1000, (c->read_delay_ms % 1000) * 1000000L};
    nanosleep(&d, NULL);
    char buf[8192], tail[8] = {0};
    ssize_t n;
    while ((n = read(fd, buf, sizeof(buf))) > 0) {
        for (ssize_t i = 0; i < n; i++) {
            c->zs += buf[i] == 'z';
            memmove(tail, tail + 1, sizeof(tail) - 2);
            tail[sizeof(tail) - 2] = buf[i];
        }
        if (strcmp(tail, "\r\n0\r\n\r\n") == 0)
            c->terminated = true;
    }
    close(fd);
    return NULL;
}

static struct http_server *start(struct ended *e)
{
    struct http_config cfg = {.host = "127.0.0.1",
                              .max_body = 1 << 20,
                              .max_header = 16 << 10,
                              .connections = 16,
                              .timeout_s = 60};
    struct http_server *s = NULL;
    char err[ERR_LEN];
    if (http_start(&cfg, handler, e, &s, err) != 0)
        fprintf(stderr, "http_start: %s\n", err);
    return s;
}

static void wait_ended(struct ended *e)
{
    pthread_mutex_lock(&e->lock);
    while (!e->done)
        pthread_cond_wait(&e->cond, &e->lock);
    pthread_mutex_unlock(&e->lock);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_stop_sends_a_stream_ended_before_it(void)
{
    struct ended e = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false};
    struct http_server *s = start(&e);
    ASSERT_NOT_NULL(s);
    struct client c = {.port = http_port(s), .read_delay_ms = 300};
    pthread_t t;
    pthread_create(&t, NULL, client_main, &c);
    wait_ended(&e); /* everything written, almost nothing sent */
    http_quiesce(s);
    http_stop(s);
    pthread_join(t, NULL);
    ASSERT_UINT_EQ(c.zs, STREAMED);
    ASSERT_TRUE(c.terminated);
}

static void test_a_client_that_never_reads_holds_the_stop_boundedly(void)
{
    struct ended e = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false};
    struct http_server *s = start(&e);
    ASSERT_NOT_NULL(s);
    /* static: the client outlives this test (detached below), its struct must too */
    static struct client c;
    c = (struct client){.port = http_port(s), .read_delay_ms = -1};
    pthread_t t;
    pthread_create(&t, NULL, client_main, &c);
    wait_ended(&e);
    double t0 = now();
    http_quiesce(s);
    http_stop(s);
    double took = now() - t0;
    pthread_detach(t); /* it sleeps on; the process ends first */
    /* a bound, not a timing: the stop returned, and no sooner than it must have waited */
    ASSERT_TRUE(took < HTTP_DRAIN_S + 30);
    ASSERT_TRUE(took >= HTTP_DRAIN_S - 1);
}

/* A request whose body never comes was not accepted: the stop does not wait for it. */
static void test_a_request_still_being_read_is_not_waited_for(void)
{
    struct ended e = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false};
    struct http_server *s = start(&e);
    ASSERT_NOT_NULL(s);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)http_port(s))};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_INT_EQ(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
    const char head[] = "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nhalf";
    ASSERT_INT_EQ(write(fd, head, sizeof(head) - 1), (long)(sizeof(head) - 1));
    struct timespec settle = {0, 200 * 1000 * 1000}; /* the head read: an exchange exists */
    nanosleep(&settle, NULL);
    double t0 = now();
    http_quiesce(s);
    http_stop(s);
    double took = now() - t0;
    close(fd);
    ASSERT_FALSE(e.done);                 /* never handled */
    ASSERT_TRUE(took < HTTP_DRAIN_S - 1); /* not the drain's bound: nothing was waited for */
}

int main(void)
{
    TEST_RUN(test_stop_sends_a_stream_ended_before_it);
    TEST_RUN(test_a_client_that_never_reads_holds_the_stop_boundedly);
    TEST_RUN(test_a_request_still_being_read_is_not_waited_for);
    return TEST_EXIT();
}
