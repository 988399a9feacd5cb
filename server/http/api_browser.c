/*
 * api_browser: the rules that keep a web page from using the server through its visitor's
 * browser (docs/design.md, "Browsers"). A page of any origin may send a "simple" request
 * without asking the server first (a form, or fetch with mode "no-cors": text/plain or a form
 * encoding, any body), and a page whose name was made to resolve to 127.0.0.1 (DNS rebinding)
 * may even read the answers. Three checks, all on the request's headers, in one call before
 * any route runs:
 *
 * - Host: an open server (no dashboard token) listening on loopback answers only the names of
 *   loopback (localhost, 127.0.0.1, [::1], any port); 421 otherwise, on every route.
 * - Origin and Sec-Fetch-Site, on a state-changing method (anything but GET, HEAD, OPTIONS):
 *   an Origin that is not this server's own (the Host it was reached at, or its own address
 *   and port) and a Sec-Fetch-Site other than same-origin or none get 403. Clients other than
 *   browsers send neither and pass.
 * - Content-Type, on a route taking a JSON body: application/json (any case, parameters
 *   allowed), or no Content-Type with an empty body; 415 otherwise.
 *
 * Every refusal is FastAPI's shape with loc ["header", NAME].
 */
#include "server/http/api_impl.h"

#include <string.h>
#include <strings.h>

#define HOST_MAX 256 /* bytes of a host name in Host or Origin (DNS's limit is 253) */

/* {"detail": [{"type": "value_error", "loc": ["header", header], "msg": msg}]}. */
static void refuse(struct api *a, struct http_exchange *x, int status, const char *header,
                   const char *msg)
{
    struct json *d = json_object();
    struct json *e = json_push(json_set(d, "detail", json_array()), json_object());
    json_set_str(e, "type", "value_error");
    struct json *loc = json_set(e, "loc", json_array());
    json_push_str(loc, "header");
    json_push_str(loc, header);
    json_set_str(e, "msg", msg);
    api_reply_json(a, x, status, d);
}

/* Splits an authority "host[:port]" (host a name, an IPv4 address or "[IPv6]") of n bytes:
 * host (lowercase, brackets kept) and *port (-1: none). Returns false when it is not one
 * (userinfo, a path, an empty or non-numeric port, a character no host name has). */
static bool split_authority(const char *s, size_t n, char host[HOST_MAX], long *port)
{
    size_t h = 0;
    if (n > 0 && s[0] == '[') {
        const char *close = memchr(s, ']', n);
        if (!close)
            return false;
        h = (size_t)(close - s) + 1;
        for (size_t i = 1; i + 1 < h; i++)
            if (!strchr("0123456789abcdefABCDEF:.", s[i]))
                return false;
    } else {
        while (h < n && s[h] != ':') {
            char c = s[h];
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '.' || c == '-' || c == '_'))
                return false;
            h++;
        }
    }
    if (h == 0 || h >= HOST_MAX)
        return false;
    for (size_t i = 0; i < h; i++)
        host[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char)(s[i] - 'A' + 'a') : s[i];
    host[h] = '\0';
    *port = -1;
    if (h == n)
        return true;
    if (s[h] != ':' || n - h - 1 < 1 || n - h - 1 > 5)
        return false;
    long p = 0;
    for (size_t i = h + 1; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        p = p * 10 + (s[i] - '0');
    }
    if (p > 65535)
        return false;
    *port = p;
    return true;
}

static bool loopback_name(const char *host)
{
    return strcmp(host, "localhost") == 0 || strcmp(host, "127.0.0.1") == 0 ||
           strcmp(host, "[::1]") == 0;
}

/* Host: on an open server listening on loopback, a name of loopback only. A request without
 * Host (HTTP/1.0) is none a browser sends. */
static bool host_allowed(struct api *a, struct http_exchange *x)
{
    const char *token = a->cfg.dashboard_token;
    if (!a->loopback || (token && *token))
        return true;
    const char *h = http_header(x, "Host");
    char host[HOST_MAX];
    long port;
    if (!h || (split_authority(h, strlen(h), host, &port) && loopback_name(host)))
        return true;
    refuse(a, x, 421, "Host",
           "Host must name this server: localhost, 127.0.0.1 or [::1] (any port); a server "
           "listening on loopback without --dashboard-token answers no other name, so that "
           "a page of another site resolved to it (DNS rebinding) reads nothing");
    return false;
}

