/*
 * http: libmicrohttpd, one internal polling thread (poll), connections suspended while their
 * request waits for the sandbox.
 *
 * poll, not epoll: libmicrohttpd's epoll loop (0.9.75 and earlier) takes at most 128 events
 * per epoll_wait and, when it got exactly 128, waits again, with the blocking timeout, before
 * handling them; 128 connections ready at once (a load of 128 or 256 in flight) then stalled
 * until some other event came (measured: 128 keep-alive clients, 63 answers/s instead of
 * 25,000/s). poll has no such loop and no FD_SETSIZE bound.
 *
 * Each request gets an exchange allocated on MHD's first callback; body chunks are appended
 * (beyond max_body they are counted and dropped, and the answer is 413). On the last callback
 * the handler runs. Whether the handler replied at once or a worker replies later is settled
 * under the exchange's mutex: the MHD thread suspends the connection only if no reply is there
 * yet, and a late reply resumes it; MHD then calls back once more and the stored response is
 * queued. The completion callback frees the exchange.
 *
 * The first callback comes when the head is complete, before any of the body is read: there
 * the head's framing is checked (framing_check), and a request framed ambiguously is answered
 * at once with Connection: close, its body never read as a request. libmicrohttpd keeps the
 * per-address connection cap (MHD_OPTION_PER_IP_CONNECTION_LIMIT) and the inactivity timeout,
 * which a suspended connection does not run. Streamed bytes not yet taken by MHD are charged
 * to the peer address (struct peer, one per address with a stream open); a stream past its
 * own cap or its peer's budget is cut: its pending bytes freed, the connection closed.
 */
#include "server/http/http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "runners/buf.h"
#include "server/util/utf8.h"

struct http_server {
    struct MHD_Daemon *mhd;
    http_handler handler;
    void *ctx;
    size_t max_body;
    int port;
    int quiesced_fd; /* the listening socket once quiesced (ours to close after the stop); -1 */
    /* Streamed bytes written and not yet taken by MHD, per peer address, under peers_lock
     * (taken after an exchange's lock, never before). */
    pthread_mutex_t peers_lock;
    struct peer *peers; /* those with a stream open */
    size_t peer_stream_bytes;
    int live; /* exchanges handled and not yet freed (atomic): http_stop waits for them */
};

/* A peer address with a stream open: what its streams hold unsent, and how many there are. */
struct peer {
    struct peer *next;
    uint32_t addr; /* IPv4, network order */
    size_t held;
    int streams;
};

enum state { READING, HANDLED, SUSPENDED, REPLIED };

struct http_exchange {
    struct http_server *srv;
    struct MHD_Connection *conn;
    pthread_mutex_t lock;
    enum state state;
    bool replied;
    bool too_large;
    bool refused; /* its framing was refused at the head: no handler, no body */
    char method[16];
    char path[512];
    struct buf body; /* capped at max_body: past it, too_large */
    int status;
    char *reply;
    size_t reply_len;
    char content_type[64];
    int nheaders;
    char headers[HTTP_MAX_HEADERS][2][HTTP_HEADER_VALUE];
    double started;  /* CLOCK_MONOTONIC seconds at the first callback */
    char peer[48];   /* the peer's IPv4 address ("?" when unknown) */
    uint32_t addr;   /* the same, network order (0 when unknown) */
    char label[128]; /* the X-Verdict-Client header ("" none) */
    /* X-Forwarded-For's last entry and X-Real-IP, as sent (cut to fit; NUL: none): copied at
     * arrival, since a handler may run on another thread than MHD's (api_intake) */
    char forwarded[64], real_ip[64];
    bool has_forwarded, has_real_ip;
    /* Streaming (http_stream_*): pending bytes, whether it ended, whether MHD waits on us. */
    bool streaming, stream_ended, stream_waiting;
    bool stream_cut;    /* past a bound: what was pending dropped, the connection to be closed */
    bool closed;        /* MHD is done with the connection (a late producer writes into nothing) */
    bool live;          /* counted in srv->live (its request was read whole and handled) */
    int refs;           /* MHD's, and a stream producer's until http_stream_end */
    struct buf pending; /* written, not yet read by MHD (capped: HTTP_MAX_PENDING) */
    size_t pending_off;
    struct peer *pe; /* the peer's entry while streaming (NULL: not counted) */
};

