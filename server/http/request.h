/*
 * request: the one parser of a judging request, from JSON into a struct judge_request, for
 * every route that judges (/run_code, /v1/judge, each /v1/judge/batch item, /submit once its
 * harness is built) and for `verdict bench`. One error form for all: the field's path, a
 * FastAPI-style type and a message (rendered as a 422 `detail`, or a batch line's `error`).
 *
 * Bounds (docs/api.md, "Limits"): JUDGE_MAX_TESTS tests, JUDGE_MAX_FILES files,
 * JUDGE_MAX_FETCH distinct fetch paths, paths of at most 255 bytes (job_path_ok), limits in the
 * ranges below; strings holding NUL are refused (request_check_text), since the sandbox's
 * programs and files are byte strings the JSON reader cannot carry past a NUL.
 */
#ifndef VERDICT_REQUEST_H
#define VERDICT_REQUEST_H

#include <stddef.h>

#include "server/judge/judge.h"
#include "server/util/json.h"

#define REQUEST_MAX_TIMEOUT_S    300.0  /* /run_code's compile_timeout and run_timeout, seconds */
#define REQUEST_MAX_MEMORY_MB    65536  /* memory limits, MiB */
#define REQUEST_MAX_TIME_MS      300000 /* /v1/judge limits.time_ms */
#define REQUEST_MAX_WALL_MS      600000 /* /v1/judge limits.wall_ms */
#define REQUEST_MAX_INSTRUCTIONS 1e15   /* /v1/judge limits.instructions */
/* /run_code: the run's backstop past run_timeout, ms (runners/clock.h): veRL's client waits
 * compile_timeout + run_timeout + 10 s, and a starved run is answered SE before that. */
#define REQUEST_RUN_BACKSTOP_MS 8000

enum request_shape {
    REQUEST_RUN_CODE, /* SandboxFusion's RunCodeRequest: one run, its whole output */
    REQUEST_JUDGE     /* verdict's /v1/judge: tests or a harness */
};

/* Where a request is wrong: the field path (e.g. "tests", "3", "expected") and what. */
struct request_error {
    char loc[4][64];
    int nloc;
    char type[32];
    char msg[200];
};

/* Validates a parsed body of the given shape. Returns 0 with *out (the caller frees it with
 * judge_request_free), or -EINVAL (-ENOMEM) with e filled and *out NULL. */
int request_parse(const struct lang_set *langs, const struct json *body, enum request_shape shape,
                  struct judge_request **out, struct request_error *e);

/* Checks a body's raw bytes before parsing: a NUL byte, or a JSON string (or key) holding the
 * escape \u0000, is refused (-EINVAL with e naming the member it is in). Returns 0 otherwise.
 * O(len). */
int request_check_text(const char *text, size_t len, struct request_error *e);

/* Fills e (returns -EINVAL): the path is up to four parts, NULL-terminated early. */
int request_fail(struct request_error *e, const char *type, const char *msg, const char *l0,
                 const char *l1, const char *l2);

/* {"type", "loc": [prefix?, loc...], "msg"} (heap), or NULL. prefix ("body" for a 422, as
 * FastAPI writes it) may be NULL. */
struct json *request_error_json(const struct request_error *e, const char *prefix);

#endif
