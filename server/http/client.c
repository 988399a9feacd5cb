/*
 * client: request out with one write loop, status line and headers read up to the blank line
 * (each line and the whole head at most MAX_HEADER bytes), then the body by Content-Length,
 * chunked transfer coding or until the server closes (at most MAX_REPLY bytes; a chunk size
 * that would pass it is refused before anything is read or allocated).
 */
#include "server/http/client.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "runners/buf.h"

#define MAX_REPLY  (256u << 20)
#define MAX_HEADER (64u << 10)

struct client {
    char host[256];
    char port[8];
    int fd;
    struct buf in;    /* bytes read but not yet used */
    char extra[1024]; /* header lines sent with every request ("Name: value\r\n"...) */
};

int client_new(const char *url, struct client **out, char err[ERR_LEN])
{
    const char *p = url;
    if (strncmp(p, "http://", 7) != 0)
        return err_set(err, -EINVAL, "%.100s: only http://HOST:PORT URLs", url);
    p += 7;
    const char *colon = strrchr(p, ':'), *end = p + strcspn(p, "/");
    if (!colon || colon > end || colon == p || end - colon - 1 < 1 || end - colon - 1 > 5 ||
        (size_t)(colon - p) >= 256 || (*end && strcmp(end, "/") != 0))
        return err_set(err, -EINVAL, "%.100s: expected http://HOST:PORT", url);
    struct client *c = calloc(1, sizeof(*c));
    if (!c)
        return err_set(err, -ENOMEM, "out of memory");
    snprintf(c->host, sizeof(c->host), "%.*s", (int)(colon - p), p);
    snprintf(c->port, sizeof(c->port), "%.*s", (int)(end - colon - 1), colon + 1);
    c->fd = -1;
    buf_init(&c->in, MAX_REPLY + MAX_HEADER);
    *out = c;
    return 0;
}

static void disconnect(struct client *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    buf_fini(&c->in); /* and its sticky error: the next connection starts clean */
    buf_init(&c->in, MAX_REPLY + MAX_HEADER);
}

static int connect_to(struct client *c, int timeout_s, char err[ERR_LEN])
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *ai;
    int g = getaddrinfo(c->host, c->port, &hints, &ai);
    if (g != 0)
        return err_set(err, -EHOSTUNREACH, "%s:%s: %s", c->host, c->port, gai_strerror(g));
    int rc = -ECONNREFUSED;
    for (struct addrinfo *a = ai; a && c->fd < 0; a = a->ai_next) {
        int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0)
            continue;
        struct timeval tv = {.tv_sec = timeout_s};
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        if (connect(fd, a->ai_addr, a->ai_addrlen) == 0)
            c->fd = fd;
        else {
            rc = -errno;
            close(fd);
        }
    }
    freeaddrinfo(ai);
    return c->fd >= 0 ? 0 : err_set(err, rc, "connect %s:%s: %s", c->host, c->port, strerror(-rc));
}

