/*
 * client: a small blocking HTTP/1.1 client for verdict's own use (`verdict bench --server`):
 * plain http, one keep-alive connection per client, JSON bodies. Replies with
 * Content-Length or chunked bodies are read whole (up to 256 MiB).
 */
#ifndef VERDICT_CLIENT_H
#define VERDICT_CLIENT_H

#include <stddef.h>

#include "runners/err.h"

struct client;

/* A client for url ("http://HOST:PORT" with an optional trailing "/"). Connects lazily. */
int client_new(const char *url, struct client **out, char err[ERR_LEN]);

/* POSTs body (application/json) to path. Returns the HTTP status with *reply (heap,
 * NUL-terminated, *len bytes), or a negative errno with err. A connection the server closed
 * while idle is reopened once. timeout_s bounds each read and write. */
int client_post(struct client *c, const char *path, const char *body, size_t body_len,
                int timeout_s, char **reply, size_t *len, char err[ERR_LEN]);

/* Adds a header line sent with every later request (a token, a client label). Returns 0,
 * -EINVAL for a name or value that would break the header (CR, LF; a colon in the name), or
 * -E2BIG when the 1 KiB of extra headers is used up. */
int client_header(struct client *c, const char *name, const char *value);

void client_free(struct client *c); /* NULL: no-op */

#endif
