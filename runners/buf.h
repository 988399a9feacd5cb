/*
 * buf: a growable byte buffer with a sticky error and an optional cap, the one used by every
 * module that builds or collects bytes (wire frames, HTTP bodies and streams, the HTTP
 * client's replies, metrics text, inflated files).
 *
 * Appends never fail loudly: once one cannot be made (out of memory, or past the cap) b->err
 * is set (-ENOMEM or -EFBIG) and later appends are dropped, so a builder checks err once at
 * the end. The bytes are always followed by a NUL that len does not count, so text can be
 * read as a C string. Caller storage: buf_init / buf_fini; buf_take hands the bytes over.
 */
#ifndef VERDICT_BUF_H
#define VERDICT_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct buf {
    char *data; /* heap, NUL-terminated past len; NULL while empty */
    size_t len; /* bytes held */
    size_t cap; /* bytes allocated, not counting the NUL */
    size_t max; /* 0: unbounded; else appends past max bytes set err = -EFBIG */
    int err;    /* 0, -ENOMEM or -EFBIG once an append failed */
};

/* An empty buffer holding at most max bytes (0: no cap). */
void buf_init(struct buf *b, size_t max);
/* Releases the bytes; b is empty (and may be reused after buf_init). */
void buf_fini(struct buf *b);

/* Makes room for n more bytes. Returns 0 or b->err. */
int buf_reserve(struct buf *b, size_t n);
/* Appends n bytes (p may be NULL when n is 0). Returns 0 or b->err. */
int buf_append(struct buf *b, const void *p, size_t n);
/* Appends formatted text. Returns 0 or b->err. */
int buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int buf_vprintf(struct buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Drops the first n bytes (all when n >= len), keeping the rest in order. O(len). */
void buf_consume(struct buf *b, size_t n);

/* Hands the bytes over (heap, NUL-terminated; *len gets their count when len is not NULL)
 * and empties b. Returns NULL when b->err is set (the bytes are freed) or out of memory. */
char *buf_take(struct buf *b, size_t *len);

#endif