static struct http_exchange *exchange_new(struct http_server *s, struct MHD_Connection *c,
                                          const char *url, const char *method)
{
    struct http_exchange *x = calloc(1, sizeof(*x));
    if (!x)
        return NULL;
    x->srv = s;
    x->conn = c;
    x->refs = 1;
    pthread_mutex_init(&x->lock, NULL);
    snprintf(x->method, sizeof(x->method), "%s", method);
    snprintf(x->path, sizeof(x->path), "%s", url);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    x->started = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
    snprintf(x->peer, sizeof(x->peer), "?");
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr_in *sa = ci ? (const struct sockaddr_in *)ci->client_addr : NULL;
    if (sa && sa->sin_family == AF_INET) {
        inet_ntop(AF_INET, &sa->sin_addr, x->peer, sizeof(x->peer));
        x->addr = sa->sin_addr.s_addr;
    }
    const char *label = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Verdict-Client");
    utf8_copy(x->label, sizeof(x->label), label); /* stored and shown: valid UTF-8 */
    const char *xff = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Forwarded-For");
    if ((x->has_forwarded = xff != NULL)) {
        const char *last = strrchr(xff, ',');
        snprintf(x->forwarded, sizeof(x->forwarded), "%s", last ? last + 1 : xff);
    }
    const char *real = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Real-IP");
    if ((x->has_real_ip = real != NULL))
        snprintf(x->real_ip, sizeof(x->real_ip), "%s", real);
    buf_init(&x->body, s->max_body);
    buf_init(&x->pending, HTTP_MAX_PENDING);
    return x;
}

static void drop_pending(struct http_exchange *x);
static void peer_leave(struct http_server *s, struct peer *p);

static void exchange_free(struct http_exchange *x)
{
    if (x->pe) {
        drop_pending(x);
        peer_leave(x->srv, x->pe);
    }
    pthread_mutex_destroy(&x->lock);
    buf_fini(&x->pending);
    buf_fini(&x->body);
    free(x->reply);
    if (x->live)
        __atomic_sub_fetch(&x->srv->live, 1, __ATOMIC_RELEASE);
    free(x);
}

/* Appends a body chunk; false when out of memory (past max_body it is dropped: 413). */
static bool append(struct http_exchange *x, const char *data, size_t n)
{
    if (x->too_large)
        return true;
    buf_append(&x->body, data, n);
    x->too_large = x->body.err == -EFBIG;
    return x->body.err != -ENOMEM;
}

/* ---- per-peer accounting of streamed bytes ------------------------------------------ */

/* The peer's entry, made on its first stream; NULL when out of memory (its streams are then
 * bounded by HTTP_MAX_PENDING alone). Linear in the peers with a stream open, once a stream. */
static struct peer *peer_join(struct http_server *s, uint32_t addr)
{
    pthread_mutex_lock(&s->peers_lock);
    struct peer *p = s->peers;
    while (p && p->addr != addr)
        p = p->next;
    if (!p && (p = calloc(1, sizeof(*p)))) {
        p->addr = addr;
        p->next = s->peers;
        s->peers = p;
    }
    if (p)
        p->streams++;
    pthread_mutex_unlock(&s->peers_lock);
    return p;
}

/* A stream of the peer is over (its bytes released before): the last one frees the entry. */
static void peer_leave(struct http_server *s, struct peer *p)
{
    pthread_mutex_lock(&s->peers_lock);
    if (--p->streams == 0) {
        struct peer **pp = &s->peers;
        while (*pp != p)
            pp = &(*pp)->next;
        *pp = p->next;
        free(p);
    }
    pthread_mutex_unlock(&s->peers_lock);
}

/* Charges n more bytes to the peer; false (nothing charged) past its budget. */
static bool peer_charge(struct http_server *s, struct peer *p, size_t n)
{
    if (!p || !s->peer_stream_bytes)
        return true;
    pthread_mutex_lock(&s->peers_lock);
    bool ok = n <= s->peer_stream_bytes && p->held <= s->peer_stream_bytes - n;
    if (ok)
        p->held += n;
    pthread_mutex_unlock(&s->peers_lock);
    return ok;
}

static void peer_release(struct http_server *s, struct peer *p, size_t n)
{
    if (!p || !s->peer_stream_bytes || n == 0)
        return;
    pthread_mutex_lock(&s->peers_lock);
    p->held -= n;
    pthread_mutex_unlock(&s->peers_lock);
}

/* Drops what is pending, released from the peer's account. Under x->lock (or the last ref). */
static void drop_pending(struct http_exchange *x)
{
    peer_release(x->srv, x->pe, x->pending.len - x->pending_off);
    buf_fini(&x->pending);
    buf_init(&x->pending, HTTP_MAX_PENDING);
    x->pending_off = 0;
}

