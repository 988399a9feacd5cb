/*
 * wire: the server <-> cell byte protocol (see runners/README.md for the message layout).
 *
 * Writes and reads loop over EINTR and short transfers; a socket closed mid-frame is an error,
 * never a silently shortened message.
 */
#include "runners/wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

void wbuf_raw(struct buf *b, const void *p, size_t n)
{
    buf_append(b, p, n);
}

void wbuf_u32(struct buf *b, uint32_t v)
{
    wbuf_raw(b, &v, sizeof(v));
}

void wbuf_u64(struct buf *b, uint64_t v)
{
    wbuf_raw(b, &v, sizeof(v));
}

void wbuf_bytes(struct buf *b, const void *p, size_t n)
{
    wbuf_u64(b, n);
    wbuf_raw(b, p, n);
}

void wbuf_str(struct buf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    wbuf_u64(b, n + 1);
    wbuf_raw(b, s ? s : "", n + 1);
}

void rbuf_init(struct rbuf *r, const void *p, size_t n)
{
    r->p = p;
    r->left = n;
    r->err = 0;
}

void rbuf_raw(struct rbuf *r, void *out, size_t n)
{
    if (r->err || n > r->left) {
        r->err = -EBADMSG;
        memset(out, 0, n);
        return;
    }
    memcpy(out, r->p, n);
    r->p += n;
    r->left -= n;
}

uint32_t rbuf_u32(struct rbuf *r)
{
    uint32_t v;
    rbuf_raw(r, &v, sizeof(v));
    return v;
}

uint64_t rbuf_u64(struct rbuf *r)
{
    uint64_t v;
    rbuf_raw(r, &v, sizeof(v));
    return v;
}

const uint8_t *rbuf_bytes(struct rbuf *r, size_t *len)
{
    uint64_t n = rbuf_u64(r);
    *len = 0;
    if (r->err || n > r->left) {
        r->err = -EBADMSG;
        return NULL;
    }
    const uint8_t *p = r->p;
    r->p += n;
    r->left -= n;
    *len = (size_t)n;
    return p;
}

const char *rbuf_str(struct rbuf *r)
{
    size_t n;
    const uint8_t *p = rbuf_bytes(r, &n);
    if (!p || n == 0 || p[n - 1] != '\0' || memchr(p, '\0', n - 1)) {
        r->err = -EBADMSG;
        return NULL;
    }
    return (const char *)p;
}

static int write_all(int fd, const void *p, size_t n)
{
    const uint8_t *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? -errno : -EIO;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Returns 0, -ECONNRESET on EOF at offset 0, -EPIPE on EOF mid-way, or -errno. */
static int read_all(int fd, void *p, size_t n)
{
    uint8_t *c = p;
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, c + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -errno;
        if (r == 0)
            return got == 0 ? -ECONNRESET : -EPIPE;
        got += (size_t)r;
    }
    return 0;
}

/* The header and the payload go out in one writev: a reader woken by the header would
 * otherwise often find the payload not yet there and sleep a second time. */
int wire_send(int fd, uint32_t type, const void *payload, size_t len)
{
    uint8_t hdr[16];
    uint32_t magic = WIRE_MAGIC;
    uint64_t n = len;
    memcpy(hdr, &magic, 4);
    memcpy(hdr + 4, &type, 4);
    memcpy(hdr + 8, &n, 8);
    struct iovec iov[2] = {{hdr, sizeof(hdr)}, {(void *)(uintptr_t)payload, len}};
    ssize_t w;
    do
        w = writev(fd, iov, len > 0 ? 2 : 1);
    while (w < 0 && errno == EINTR);
    if (w < 0)
        return -errno;
    size_t done = (size_t)w;
    if (done < sizeof(hdr)) { /* a short write: the rest from where it stopped */
        int rc = write_all(fd, hdr + done, sizeof(hdr) - done);
        return rc < 0 || len == 0 ? rc : write_all(fd, payload, len);
    }
    if (len == 0)
        return 0;
    return write_all(fd, (const uint8_t *)payload + (done - sizeof(hdr)),
                     len - (done - sizeof(hdr)));
}

int wire_recv(int fd, uint32_t *type, uint8_t **payload, size_t *len, size_t max_len)
{
    uint8_t hdr[16];
    uint32_t magic;
    uint64_t n;
    *payload = NULL;
    *len = 0;
    int rc = read_all(fd, hdr, sizeof(hdr));
    if (rc < 0)
        return rc;
    memcpy(&magic, hdr, 4);
    memcpy(type, hdr + 4, 4);
    memcpy(&n, hdr + 8, 8);
    if (magic != WIRE_MAGIC || n > max_len)
        return -EBADMSG;
    if (n == 0)
        return 0;
    uint8_t *buf = malloc((size_t)n);
    if (!buf)
        return -ENOMEM;
    rc = read_all(fd, buf, (size_t)n);
    if (rc < 0) {
        free(buf);
        return rc == -ECONNRESET ? -EPIPE : rc;
    }
    *payload = buf;
    *len = (size_t)n;
    return 0;
}
