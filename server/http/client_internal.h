/*
 * client_internal: the HTTP client's reply reader over bytes, with no socket: client.c feeds it
 * what each recv brings, and the fuzzer (tests/fuzz/fuzz_client_reply.c) feeds it anything. Not
 * a contract for other modules (they use client.h).
 *
 * A reply is a state machine; each state consumes bytes as below and hands over to the next:
 *
 *   state          consumes                                   then
 *   REPLY_HEAD     the status line, header lines, blank line  a 1xx: HEAD again (an interim
 *                                                             reply); 204/304: DONE; chunked:
 *                                                             CHUNK_SIZE; Content-Length:
 *                                                             LENGTH (DONE for 0); else CLOSE
 *   REPLY_LENGTH   Content-Length body bytes                  DONE
 *   REPLY_CHUNK_SIZE  a line: hex size [;extensions]          size 0: TRAILER; else CHUNK_DATA
 *   REPLY_CHUNK_DATA  the chunk's bytes                       CHUNK_END
 *   REPLY_CHUNK_END   "\r\n"                                  CHUNK_SIZE
 *   REPLY_TRAILER  trailer lines up to a blank line           DONE
 *   REPLY_CLOSE    every byte, until the peer closes          DONE (client_reply_eof)
 *   REPLY_DONE     nothing: later bytes are the next reply's
 *
 * Invariants: lines end in CRLF; the status is 100..599; the head (status line and headers),
 * each chunk-size line and the trailer are at most max_head bytes each; the body never holds
 * more than max_body bytes (a Content-Length or chunk size past it is refused before its bytes
 * are read); an error is final (-EPROTO malformed, -EFBIG past a cap, -ENOMEM).
 */
#ifndef VERDICT_CLIENT_INTERNAL_H
#define VERDICT_CLIENT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "runners/buf.h"

#define CLIENT_MAX_REPLY  (256u << 20) /* body bytes of one reply */
#define CLIENT_MAX_HEADER (64u << 10)  /* bytes of the head (and of a chunk line, the trailer) */

enum reply_state {
    REPLY_HEAD,
    REPLY_LENGTH,
    REPLY_CHUNK_SIZE,
    REPLY_CHUNK_DATA,
    REPLY_CHUNK_END,
    REPLY_TRAILER,
    REPLY_CLOSE,
    REPLY_DONE,
};

struct client_reply {
    enum reply_state state;
    int status;        /* 100..599 once the status line is read; 0 before */
    bool chunked;      /* Transfer-Encoding: chunked */
    bool has_length;   /* a Content-Length header was given */
    bool close_after;  /* the server closes the connection after this reply */
    uint64_t length;   /* the Content-Length, bytes */
    uint64_t left;     /* bytes still to come: of the body (LENGTH) or of the chunk (CHUNK_DATA) */
    size_t line_bytes; /* bytes of the head (or the trailer) read so far */
    size_t max_head;   /* cap on the head, a chunk-size line and the trailer, bytes */
    int err;           /* 0, or the error that ended the reply */
    struct buf body;   /* the body so far (capped at max_body bytes) */
};

/* An empty reply reader (caller storage; release with client_reply_fini). */
void client_reply_init(struct client_reply *r, size_t max_head, size_t max_body); /* caps > 0 */
void client_reply_fini(struct client_reply *r);

/* Reads data[0..len), the bytes that follow what earlier calls consumed. Returns how many it
 * consumed (all of them, less an incomplete line or chunk end it needs more bytes to read,
 * which the caller feeds again with what follows, and less anything after the end of the
 * reply), or a negative errno (-EPROTO, -EFBIG, -ENOMEM), after which every call fails so.
 * O(len) for the bytes consumed; a line is searched from its start on each call. */
ssize_t client_reply_feed(struct client_reply *r, const char *data, size_t len);

/* The peer closed the connection: a reply read until close is then complete. Returns 0 when
 * the reply is complete, or -ECONNRESET when it was cut short (or the earlier error). */
int client_reply_eof(struct client_reply *r);

/* Whether the reply is complete. */
bool client_reply_done(const struct client_reply *r);

#endif
