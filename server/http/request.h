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
#include "server/judge/session.h"
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
    char msg[320];
};

/* Validates a parsed body of the given shape. Returns 0 with *out (the caller frees it with
 * judge_request_free), or -EINVAL (-ENOMEM) with e filled and *out NULL. */
int request_parse(const struct lang_set *langs, const struct json *body, enum request_shape shape,
                  struct judge_request **out, struct request_error *e);

/* /v1/judge/batch's body: {"items": [1 to REQUEST_MAX_BATCH items]}, each item a
 * REQUEST_JUDGE body (with an optional id) for request_parse. Returns the number of items with
 * *items the array (borrowed from body), or -EINVAL with e filled. O(items). */
#define REQUEST_MAX_BATCH 4096
int request_batch_items(const struct json *body, const struct json **items,
                        struct request_error *e);

/* ---- /run_jupyter (SandboxFusion's RunJupyterRequest) ---------------------------------------
 * The cells run in one Python process, the notebook driver (languages/python/jupyter.py,
 * embedded as verdict_jupyter_driver), as the python template's program; the cells and the
 * options are its stdin; its results come back as the work-dir files under JUPYTER_DIR. */
#define REQUEST_MAX_CELLS      1024               /* cells in one request */
#define REQUEST_MAX_CELL_BYTES (1 << 20)          /* bytes of one cell's source */
#define JUPYTER_DIR            ".verdict_jupyter" /* the driver's own files: refused in files */
#define JUPYTER_RESULTS        JUPYTER_DIR "/results.jsonl"
#define JUPYTER_STDOUT         JUPYTER_DIR "/stdout"
#define JUPYTER_STDERR         JUPYTER_DIR "/stderr"
#define JUPYTER_STARTUP_MS     1000 /* the driver's own start, granted past total_timeout */

extern const char verdict_jupyter_driver[];
extern const size_t verdict_jupyter_driver_len;

struct jupyter_request {
    struct judge_request *run; /* the driver's run_only request (heap; jupyter_request_fini) */
    int ncells;
    double cell_timeout_s;  /* 0: none */
    double total_timeout_s; /* the run's CPU and wall limits, past JUPYTER_STARTUP_MS */
    int64_t memory_mb;      /* the run's memory limit, MiB (the template's for -1) */
};

/* Validates a /run_jupyter body into j. Returns 0 (release j with jupyter_request_fini), or
 * -EINVAL with e filled and j->run NULL. */
int request_parse_jupyter(const struct lang_set *langs, const struct json *body,
                          struct jupyter_request *j, struct request_error *e);
void jupyter_request_fini(struct jupyter_request *j);

/* ---- /v1/sessions (docs/api.md, "Sessions") -------------------------------------------------- */
#define SESSION_STREAMS_DIR ".verdict_session" /* a Python session's output files: refused */

/* POST /v1/sessions: the language and limits into *spec (defaults filled; idle_ms and
 * lifetime_ms at most ceil's, their defaults no more). Returns 0, or -EINVAL with e filled. */
int request_parse_session_open(const struct lang_set *langs, const struct json *body,
                               const struct session_ceilings *ceil, struct session_spec *spec,
                               struct request_error *e);

/* POST /v1/sessions/{id}/exec, for a session of language l: code or cells (Python only),
 * stdin, files, fetch_files and timeout_ms, into a judge_request's members (code, files,
 * fetch; stdin as tests[0].in) and *cells (the request's own strings: a JSON array kept in
 * *cells_doc, heap) with *timeout_ms. Returns 0 (free with judge_request_free and json_free),
 * or -EINVAL with e filled and nothing held. */
int request_parse_session_exec(const struct lang *l, const struct json *body,
                               struct judge_request **out, struct json **cells_doc,
                               int64_t *timeout_ms, struct request_error *e);

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
