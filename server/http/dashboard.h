/*
 * dashboard: the web dashboard's routes, GET / (index.html) and GET /assets/<name>, served
 * from the assets built into the binary (server/http/dashboard/, embedded by CMake into
 * generated/dashboard_assets.c). GET /?token=T keeps the dashboard token in a cookie and
 * redirects to /. Every reply carries the Content-Security-Policy and the other headers of
 * docs/api.md ("The dashboard").
 */
#ifndef VERDICT_DASHBOARD_H
#define VERDICT_DASHBOARD_H

#include <stdbool.h>
#include <stddef.h>

struct api;
struct http_exchange;

/* The longest dashboard token GET /?token=T keeps in the cookie. */
#define DASHBOARD_TOKEN_MAX   128
#define DASHBOARD_TOKEN_MAX_S "128"

struct dashboard_asset {
    const char *name; /* "index.html", "app.js", ... */
    const char *type; /* its Content-Type */
    const unsigned char *data;
    size_t len;
};

/* The embedded assets (generated). */
extern const struct dashboard_asset dashboard_assets[];
extern const size_t dashboard_nassets;

/* The asset of that name, or NULL. */
const struct dashboard_asset *dashboard_find(const char *name);

/* Whether path is one of the dashboard's: "/" or under "/assets/". */
bool dashboard_path(const char *path);

/* Answers a request for a dashboard path (404 JSON for an unknown asset, 405 for a method
 * other than GET). */
void api_dashboard(struct api *a, struct http_exchange *x);

#endif
