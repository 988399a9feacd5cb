/*
 * render: a judge_result as the JSON each route answers; the only place results become JSON.
 *
 * /v1/judge (and each batch line, and /submit's extra.judge): {status, reward, passed, total,
 * ran, message?, compile_output?, checker_compile_output?, compile: {ok, verdict, cached,
 * wall_ms?}, tests: [{index, verdict, time_ms, wall_ms, memory_kib, exit_code, stdout,
 * stderr, reason?}]} (docs/api.md). /run_code: SandboxFusion's RunCodeResponse (status
 * Success / Failed / SandboxError, compile_result, run_result as CommandRunResults, files).
 */
#ifndef VERDICT_RENDER_H
#define VERDICT_RENDER_H

#include "server/judge/judge.h"
#include "server/judge/session.h"
#include "server/util/json.h"

/* The /v1/judge document (heap), or NULL when out of memory. */
struct json *render_judged(const struct judge_result *res);

/* The /run_code document of a run_only result (heap), or NULL. */
struct json *render_run_code(const struct judge_result *res);

/* What render_jupyter needs of the request besides the driver's result. */
struct render_jupyter_ask {
    int ncells;
    double cell_timeout_s, total_timeout_s;
    int64_t memory_mb; /* 0: the python template's */
};

/* The most bytes a program's stdout or stderr takes rendered in an answer: twice the 16 MiB
 * captured (text whose every byte is a newline still fits), where 16 MiB of control characters
 * would render as 96 MiB (\u0001 each); past it the stream is cut (output_truncated). */
#define RENDER_STREAM_MAX (32u << 20)

/* The most of the notebook driver's results file read: the fetch cap of a file (the driver
 * writes at most 12 MiB, languages/python/jupyter.py's TOTAL_MAX); the file is parsed within
 * json_sandbox_budget of it. */
#define RENDER_RESULTS_MAX (16u << 20)

/* The /run_jupyter document (SandboxFusion's RunJupyterResponse, docs/api.md) of the notebook
 * driver's run_only result (heap), or NULL: the cells from the driver's results file, the one
 * running when the sandbox stopped the run with its output so far and an error saying why,
 * the cells never run listed empty with executed false. */
struct json *render_jupyter(const struct judge_result *res, const struct render_jupyter_ask *ask);

/* A session as GET /v1/sessions/{id} answers it (heap), or NULL; state: "closed" for DELETE's
 * answer, NULL for open/busy; id_chars: how much of the id to show (SESSION_ID_LEN: all). */
struct json *render_session(const struct session_info *s, const char *state, int id_chars);

/* The answer of POST /v1/sessions/{id}/exec (docs/api.md) (heap), or NULL. The members of
 * o->reply's cells are moved into it, not copied: o->reply is left emptied (still the caller's
 * to free). */
struct json *render_session_call(const struct session_outcome *o);

/* SandboxFusion's RunStatus of a verdict: "Success", "Failed" or "SandboxError". */
const char *render_run_status(enum verdict v);

#endif
