/*
 * render: judge_result -> JSON. Field for field what docs/api.md documents; verdict names
 * from verdict_name, never spelled here.
 */
#include "server/http/render.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runners/buf.h"
#include "server/http/request.h"
#include "server/util/base64.h"

/* A string member: every text of an answer may quote what a program wrote (a comparison's
 * reason, a compiler's message, an interpreter's error cut to fit), so invalid UTF-8 becomes
 * U+FFFD; NULL is null. */
static struct json *set_text(struct json *o, const char *key, const char *value)
{
    return value ? json_set_bytes(o, key, value, strlen(value)) : json_set_null(o, key);
}

const char *render_run_status(enum verdict v)
{
    return v == VERDICT_OK ? "Success" : v == VERDICT_SE ? "SandboxError" : "Failed";
}

static struct json *test_json(const struct judge_test_result *t)
{
    struct json *o = json_object();
    json_set_num(o, "index", t->index);
    set_text(o, "verdict", verdict_name(t->verdict));
    json_set_num(o, "time_ms", (double)t->cpu_ms);
    json_set_num(o, "wall_ms", (double)t->wall_ms);
    json_set_num(o, "memory_kib", (double)t->memory_kib);
    if (t->instructions > 0) /* counted: never 0 for a program that ran */
        json_set_num(o, "instructions", (double)t->instructions);
    if (t->verdict == VERDICT_TLE && t->limit != JOB_CLOCK_NONE)
        set_text(o, "limit", job_clock_name(t->limit));
    /* runs the judge discarded (the load or the sandbox spoiled them) and why the last was */
    json_set_num(o, "reruns", t->reruns);
    if (t->reruns > 0)
        set_text(o, "rerun", judge_rerun_name(t->rerun));
    json_set_num(o, "exit_code", t->exit_code);
    bool cut;
    json_set_bytes_max(o, "stdout", t->out, t->out_len, RENDER_STREAM_MAX, &cut);
    json_set_bytes_max(o, "stderr", t->err, t->err_len, RENDER_STREAM_MAX, &cut);
    if (t->reason[0])
        set_text(o, "reason", t->reason);
    return o;
}

struct json *render_judged(const struct judge_result *res)
{
    struct json *d = json_object();
    const struct judge_compile *c = &res->compile;
    set_text(d, "status", verdict_name(res->status));
    /* how every test of it was decided (judge.h, docs/integrity/grading.md) */
    set_text(d, "grading", judge_grading_name(res->grading));
    json_set_num(d, "reward", res->reward);
    json_set_num(d, "passed", res->passed);
    json_set_num(d, "total", res->total);
    json_set_num(d, "ran", res->ran);
    if (res->message[0])
        set_text(d, "message", res->message);
    if (c->built && c->verdict != VERDICT_OK)
        set_text(d, "compile_output", c->output ? c->output : "");
    if (res->checker_output)
        set_text(d, "checker_compile_output", res->checker_output);
    if (c->built) {
        struct json *o = json_set(d, "compile", json_object());
        json_set_bool(o, "ok", c->verdict == VERDICT_OK);
        set_text(o, "verdict", verdict_name(c->verdict));
        json_set_bool(o, "cached", c->cached);
        if (!c->cached && c->compiled_language)
            json_set_num(o, "wall_ms", (double)c->wall_ms);
    }
    struct json *tests = json_set(d, "tests", json_array());
    for (int i = 0; i < res->ntests; i++)
        json_push(tests, test_json(&res->tests[i]));
    return d;
}

