/*
 * record: a judged request as the store keeps it (server/store/store.h): the judge_request
 * and judge_result turned into a store_submission, with its detail JSON (the compile, the
 * limits, each test's measurements and excerpts of its stdin, expected output, stdout and
 * stderr, at most RECORD_EXCERPT bytes each, made valid UTF-8).
 *
 * Called on the worker that judged, right after judging: store_put_submission copies and
 * queues, never waiting on the disk.
 */
#ifndef VERDICT_RECORD_H
#define VERDICT_RECORD_H

#include <stdint.h>

#include "server/http/http.h"
#include "server/judge/judge.h"
#include "server/store/store.h"

#define RECORD_EXCERPT (4u << 10) /* bytes of each excerpt kept */

struct record_origin {
    const char *route;             /* the route's path */
    const char *client, *label;    /* the peer's address; X-Verdict-Client (NULL none) */
    const char *dataset, *problem; /* NULL when none */
    const char *code;              /* what to keep as the code (NULL: the request's) */
    size_t code_len;
};

/* The origin of an exchange's request: its route, peer and label (dataset, problem and code
 * left NULL). */
struct record_origin record_origin_of(const struct http_exchange *x);

/* Stores one judged request. Returns its id (> 0), or 0 when the store is off (s NULL) or
 * the record was not queued. */
int64_t record_put(struct store *s, const struct record_origin *o, const struct judge_request *req,
                   const struct judge_result *res);

/* The detail JSON of a result (heap; the caller frees), for tests and record_put. */
char *record_detail(const struct judge_request *req, const struct judge_result *res);

#endif
