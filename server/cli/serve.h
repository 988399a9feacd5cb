/*
 * serve: `verdict serve`, the HTTP server: languages, compile cache, cells, scheduler, routes,
 * and a graceful stop on SIGTERM or SIGINT.
 */
#ifndef VERDICT_SERVE_H
#define VERDICT_SERVE_H

#include <stdint.h>

#include "server/util/opts.h"

/* Zero or NULL: the default. */
struct serve_opts {
    const char *config;         /* the file the options were read from, if any */
    const char *listen;         /* HOST:PORT (default 127.0.0.1:8080) */
    long cells;                 /* warm sandbox cells = verdict's API's concurrent runs (16) */
    long max_cells;             /* cells /run_code may grow to (default max(cells, 64 per core)) */
    int64_t cell_idle_ms;       /* a grown cell idle this long is stopped (default 30 s) */
    long queue;                 /* waiting requests beyond the running ones (default 4096) */
    long client_share;          /* waiting requests per client address (default max(queue/4, 64)) */
    uint64_t queue_bytes;       /* body bytes of waiting and running requests (default 256 MiB) */
    uint64_t client_bytes;      /* of which one client address's (default max(3/4 of
                                   queue_bytes, max_body)) */
    const char *trusted_proxy;  /* ADDR[/BITS],...: whose X-Forwarded-For names the client */
    uint64_t max_body;          /* request body limit (default 16 MiB) */
    uint64_t max_header;        /* request line and headers (default 32 KiB) */
    long connections;           /* open connections (default 4096) */
    long peer_connections;      /* of them from one address (default connections/4) */
    int64_t idle_timeout_ms;    /* idle connection timeout (default 15 s) */
    uint64_t peer_stream_bytes; /* streamed bytes one address may leave unread (64 MiB) */
    const char *languages;      /* template directory */
    const char *cache;          /* compile cache directory */
    const char *db;             /* the dataset store (default VERDICT_DB) */
    const char *store;          /* the results store's file, or "off" (default: db's file) */
    long retain_rows;           /* submissions kept (default 100000; -1: no cap) */
    long retain_days;           /* days kept (default 30; -1: no age limit) */
    const char *dashboard_token;     /* required by the dashboard and the store's routes */
    struct opt_list datasets;        /* directories imported at start (unchanged sources skipped) */
    const char *python_warm;         /* "on" or "off" (default on: env VERDICT_PYTHON_WARM) */
    long max_sessions;               /* sessions open at once (-1: the default, 32 or max_cells) */
    long client_sessions;            /* of which one client address's (default max(1, 3/4)) */
    int64_t session_idle_max_ms;     /* the most idle_ms a session may ask (default 1 h) */
    int64_t session_lifetime_max_ms; /* the most lifetime_ms (default 6 h) */
};

/* Runs the server until SIGTERM/SIGINT; returns the exit code (0 after a clean stop). */
int serve_main(const struct serve_opts *o);

#endif
