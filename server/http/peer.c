/*
 * peer: the trusted proxies as IPv4 networks, matched against the TCP peer's address; a
 * forwarded address is taken only when it parses as an IPv4 or IPv6 address, and is written
 * back in its canonical form (so one client has one name whatever spelling a proxy sends).
 */
#include "server/http/peer.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/util/utf8.h"

/* One item "ADDR[/BITS]" (len bytes at s) into *net, *mask; false when it is not one. */
static bool parse_item(const char *s, size_t len, uint32_t *net, uint32_t *mask)
{
    char text[32];
    if (len == 0 || len >= sizeof(text))
        return false;
    memcpy(text, s, len);
    text[len] = '\0';
    long bits = 32;
    char *slash = strchr(text, '/');
    if (slash) {
        char *end;
        *slash = '\0';
        bits = strtol(slash + 1, &end, 10);
        if (end == slash + 1 || *end || bits < 0 || bits > 32)
            return false;
    }
    struct in_addr a;
    if (inet_pton(AF_INET, text, &a) != 1)
        return false;
    *mask = bits == 0 ? 0 : ~(uint32_t)0 << (32 - bits);
    *net = ntohl(a.s_addr) & *mask;
    return true;
}

int peer_proxies_parse(const char *list, struct peer_proxies *out, char err[ERR_LEN])
{
    memset(out, 0, sizeof(*out));
    for (const char *s = list ? list : ""; *s;) {
        s += strspn(s, " \t");
        size_t len = strcspn(s, ",");
        size_t item = len;
        while (item > 0 && (s[item - 1] == ' ' || s[item - 1] == '\t'))
            item--;
        if (item > 0) {
            if (out->n == PEER_MAX_PROXIES)
                return err_set(err, -EINVAL, "--trusted-proxy: at most %d addresses",
                               PEER_MAX_PROXIES);
            if (!parse_item(s, item, &out->p[out->n].net, &out->p[out->n].mask))
                return err_set(err, -EINVAL,
                               "--trusted-proxy: \"%.*s\" is not an IPv4 address or "
                               "ADDR/BITS network",
                               (int)(item < 40 ? item : 40), s);
            out->n++;
        }
        s += len;
        s += *s == ',';
    }
    return 0;
}

static bool trusted(const struct peer_proxies *t, const char *addr)
{
    struct in_addr a;
    if (!t || t->n == 0 || inet_pton(AF_INET, addr, &a) != 1)
        return false;
    uint32_t h = ntohl(a.s_addr);
    for (int i = 0; i < t->n; i++)
        if ((h & t->p[i].mask) == t->p[i].net)
            return true;
    return false;
}

/* The address in s (len bytes, spaces trimmed) in canonical form into buf; false when it is
 * none. */
static bool canonical(const char *s, size_t len, char *buf, size_t cap)
{
    while (len > 0 && (*s == ' ' || *s == '\t'))
        s++, len--;
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    char text[64];
    if (len == 0 || len >= sizeof(text))
        return false;
    memcpy(text, s, len);
    text[len] = '\0';
    unsigned char raw[16];
    if (inet_pton(AF_INET, text, raw) == 1)
        return inet_ntop(AF_INET, raw, buf, (socklen_t)cap) != NULL;
    if (inet_pton(AF_INET6, text, raw) == 1)
        return inet_ntop(AF_INET6, raw, buf, (socklen_t)cap) != NULL;
    return false;
}

const char *peer_address(const struct peer_proxies *t, struct http_exchange *x, char *buf,
                         size_t cap)
{
    const char *tcp = http_peer(x);
    if (trusted(t, tcp)) {
        const char *last = http_forwarded(x);
        if (last && canonical(last, strlen(last), buf, cap))
            return buf;
        const char *real = http_real_ip(x);
        if (!last && real && canonical(real, strlen(real), buf, cap))
            return buf;
    }
    snprintf(buf, cap, "%s", tcp);
    return buf;
}

const char *peer_label(const struct http_exchange *x, char *buf, size_t cap)
{
    utf8_copy(buf, cap, http_label(x));
    return buf;
}