/* A CommandRunResult of the run. */
static struct json *command_result(const struct judge_test_result *t)
{
    struct json *o = json_object();
    bool se = t->verdict == VERDICT_SE, tle = t->verdict == VERDICT_TLE;
    set_text(o, "status", tle ? "TimeLimitExceeded" : se ? "Error" : "Finished");
    if (se)
        json_set_null(o, "execution_time");
    else
        json_set_num(o, "execution_time", (double)t->wall_ms / 1000.0);
    if (tle || se)
        json_set_null(o, "return_code");
    else
        json_set_num(o, "return_code", t->signal ? -t->signal : t->exit_code);
    bool cut_out, cut_err = false;
    json_set_bytes_max(o, "stdout", t->out, t->out_len, RENDER_STREAM_MAX, &cut_out);
    if (se)
        set_text(o, "stderr", t->reason);
    else
        json_set_bytes_max(o, "stderr", t->err, t->err_len, RENDER_STREAM_MAX, &cut_err);
    /* verdict's own, beside SandboxFusion's fields. */
    set_text(o, "verdict", verdict_name(t->verdict));
    json_set_num(o, "cpu_time", (double)t->cpu_ms / 1000.0);
    json_set_num(o, "memory_kib", (double)t->memory_kib);
    if (t->instructions > 0) /* counted: never 0 for a program that ran */
        json_set_num(o, "instructions", (double)t->instructions);
    if (tle && t->limit != JOB_CLOCK_NONE)
        set_text(o, "limit", job_clock_name(t->limit));
    json_set_bool(o, "memory_limit_exceeded", t->verdict == VERDICT_MLE);
    json_set_bool(o, "output_truncated",
                  t->stdout_truncated || t->stderr_truncated || cut_out || cut_err);
    if (t->verdict != VERDICT_OK && !se && t->reason[0])
        set_text(o, "reason", t->reason);
    return o;
}

/* The compile step as SandboxFusion reports it: a CE is a finished compiler with exit 1, a
 * compile that ran out of time is TimeLimitExceeded. */
static struct json *compile_result(const struct judge_compile *c)
{
    struct json *o = json_object();
    bool tle = c->verdict == VERDICT_TLE;
    set_text(o, "status", tle ? "TimeLimitExceeded" : "Finished");
    json_set_num(o, "execution_time", c->cached ? 0.0 : (double)c->wall_ms / 1000.0);
    if (tle)
        json_set_null(o, "return_code");
    else
        json_set_num(o, "return_code", c->verdict == VERDICT_OK ? 0 : 1);
    set_text(o, "stdout", "");
    set_text(o, "stderr", c->output ? c->output : "");
    set_text(o, "verdict", verdict_name(c->verdict));
    json_set_bool(o, "cached", c->cached);
    return o;
}

/* files: {path: base64} of the fetched files (not the notebook driver's own). */
static void set_files(struct json *d, const struct judge_test_result *t)
{
    struct json *files = json_set(d, "files", json_object());
    for (int i = 0; t && i < t->nfetched; i++) {
        const struct judge_fetched *f = &t->fetched[i];
        if (strncmp(f->path, JUPYTER_DIR "/", strlen(JUPYTER_DIR) + 1) == 0)
            continue;
        char *b64 = f->error ? NULL : base64_encode(f->data, f->len);
        if (b64)
            json_set_str_take(files, f->path, b64); /* held once */
    }
}

struct json *render_run_code(const struct judge_result *res)
{
    struct json *d = json_object();
    const struct judge_test_result *t = res->ntests > 0 ? &res->tests[0] : NULL;
    enum verdict v = res->status != VERDICT_OK ? res->status : t ? t->verdict : VERDICT_SE;
    set_text(d, "status", render_run_status(v));
    const char *message = t && t->verdict == VERDICT_SE ? t->reason : res->message;
    set_text(d, "message", v == VERDICT_SE ? message : "");
    if (res->compile.built && res->compile.compiled_language)
        json_set(d, "compile_result", compile_result(&res->compile));
    else
        json_set_null(d, "compile_result");
    if (t)
        json_set(d, "run_result", command_result(t));
    else
        json_set_null(d, "run_result");
    json_set_null(d, "executor_pod_name");
    set_files(d, t);
    return d;
}

/* ---- /run_jupyter ------------------------------------------------------------------------- */

static const struct judge_fetched *fetched(const struct judge_test_result *t, const char *path)
{
    for (int i = 0; t && i < t->nfetched; i++)
        if (strcmp(t->fetched[i].path, path) == 0)
            return t->fetched[i].error ? NULL : &t->fetched[i];
    return NULL;
}

/* What the driver's results file says: each finished cell's record, the cell it started last,
 * and whether it finished; or, when the file passed the budget of what the sandbox may make the
 * server hold (RENDER_RESULTS_MAX bytes, json_sandbox_budget's values and depth), why: what
 * came before is kept, the rest is not read. */
struct notebook {
    struct json **cells; /* ncells parsed records, or NULL */
    int running;         /* the last cell started (-1: none) */
    bool done;
    char over[200]; /* the results passed the budget: why ("" within it) */
};

