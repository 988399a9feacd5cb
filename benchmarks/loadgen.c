/*
 * loadgen: a closed-loop HTTP/1.1 load generator over keep-alive connections, and the
 * baseline it is read against (posix_spawn + wait of a program, as many at once).
 *
 *   loadgen http --port P [--host 127.0.0.1] [--method GET|POST] [--path /v1/ping]
 *                [--body-file F] [--expect TEXT] [--conns N] [--threads T]
 *                [--requests M] [--seconds S] [--warmup W] [--label L]
 *   loadgen spawn --program PATH [--conns N] [--requests M] [--seconds S] [--label L]
 *
 * http: N connections, each with one request in flight (the next is sent when the answer has
 * been read whole: Content-Length or chunked), spread over T threads with an epoll each. It
 * stops sending after M answers or S seconds, whichever comes first, and waits up to 60 s
 * more for the answers still in flight, which count; the first W answers of each
 * connection are not counted (connection set-up, caches). An answer that is not 2xx, or does
 * not contain --expect, counts as an error. A connection the server closes is reopened.
 * spawn: N threads each posix_spawn the program (no arguments, stdio on /dev/null) and wait
 * for it, with the same bounds; a non-zero exit is an error.
 *
 * Prints one JSON line: {"label", "mode", "conns", "requests", "errors", "seconds", "rps",
 * "p50_ms", "p90_ms", "p99_ms", "max_ms"}. It asserts nothing; exit 1 only when it could not
 * run at all (bad arguments, nothing answered).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS   4096
#define MAX_THREADS 64
#define RBUF        (1 << 16)
#define DRAIN_S     60.0 /* seconds past the deadline the answers in flight are waited for */

extern char **environ;

struct opts {
    const char *mode, *host, *method, *path, *body_file, *expect, *label, *program;
    int port, conns, threads, warmup;
    long requests;
    double seconds;
};

static struct opts o = {.host = "127.0.0.1",
                        .method = "GET",
                        .path = "/v1/ping",
                        .label = "",
                        .conns = 1,
                        .threads = 0,
                        .warmup = 1,
                        .requests = 1000000000L,
                        .seconds = 10};

static char *request;
static size_t request_len;
static struct sockaddr_in addr;
static double t_start, t_deadline;
static atomic_long counted;  /* answers counted so far (all threads) */
static atomic_bool stopping; /* the count or the time is reached */
static double t_first;       /* when the first counted answer came */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Latencies of one thread, seconds. */
struct lat {
    double *v;
    size_t n, cap;
    long errors;
};

static void lat_add(struct lat *l, double d)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 4096;
        double *v = realloc(l->v, cap * sizeof(*v));
        if (!v)
            return;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = d;
}

/* Counts one answer toward the bound (past the deadline too: the answers in flight then
 * count); false once M were counted. */
static bool count_one(void)
{
    long i = atomic_fetch_add(&counted, 1);
    if (i >= o.requests)
        return false;
    double t = now_s();
    if (i == 0)
        t_first = t; /* one thread only: the one that counted first */
    if (i + 1 >= o.requests || t >= t_deadline)
        atomic_store(&stopping, true);
    return true;
}

/* ---- http ------------------------------------------------------------------------------- */

struct conn {
    int fd;
    size_t sent;   /* bytes of the request written */
    char *buf;     /* the answer so far */
    size_t len;    /* bytes in buf */
    size_t cap;    /* bytes buf holds */
    size_t parsed; /* where the body (or the next chunk line) starts */
    long body_len; /* Content-Length, or -1: chunked */
    int status;
    int answers; /* on this connection, for the warm-up */
    double t0;
};

static int conn_open(struct conn *c, int ep)
{
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0)
        return -1;
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    if (connect(c->fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 && errno != EINPROGRESS) {
        close(c->fd);
        c->fd = -1;
        return -1;
    }
    c->sent = c->len = c->parsed = 0;
    c->body_len = -2; /* headers not yet read */
    c->answers = 0;
    c->t0 = now_s();
    struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT, .data.ptr = c};
    return epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev);
}

/* A connection refused or closed is opened again (for a second at most: a server that is
 * gone leaves the connection out). */
