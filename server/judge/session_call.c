/*
 * session_call: one call of a session, run on the session's cell.
 *
 * Python: the request ({"cells", "stdin", "timeout", "stop_on_error"}) goes to the session's
 * interpreter (languages/python/jupyter.py --session) on its stdin; its answer, which the
 * cells can forge, is parsed within the budget of what the sandbox may make the server hold
 * (json_parse_budget): past it the call is OLE. The verdict comes from the run and the
 * answer: a raised error is RE (the interpreter's own timer, CellTimeoutError, is TLE with the
 * state kept), a cell's output cut by the interpreter's caps is OLE.
 *
 * A compiled language: its compile step (the session's memory), then its run step with the
 * call's limits, both as jobs in the session's cgroup over the session's work dir. A file the
 * cell cannot write over what the session left (a link, a FIFO, a full disk) is the program's
 * RE, never SE: nothing ran.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/judge/session_internal.h"
#include "server/util/json.h"

#define PYTHON_STREAMS_DIR ".verdict_session" /* the interpreter's files of a call's output */

bool session_interpreted(const struct lang *l)
{
    return strcmp(l->name, "python") == 0;
}

/* The limits of a call's run: the session's per call, the timeout asked. */
static struct job_limits call_limits(const struct session_spec *sp, const struct job_limits *tmpl,
                                     int64_t timeout_ms)
{
    struct job_limits l = *tmpl;
    l.cpu_ms = sp->call_cpu_ms;
    l.wall_ms = timeout_ms;
    l.backstop_ms = 0;
    l.memory_bytes = sp->call_memory_bytes;
    l.stack_bytes = 0;
    l.pids = sp->lim.pids;
    l.starved_tle = true; /* a call's timeout is wall time, as /run_code's */
    job_limits_defaults(&l);
    return l;
}

/* The interpreter's request: {"cells", "stdin", "timeout", "stop_on_error"} (heap). */
static char *kernel_request(const struct session_call *c, int64_t timeout_ms)
{
    struct json *r = json_object(), *cells = json_set(r, "cells", json_array());
    if (c->ncells == 0)
        json_push_str(cells, c->code ? c->code : "");
    for (int i = 0; i < c->ncells; i++)
        json_push_str(cells, c->cells[i]);
    json_set_bytes(r, "stdin", c->in ? (const char *)c->in : "", c->in ? c->in_len : 0);
    json_set_num(r, "timeout", (double)timeout_ms / 1000);
    json_set_bool(r, "stop_on_error", true);
    char *text = json_render(r, false);
    json_free(r);
    return text;
}

/* The first error ({ename, evalue, traceback}) a cell of the interpreter's answer raised,
 * or NULL. */
static const struct json *reply_error(const struct json *reply)
{
    const struct json *e = NULL;
    for (const struct json *c = json_first(json_get(reply, "cells")); c && !e; c = json_next(c))
        e = json_first(json_get(c, "error"));
    return e;
}

/* Whether a cell's output was cut (the interpreter's caps). */
static bool reply_truncated(const struct json *reply)
{
    for (const struct json *c = json_first(json_get(reply, "cells")); c; c = json_next(c)) {
        bool cut = false;
        if (json_bool(json_get(c, "output_truncated"), &cut) && cut)
            return true;
    }
    return false;
}

/* The source file and the call's own files, as one list (heap). */
static struct job_file *with_source(const struct lang *l, const struct session_call *c, int *n)
{
    struct job_file *f = calloc((size_t)c->nfiles + 1, sizeof(*f));
    if (!f)
        return NULL;
    f[0] = (struct job_file){.path = l->source,
                             .mode = 0644,
                             .data = (const uint8_t *)c->code,
                             .len = c->code ? strlen(c->code) : 0};
    for (int i = 0; i < c->nfiles; i++)
        f[i + 1] = c->files[i];
    *n = c->nfiles + 1;
    return f;
}

/* The verdict of an interpreter's call from its run and its answer (parsed into o->reply
 * when within budget; over: it was not). */