/* One line's record, within *b; NULL (and nb->over set past the budget) when none. */
static struct json *read_line(const char *line, size_t len, struct json_budget *b,
                              struct notebook *nb)
{
    char *text = malloc(len + 1); /* the scan may rewrite a lone surrogate escape */
    struct json *rec = NULL;
    if (!text)
        return NULL;
    memcpy(text, line, len);
    text[len] = '\0';
    if (json_parse_budget(text, len, b, &rec) == -E2BIG)
        snprintf(nb->over, sizeof(nb->over),
                 "output limit exceeded: the cells' results passed the server's budget (%s: %zu)",
                 b->over, b->over_cap);
    free(text);
    return rec;
}

static void read_results(const struct judge_fetched *f, int ncells, struct notebook *nb)
{
    if (!f)
        return;
    struct json_budget b = json_sandbox_budget(RENDER_RESULTS_MAX);
    const char *p = (const char *)f->data, *end = p + f->len;
    while (p < end && !nb->over[0]) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = (size_t)((nl ? nl : end) - p);
        struct json *rec = len ? read_line(p, len, &b, nb) : NULL;
        p += len + 1;
        double i;
        if (json_num(json_get(rec, "start"), &i) && i >= 0 && i < ncells) {
            nb->running = (int)i;
        } else if (json_num(json_get(rec, "cell"), &i) && i >= 0 && i < ncells &&
                   !nb->cells[(int)i]) {
            nb->cells[(int)i] = rec;
            rec = NULL;
        } else if (json_get(rec, "done")) {
            nb->done = true;
        }
        json_free(rec);
    }
}

/* A member of the driver's record, of the type asked, moved into o; else a default. */
static void take_member(struct json *o, struct json *rec, const char *key, bool list)
{
    struct json *v = json_take(rec, key);
    if (v && (list ? json_is_array(v) : json_is_string(v))) {
        json_set(o, key, v);
        return;
    }
    json_free(v);
    if (list)
        json_set(o, key, json_array());
    else
        set_text(o, key, "");
}

static void set_output(struct json *o, const struct judge_test_result *t, const char *key,
                       const char *path)
{
    const struct judge_fetched *f = fetched(t, path);
    size_t n = f ? f->len : 0;
    json_set_bytes(o, key, f ? f->data : NULL, n < (1u << 20) ? n : (1u << 20));
}

/* The error of the cell the sandbox stopped: why, from the run's verdict (or the results'
 * budget, when they passed it: over). */
static struct json *stopped_error(const struct judge_test_result *t,
                                  const struct render_jupyter_ask *ask, const char *over)
{
    struct json *e = json_object();
    char msg[400];
    const char *name = "DeadKernelError";
    if (over[0]) {
        name = "OutputLimitError";
        snprintf(msg, sizeof(msg), "%s", over);
    } else if (t->verdict == VERDICT_TLE) {
        name = "CellTimeoutError";
        snprintf(msg, sizeof(msg),
                 "the kernel was stopped in this cell: the run passed total_timeout (%g s)",
                 ask->total_timeout_s);
    } else if (t->verdict == VERDICT_MLE) {
        name = "MemoryError";
        if (ask->memory_mb > 0)
            snprintf(msg, sizeof(msg),
                     "the kernel was killed in this cell: its memory passed memory_limit_MB "
                     "(%lld MiB)",
                     (long long)ask->memory_mb);
        else
            snprintf(msg, sizeof(msg),
                     "the kernel was killed in this cell: its memory passed the default limit");
    } else if (t->signal) {
        snprintf(msg, sizeof(msg), "the kernel died in this cell (signal %d)%s%s", t->signal,
                 t->reason[0] ? ": " : "", t->reason);
    } else {
        snprintf(msg, sizeof(msg), "the kernel exited in this cell (exit code %d)%s%s",
                 t->exit_code, t->reason[0] ? ": " : "", t->reason);
    }
    set_text(e, "ename", name);
    set_text(e, "evalue", msg);
    struct json *tb = json_set(e, "traceback", json_array());
    char line[450];
    snprintf(line, sizeof(line), "%s: %s", name, msg);
    json_push_str(tb, line);
    return e;
}

