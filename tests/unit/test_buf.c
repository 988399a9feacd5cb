/* Unit tests for runners/buf (the growable buffer) and for the HTTP client's reply reader
 * against hostile replies from a server on 127.0.0.1 (a thread of this test): a chunk size
 * that wraps the length arithmetic, an endless header, a negative Content-Length. */
#include "runners/buf.h"
#include "server/http/client.h"
#include "test.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

static void test_append_printf_take(void)
{
    struct buf b;
    buf_init(&b, 0);
    for (int i = 0; i < 1000; i++)
        ASSERT_INT_EQ(buf_printf(&b, "%d,", i), 0);
    ASSERT_TRUE(strncmp(b.data, "0,1,2,", 6) == 0);
    ASSERT_UINT_EQ(strlen(b.data), b.len);
    buf_consume(&b, 2);
    ASSERT_TRUE(strncmp(b.data, "1,2,", 4) == 0);
    size_t len;
    char *s = buf_take(&b, &len);
    ASSERT_TRUE(s != NULL);
    ASSERT_UINT_EQ(len, strlen(s));
    ASSERT_TRUE(b.data == NULL && b.len == 0);
    free(s);
    s = buf_take(&b, &len); /* empty: an empty string */
    ASSERT_TRUE(s != NULL && len == 0 && s[0] == '\0');
    free(s);
}

static void test_cap_is_sticky(void)
{
    struct buf b;
    buf_init(&b, 10);
    ASSERT_INT_EQ(buf_append(&b, "0123456789", 10), 0);
    ASSERT_INT_EQ(buf_append(&b, "x", 1), -EFBIG);
    ASSERT_INT_EQ(buf_append(&b, "", 0), -EFBIG); /* sticky */
    ASSERT_UINT_EQ(b.len, 10);
    ASSERT_TRUE(buf_take(&b, NULL) == NULL); /* a failed buffer hands nothing over */
    buf_init(&b, 0);
    ASSERT_INT_EQ(buf_reserve(&b, SIZE_MAX - 4), -EFBIG);
    buf_fini(&b);
}

struct server {
    int fd, port;
    const char *reply;
    size_t reply_len;
};

static void *serve_once(void *arg)
{
    struct server *s = arg;
    int c = accept(s->fd, NULL, NULL);
    if (c < 0)
        return NULL;
    char req[4096];
    (void)!recv(c, req, sizeof(req), 0);
    for (size_t off = 0; off < s->reply_len;) {
        ssize_t w = send(c, s->reply + off, s->reply_len - off, MSG_NOSIGNAL);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    /* Read what is left of the request until the client closes (10 s at most): closing with
     * unread input sends a reset, which can overtake the reply (seen on a slow guest). */
    shutdown(c, SHUT_WR);
    struct timeval tv = {.tv_sec = 10};
    setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    while (recv(c, req, sizeof(req), 0) > 0)
        ;
    close(c);
    return NULL;
}

/* POSTs to a one-shot loopback server answering reply; returns client_post's result. */
static int post_against(const char *reply, size_t len)
{
    struct server s = {.reply = reply, .reply_len = len};
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof(a);
    s.fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s.fd < 0 || bind(s.fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s.fd, 1) < 0 ||
        getsockname(s.fd, (struct sockaddr *)&a, &al) < 0)
        return -9999;
    pthread_t t;
    pthread_create(&t, NULL, serve_once, &s);
    char url[64], err[ERR_LEN], *out = NULL;
    snprintf(url, sizeof(url), "http://127.0.0.1:%d", ntohs(a.sin_port));
    struct client *c;
    size_t n;
    int rc = client_new(url, &c, err);
    if (rc == 0)
        rc = client_post(c, "/v1/judge", "{}", 2, 10, &out, &n, err);
    client_free(c);
    free(out);
    pthread_join(t, NULL);
    close(s.fd);
    return rc;
}

static void test_client_hostile_replies(void)
{
    const char ok[] = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
    ASSERT_INT_EQ(post_against(ok, sizeof(ok) - 1), 200);
    const char chunked[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                           "2\r\nok\r\n0\r\n\r\n";
    ASSERT_INT_EQ(post_against(chunked, sizeof(chunked) - 1), 200);
    /* A chunk size near 2^64: n + size wrapped, and a memcpy of 2^64 bytes followed. */
    const char wrap[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        "1\r\nx\r\nffffffffffffffff\r\nabc\r\n0\r\n\r\n";
    ASSERT_INT_EQ(post_against(wrap, sizeof(wrap) - 1), -EFBIG);
    const char neg[] = "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nok";
    ASSERT_INT_EQ(post_against(neg, sizeof(neg) - 1), -EPROTO);
    /* A header line that never ends: refused at 64 KiB, not read to 256 MiB. */
    size_t big = 200 << 10;
    char *endless = malloc(big);
    memcpy(endless, "HTTP/1.1 200 OK\r\nX: ", 20);
    memset(endless + 20, 'a', big - 20);
    ASSERT_INT_EQ(post_against(endless, big), -EPROTO);
    free(endless);
}

int main(void)
{
    TEST_RUN(test_append_printf_take);
    TEST_RUN(test_cap_is_sticky);
    TEST_RUN(test_client_hostile_replies);
    return TEST_EXIT();
}