/* Whether origin ("scheme://authority") is this server's own: the Host the request was
 * reached at (the same host and port, a missing port being the scheme's default), or, over
 * http, this server's own address and port (localhost and 127.0.0.1 when it listens on them). */
static bool own_origin(struct api *a, struct http_exchange *x, const char *origin)
{
    bool https = strncasecmp(origin, "https://", 8) == 0;
    if (!https && strncasecmp(origin, "http://", 7) != 0)
        return false; /* "null" (a sandboxed frame, a file), another scheme */
    const char *auth = origin + (https ? 8 : 7);
    char host[HOST_MAX], reached[HOST_MAX];
    long port, reached_port;
    if (!split_authority(auth, strlen(auth), host, &port))
        return false;
    long fallback = https ? 443 : 80;
    const char *h = http_header(x, "Host");
    if (h && split_authority(h, strlen(h), reached, &reached_port) && strcmp(host, reached) == 0 &&
        (port < 0 ? fallback : port) == (reached_port < 0 ? fallback : reached_port))
        return true;
    int ours = atomic_load(&a->port);
    const char *listen = a->listen;
    bool on_loopback = strcmp(listen, "127.0.0.1") == 0 || strcmp(listen, "0.0.0.0") == 0;
    if (https || ours <= 0 || port != ours)
        return false;
    return (on_loopback && (strcmp(host, "localhost") == 0 || strcmp(host, "127.0.0.1") == 0)) ||
           (strcmp(listen, "0.0.0.0") != 0 && strcmp(host, listen) == 0);
}

/* Origin and Sec-Fetch-Site, for a method that changes state. */
static bool origin_allowed(struct api *a, struct http_exchange *x)
{
    const char *m = http_method(x);
    if (strcmp(m, "GET") == 0 || strcmp(m, "HEAD") == 0 || strcmp(m, "OPTIONS") == 0)
        return true;
    const char *site = http_header(x, "Sec-Fetch-Site");
    if (site && strcasecmp(site, "same-origin") != 0 && strcasecmp(site, "none") != 0) {
        refuse(a, x, 403, "Sec-Fetch-Site",
               "Sec-Fetch-Site: a request from a page of another site or origin (cross-site, "
               "same-site) may not change this server's state; only same-origin or none");
        return false;
    }
    const char *origin = http_header(x, "Origin");
    if (origin && !own_origin(a, x, origin)) {
        refuse(a, x, 403, "Origin",
               "Origin: a page of another origin may not change this server's state (POST, "
               "DELETE); only this server's own origin, or no Origin (clients other than "
               "browsers)");
        return false;
    }
    return true;
}

/* "application/json", any case, then nothing or parameters (";..."). */
static bool json_type(const char *ct)
{
    static const char want[] = "application/json";
    ct += strspn(ct, " \t");
    if (strncasecmp(ct, want, sizeof(want) - 1) != 0)
        return false;
    ct += sizeof(want) - 1;
    ct += strspn(ct, " \t");
    return *ct == '\0' || *ct == ';';
}

/* Content-Type of a JSON route's body: application/json, or none with an empty body. */
static bool type_allowed(struct api *a, struct http_exchange *x)
{
    size_t len;
    http_body(x, &len);
    const char *ct = http_header(x, "Content-Type");
    if (ct ? json_type(ct) : len == 0)
        return true;
    refuse(a, x, 415, "Content-Type",
           "Content-Type must be application/json (charset and other parameters allowed): "
           "the body is JSON; no body needs no Content-Type");
    return false;
}

bool api_browser_allowed(struct api *a, struct http_exchange *x, bool json_body)
{
    return host_allowed(a, x) && origin_allowed(a, x) && (!json_body || type_allowed(a, x));
}

void api_set_port(struct api *a, int port)
{
    atomic_store(&a->port, port);
}