/* MHD asks for more body: hand what is pending, or suspend until a write resumes us; a cut
 * stream ends with an error, which closes the connection without the last chunk. */
static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct http_exchange *x = cls;
    pthread_mutex_lock(&x->lock);
    ssize_t n;
    if (x->stream_cut) {
        n = MHD_CONTENT_READER_END_WITH_ERROR;
    } else if (x->pending_off < x->pending.len) {
        size_t left = x->pending.len - x->pending_off;
        n = (ssize_t)(left < max ? left : max);
        memcpy(buf, x->pending.data + x->pending_off, (size_t)n);
        x->pending_off += (size_t)n;
        peer_release(x->srv, x->pe, (size_t)n);
        if (x->pending_off == x->pending.len) {
            x->pending_off = 0;
            buf_consume(&x->pending, x->pending.len);
        }
    } else if (x->stream_ended) {
        n = MHD_CONTENT_READER_END_OF_STREAM;
    } else {
        x->stream_waiting = true;
        MHD_suspend_connection(x->conn); /* http_stream_write resumes it */
        n = 0;
    }
    pthread_mutex_unlock(&x->lock);
    return n;
}

static enum MHD_Result queue_stream(struct http_exchange *x)
{
    struct MHD_Response *r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384, stream_read, x, NULL);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, x->content_type);
    enum MHD_Result rc = MHD_queue_response(x->conn, (unsigned)x->status, r);
    MHD_destroy_response(r);
    return rc;
}

void http_stream_begin(struct http_exchange *x, int status, const char *content_type)
{
    struct peer *pe = peer_join(x->srv, x->addr);
    pthread_mutex_lock(&x->lock);
    x->pe = pe;
    x->streaming = true;
    x->refs++; /* the producer's, dropped by http_stream_end */
    x->status = status;
    snprintf(x->content_type, sizeof(x->content_type), "%s", content_type);
    if (x->state == SUSPENDED) /* begun after the handler returned: MHD queues it on resume */
        MHD_resume_connection(x->conn);
    pthread_mutex_unlock(&x->lock);
}

static void wake(struct http_exchange *x)
{
    if (x->stream_waiting && !x->closed) {
        x->stream_waiting = false;
        MHD_resume_connection(x->conn);
    }
}

int http_stream_write(struct http_exchange *x, const char *data, size_t len)
{
    pthread_mutex_lock(&x->lock);
    int rc = x->closed ? -EPIPE : x->stream_ended ? -ESHUTDOWN : 0;
    if (rc == 0 && !peer_charge(x->srv, x->pe, len))
        rc = -EFBIG; /* the peer's streams hold their budget unread */
    else if (rc == 0 && (rc = buf_append(&x->pending, data, len)) < 0)
        peer_release(x->srv, x->pe, len); /* this one holds HTTP_MAX_PENDING, or no memory */
    if (rc == -EFBIG || rc == -ENOMEM) {  /* a reader too slow: cut, and close the connection */
        x->stream_ended = x->stream_cut = true;
        drop_pending(x);
    }
    if (rc == 0 || x->stream_cut)
        wake(x);
    pthread_mutex_unlock(&x->lock);
    return rc;
}

/* Drops one reference; the last one frees the exchange. */
static void unref(struct http_exchange *x)
{
    pthread_mutex_lock(&x->lock);
    bool last = --x->refs == 0;
    pthread_mutex_unlock(&x->lock);
    if (last)
        exchange_free(x);
}

void http_stream_end(struct http_exchange *x)
{
    pthread_mutex_lock(&x->lock);
    x->stream_ended = true;
    wake(x);
    pthread_mutex_unlock(&x->lock);
    unref(x);
}

static enum MHD_Result queue(struct http_exchange *x)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(
        x->reply_len, x->reply ? x->reply : (char *)(uintptr_t) "", MHD_RESPMEM_MUST_COPY);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
                            x->content_type[0] ? x->content_type : "application/json");
    for (int i = 0; i < x->nheaders; i++)
        MHD_add_response_header(r, x->headers[i][0], x->headers[i][1]);
    enum MHD_Result rc = MHD_queue_response(x->conn, (unsigned)x->status, r);
    MHD_destroy_response(r);
    return rc;
}

/* ---- framing ---------------------------------------------------------------------------- */

