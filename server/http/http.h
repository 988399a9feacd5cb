/*
 * http: the HTTP server (libmicrohttpd behind this one module).
 *
 * A handler gets one exchange per request, with the whole body read (up to a limit), and
 * answers it with http_reply, either at once or later from any thread: a handler that returns
 * without replying leaves the connection suspended, holding no thread, until the reply comes.
 *
 * A request whose head frames its body ambiguously never reaches a handler: several
 * Content-Length or Transfer-Encoding headers, both at once, a folded header line or a header
 * name that is no token get 400, a Transfer-Encoding other than chunked 501, each with a JSON
 * body naming the header ({"detail", "header"}) and the connection closed after it.
 */
#ifndef VERDICT_HTTP_H
#define VERDICT_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "runners/err.h"

struct http_exchange;
struct http_server;

typedef void (*http_handler)(struct http_exchange *x, void *ctx);

struct http_config {
    const char *host;          /* IPv4 address to listen on, e.g. "127.0.0.1" */
    int port;                  /* 0: any free port (see http_port) */
    size_t max_body;           /* larger bodies get 413 */
    size_t max_header;         /* the request line and headers: larger get 431 (MHD's connection
                                  memory, which also holds the read buffer) */
    unsigned connections;      /* concurrent connections accepted */
    unsigned peer_connections; /* of them from one peer address (0: no cap); past it a new
                                  connection is closed at once, unanswered */
    unsigned timeout_s;        /* a connection idle this long is closed: between requests, in an
                                  unfinished head or body, or not reading its answer; never while
                                  its request waits for its reply */
    size_t peer_stream_bytes;  /* streamed bytes all of one peer's connections may hold
                                  written and unsent (0: no budget; see http_stream_write) */
};

/* Starts serving. Returns 0 with *out, or a negative errno with the reason in err. */
int http_start(const struct http_config *cfg, http_handler h, void *ctx, struct http_server **out,
               char err[ERR_LEN]);

/* The port actually bound. */
int http_port(const struct http_server *s);

/* Stops accepting new connections (in-flight exchanges can still be answered). */
void http_quiesce(struct http_server *s);

/* Stops the server; every exchange must have been answered. Replies still being sent are
 * given HTTP_DRAIN_S seconds to go (a client not reading its reply is then cut). NULL is a
 * no-op. */
#define HTTP_DRAIN_S 10
void http_stop(struct http_server *s);

const char *http_method(const struct http_exchange *x);
const char *http_path(const struct http_exchange *x);
/* The request body (NUL-terminated for convenience) and its length. */
const char *http_body(const struct http_exchange *x, size_t *len);
/* A request header (case-insensitive name), or NULL. Only valid in the handler's call. */
const char *http_header(struct http_exchange *x, const char *name);
/* The peer's IPv4 address ("?" when unknown), and the X-Verdict-Client header (NULL when
 * none; invalid UTF-8 in it replaced by U+FFFD), both read when the request arrived: valid
 * from any thread until the reply. server/http/peer.h says who a request is counted under. */
const char *http_peer(const struct http_exchange *x);
const char *http_label(const struct http_exchange *x);
/* The last entry of the X-Forwarded-For header (the one the nearest proxy added; the first
 * header line's, cut to 63 bytes) and the X-Real-IP header, as sent, or NULL when absent;
 * read when the request arrived: valid from any thread until the reply. Only a trusted
 * proxy's are believed (server/http/peer.h). */
const char *http_forwarded(const struct http_exchange *x);
const char *http_real_ip(const struct http_exchange *x);
/* When the request arrived (CLOCK_MONOTONIC seconds): its latency at reply time. */
double http_started(const struct http_exchange *x);
/* A query-string argument (decoded; "" for `?name`), or NULL. Only valid in the handler's
 * call. */
const char *http_query(struct http_exchange *x, const char *name);
/* A cookie of the Cookie header, or NULL. Only valid in the handler's call. */
const char *http_cookie(struct http_exchange *x, const char *name);

/* Answers the exchange with status and body (heap, taken over; may be NULL for empty). Call
 * exactly once, from any thread. */
void http_reply(struct http_exchange *x, int status, const char *content_type, char *body,
                size_t len);

/* Streaming: called once instead of http_reply, by the handler or later from any thread,
 * starts a chunked response whose body is written with http_stream_write, from any thread,
 * until http_stream_end. While nothing is waiting to be sent the connection is suspended,
 * holding no thread. */
#define HTTP_MAX_PENDING (256u << 20) /* bytes of a streamed body not yet read by the client */

void http_stream_begin(struct http_exchange *x, int status, const char *content_type);
/* Appends data (copied). At most HTTP_MAX_PENDING bytes of one stream, and the server's
 * peer_stream_bytes of all the streams of one peer address, wait for a slow reader: past
 * either the stream is cut: what was pending is dropped, the connection closed without the
 * chunked body's end (the client sees a broken answer, not a short one), and this and later
 * writes fail. Returns 0, -EFBIG / -ENOMEM (the stream is cut), -EPIPE (the client is gone),
 * -ESHUTDOWN (ended or cut before). Never blocks on the client. */
int http_stream_write(struct http_exchange *x, const char *data, size_t len);
/* Ends the body; the exchange must not be used afterwards. */
void http_stream_end(struct http_exchange *x);

/* Extra response header for the reply that follows (e.g. Retry-After); at most
 * HTTP_MAX_HEADERS, each value cut at HTTP_HEADER_VALUE - 1 bytes. */
#define HTTP_MAX_HEADERS  8
#define HTTP_HEADER_VALUE 384
void http_add_header(struct http_exchange *x, const char *name, const char *value);

#endif
