/*
 * dashboard: GET / and GET /assets/<name> (see dashboard.h). The pages themselves are plain
 * HTML, CSS and JavaScript under server/http/dashboard/; they read the JSON routes.
 */
#include "server/http/dashboard.h"

#include <stdlib.h>
#include <string.h>

#include "server/http/api_impl.h"
#include "server/http/http.h"
#include "server/util/json.h"

#define ASSETS "/assets/"

/* No inline script or style, nothing from elsewhere, no framing: user-controlled text that
 * slipped into the DOM as markup still could not run. */
#define CSP                                                                                        \
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "              \
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const struct dashboard_asset *dashboard_find(const char *name)
{
    for (size_t i = 0; i < dashboard_nassets; i++)
        if (strcmp(dashboard_assets[i].name, name) == 0)
            return &dashboard_assets[i];
    return NULL;
}

bool dashboard_path(const char *path)
{
    return strcmp(path, "/") == 0 || strncmp(path, ASSETS, strlen(ASSETS)) == 0;
}

static void security_headers(struct http_exchange *x)
{
    http_add_header(x, "Content-Security-Policy", CSP);
    http_add_header(x, "X-Content-Type-Options", "nosniff");
    http_add_header(x, "Referrer-Policy", "no-referrer");
    http_add_header(x, "Cache-Control", "no-cache");
}

/* A token fit for a cookie's value as sent back: RFC 6265's cookie-octets less the few that
 * could end it or be read as another attribute. */
static bool token_ok(const char *t)
{
    size_t n = strlen(t);
    if (n == 0 || n > DASHBOARD_TOKEN_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c <= 0x20 || c >= 0x7f || c == '"' || c == ',' || c == ';' || c == '\\')
            return false;
    }
    return true;
}

/* GET /?token=T: the server's token goes into an HttpOnly cookie and the browser to / (without
 * the token in its address bar and history); another is 401 and sets nothing. */
static void keep_token(struct api *a, struct http_exchange *x, const char *token)
{
    if (!token_ok(token)) {
        struct json *d = json_object();
        struct json *e = json_push(json_set(d, "detail", json_array()), json_object());
        json_set_str(e, "type", "value_error");
        struct json *loc = json_set(e, "loc", json_array());
        json_push_str(loc, "query");
        json_push_str(loc, "token");
        json_set_str(e, "msg",
                     "the token: 1 to " DASHBOARD_TOKEN_MAX_S
                     " printable ASCII characters, no space, quote, comma, semicolon or "
                     "backslash");
        api_reply_json(a, x, 422, d);
        return;
    }
    if (!api_token_matches(a, token)) {
        http_add_header(x, "WWW-Authenticate", "Bearer");
        api_reply_detail(a, x, 401, "not this server's dashboard token (--dashboard-token)");
        return;
    }
    char cookie[DASHBOARD_TOKEN_MAX + 96];
    snprintf(cookie, sizeof(cookie), "verdict_token=%s; HttpOnly; SameSite=Strict; Path=/", token);
    http_add_header(x, "Set-Cookie", cookie);
    http_add_header(x, "Location", "/");
    api_count(a, x, 303);
    http_reply(x, 303, "text/plain; charset=utf-8", NULL, 0);
}

void api_dashboard(struct api *a, struct http_exchange *x)
{
    security_headers(x);
    if (strcmp(http_method(x), "GET") != 0) {
        api_reply_detail(a, x, 405, "Method Not Allowed");
        return;
    }
    const char *path = http_path(x);
    const char *token = strcmp(path, "/") == 0 ? http_query(x, "token") : NULL;
    if (token) {
        keep_token(a, x, token);
        return;
    }
    if (!api_dashboard_allowed(a, x))
        return; /* answered: 401 or 403 */
    const struct dashboard_asset *as =
        dashboard_find(strcmp(path, "/") == 0 ? "index.html" : path + strlen(ASSETS));
    if (!as || (strcmp(as->name, "index.html") == 0 && strcmp(path, "/") != 0)) {
        api_reply_detail(a, x, 404, "Not Found");
        return;
    }
    char *body = malloc(as->len + 1);
    if (body)
        memcpy(body, as->data, as->len + 1);
    api_count(a, x, body ? 200 : 500);
    http_reply(x, body ? 200 : 500, as->type, body, body ? as->len : 0);
}
