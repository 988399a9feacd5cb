/*
 * buf: growth by doubling from 256 bytes, capped at max when one is set; a failed growth sets
 * the sticky error and leaves the bytes already held untouched.
 */
#include "runners/buf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void buf_init(struct buf *b, size_t max)
{
    *b = (struct buf){.max = max};
}

void buf_fini(struct buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->err = 0;
}

int buf_reserve(struct buf *b, size_t n)
{
    if (b->err)
        return b->err;
    if ((b->max && n > b->max - b->len) || n > SIZE_MAX / 2 - b->len)
        return b->err = -EFBIG;
    if (b->data && b->len + n <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n)
        cap *= 2;
    if (b->max && cap > b->max)
        cap = b->max;
    char *d = realloc(b->data, cap + 1);
    if (!d)
        return b->err = -ENOMEM;
    b->data = d;
    b->cap = cap;
    b->data[b->len] = '\0';
    return 0;
}

int buf_append(struct buf *b, const void *p, size_t n)
{
    if (buf_reserve(b, n) < 0)
        return b->err;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

int buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n < 0 || buf_reserve(b, (size_t)n) < 0) {
        va_end(again);
        return b->err ? b->err : (b->err = -EINVAL);
    }
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
    va_end(again);
    b->len += (size_t)n;
    return 0;
}

int buf_printf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = buf_vprintf(b, fmt, ap);
    va_end(ap);
    return rc;
}

void buf_consume(struct buf *b, size_t n)
{
    if (n >= b->len) {
        b->len = 0;
    } else {
        memmove(b->data, b->data + n, b->len - n);
        b->len -= n;
    }
    if (b->data)
        b->data[b->len] = '\0';
}

char *buf_take(struct buf *b, size_t *len)
{
    if (b->err || buf_reserve(b, 0) < 0) {
        buf_fini(b);
        return NULL;
    }
    char *d = b->data;
    if (len)
        *len = b->len;
    b->data = NULL;
    b->len = b->cap = 0;
    return d;
}