/* What the head says about the body's framing, gathered over its header lines. */
struct framing {
    int cl, te;           /* Content-Length, Transfer-Encoding lines */
    const char *cl_value; /* the first of each */
    const char *te_value;
    const char *bad; /* a line that is no header: folded, or its name no token */
    bool folded;
};

static bool token_char(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           (ch && strchr("!#$%&'*+-.^_`|~", ch));
}

/* libmicrohttpd up to 0.9.75 joins an obs-folded line (one starting with a space or tab) to
 * the previous header's NAME, copied to a block of its own ("Content-Length:" then " 5" reads
 * as a header "Content-Length5" with an empty value, so no length, and the body is read as
 * the next request), and gives no sign of it. Every other header's name and value lie as
 * they were read, in its read buffer: the name, the NUL that was the colon, optional spaces
 * or tabs, the value. A header whose value does not follow its name so was folded. Later
 * versions replace a fold with spaces in the value, as RFC 9112 allows; their layout differs,
 * so the test is theirs to skip. */
static bool folded(const char *key, size_t klen, const char *value)
{
#if MHD_VERSION <= 0x00097500
    uintptr_t k = (uintptr_t)key + klen + 1, v = (uintptr_t)value;
    if (!value || v < k || v - k > 4096 || key[klen] != '\0')
        return true;
    for (const char *p = key + klen + 1; p < value; p++)
        if (*p != ' ' && *p != '\t')
            return true;
#else
    (void)key, (void)klen, (void)value;
#endif
    return false;
}

static enum MHD_Result framing_line(void *cls, enum MHD_ValueKind kind, const char *key,
                                    size_t klen, const char *value, size_t vlen)
{
    (void)kind;
    (void)vlen;
    struct framing *f = cls;
    bool token = klen > 0;
    for (size_t i = 0; i < klen && token; i++)
        token = token_char((unsigned char)key[i]);
    if (!token || folded(key, klen, value)) {
        f->bad = key;
        f->folded = token;
        return MHD_NO;
    }
    if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0 && f->cl++ == 0)
        f->cl_value = value;
    if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0 && f->te++ == 0)
        f->te_value = value;
    return MHD_YES;
}

/* Whether the head frames its body one way only (RFC 9112 6): 0, or the status to refuse it
 * with, the header at fault in *header and why in *why. Checked when the head is complete,
 * before any of the body is read. */
static int framing_check(struct MHD_Connection *c, const char *version, const char **header,
                         const char **why)
{
    struct framing f = {0};
    MHD_get_connection_values_n(c, MHD_HEADER_KIND, framing_line, &f);
    *header = MHD_HTTP_HEADER_CONTENT_LENGTH;
    if (f.bad) {
        *header = f.bad;
        *why = f.folded ? "a header line folded onto the next (obsolete line folding; as read, "
                          "the continuation joined to the name)"
                        : "a header name that is not a token (a space before the colon?)";
        return 400;
    }
    if (f.cl > 1)
        return *why = "several Content-Length headers", 400;
    if (f.te && f.cl)
        return *why = "Content-Length together with Transfer-Encoding", 400;
    *header = MHD_HTTP_HEADER_TRANSFER_ENCODING;
    if (f.te > 1)
        return *why = "several Transfer-Encoding headers", 400;
    if (f.te && strcmp(version, MHD_HTTP_VERSION_1_0) == 0)
        return *why = "Transfer-Encoding in an HTTP/1.0 request", 400;
    if (f.te && strcasecmp(f.te_value, "chunked") != 0)
        return *why = "only the chunked Transfer-Encoding is implemented", 501;
    *header = MHD_HTTP_HEADER_CONTENT_LENGTH;
    /* libmicrohttpd itself answers a Content-Length that is not a number 400 (413 past 2^64)
     * and closes, before any handler is called; this is for a version that would not */
    size_t digits = f.cl_value ? strspn(f.cl_value, "0123456789") : 0;
    if (f.cl && (digits == 0 || f.cl_value[digits] != '\0'))
        return *why = "a Content-Length that is not a decimal number", 400;
    return 0;
}

/* Refuses the request at its head: a JSON answer naming the header, and the connection
 * closed after it (so that no byte after the head is read as a request). */