static void conn_reopen(struct conn *c, int ep)
{
    if (c->fd >= 0) {
        epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
    }
    for (int tries = 0; conn_open(c, ep) < 0; tries++) {
        if (c->fd >= 0)
            close(c->fd);
        c->fd = -1;
        if (tries >= 100)
            return;
        usleep(10000);
    }
}

/* Parses what has arrived. Returns 1 when the answer is whole, 0 when more is needed, -1 on
 * a malformed answer. */
static int parse(struct conn *c)
{
    if (c->body_len == -2) {
        char *end = memmem(c->buf, c->len, "\r\n\r\n", 4);
        if (!end)
            return c->len >= RBUF - 1 ? -1 : 0; /* headers past 64 KiB: not an answer of ours */
        *end = '\0';
        if (sscanf(c->buf, "HTTP/1.%*d %d", &c->status) != 1)
            return -1;
        c->body_len = -1;
        bool chunked = false, length = false;
        for (char *line = strstr(c->buf, "\r\n"); line && line < end; line = strstr(line, "\r\n")) {
            line += 2;
            if (strncasecmp(line, "content-length:", 15) == 0) {
                c->body_len = strtol(line + 15, NULL, 10);
                length = true;
            } else if (strncasecmp(line, "transfer-encoding:", 18) == 0 &&
                       strcasestr(line, "chunked")) {
                chunked = true;
            }
        }
        if (!length && !chunked)
            return -1;
        *end = '\r';
        c->parsed = (size_t)(end - c->buf) + 4;
    }
    if (c->body_len >= 0)
        return c->len - c->parsed >= (size_t)c->body_len ? 1 : 0;
    /* chunked: size line, data, CRLF; the last chunk is 0 and a blank line */
    for (;;) {
        char *p = c->buf + c->parsed, *eol = memmem(p, c->len - c->parsed, "\r\n", 2);
        if (!eol)
            return 0;
        long n = strtol(p, NULL, 16);
        size_t need = (size_t)(eol - p) + 2 + (size_t)n + 2;
        if (n < 0)
            return -1;
        if (c->len - c->parsed < need)
            return 0;
        c->parsed += need;
        if (n == 0)
            return 1;
    }
}

/* The answer is whole: judge it, restart the connection's buffer. */
static void answered(struct conn *c, struct lat *l)
{
    double t = now_s();
    bool ok = c->status >= 200 && c->status < 300;
    if (ok && o.expect) {
        ok = memmem(c->buf, c->len, o.expect, strlen(o.expect)) != NULL;
    }
    if (c->answers++ >= o.warmup && count_one()) {
        if (ok)
            lat_add(l, t - c->t0);
        else
            l->errors++;
    }
    c->sent = c->len = c->parsed = 0;
    c->body_len = -2;
    c->t0 = t;
}

/* Sends what is left of the request; waits for writability only when the socket is full. */
static int try_send(struct conn *c, int ep)
{
    while (c->sent < request_len) {
        ssize_t n = send(c->fd, request + c->sent, request_len - c->sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EAGAIN) {
            struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT, .data.ptr = c};
            return epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev) < 0 ? -1 : 0;
        }
        if (n <= 0)
            return -1;
        c->sent += (size_t)n;
    }
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
    return epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev) < 0 ? -1 : 0;
}

struct worker {
    pthread_t th;
    struct conn *conns;
    int n;
    struct lat lat;
};

/* Whether one of w's connections has sent a request not yet answered. */
static bool in_flight(const struct worker *w)
{
    for (int i = 0; i < w->n; i++)
        if (w->conns[i].fd >= 0 && w->conns[i].sent > 0)
            return true;
    return false;
}

