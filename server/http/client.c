/*
 * client: request out with one writev-free write loop, status line and headers read up to
 * the blank line, then the body by Content-Length or chunked transfer coding.
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

#define MAX_REPLY  (256u << 20)
#define MAX_HEADER (64u << 10)

struct client {
    char host[256];
    char port[8];
    int fd;
    char *buf; /* bytes read but not yet used */
    size_t have, cap;
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
    *out = c;
    return 0;
}

static void disconnect(struct client *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    c->have = 0;
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

/* Reads more into c->buf; 0 at end of stream, > 0 bytes read, < 0 an error. */
static ssize_t fill(struct client *c)
{
    if (c->cap - c->have < 65536) {
        size_t ncap = c->cap ? c->cap * 2 : 131072;
        if (ncap > MAX_REPLY + MAX_HEADER)
            return -EFBIG;
        char *nb = realloc(c->buf, ncap + 1);
        if (!nb)
            return -ENOMEM;
        c->buf = nb;
        c->cap = ncap;
    }
    for (;;) {
        ssize_t r = recv(c->fd, c->buf + c->have, c->cap - c->have, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno == EAGAIN ? -ETIMEDOUT : -errno;
        c->have += (size_t)r;
        c->buf[c->have] = '\0';
        return r;
    }
}

static void consume(struct client *c, size_t n)
{
    memmove(c->buf, c->buf + n, c->have - n);
    c->have -= n;
}

/* Waits until buf holds a line ending at or after from; returns its end (past "\r\n"). */
static ssize_t need_line(struct client *c, size_t from)
{
    for (;;) {
        char *nl = c->have > from ? memmem(c->buf + from, c->have - from, "\r\n", 2) : NULL;
        if (nl)
            return nl - c->buf + 2;
        if (c->have > MAX_HEADER)
            return -EPROTO;
        ssize_t r = fill(c);
        if (r <= 0)
            return r == 0 ? -ECONNRESET : r;
    }
}

static int need_bytes(struct client *c, size_t n)
{
    while (c->have < n) {
        ssize_t r = fill(c);
        if (r <= 0)
            return r == 0 ? -ECONNRESET : (int)r;
    }
    return 0;
}

static int read_reply(struct client *c, int *status, char **reply, size_t *len)
{
    ssize_t end = 0;
    size_t hdr_end = 0, content_length = (size_t)-1;
    bool chunked = false, close_after = false;
    for (size_t at = 0;;) { /* headers */
        if ((end = need_line(c, at)) < 0)
            return (int)end;
        if ((size_t)end == at + 2) {
            hdr_end = (size_t)end;
            break;
        }
        char *line = c->buf + at;
        if (at == 0 && sscanf(line, "HTTP/1.%*d %d", status) != 1)
            return -EPROTO;
        if (strncasecmp(line, "Content-Length:", 15) == 0)
            content_length = strtoul(line + 15, NULL, 10);
        else if (strncasecmp(line, "Transfer-Encoding:", 18) == 0 && strstr(line, "chunked"))
            chunked = true;
        else if (strncasecmp(line, "Connection:", 11) == 0 && strcasestr(line, "close"))
            close_after = true;
        at = (size_t)end;
    }
    consume(c, hdr_end);
    char *body = NULL;
    size_t n = 0;
    int rc = 0;
    if (chunked) {
        for (;;) {
            ssize_t le = need_line(c, 0);
            if (le < 0) {
                rc = (int)le;
                break;
            }
            size_t size = strtoul(c->buf, NULL, 16);
            consume(c, (size_t)le);
            if (size == 0) {
                rc = (int)need_line(c, 0); /* the trailer's blank line */
                if (rc > 0)
                    consume(c, (size_t)rc), rc = 0;
                break;
            }
            if (n + size > MAX_REPLY || (rc = need_bytes(c, size + 2)) < 0) {
                rc = rc < 0 ? rc : -EFBIG;
                break;
            }
            char *nb = realloc(body, n + size + 1);
            if (!nb) {
                rc = -ENOMEM;
                break;
            }
            body = nb;
            memcpy(body + n, c->buf, size);
            n += size;
            consume(c, size + 2);
        }
    } else if (content_length != (size_t)-1) {
        if (content_length > MAX_REPLY)
            rc = -EFBIG;
        else if ((rc = need_bytes(c, content_length)) == 0 && (body = malloc(content_length + 1))) {
            memcpy(body, c->buf, content_length);
            n = content_length;
            consume(c, content_length);
        } else if (rc == 0) {
            rc = -ENOMEM;
        }
    } else { /* until the server closes */
        while ((rc = (int)fill(c)) > 0)
            ;
        body = rc == 0 ? malloc(c->have + 1) : NULL;
        if (body) {
            memcpy(body, c->buf, c->have);
            n = c->have;
        }
        close_after = true;
    }
    if (rc < 0 || (!body && !(body = malloc(1)))) {
        free(body);
        return rc < 0 ? rc : -ENOMEM;
    }
    body[n] = '\0';
    *reply = body;
    *len = n;
    if (close_after)
        disconnect(c);
    return 0;
}

int client_post(struct client *c, const char *path, const char *body, size_t body_len,
                int timeout_s, char **reply, size_t *len, char err[ERR_LEN])
{
    char head[512];
    int hl = snprintf(head, sizeof(head),
                      "POST %s HTTP/1.1\r\nHost: %s:%s\r\nContent-Type: application/json\r\n"
                      "Content-Length: %zu\r\nConnection: keep-alive\r\n\r\n",
                      path, c->host, c->port, body_len);
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
    free(c->buf);
    free(c);
}