static struct json *cell_json(struct notebook *nb, int i, const struct judge_test_result *t,
                              const struct render_jupyter_ask *ask)
{
    struct json *o = json_object();
    struct json *rec = nb->cells[i];
    bool stopped = !rec && !nb->done && nb->running == i;
    if (rec) {
        take_member(o, rec, "stdout", false);
        take_member(o, rec, "stderr", false);
        take_member(o, rec, "display", true);
        take_member(o, rec, "error", true);
    } else if (stopped) { /* what it wrote before the sandbox stopped it */
        set_output(o, t, "stdout", JUPYTER_STDOUT);
        set_output(o, t, "stderr", JUPYTER_STDERR);
        json_set(o, "display", json_array());
        json_push(json_set(o, "error", json_array()), stopped_error(t, ask, nb->over));
    } else {
        set_text(o, "stdout", "");
        set_text(o, "stderr", "");
        json_set(o, "display", json_array());
        json_set(o, "error", json_array());
    }
    /* verdict's own, beside SandboxFusion's fields */
    json_set_bool(o, "executed", rec || stopped);
    bool truncated = stopped && nb->over[0];
    json_bool(json_get(rec, "output_truncated"), &truncated);
    json_set_bool(o, "output_truncated", truncated);
    json_free(rec); /* what is left of it */
    nb->cells[i] = NULL;
    return o;
}

struct json *render_jupyter(const struct judge_result *res, const struct render_jupyter_ask *ask)
{
    struct json *d = json_object();
    const struct judge_test_result *t = res->ntests > 0 ? &res->tests[0] : NULL;
    if (res->status != VERDICT_OK || !t || t->verdict == VERDICT_SE) { /* ours, not the cells' */
        set_text(d, "status", "SandboxError");
        set_text(d, "message", t && t->verdict == VERDICT_SE ? t->reason : res->message);
        if (t)
            json_set(d, "driver", command_result(t));
        else
            json_set_null(d, "driver");
        json_set(d, "cells", json_array());
        json_set_null(d, "executor_pod_name");
        json_set(d, "files", json_object());
        return d;
    }
    struct notebook nb = {calloc((size_t)(ask->ncells ? ask->ncells : 1), sizeof(struct json *)),
                          -1, false, ""};
    if (!nb.cells) {
        json_free(d);
        return NULL;
    }
    const struct judge_fetched *rf = fetched(t, JUPYTER_RESULTS);
    read_results(rf, ask->ncells, &nb);
    bool ok = nb.done && t->verdict == VERDICT_OK;
    set_text(d, "status", ok ? "Success" : "Failed");
    char msg[400] = "";
    if (nb.over[0])
        snprintf(msg, sizeof(msg), "%s", nb.over);
    else if (!ok && !rf)
        snprintf(msg, sizeof(msg), "the driver left no results (%s)",
                 t->verdict == VERDICT_OK ? "the cells removed or replaced " JUPYTER_DIR
                                          : verdict_name(t->verdict));
    else if (!ok)
        snprintf(msg, sizeof(msg), "the kernel did not finish: %s%s%s", verdict_name(t->verdict),
                 t->reason[0] ? ": " : "", t->reason);
    set_text(d, "message", msg);
    json_set(d, "driver", command_result(t));
    struct json *cells = json_set(d, "cells", json_array());
    for (int i = 0; i < ask->ncells; i++)
        json_push(cells, cell_json(&nb, i, t, ask));
    free(nb.cells); /* each record freed as its cell was rendered */
    json_set_null(d, "executor_pod_name");
    set_files(d, t);
    return d;
}

/* ---- sessions ----------------------------------------------------------------------------- */

