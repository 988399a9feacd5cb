/*
 * wire: framing and encoding of messages between the server and its cells.
 *
 * A frame is a 16-byte header (magic "VRDT", u32 type, u64 payload length, host byte order:
 * both ends are the same binary on the same machine) followed by the payload. Payloads are
 * appended to a runners/buf (its sticky error checked once at the end) and read with a
 * bounds-checked rbuf: every read past the end sets rbuf.err and returns zero/NULL, so a decoder
 * checks err once at the end.
 */
#ifndef VERDICT_WIRE_H
#define VERDICT_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "runners/buf.h"

#define WIRE_MAGIC 0x54445256u /* "VRDT" */

struct rbuf {
    const uint8_t *p;
    size_t left;
    int err; /* -EBADMSG once a read ran past the end */
};

void wbuf_u32(struct buf *b, uint32_t v);
void wbuf_u64(struct buf *b, uint64_t v);
void wbuf_raw(struct buf *b, const void *p, size_t n); /* no length prefix */
/* u64 length, then the bytes. */
void wbuf_bytes(struct buf *b, const void *p, size_t n);
/* u64 length, the bytes and a NUL (so the reader can lend a C string in place). */
void wbuf_str(struct buf *b, const char *s);

void rbuf_init(struct rbuf *r, const void *p, size_t n);
uint32_t rbuf_u32(struct rbuf *r);
uint64_t rbuf_u64(struct rbuf *r);
/* Copies n bytes into out; zero-fills out on overrun. */
void rbuf_raw(struct rbuf *r, void *out, size_t n);
/* A length-prefixed byte string, borrowed from the buffer; NULL (len 0) on overrun. */
const uint8_t *rbuf_bytes(struct rbuf *r, size_t *len);
/* A string written by wbuf_str, borrowed and NUL-terminated; NULL on overrun or a missing
 * terminator or an embedded NUL. */
const char *rbuf_str(struct rbuf *r);

/* Sends one frame (header + payload) with a blocking write loop. Returns 0 or -errno
 * (-EPIPE when the peer is gone; SIGPIPE must be ignored by the caller). */
int wire_send(int fd, uint32_t type, const void *payload, size_t len);

/* Receives one frame. The payload is malloc'd into *payload (caller frees; NULL when empty).
 * Returns 0, -ECONNRESET on a clean EOF before a header, -EBADMSG on a bad magic or a
 * length above max_len, or another -errno. */
int wire_recv(int fd, uint32_t *type, uint8_t **payload, size_t *len, size_t max_len);

#endif
