/*
 * serve: `verdict serve`, the HTTP server: languages, compile cache, cells, scheduler, routes,
 * and a graceful stop on SIGTERM or SIGINT.
 */
#ifndef VERDICT_SERVE_H
#define VERDICT_SERVE_H

#include <stdint.h>

struct serve_opts {
    const char *listen;    /* HOST:PORT (default 127.0.0.1:8080; env VERDICT_LISTEN) */
    long cells;            /* sandbox cells = concurrent runs (default 16; env VERDICT_CELLS) */
    long queue;            /* waiting requests beyond the running ones (default 4096) */
    uint64_t max_body;     /* request body limit (default 16 MiB) */
    const char *languages; /* template directory */
    const char *cache;     /* compile cache directory */
};

/* Runs the server until SIGTERM/SIGINT; returns the exit code (0 after a clean stop). */
int serve_main(const struct serve_opts *o);

#endif