struct json *render_session(const struct session_info *s, const char *state, int id_chars)
{
    struct json *d = json_object();
    char id[SESSION_ID_LEN + 1];
    snprintf(id, sizeof(id), "%.*s", id_chars, s->id);
    set_text(d, "id", id);
    set_text(d, "language", s->spec.lang ? s->spec.lang->name : "");
    set_text(d, "client", s->client);
    set_text(d, "state", state ? state : s->busy ? "busy" : "open");
    json_set_num(d, "created_at", s->created);
    if (s->last_call > 0)
        json_set_num(d, "last_call_at", s->last_call);
    else
        json_set_null(d, "last_call_at");
    json_set_num(d, "idle_s", s->idle_s);
    json_set_num(d, "expires_at", s->expires);
    json_set_num(d, "calls", s->calls);
    json_set_num(d, "cpu_ms", (double)s->totals.cpu_ms);
    json_set_num(d, "memory_kib", (double)s->totals.memory_kib);
    json_set_num(d, "memory_peak_kib", (double)s->totals.memory_peak_kib);
    struct json *in = json_set(d, "interpreter", json_object());
    json_set_bool(in, "alive", s->totals.alive);
    json_set_num(in, "starts", s->totals.starts);
    json_set_bool(d, "cpu_spent", s->totals.cpu_spent);
    struct json *ev = json_set(d, "events", json_object());
    json_set_num(ev, "tle", s->tle);
    json_set_num(ev, "mle", s->mle);
    json_set_num(ev, "lost", s->lost);
    if (s->has_last) {
        struct json *l = json_set(d, "last", json_object());
        set_text(l, "verdict", verdict_name(s->last_verdict));
        /* from the interpreter's words, cut to fit: possibly mid-character */
        set_text(l, "message", s->last_message);
    } else {
        json_set_null(d, "last");
    }
    struct json *lim = json_set(d, "limits", json_object());
    const struct session_spec *sp = &s->spec;
    json_set_num(lim, "memory_mb", (double)(sp->lim.memory_bytes >> 20));
    json_set_num(lim, "cpu_ms", (double)sp->lim.cpu_ms);
    json_set_num(lim, "pids", sp->lim.pids);
    json_set_num(lim, "call_memory_mb", (double)(sp->call_memory_bytes >> 20));
    json_set_num(lim, "call_time_ms", (double)sp->call_cpu_ms);
    json_set_num(lim, "call_wall_ms", (double)sp->call_wall_ms);
    json_set_num(lim, "idle_ms", (double)sp->idle_ms);
    json_set_num(lim, "lifetime_ms", (double)sp->lifetime_ms);
    return d;
}

/* A fetched file of a job_result, or NULL. */
static const struct job_fetched *job_fetched_file(const struct job_result *r, const char *path)
{
    for (int i = 0; i < r->nfetched; i++)
        if (strcmp(r->fetched[i].path, path) == 0 && r->fetched[i].error == 0)
            return &r->fetched[i];
    return NULL;
}

/* Appends a string member of each cell record (stdout, stderr) into one string. */
static void join_member(struct json *d, const struct json *cells, const char *key)
{
    struct buf b;
    buf_init(&b, 0);
    for (const struct json *c = json_first(cells); c; c = json_next(c)) {
        const char *v = json_get_str(c, key);
        if (v)
            buf_append(&b, v, strlen(v));
    }
    size_t n = 0;
    char *text = buf_take(&b, &n);
    json_set_bytes(d, key, text ? text : "", text ? n : 0);
    free(text);
}

/* A Python call's output: its cells as the interpreter answered them, or, when it did not
 * answer (the state was lost), what it wrote before from its output files. */
static void python_output(struct json *d, const struct session_outcome *o)
{
    struct json *cells = json_child(o->reply, "cells");
    struct json *list = json_set(d, "cells", json_array());
    struct json *display = json_set(d, "display", json_array());
    const struct json *first_error = NULL;
    bool truncated = false;
    if (cells && json_is_array(cells)) {
        for (struct json *c; (c = json_shift(cells)); json_free(c)) { /* moved, freed as read */
            struct json *cell = json_push(list, json_object());
            take_member(cell, c, "stdout", false);
            take_member(cell, c, "stderr", false);
            take_member(cell, c, "display", true);
            take_member(cell, c, "error", true);
            bool executed = false, cut = false;
            json_bool(json_get(c, "executed"), &executed);
            json_bool(json_get(c, "output_truncated"), &cut);
            json_set_bool(cell, "executed", executed);
            json_set_bool(cell, "output_truncated", cut);
            truncated = truncated || cut;
            /* the call's display list repeats its cells' (docs/api.md): the one copy */
            for (const struct json *v = json_first(json_get(cell, "display")); v; v = json_next(v))
                json_push(display, json_dup(v));
            if (!first_error && json_len(json_get(cell, "error")) > 0)
                first_error = json_first(json_get(cell, "error"));
        }
        join_member(d, json_get(d, "cells"), "stdout");
        join_member(d, json_get(d, "cells"), "stderr");
    } else {
        const struct job_fetched *out = job_fetched_file(&o->run, SESSION_STREAMS_DIR "/stdout");
        const struct job_fetched *err = job_fetched_file(&o->run, SESSION_STREAMS_DIR "/stderr");
        size_t cap = 1u << 20, no = out ? out->len : 0, ne = err ? err->len : 0;
        json_set_bytes(d, "stdout", out ? (const char *)out->data : "", no < cap ? no : cap);
        /* the interpreter's own last words (a crash) come after the call's */
        struct buf b;
        buf_init(&b, 0);
        if (err)
            buf_append(&b, err->data, ne < cap ? ne : cap);
        buf_append(&b, o->run.err, o->run.err_len);
        size_t n = 0;
        char *text = buf_take(&b, &n);
        bool cut;
        json_set_bytes_max(d, "stderr", text ? text : "", text ? n : 0, RENDER_STREAM_MAX, &cut);
        free(text);
        truncated = no > cap || ne > cap || cut;
    }
    if (first_error)
        json_set(d, "error", json_dup(first_error));
    else
        json_set_null(d, "error");
    json_set_bool(d, "output_truncated", truncated || o->run.stdout_truncated);
}

