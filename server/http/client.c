/*
 * client: request out with one write loop, then the reply read by client_reply (the state
 * machine of client_internal.h): each recv's bytes are fed to it, and what it leaves (an
 * incomplete line) waits in c->in for the next. The head is at most CLIENT_MAX_HEADER bytes and
 * the body, by Content-Length, chunked transfer coding or until the server closes, at most
 * CLIENT_MAX_REPLY (a length or chunk size past it is refused before its bytes are read).
 */
#include "server/http/client.h"

#include <ctype.h>
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
#include "server/http/client_internal.h"

/* c->in holds what a reply has not consumed: at most an incomplete line and one recv's bytes. */
#define MAX_PENDING (CLIENT_MAX_HEADER + (256u << 10))

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
    buf_init(&c->in, MAX_PENDING);
    *out = c;
    return 0;
}

static void disconnect(struct client *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    buf_fini(&c->in); /* and its sticky error: the next connection starts clean */
    buf_init(&c->in, MAX_PENDING);
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

/* ---- the reply reader (client_internal.h) ------------------------------------------------ */

void client_reply_init(struct client_reply *r, size_t max_head, size_t max_body)
{
    *r = (struct client_reply){.state = REPLY_HEAD, .max_head = max_head};
    buf_init(&r->body, max_body);
}

void client_reply_fini(struct client_reply *r)
{
    buf_fini(&r->body);
}

bool client_reply_done(const struct client_reply *r)
{
    return r->err == 0 && r->state == REPLY_DONE;
}

static ssize_t reply_fail(struct client_reply *r, int err)
{
    return r->err = err;
}

/* Whether the n bytes at v hold tok (ASCII case-insensitive). */
static bool has_token(const char *v, size_t n, const char *tok)
{
    size_t t = strlen(tok);
    for (size_t i = 0; i + t <= n; i++)
        if (strncasecmp(v + i, tok, t) == 0)
            return true;
    return false;
}

/* A header line's value, when the line is `name: value`; blanks around it trimmed. */
static bool header_value(const char *line, size_t n, const char *name, const char **v, size_t *vn)
{
    size_t k = strlen(name);
    if (n <= k || line[k] != ':' || strncasecmp(line, name, k) != 0)
        return false;
    const char *p = line + k + 1, *e = line + n;
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    *v = p;
    *vn = (size_t)(e - p);
    return true;
}

/* "HTTP/1.x NNN[ reason]" into r->status (100..599). */
static int status_line(struct client_reply *r, const char *line, size_t n)
{
    if (n < 12 || memcmp(line, "HTTP/1.", 7) != 0 || !isdigit((unsigned char)line[7]) ||
        line[8] != ' ' || (n > 12 && line[12] != ' '))
        return -EPROTO;
    int status = 0;
    for (int i = 9; i < 12; i++) {
        if (!isdigit((unsigned char)line[i]))
            return -EPROTO;
        status = status * 10 + (line[i] - '0');
    }
    if (status < 100 || status > 599)
        return -EPROTO;
    r->status = status;
    return 0;
}

/* Digits only (a repeat must agree): a length past UINT64_MAX is malformed, not "none". */
static int content_length(struct client_reply *r, const char *v, size_t n)
{
    uint64_t len = 0;
    if (n == 0)
        return -EPROTO;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)v[i]) || len > (UINT64_MAX - 9) / 10)
            return -EPROTO;
        len = len * 10 + (uint64_t)(v[i] - '0');
    }
    if (r->has_length && r->length != len)
        return -EPROTO;
    r->has_length = true;
    r->length = len;
    return 0;
}

static int header_line(struct client_reply *r, const char *line, size_t n)
{
    const char *v;
    size_t vn;
    if (r->status == 0)
        return status_line(r, line, n);
    if (header_value(line, n, "Content-Length", &v, &vn))
        return content_length(r, v, vn);
    if (header_value(line, n, "Transfer-Encoding", &v, &vn) && has_token(v, vn, "chunked"))
        r->chunked = true;
    else if (header_value(line, n, "Connection", &v, &vn) && has_token(v, vn, "close"))
        r->close_after = true;
    return 0;
}

/* The blank line after the headers: how the body is delimited (RFC 9112 §6.3). */
static int head_end(struct client_reply *r)
{
    if (r->status == 0)
        return -EPROTO;
    if (r->status < 200) { /* an interim reply (100 Continue): the real one follows */
        bool close_after = r->close_after;
        size_t max_head = r->max_head;
        struct buf body = r->body;
        *r = (struct client_reply){.state = REPLY_HEAD, .max_head = max_head, .body = body};
        r->close_after = close_after;
        return 0;
    }
    r->line_bytes = 0;
    if (r->status == 204 || r->status == 304) {
        r->state = REPLY_DONE;
    } else if (r->chunked) {
        r->state = REPLY_CHUNK_SIZE;
    } else if (r->has_length) {
        if (r->length > r->body.max)
            return -EFBIG;
        r->left = r->length;
        r->state = r->length ? REPLY_LENGTH : REPLY_DONE;
    } else {
        r->state = REPLY_CLOSE;
        r->close_after = true;
    }
    return 0;
}

