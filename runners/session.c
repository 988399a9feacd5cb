/*
 * session: the encoding of a session's messages between the server and its cell
 * (runners/README.md, "Protocol").
 */
#include "runners/session.h"

#include <errno.h>
#include <string.h>

void session_limits_encode(const struct session_limits *l, struct buf *b)
{
    wbuf_u64(b, l->memory_bytes);
    wbuf_u32(b, l->pids);
    wbuf_u64(b, (uint64_t)l->cpu_ms);
}

int session_limits_decode(struct rbuf *r, struct session_limits *l)
{
    l->memory_bytes = rbuf_u64(r);
    l->pids = rbuf_u32(r);
    l->cpu_ms = (int64_t)rbuf_u64(r);
    if (r->err || l->memory_bytes == 0 || l->pids == 0 || l->cpu_ms <= 0)
        return -EBADMSG;
    return 0;
}

void session_call_encode(enum session_mode mode, const struct job *j, struct buf *b)
{
    wbuf_u32(b, (uint32_t)mode);
    job_encode(j, b);
}

int session_call_decode(struct rbuf *r, enum session_mode *mode, struct job *j)
{
    memset(j, 0, sizeof(*j));
    uint32_t m = rbuf_u32(r);
    if (r->err || m > SESSION_CALL)
        return -EBADMSG;
    *mode = (enum session_mode)m;
    return job_decode(r, j);
}

static void totals_encode(const struct session_totals *t, struct buf *b)
{
    wbuf_u64(b, (uint64_t)t->cpu_ms);
    wbuf_u64(b, t->memory_kib);
    wbuf_u64(b, t->memory_peak_kib);
    wbuf_u32(b, t->starts);
    wbuf_u32(b, (uint32_t)t->alive | (uint32_t)t->cpu_spent << 1);
}

void session_result_encode(const struct session_result *s, struct buf *b)
{
    result_encode(&s->res, b);
    wbuf_u32(b, s->reply ? 1 : 0);
    wbuf_bytes(b, s->reply, s->reply ? s->reply_len : 0);
    wbuf_u32(b, (uint32_t)s->started | (uint32_t)s->lost << 1);
    totals_encode(&s->totals, b);
}

int session_result_decode(struct rbuf *r, struct session_result *s)
{
    memset(s, 0, sizeof(*s));
    int rc = result_decode(r, &s->res);
    if (rc < 0)
        return rc;
    uint32_t has_reply = rbuf_u32(r);
    size_t len = 0;
    const uint8_t *reply = rbuf_bytes(r, &len);
    if (has_reply) {
        s->reply = reply;
        s->reply_len = len;
    }
    uint32_t flags = rbuf_u32(r);
    s->started = flags & 1;
    s->lost = flags & 2;
    s->totals.cpu_ms = (int64_t)rbuf_u64(r);
    s->totals.memory_kib = rbuf_u64(r);
    s->totals.memory_peak_kib = rbuf_u64(r);
    s->totals.starts = rbuf_u32(r);
    flags = rbuf_u32(r);
    s->totals.alive = flags & 1;
    s->totals.cpu_spent = flags & 2;
    if (r->err || has_reply > 1 || len > SESSION_REPLY_MAX) {
        job_result_fini(&s->res);
        return -EBADMSG;
    }
    return 0;
}