struct json *render_session_call(const struct session_outcome *o)
{
    struct json *d = json_object();
    set_text(d, "id", o->info.id);
    json_set_num(d, "call", o->call);
    set_text(d, "verdict", verdict_name(o->verdict));
    set_text(d, "status", render_run_status(o->verdict));
    const char *msg = o->verdict == VERDICT_CE                         ? "compile error"
                      : o->verdict == VERDICT_OK && !o->run.message[0] ? ""
                                                                       : o->run.message;
    set_text(d, "message", msg); /* a raised error's words, cut to fit */
    bool python = o->info.spec.lang && session_interpreted(o->info.spec.lang);
    bool ran = !(o->compiled && o->compile_verdict != VERDICT_OK);
    if (python) {
        python_output(d, o);
    } else {
        bool cut_out, cut_err;
        json_set_bytes_max(d, "stdout", ran ? o->run.out : NULL, ran ? o->run.out_len : 0,
                           RENDER_STREAM_MAX, &cut_out);
        json_set_bytes_max(d, "stderr", ran ? o->run.err : NULL, ran ? o->run.err_len : 0,
                           RENDER_STREAM_MAX, &cut_err);
        json_set(d, "display", json_array());
        json_set_null(d, "error");
        json_set_bool(
            d, "output_truncated",
            ran && (o->run.stdout_truncated || o->run.stderr_truncated || cut_out || cut_err));
    }
    if (o->compiled) {
        struct json *c = json_set(d, "compile", json_object());
        set_text(c, "verdict", verdict_name(o->compile_verdict));
        json_set_bytes(c, "stdout", o->compile.out, o->compile.out_len);
        json_set_bytes(c, "stderr", o->compile.err, o->compile.err_len);
        json_set_num(c, "cpu_ms", (double)o->compile.cpu_ms);
        if (o->compile.message[0] && o->compile_verdict != VERDICT_OK)
            set_text(c, "message", o->compile.message);
    } else {
        json_set_null(d, "compile");
    }
    const struct job_result *r = ran ? &o->run : &o->compile;
    bool exited = !(o->verdict == VERDICT_RE && !r->exit_code && !r->signal); /* else: never ran */
    if (ran && !python && exited && o->verdict != VERDICT_TLE && o->verdict != VERDICT_SE)
        json_set_num(d, "exit_code", r->signal ? -r->signal : r->exit_code);
    else
        json_set_null(d, "exit_code");
    json_set_num(d, "cpu_ms", (double)r->cpu_ms);
    json_set_num(d, "wall_ms", (double)r->wall_ms);
    json_set_num(d, "memory_kib", (double)r->memory_kib);
    if (o->verdict == VERDICT_TLE && r->tle_clock != JOB_CLOCK_NONE)
        set_text(d, "limit", job_clock_name(r->tle_clock));
    else
        json_set_null(d, "limit");
    set_text(d, "state", session_state_name(o->state));
    struct json *files = json_set(d, "files", json_object());
    for (int i = 0; ran && i < o->run.nfetched; i++) {
        const struct job_fetched *f = &o->run.fetched[i];
        if (f->error ||
            strncmp(f->path, SESSION_STREAMS_DIR "/", strlen(SESSION_STREAMS_DIR) + 1) == 0)
            continue;
        char *b64 = base64_encode(f->data, f->len);
        if (b64)
            json_set_str_take(files, f->path, b64); /* held once */
    }
    json_set(d, "session", render_session(&o->info, NULL, SESSION_ID_LEN));
    return d;
}