static int send_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? -errno : -EPIPE;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Reads more into c->in; 0 at end of stream, > 0 bytes read, < 0 an error. */
static ssize_t fill(struct client *c)
{
    if (buf_reserve(&c->in, 65536) < 0)
        return c->in.err;
    for (;;) {
        ssize_t r = recv(c->fd, c->in.data + c->in.len, c->in.cap - c->in.len, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno == EAGAIN ? -ETIMEDOUT : -errno;
        c->in.len += (size_t)r;
        c->in.data[c->in.len] = '\0';
        return r;
    }
}

/* Waits until c->in holds a line ending at or after from; returns its end (past "\r\n").
 * A line (or header block) longer than MAX_HEADER is a protocol error. */
static ssize_t need_line(struct client *c, size_t from)
{
    for (;;) {
        char *nl = c->in.len > from ? memmem(c->in.data + from, c->in.len - from, "\r\n", 2) : NULL;
        if (nl)
            return nl - c->in.data + 2;
        if (c->in.len - from > MAX_HEADER)
            return -EPROTO;
        ssize_t r = fill(c);
        if (r <= 0)
            return r == 0 ? -ECONNRESET : r;
    }
}

static int need_bytes(struct client *c, size_t n)
{
    while (c->in.len < n) {
        ssize_t r = fill(c);
        if (r <= 0)
            return r == 0 ? -ECONNRESET : (int)r;
    }
    return 0;
}

struct head {
    int status;
    size_t content_length; /* (size_t)-1: none */
    bool chunked, close_after;
};

/* The status line and headers, up to the blank line (consumed). */
static int read_head(struct client *c, struct head *h)
{
    *h = (struct head){.content_length = (size_t)-1};
    for (size_t at = 0;;) {
        ssize_t end = need_line(c, at);
        if (end < 0)
            return (int)end;
        if ((size_t)end == at + 2) {
            buf_consume(&c->in, (size_t)end);
            return 0;
        }
        if ((size_t)end > MAX_HEADER)
            return -EPROTO;
        const char *line = c->in.data + at;
        char *num_end;
        if (at == 0 && sscanf(line, "HTTP/1.%*d %d", &h->status) != 1)
            return -EPROTO;
        if (strncasecmp(line, "Content-Length:", 15) == 0) {
            const char *v = line + 15 + strspn(line + 15, " \t");
            h->content_length = strtoul(v, &num_end, 10);
            if (num_end == v || *v < '0' || *v > '9')
                return -EPROTO;
        } else if (strncasecmp(line, "Transfer-Encoding:", 18) == 0 && strstr(line, "chunked")) {
            h->chunked = true;
        } else if (strncasecmp(line, "Connection:", 11) == 0 && strcasestr(line, "close")) {
            h->close_after = true;
        }
        at = (size_t)end;
    }
}

/* A chunked body into body (capped at MAX_REPLY). */
static int read_chunked(struct client *c, struct buf *body)
{
    for (;;) {
        ssize_t le = need_line(c, 0);
        if (le < 0)
            return (int)le;
        char *end;
        unsigned long long size = strtoull(c->in.data, &end, 16);
        if (end == c->in.data)
            return -EPROTO;
        buf_consume(&c->in, (size_t)le);
        if (size == 0) {
            ssize_t t = need_line(c, 0); /* the trailer's blank line */
            if (t < 0)
                return (int)t;
            buf_consume(&c->in, (size_t)t);
            return 0;
        }
        if (size > MAX_REPLY - body->len)
            return -EFBIG;
        int rc = need_bytes(c, (size_t)size + 2);
        if (rc < 0 || buf_append(body, c->in.data, (size_t)size) < 0)
            return rc < 0 ? rc : body->err;
        buf_consume(&c->in, (size_t)size + 2);
    }
}

/* One reply: the head, then the body by Content-Length, chunks, or until the server closes. */
static int read_reply(struct client *c, int *status, char **reply, size_t *len)
{
    struct head h;
    int rc = read_head(c, &h);
    if (rc < 0)
        return rc;
    *status = h.status;
    struct buf body;
    buf_init(&body, MAX_REPLY);
    if (h.chunked) {
        rc = read_chunked(c, &body);
    } else if (h.content_length != (size_t)-1) {
        rc = h.content_length > MAX_REPLY ? -EFBIG : need_bytes(c, h.content_length);
        if (rc == 0 && buf_append(&body, c->in.data, h.content_length) == 0)
            buf_consume(&c->in, h.content_length);
    } else { /* until the server closes */
        while ((rc = (int)fill(c)) > 0)
            ;
        if (rc == 0)
            buf_append(&body, c->in.data, c->in.len);
        h.close_after = true;
    }
    if (rc == 0 && body.err)
        rc = body.err;
    if (rc == 0 && !(*reply = buf_take(&body, len)))
        rc = -ENOMEM;
    buf_fini(&body);
    if (rc == 0 && h.close_after)
        disconnect(c);
    return rc;
}

int client_header(struct client *c, const char *name, const char *value)
{
    size_t used = strlen(c->extra);
    if (strpbrk(name, "\r\n:") || strpbrk(value, "\r\n") || !name[0])
        return -EINVAL;
    int n = snprintf(c->extra + used, sizeof(c->extra) - used, "%s: %s\r\n", name, value);
    if (n < 0 || (size_t)n >= sizeof(c->extra) - used) {
        c->extra[used] = '\0';
        return -E2BIG;
    }
    return 0;
}

int client_post(struct client *c, const char *path, const char *body, size_t body_len,
                int timeout_s, char **reply, size_t *len, char err[ERR_LEN])
{
    char head[1600];
    int hl = snprintf(head, sizeof(head),
                      "POST %s HTTP/1.1\r\nHost: %s:%s\r\nContent-Type: application/json\r\n"
                      "Content-Length: %zu\r\nConnection: keep-alive\r\n%s\r\n",
                      path, c->host, c->port, body_len, c->extra);
    if (hl < 0 || (size_t)hl >= sizeof(head))
        return err_set(err, -EINVAL, "path too long");
    for (int attempt = 0;; attempt++) {
        bool fresh = c->fd < 0;
        int rc = fresh ? connect_to(c, timeout_s, err) : 0, status = 0;
        if (rc < 0)
            return rc;
        if ((rc = send_all(c->fd, head, (size_t)hl)) == 0 &&
            (rc = send_all(c->fd, body, body_len)) == 0 &&
            (rc = read_reply(c, &status, reply, len)) == 0)
            return status;
        disconnect(c);
        /* An idle keep-alive connection the server closed fails at once: retry it once. */
        if (fresh || attempt > 0 || rc == -ETIMEDOUT)
            return err_set(err, rc, "POST %s to %s:%s: %s", path, c->host, c->port, strerror(-rc));
    }
}

void client_free(struct client *c)
{
    if (!c)
        return;
    disconnect(c);
    buf_fini(&c->in);
    free(c);
}