static void reply_verdict(struct session_outcome *o, const struct session_result *sr,
                          const struct json_budget *budget, bool over, int64_t timeout)
{
    const struct json *raised;
    o->verdict = verdict_of_job(sr->res.status);
    if (o->verdict != VERDICT_OK)
        return;
    if (over) {
        o->verdict = VERDICT_OLE;
        snprintf(o->run.message, sizeof(o->run.message),
                 "output limit exceeded: the interpreter's answer passed the server's budget "
                 "(%s: %zu)",
                 budget->over, budget->over_cap);
    } else if (sr->reply && !o->reply) {
        o->verdict = VERDICT_RE;
        snprintf(o->run.message, sizeof(o->run.message),
                 "the interpreter answered something that is not JSON");
    } else if ((raised = reply_error(o->reply))) {
        const char *name = json_get_str(raised, "ename"), *v = json_get_str(raised, "evalue");
        /* the interpreter's own timer is the call's timeout: TLE, the state kept */
        bool timer = name && strcmp(name, "CellTimeoutError") == 0;
        o->verdict = timer ? VERDICT_TLE : VERDICT_RE;
        if (timer) {
            o->run.tle_clock = JOB_CLOCK_WALL;
            snprintf(o->run.message, sizeof(o->run.message),
                     "the call ran past its timeout (%lld ms)", (long long)timeout);
        } else {
            snprintf(o->run.message, sizeof(o->run.message), "%.100s%s%.150s", name ? name : "?",
                     v && *v ? ": " : "", v ? v : "");
        }
    } else if (reply_truncated(o->reply)) {
        o->verdict = VERDICT_OLE;
        snprintf(o->run.message, sizeof(o->run.message),
                 "output limit exceeded: a cell's output was cut (1 MiB per stream)");
    } else if (!sr->reply) {
        o->verdict = VERDICT_SE;
        snprintf(o->run.message, sizeof(o->run.message), "the interpreter did not answer");
    }
}

/* A Python call: the request to the session's interpreter, its answer read. */
static void interpreter_call(const struct sessions_config *cfg, struct pool_session *ps,
                             const struct session_spec *sp, const struct session_call *c,
                             struct session_outcome *o, bool *dead)
{
    const struct lang *l = sp->lang;
    int64_t timeout = c->timeout_ms > 0 ? c->timeout_ms : sp->call_wall_ms;
    const char *argv[] = {l->run.argv[0], "-I", "-c", cfg->interp, "--session", NULL};
    /* the interpreter's own output files first: a call it did not answer is read from them */
    const char **fetch = calloc((size_t)c->nfetch + 2, sizeof(*fetch));
    char *req = fetch ? kernel_request(c, timeout) : NULL;
    if (!req) {
        free(fetch);
        snprintf(o->run.message, sizeof(o->run.message), "out of memory");
        return;
    }
    int nfetch = 0;
    fetch[nfetch++] = PYTHON_STREAMS_DIR "/stdout";
    fetch[nfetch++] = PYTHON_STREAMS_DIR "/stderr";
    for (int i = 0; i < c->nfetch; i++)
        fetch[nfetch++] = c->fetch[i];
    struct job j = {.argc = 5,
                    .argv = argv,
                    .nenv = l->run.nenv,
                    .env = (const char *const *)l->run.env,
                    .nfiles = c->nfiles,
                    .files = c->files,
                    .stdin_data = (const uint8_t *)req,
                    .stdin_len = strlen(req),
                    .nfetch = nfetch,
                    .fetch = fetch,
                    .limits = call_limits(sp, &l->run.limits, timeout)};
    struct session_result sr;
    pool_session_call(ps, SESSION_CALL, &j, &sr, &o->payload[0], dead);
    free(req);
    free(fetch);
    o->run = sr.res;
    o->state = sr.lost ? STATE_LOST : sr.started ? STATE_RESTARTED : STATE_KEPT;
    struct json_budget budget = json_sandbox_budget(SESSION_REPLY_MAX);
    bool over = false;
    if (sr.reply) {
        char *text = strndup((const char *)sr.reply, sr.reply_len);
        over = text && json_parse_budget(text, strlen(text), &budget, &o->reply) == -E2BIG;
        free(text);
    }
    reply_verdict(o, &sr, &budget, over, timeout);
    o->info.totals = sr.totals;
}

