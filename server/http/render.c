/*
 * render: judge_result -> JSON. Field for field what docs/api.md documents; verdict names
 * from verdict_name, never spelled here.
 */
#include "server/http/render.h"

#include <stdlib.h>

#include "server/util/base64.h"

const char *render_run_status(enum verdict v)
{
    return v == VERDICT_OK ? "Success" : v == VERDICT_SE ? "SandboxError" : "Failed";
}

static struct json *test_json(const struct judge_test_result *t)
{
    struct json *o = json_object();
    json_set_num(o, "index", t->index);
    json_set_str(o, "verdict", verdict_name(t->verdict));
    json_set_num(o, "time_ms", (double)t->cpu_ms);
    json_set_num(o, "wall_ms", (double)t->wall_ms);
    json_set_num(o, "memory_kib", (double)t->memory_kib);
    if (t->instructions > 0) /* counted: never 0 for a program that ran */
        json_set_num(o, "instructions", (double)t->instructions);
    if (t->verdict == VERDICT_TLE && t->limit != JOB_CLOCK_NONE)
        json_set_str(o, "limit", job_clock_name(t->limit));
    json_set_num(o, "exit_code", t->exit_code);
    json_set_bytes(o, "stdout", t->out, t->out_len);
    json_set_bytes(o, "stderr", t->err, t->err_len);
    if (t->reason[0])
        json_set_str(o, "reason", t->reason);
    return o;
}

struct json *render_judged(const struct judge_result *res)
{
    struct json *d = json_object();
    const struct judge_compile *c = &res->compile;
    json_set_str(d, "status", verdict_name(res->status));
    json_set_num(d, "reward", res->reward);
    json_set_num(d, "passed", res->passed);
    json_set_num(d, "total", res->total);
    json_set_num(d, "ran", res->ran);
    if (res->message[0])
        json_set_str(d, "message", res->message);
    if (c->built && c->verdict != VERDICT_OK)
        json_set_str(d, "compile_output", c->output ? c->output : "");
    if (res->checker_output)
        json_set_str(d, "checker_compile_output", res->checker_output);
    if (c->built) {
        struct json *o = json_set(d, "compile", json_object());
        json_set_bool(o, "ok", c->verdict == VERDICT_OK);
        json_set_str(o, "verdict", verdict_name(c->verdict));
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
    json_set_str(o, "status", tle ? "TimeLimitExceeded" : se ? "Error" : "Finished");
    if (se)
        json_set_null(o, "execution_time");
    else
        json_set_num(o, "execution_time", (double)t->wall_ms / 1000.0);
    if (tle || se)
        json_set_null(o, "return_code");
    else
        json_set_num(o, "return_code", t->signal ? -t->signal : t->exit_code);
    json_set_bytes(o, "stdout", t->out, t->out_len);
    if (se)
        json_set_str(o, "stderr", t->reason);
    else
        json_set_bytes(o, "stderr", t->err, t->err_len);
    /* verdict's own, beside SandboxFusion's fields. */
    json_set_str(o, "verdict", verdict_name(t->verdict));
    json_set_num(o, "cpu_time", (double)t->cpu_ms / 1000.0);
    json_set_num(o, "memory_kib", (double)t->memory_kib);
    if (t->instructions > 0) /* counted: never 0 for a program that ran */
        json_set_num(o, "instructions", (double)t->instructions);
    if (tle && t->limit != JOB_CLOCK_NONE)
        json_set_str(o, "limit", job_clock_name(t->limit));
    json_set_bool(o, "memory_limit_exceeded", t->verdict == VERDICT_MLE);
    json_set_bool(o, "output_truncated", t->stdout_truncated || t->stderr_truncated);
    if (t->verdict != VERDICT_OK && !se && t->reason[0])
        json_set_str(o, "reason", t->reason);
    return o;
}

/* The compile step as SandboxFusion reports it: a CE is a finished compiler with exit 1, a
 * compile that ran out of time is TimeLimitExceeded. */
static struct json *compile_result(const struct judge_compile *c)
{
    struct json *o = json_object();
    bool tle = c->verdict == VERDICT_TLE;
    json_set_str(o, "status", tle ? "TimeLimitExceeded" : "Finished");
    json_set_num(o, "execution_time", c->cached ? 0.0 : (double)c->wall_ms / 1000.0);
    if (tle)
        json_set_null(o, "return_code");
    else
        json_set_num(o, "return_code", c->verdict == VERDICT_OK ? 0 : 1);
    json_set_str(o, "stdout", "");
    json_set_str(o, "stderr", c->output ? c->output : "");
    json_set_str(o, "verdict", verdict_name(c->verdict));
    json_set_bool(o, "cached", c->cached);
    return o;
}

struct json *render_run_code(const struct judge_result *res)
{
    struct json *d = json_object();
    const struct judge_test_result *t = res->ntests > 0 ? &res->tests[0] : NULL;
    enum verdict v = res->status != VERDICT_OK ? res->status : t ? t->verdict : VERDICT_SE;
    json_set_str(d, "status", render_run_status(v));
    const char *message = t && t->verdict == VERDICT_SE ? t->reason : res->message;
    json_set_str(d, "message", v == VERDICT_SE ? message : "");
    if (res->compile.built && res->compile.compiled_language)
        json_set(d, "compile_result", compile_result(&res->compile));
    else
        json_set_null(d, "compile_result");
    if (t)
        json_set(d, "run_result", command_result(t));
    else
        json_set_null(d, "run_result");
    json_set_null(d, "executor_pod_name");
    struct json *files = json_set(d, "files", json_object());
    for (int i = 0; t && i < t->nfetched; i++) {
        const struct judge_fetched *f = &t->fetched[i];
        char *b64 = f->error ? NULL : base64_encode(f->data, f->len);
        if (b64)
            json_set_str(files, f->path, b64);
        free(b64);
    }
    return d;
}