static enum MHD_Result refuse(struct http_exchange *x, int status, const char *header,
                              const char *why)
{
    struct buf b;
    buf_init(&b, 4096);
    buf_printf(&b, "{\"detail\":\"%s\",\"header\":\"", why);
    for (const char *p = header; *p && b.len < 1024; p++) /* a token, or what broke one */
        if ((unsigned char)*p >= 0x20 && *p != '"' && *p != '\\' && (unsigned char)*p < 0x7f)
            buf_append(&b, p, 1);
        else
            buf_printf(&b, "\\u%04x", (unsigned char)*p);
    buf_append(&b, "\"}", 2);
    if (!(x->reply = buf_take(&b, &x->reply_len)))
        return MHD_NO; /* out of memory: closed unanswered */
    x->refused = x->replied = true;
    x->state = REPLIED;
    x->status = status;
    http_add_header(x, MHD_HTTP_HEADER_CONNECTION, "close");
    return queue(x);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *data,
                                  size_t *size, void **con_cls)
{
    struct http_server *s = cls;
    struct http_exchange *x = *con_cls;
    if (!x) {
        if (!(x = exchange_new(s, c, url, method)))
            return MHD_NO;
        *con_cls = x;
        const char *header, *why;
        int status = framing_check(c, version, &header, &why);
        return status ? refuse(x, status, header, why) : MHD_YES;
    }
    if (x->refused) {
        *size = 0;
        return MHD_YES;
    }
    if (*size > 0) {
        bool ok = append(x, data, *size);
        *size = 0;
        return ok ? MHD_YES : MHD_NO;
    }
    pthread_mutex_lock(&x->lock);
    bool fresh = x->state == READING;
    if (fresh)
        x->state = HANDLED;
    pthread_mutex_unlock(&x->lock);
    if (fresh) {
        x->live = true; /* counted from here: a request still being read is not waited for */
        __atomic_add_fetch(&s->live, 1, __ATOMIC_RELAXED);
        if (x->too_large) {
            char *msg = strdup("{\"detail\":\"request body too large\"}");
            http_reply(x, 413, "application/json", msg, msg ? strlen(msg) : 0);
        } else {
            if (!x->body.data && !append(x, "", 0))
                return MHD_NO;
            s->handler(x, s->ctx);
        }
    }
    /* What to queue is settled under the lock; the queueing itself is done outside it, since
     * MHD takes the response's mutex there and holds that mutex while it calls stream_read,
     * which takes ours (one lock order). Once REPLIED no other thread touches x->conn before
     * MHD asks stream_read for bytes. */
    pthread_mutex_lock(&x->lock);
    enum { NOTHING, STREAM, BUFFER } what = NOTHING;
    if (x->streaming && (x->state == HANDLED || x->state == SUSPENDED)) {
        x->state = REPLIED;
        what = STREAM;
    } else if (x->replied) {
        x->state = REPLIED;
        what = BUFFER;
    } else if (x->state == HANDLED) {
        x->state = SUSPENDED;
        MHD_suspend_connection(c); /* no thread waits; http_reply resumes it */
    }
    pthread_mutex_unlock(&x->lock);
    return what == STREAM ? queue_stream(x) : what == BUFFER ? queue(x) : MHD_YES;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)c;
    (void)toe;
    struct http_exchange *x = *con_cls;
    if (x) {
        pthread_mutex_lock(&x->lock);
        x->closed = true;
        drop_pending(x); /* nobody will read it */
        pthread_mutex_unlock(&x->lock);
        unref(x);
    }
    *con_cls = NULL;
}

void http_reply(struct http_exchange *x, int status, const char *content_type, char *body,
                size_t len)
{
    pthread_mutex_lock(&x->lock);
    x->status = status;
    x->reply = body;
    x->reply_len = body ? len : 0;
    snprintf(x->content_type, sizeof(x->content_type), "%s",
             content_type ? content_type : "application/json");
    x->replied = true;
    if (x->state == SUSPENDED)
        MHD_resume_connection(x->conn);
    pthread_mutex_unlock(&x->lock);
}

void http_add_header(struct http_exchange *x, const char *name, const char *value)
{
    if (x->nheaders < HTTP_MAX_HEADERS) {
        snprintf(x->headers[x->nheaders][0], sizeof(x->headers[0][0]), "%s", name);
        snprintf(x->headers[x->nheaders][1], sizeof(x->headers[0][1]), "%s", value);
        x->nheaders++;
    }
}

const char *http_method(const struct http_exchange *x)
{
    return x->method;
}

const char *http_path(const struct http_exchange *x)
{
    return x->path;
}

const char *http_body(const struct http_exchange *x, size_t *len)
{
    *len = x->body.len;
    return x->body.data ? x->body.data : "";
}