static void *http_worker(void *arg)
{
    struct worker *w = arg;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    for (int i = 0; i < w->n; i++) {
        w->conns[i].buf = malloc(RBUF);
        w->conns[i].cap = RBUF;
        if (conn_open(&w->conns[i], ep) < 0)
            conn_reopen(&w->conns[i], ep);
    }
    struct epoll_event evs[256];
    /* Past the deadline no request is sent, and the ones in flight are waited for (up to
     * DRAIN_S): a figure whose requests each take longer than --seconds (a batch on a loaded
     * machine) still counts the answers it was sent. */
    while (!atomic_load(&stopping) || (in_flight(w) && now_s() < t_deadline + DRAIN_S)) {
        int n = epoll_wait(ep, evs, 256, 100);
        if (now_s() >= t_deadline)
            atomic_store(&stopping, true);
        for (int k = 0; k < n; k++) {
            struct conn *c = evs[k].data.ptr;
            if (c->fd < 0)
                continue;
            if (c->sent < request_len && (evs[k].events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) &&
                try_send(c, ep) < 0) {
                conn_reopen(c, ep);
                continue;
            }
            if (!(evs[k].events & (EPOLLIN | EPOLLERR | EPOLLHUP)))
                continue;
            for (;;) {
                if (c->len + 1 >= c->cap) { /* a larger answer: room for it */
                    char *nb = realloc(c->buf, c->cap * 2);
                    if (!nb) {
                        w->lat.errors++;
                        conn_reopen(c, ep);
                        break;
                    }
                    c->buf = nb;
                    c->cap *= 2;
                }
                ssize_t r = recv(c->fd, c->buf + c->len, c->cap - 1 - c->len, 0);
                if (r < 0 && errno == EAGAIN)
                    break;
                if (r <= 0) { /* closed by the server: reopen and send again */
                    conn_reopen(c, ep);
                    break;
                }
                c->len += (size_t)r;
                int p = parse(c);
                if (p < 0) {
                    w->lat.errors++;
                    conn_reopen(c, ep);
                    break;
                }
                if (p == 1) {
                    answered(c, &w->lat);
                    if (!atomic_load(&stopping) && try_send(c, ep) < 0)
                        conn_reopen(c, ep);
                    break;
                }
            }
        }
    }
    for (int i = 0; i < w->n; i++) {
        if (w->conns[i].fd >= 0)
            close(w->conns[i].fd);
        free(w->conns[i].buf);
    }
    close(ep);
    return NULL;
}

static int build_request(void)
{
    char *body = NULL;
    size_t blen = 0;
    if (o.body_file) {
        FILE *f = fopen(o.body_file, "rb");
        if (!f) {
            perror(o.body_file);
            return -1;
        }
        struct stat st;
        fstat(fileno(f), &st);
        blen = (size_t)st.st_size;
        body = malloc(blen + 1);
        if (!body || fread(body, 1, blen, f) != blen) {
            fclose(f);
            return -1;
        }
        fclose(f);
    }
    size_t cap = blen + 512 + strlen(o.path);
    request = malloc(cap);
    if (!request)
        return -1;
    int n = snprintf(request, cap,
                     "%s %s HTTP/1.1\r\nHost: %s:%d\r\nConnection: keep-alive\r\n"
                     "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n",
                     o.method, o.path, o.host, o.port, blen);
    if (body)
        memcpy(request + n, body, blen);
    request_len = (size_t)n + blen;
    free(body);
    return 0;
}

/* ---- spawn ------------------------------------------------------------------------------ */

static void *spawn_worker(void *arg)
{
    struct worker *w = arg;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {(char *)(uintptr_t)o.program, NULL};
    for (int i = 0; !atomic_load(&stopping); i++) {
        double t0 = now_s();
        pid_t pid;
        int st = 0;
        bool ok = posix_spawn(&pid, o.program, &fa, NULL, argv, environ) == 0 &&
                  waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
        double t = now_s();
        if (t >= t_deadline)
            atomic_store(&stopping, true);
        if (i >= o.warmup && count_one()) {
            if (ok)
                lat_add(&w->lat, t - t0);
            else
                w->lat.errors++;
        }
    }
    posix_spawn_file_actions_destroy(&fa);
    return NULL;
}