/* A chunk-size line: hex digits, then nothing, blanks or ";extensions". */
static int chunk_size(struct client_reply *r, const char *line, size_t n)
{
    uint64_t size = 0;
    size_t i = 0;
    for (; i < n && isxdigit((unsigned char)line[i]); i++) {
        if (size >> 60)
            return -EPROTO;
        int d = isdigit((unsigned char)line[i]) ? line[i] - '0' : (line[i] | 0x20) - 'a' + 10;
        size = size << 4 | (uint64_t)d;
    }
    if (i == 0 || (i < n && line[i] != ';' && line[i] != ' ' && line[i] != '\t'))
        return -EPROTO;
    if (size > r->body.max - r->body.len)
        return -EFBIG;
    r->line_bytes = 0;
    r->left = size;
    r->state = size ? REPLY_CHUNK_DATA : REPLY_TRAILER;
    return 0;
}

/* One CRLF-terminated line (without its CRLF) in a line state. */
static int on_line(struct client_reply *r, const char *line, size_t n)
{
    switch (r->state) {
    case REPLY_HEAD:
        return n == 0 ? head_end(r) : header_line(r, line, n);
    case REPLY_CHUNK_SIZE:
        return chunk_size(r, line, n);
    case REPLY_TRAILER:
        if (n == 0)
            r->state = REPLY_DONE;
        return 0;
    default:
        return -EPROTO;
    }
}

/* Body bytes (LENGTH, CHUNK_DATA, CLOSE): as many as are here and wanted. */
static size_t body_bytes(struct client_reply *r, const char *data, size_t len)
{
    size_t take = r->state == REPLY_CLOSE || r->left > len ? len : (size_t)r->left;
    buf_append(&r->body, data, take);
    if (r->state != REPLY_CLOSE && (r->left -= take) == 0)
        r->state = r->state == REPLY_LENGTH ? REPLY_DONE : REPLY_CHUNK_END;
    return take;
}

ssize_t client_reply_feed(struct client_reply *r, const char *data, size_t len)
{
    size_t used = 0;
    while (r->err == 0 && used < len && r->state != REPLY_DONE) {
        const char *p = data + used;
        size_t avail = len - used;
        if (r->state == REPLY_LENGTH || r->state == REPLY_CHUNK_DATA || r->state == REPLY_CLOSE) {
            used += body_bytes(r, p, avail);
            if (r->body.err)
                return reply_fail(r, r->body.err);
        } else if (r->state == REPLY_CHUNK_END) {
            if (avail < 2 && *p == '\r')
                return (ssize_t)used; /* the LF is yet to come */
            if (avail < 2 || memcmp(p, "\r\n", 2) != 0)
                return reply_fail(r, -EPROTO);
            used += 2;
            r->state = REPLY_CHUNK_SIZE;
        } else {
            const char *nl = memmem(p, avail, "\r\n", 2);
            size_t n = nl ? (size_t)(nl - p) + 2 : avail;
            if (r->line_bytes + n > r->max_head)
                return reply_fail(r, -EPROTO);
            if (!nl)
                return (ssize_t)used; /* an incomplete line: fed again with more */
            r->line_bytes += n;
            used += n;
            int rc = on_line(r, p, n - 2);
            if (rc < 0)
                return reply_fail(r, rc);
        }
    }
    return r->err ? r->err : (ssize_t)used;
}

int client_reply_eof(struct client_reply *r)
{
    if (r->err)
        return r->err;
    if (r->state == REPLY_CLOSE)
        r->state = REPLY_DONE;
    return r->state == REPLY_DONE ? 0 : -ECONNRESET;
}

/* One reply: the bytes already read, then more as they arrive, until it is complete. */
static int read_reply(struct client *c, int *status, char **reply, size_t *len)
{
    struct client_reply r;
    client_reply_init(&r, CLIENT_MAX_HEADER, CLIENT_MAX_REPLY);
    int rc = 0;
    for (;;) {
        ssize_t used = client_reply_feed(&r, c->in.data, c->in.len);
        if (used < 0) {
            rc = (int)used;
            break;
        }
        buf_consume(&c->in, (size_t)used);
        if (client_reply_done(&r))
            break;
        ssize_t got = fill(c);
        if (got == 0 && (rc = client_reply_eof(&r)) == 0)
            break;
        if (got <= 0) {
            rc = got < 0 ? (int)got : rc;
            break;
        }
    }
    *status = r.status;
    if (rc == 0 && !(*reply = buf_take(&r.body, len)))
        rc = -ENOMEM;
    bool close_after = r.close_after;
    client_reply_fini(&r);
    if (rc == 0 && close_after)
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