/* A compiled language's compile step over the session's files. Returns true when the run
 * may follow; else o is complete. */
static bool compile_step(const struct sessions_config *cfg, struct pool_session *ps,
                         const struct session_spec *sp, struct job_file *files, int nfiles,
                         struct session_outcome *o, bool *dead)
{
    const struct lang *l = sp->lang;
    struct job j = {0};
    void *owned = NULL;
    char err[ERR_LEN] = "";
    o->compiled = true;
    if (program_step_job(cfg->env, l, true, sp->lim.memory_bytes, &j, &owned, err) < 0) {
        snprintf(o->run.message, sizeof(o->run.message), "compile: %.200s", err);
        return false;
    }
    j.limits.pids = sp->lim.pids < j.limits.pids ? sp->lim.pids : j.limits.pids;
    j.files = files;
    j.nfiles = nfiles;
    struct session_result sr;
    pool_session_call(ps, SESSION_RUN, &j, &sr, &o->payload[1], dead);
    free(owned);
    o->info.totals = sr.totals;
    if (sr.res.status == JOB_RE &&
        strncmp(sr.res.message, SESSION_PLACE_FAILED, strlen(SESSION_PLACE_FAILED)) == 0) {
        o->compiled = false; /* nothing ran: a file could not be written */
        o->run = sr.res;
        o->state = STATE_KEPT;
        o->verdict = VERDICT_RE;
        return false;
    }
    o->compile = sr.res;
    bool starved = false;
    o->compile_verdict = program_compile_outcome(&sr.res, &j.limits, &starved);
    o->state = sr.lost ? STATE_LOST : STATE_KEPT;
    if (*dead || o->compile_verdict != VERDICT_OK) {
        o->verdict = o->compile_verdict == VERDICT_SE || *dead ? VERDICT_SE : VERDICT_CE;
        return false;
    }
    return true;
}

/* A call of a language without an interpreter: compile (where it compiles), then run. */
static void program_call(const struct sessions_config *cfg, struct pool_session *ps,
                         const struct session_spec *sp, const struct session_call *c,
                         struct session_outcome *o, bool *dead)
{
    const struct lang *l = sp->lang;
    int64_t timeout = c->timeout_ms > 0 ? c->timeout_ms : sp->call_wall_ms;
    int nfiles = 0;
    struct job_file *files = with_source(l, c, &nfiles);
    if (!files) {
        snprintf(o->run.message, sizeof(o->run.message), "out of memory");
        return;
    }
    if (l->compiled && !compile_step(cfg, ps, sp, files, nfiles, o, dead)) {
        free(files);
        return;
    }
    struct job j = {0};
    void *owned = NULL;
    char err[ERR_LEN] = "";
    if (program_step_job(cfg->env, l, false, sp->call_memory_bytes, &j, &owned, err) < 0) {
        snprintf(o->run.message, sizeof(o->run.message), "run: %.200s", err);
        free(files);
        return;
    }
    j.limits = call_limits(sp, &l->run.limits, timeout);
    j.files = l->compiled ? NULL : files;
    j.nfiles = l->compiled ? 0 : nfiles;
    j.stdin_data = c->in;
    j.stdin_len = c->in_len;
    j.fetch = c->fetch;
    j.nfetch = c->nfetch;
    struct session_result sr;
    pool_session_call(ps, SESSION_RUN, &j, &sr, &o->payload[0], dead);
    free(owned);
    free(files);
    o->run = sr.res;
    o->state = sr.lost ? STATE_LOST : STATE_KEPT;
    o->verdict = verdict_of_job(sr.res.status);
    o->info.totals = sr.totals;
}

void session_run_call(const struct sessions_config *cfg, struct pool_session *ps,
                      const struct session_spec *sp, const struct session_call *c,
                      struct session_outcome *o, bool *dead)
{
    *dead = false;
    o->verdict = VERDICT_SE;
    if (session_interpreted(sp->lang))
        interpreter_call(cfg, ps, sp, c, o, dead);
    else
        program_call(cfg, ps, sp, c, o, dead);
}
