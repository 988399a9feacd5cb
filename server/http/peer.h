/*
 * peer: who a request is counted under, for the per-client shares (the scheduler's queue and
 * bytes, the sessions a client may hold): its address, which a client cannot choose, and its
 * label (X-Verdict-Client), which it can.
 *
 * The address is the TCP peer's, except from a trusted proxy (serve's --trusted-proxy: a
 * balancer in front), whose requests carry the client's address it saw: the last address of
 * X-Forwarded-For (the one the proxy appended), else X-Real-IP. From any other peer those
 * headers are ignored, so a client cannot name itself another address.
 */
#ifndef VERDICT_PEER_H
#define VERDICT_PEER_H

#include <stddef.h>
#include <stdint.h>

#include "runners/err.h"
#include "server/http/http.h"

#define PEER_MAX_PROXIES 64
#define PEER_ADDR_LEN    48 /* an IPv4 or IPv6 address as text, with its NUL */

/* Trusted proxies: IPv4 addresses or networks (ADDR/BITS). n = 0: none. */
struct peer_proxies {
    int n;
    struct {
        uint32_t net, mask; /* host order */
    } p[PEER_MAX_PROXIES];
};

/* Parses "ADDR[/BITS][,ADDR[/BITS]...]" (spaces around items allowed; NULL or "": none).
 * Returns 0 with *out, or -EINVAL with err naming the item. */
int peer_proxies_parse(const char *list, struct peer_proxies *out, char err[ERR_LEN]);

/* The request's client address, as text into buf (cap bytes, at least PEER_ADDR_LEN): the
 * forwarded one when the TCP peer is a trusted proxy and it sent a valid address, else the
 * TCP peer's. Returns buf. Valid from any thread until the reply (the headers it reads
 * were copied when the request arrived). */
const char *peer_address(const struct peer_proxies *t, struct http_exchange *x, char *buf,
                         size_t cap);

/* The request's label (X-Verdict-Client; "" none), cut to cap bytes at a character boundary.
 * Returns buf. */
const char *peer_label(const struct http_exchange *x, char *buf, size_t cap);

#endif