const char *http_header(struct http_exchange *x, const char *name)
{
    return MHD_lookup_connection_value(x->conn, MHD_HEADER_KIND, name);
}

const char *http_peer(const struct http_exchange *x)
{
    return x->peer;
}

const char *http_label(const struct http_exchange *x)
{
    return x->label[0] ? x->label : NULL;
}

const char *http_forwarded(const struct http_exchange *x)
{
    return x->has_forwarded ? x->forwarded : NULL;
}

const char *http_real_ip(const struct http_exchange *x)
{
    return x->has_real_ip ? x->real_ip : NULL;
}

double http_started(const struct http_exchange *x)
{
    return x->started;
}

const char *http_query(struct http_exchange *x, const char *name)
{
    return MHD_lookup_connection_value(x->conn, MHD_GET_ARGUMENT_KIND, name);
}

const char *http_cookie(struct http_exchange *x, const char *name)
{
    return MHD_lookup_connection_value(x->conn, MHD_COOKIE_KIND, name);
}

int http_start(const struct http_config *cfg, http_handler h, void *ctx, struct http_server **out,
               char err[ERR_LEN])
{
    *out = NULL;
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)cfg->port)};
    if (inet_pton(AF_INET, cfg->host, &addr.sin_addr) != 1)
        return err_set(err, -EINVAL, "listen address %.100s is not an IPv4 address", cfg->host);
    struct http_server *s = calloc(1, sizeof(*s));
    if (!s)
        return err_set(err, -ENOMEM, "out of memory");
    s->handler = h;
    s->ctx = ctx;
    s->quiesced_fd = -1;
    s->max_body = cfg->max_body;
    s->peer_stream_bytes = cfg->peer_stream_bytes;
    pthread_mutex_init(&s->peers_lock, NULL);
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_ALLOW_SUSPEND_RESUME;
    s->mhd = MHD_start_daemon(flags, (uint16_t)cfg->port, NULL, NULL, on_request, s,
                              MHD_OPTION_SOCK_ADDR, &addr, MHD_OPTION_CONNECTION_LIMIT,
                              cfg->connections, MHD_OPTION_CONNECTION_TIMEOUT, cfg->timeout_s,
                              MHD_OPTION_PER_IP_CONNECTION_LIMIT, cfg->peer_connections,
                              MHD_OPTION_CONNECTION_MEMORY_LIMIT, cfg->max_header,
                              MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_END);
    if (!s->mhd) {
        pthread_mutex_destroy(&s->peers_lock);
        free(s);
        return err_set(err, -EADDRINUSE, "cannot listen on %.100s:%d (in use, or no permission)",
                       cfg->host, cfg->port);
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_BIND_PORT);
    s->port = info ? info->port : cfg->port;
    *out = s;
    return 0;
}

int http_port(const struct http_server *s)
{
    return s->port;
}

/* MHD stops accepting but leaves the socket listening: the kernel would still complete new
 * connections into its backlog, where they would wait unanswered until the process exits. A
 * shutdown takes it out of the listening state, so a new connection is refused at once (a
 * balancer sends it to another replica) and those waiting in the backlog are reset. MHD's
 * threads may still hold the descriptor: it is closed only after MHD_stop_daemon. */
void http_quiesce(struct http_server *s)
{
    if (!s || !s->mhd || s->quiesced_fd >= 0)
        return;
    MHD_socket fd = MHD_quiesce_daemon(s->mhd);
    if (fd == MHD_INVALID_SOCKET)
        return;
    shutdown(fd, SHUT_RDWR);
    s->quiesced_fd = fd;
}

/* Every handled exchange is answered by now, but MHD may not have sent it all yet: the end
 * of a streamed batch, a reply resumed a moment ago. Stopping the daemon would close those
 * connections mid-reply, so the HTTP thread is given until each completes (sent, or its
 * connection gone), at most HTTP_DRAIN_S for a client that does not read. A request still
 * being read when the stop comes was never accepted: it is not waited for. */
static void drain(struct http_server *s)
{
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (int i = 0; i < HTTP_DRAIN_S * 100; i++) {
        if (__atomic_load_n(&s->live, __ATOMIC_ACQUIRE) == 0)
            return;
        nanosleep(&tick, NULL);
    }
}

void http_stop(struct http_server *s)
{
    if (!s)
        return;
    drain(s);
    MHD_stop_daemon(s->mhd);
    if (s->quiesced_fd >= 0)
        close(s->quiesced_fd);
    pthread_mutex_destroy(&s->peers_lock);
    free(s);
}