/* ---- report ----------------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(const double *v, size_t n, double p)
{
    if (n == 0)
        return 0;
    size_t i = (size_t)(p / 100.0 * (double)(n - 1) + 0.5);
    return v[i < n ? i : n - 1];
}

static void usage(void)
{
    fprintf(stderr, "usage: loadgen http --port P [--host H] [--method M] [--path P] "
                    "[--body-file F] [--expect TEXT] [--conns N] [--threads T] [--requests M] "
                    "[--seconds S] [--warmup W] [--label L]\n"
                    "       loadgen spawn --program PATH [--conns N] [--requests M] "
                    "[--seconds S] [--warmup W] [--label L]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage();
    o.mode = argv[1];
    bool http = strcmp(o.mode, "http") == 0;
    if (!http && strcmp(o.mode, "spawn") != 0)
        usage();
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            usage();
        i++;
        if (!strcmp(a, "--host"))
            o.host = v;
        else if (!strcmp(a, "--port"))
            o.port = atoi(v);
        else if (!strcmp(a, "--method"))
            o.method = v;
        else if (!strcmp(a, "--path"))
            o.path = v;
        else if (!strcmp(a, "--body-file"))
            o.body_file = v;
        else if (!strcmp(a, "--expect"))
            o.expect = v;
        else if (!strcmp(a, "--conns"))
            o.conns = atoi(v);
        else if (!strcmp(a, "--threads"))
            o.threads = atoi(v);
        else if (!strcmp(a, "--requests"))
            o.requests = atol(v);
        else if (!strcmp(a, "--seconds"))
            o.seconds = atof(v);
        else if (!strcmp(a, "--warmup"))
            o.warmup = atoi(v);
        else if (!strcmp(a, "--label"))
            o.label = v;
        else if (!strcmp(a, "--program"))
            o.program = v;
        else
            usage();
    }
    if (o.conns < 1 || o.conns > MAX_CONNS || o.requests < 1 || o.seconds <= 0 || o.warmup < 0)
        usage();
    int nthreads = http ? (o.threads > 0 ? o.threads : (o.conns < 2 ? 1 : 2)) : o.conns;
    if (nthreads > o.conns)
        nthreads = o.conns;
    if (nthreads > MAX_THREADS)
        nthreads = MAX_THREADS;
    if (http) {
        if (o.port <= 0 || build_request() < 0)
            usage();
        addr = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons((uint16_t)o.port)};
        if (inet_pton(AF_INET, o.host, &addr.sin_addr) != 1)
            usage();
    } else if (!o.program) {
        usage();
    }
    struct conn *conns = calloc((size_t)o.conns, sizeof(*conns));
    struct worker *ws = calloc((size_t)nthreads, sizeof(*ws));
    if (!conns || !ws)
        return 1;
    t_start = now_s();
    t_deadline = t_start + o.seconds;
    for (int t = 0, next = 0; t < nthreads; t++) {
        int share = o.conns / nthreads + (t < o.conns % nthreads);
        ws[t].conns = conns + next;
        ws[t].n = share;
        next += share;
        if (pthread_create(&ws[t].th, NULL, http ? http_worker : spawn_worker, &ws[t]) != 0) {
            fprintf(stderr, "loadgen: cannot start thread %d of %d\n", t, nthreads);
            return 1;
        }
    }
    size_t total = 0;
    long errors = 0;
    for (int t = 0; t < nthreads; t++) {
        pthread_join(ws[t].th, NULL);
        total += ws[t].lat.n;
        errors += ws[t].lat.errors;
    }
    /* The rate is over the counted part: from the first counted answer to the end; from the
     * start when no answer came before the deadline (each took longer than --seconds). */
    double t_end = now_s();
    double secs = t_end - (t_first > 0 && t_first < t_deadline ? t_first : t_start);
    double *all = malloc((total + 1) * sizeof(*all));
    if (!all)
        return 1;
    size_t k = 0;
    for (int t = 0; t < nthreads; t++) {
        if (ws[t].lat.n) /* a thread may have counted nothing (v NULL): 64 spawners, loaded */
            memcpy(all + k, ws[t].lat.v, ws[t].lat.n * sizeof(*all));
        k += ws[t].lat.n;
        free(ws[t].lat.v);
    }
    qsort(all, total, sizeof(*all), cmp_double);
    printf("{\"label\": \"%s\", \"mode\": \"%s\", \"target\": \"%s\", \"conns\": %d, "
           "\"requests\": %zu, \"errors\": %ld, \"seconds\": %.3f, \"rps\": %.1f, "
           "\"p50_ms\": %.3f, \"p90_ms\": %.3f, \"p99_ms\": %.3f, \"max_ms\": %.3f}\n",
           o.label, o.mode, http ? o.path : o.program, o.conns, total, errors, secs,
           (double)(total + (size_t)errors) / secs, pct(all, total, 50) * 1e3,
           pct(all, total, 90) * 1e3, pct(all, total, 99) * 1e3,
           total ? all[total - 1] * 1e3 : 0.0);
    free(all);
    free(conns);
    free(ws);
    return total > 0 ? 0 : 1;
}
