/*
 * fuzz_client_reply: the HTTP client's reply reader (server/http/client_internal.h) on
 * arbitrary bytes, without sockets. The first byte picks the caps (a small head and body, or
 * the client's own) and how the bytes arrive; the rest is what the server sent.
 *
 * The bytes are read twice: fed whole (then end of stream), and in pieces of 1..97 bytes the
 * way client.c reads a socket (each piece appended to what the reader left unconsumed). Both
 * readings must agree: the same error or none, the same status and body, and the same bytes
 * left over after a complete reply. Bounds: the body never holds more than max_body bytes; what
 * the reader leaves unconsumed mid-reply is at most max_head bytes; a complete reply has a
 * final status (200..599), and a Content-Length body exactly that length.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "server/http/client_internal.h"

struct outcome {
    int rc; /* 0, or the reading's error */
    int status;
    bool done;
    size_t left; /* bytes after the reply, when done */
};

static void check_reply(const struct client_reply *r, size_t max_body)
{
    FUZZ_CHECK(r->body.len <= max_body);
    FUZZ_CHECK(r->status == 0 || (r->status >= 100 && r->status <= 599));
    if (!client_reply_done(r))
        return;
    FUZZ_CHECK(r->status >= 200 && r->body.err == 0);
    if (r->has_length && !r->chunked && r->status != 204 && r->status != 304)
        FUZZ_CHECK(r->body.len == r->length);
}

static struct outcome whole(struct client_reply *r, const char *data, size_t len)
{
    struct outcome o = {0};
    ssize_t used = client_reply_feed(r, data, len);
    if (used < 0) {
        o.rc = (int)used;
        return o;
    }
    FUZZ_CHECK((size_t)used <= len);
    if (!client_reply_done(r))
        o.rc = client_reply_eof(r);
    o.done = o.rc == 0;
    o.left = len - (size_t)used;
    return o;
}

static struct outcome pieces(struct client_reply *r, const char *data, size_t len, unsigned seed)
{
    struct outcome o = {0};
    struct buf pending;
    buf_init(&pending, 0);
    size_t at = 0;
    while (!client_reply_done(r)) {
        if (at == len) {
            o.rc = client_reply_eof(r);
            break;
        }
        seed = seed * 1103515245u + 12345u;
        size_t n = 1 + (seed >> 16) % 97;
        n = n < len - at ? n : len - at;
        buf_append(&pending, data + at, n);
        FUZZ_CHECK(pending.err == 0);
        at += n;
        ssize_t used = client_reply_feed(r, pending.data, pending.len);
        if (used < 0) {
            o.rc = (int)used;
            break;
        }
        FUZZ_CHECK((size_t)used <= pending.len);
        buf_consume(&pending, (size_t)used);
        FUZZ_CHECK(client_reply_done(r) || pending.len <= r->max_head);
    }
    o.done = o.rc == 0;
    o.left = o.done ? pending.len + (len - at) : 0;
    buf_fini(&pending);
    return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    bool small = data[0] & 1;
    size_t max_head = small ? 128 : CLIENT_MAX_HEADER, max_body = small ? 64 : CLIENT_MAX_REPLY;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    struct client_reply a, b;
    client_reply_init(&a, max_head, max_body);
    client_reply_init(&b, max_head, max_body);
    struct outcome x = whole(&a, text, len), y = pieces(&b, text, len, data[0] >> 1);
    check_reply(&a, max_body);
    check_reply(&b, max_body);
    FUZZ_CHECK(x.rc == y.rc && x.done == y.done);
    FUZZ_CHECK(x.rc <= 0 && (x.rc == 0 || x.rc == -EPROTO || x.rc == -EFBIG ||
                             x.rc == -ECONNRESET || x.rc == -ENOMEM));
    FUZZ_CHECK(a.status == b.status);
    if (x.done) {
        FUZZ_CHECK(x.left == y.left);
        FUZZ_CHECK(a.body.len == b.body.len &&
                   memcmp(a.body.data ? a.body.data : "", b.body.data ? b.body.data : "",
                          a.body.len) == 0);
    }
    /* a finished reader takes nothing more; an failed one keeps failing */
    ssize_t again = client_reply_feed(&a, "HTTP/1.1 200 OK\r\n", 17);
    FUZZ_CHECK(x.done ? again == 0 : again == x.rc || x.rc == -ECONNRESET);
    client_reply_fini(&a);
    client_reply_fini(&b);
    return 0;
}
