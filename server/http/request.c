/*
 * request: JSON into a judge_request, one parser for every judging route.
 *
 * The common part (language, code, files, fetch_files) is read once; each shape then reads its
 * own members: /run_code's stdin, compile_timeout, run_timeout and memory_limit_MB (seconds
 * and MiB, as SandboxFusion names them), /v1/judge's tests or harness, extract, compare,
 * limits, reward, stop_on_failure and only. Members not named here are ignored, as
 * SandboxFusion's pydantic models ignore extra fields.
 *
 * SandboxFusion's quirks kept for /run_code: a missing or null language is python; a file
 * whose content is null, or whose path holds IGNORE_THIS_FILE, is skipped; fetch_files
 * entries that cannot name a work-dir file are left out of the answer rather than refused.
 */
#include "server/http/request.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/datasets/extract.h"
#include "server/util/base64.h"

int request_fail(struct request_error *e, const char *type, const char *msg, const char *l0,
                 const char *l1, const char *l2)
{
    const char *locs[3] = {l0, l1, l2};
    e->nloc = 0;
    for (int i = 0; i < 3 && locs[i]; i++)
        snprintf(e->loc[e->nloc++], sizeof(e->loc[0]), "%s", locs[i]);
    snprintf(e->type, sizeof(e->type), "%s", type);
    snprintf(e->msg, sizeof(e->msg), "%s", msg);
    return -EINVAL;
}

struct json *request_error_json(const struct request_error *e, const char *prefix)
{
    struct json *o = json_object();
    json_set_str(o, "type", e->type);
    struct json *loc = json_set(o, "loc", json_array());
    if (prefix)
        json_push_str(loc, prefix);
    for (int i = 0; i < e->nloc; i++)
        json_push_str(loc, e->loc[i]);
    json_set_str(o, "msg", e->msg);
    return o;
}

/* ---- raw text: NUL ------------------------------------------------------------------------ */

/* Whether the four bytes at p are the hex digits 0000. */
static bool zero_escape(const char *p, const char *end)
{
    return end - p >= 4 && memcmp(p, "0000", 4) == 0;
}

int request_check_text(const char *text, size_t len, struct request_error *e)
{
    const char *end = text + len;
    char key[64] = "";
    bool in_string = false;
    const char *start = NULL; /* of the current string */
    if (memchr(text, '\0', len))
        return request_fail(e, "json_invalid", "the body holds a NUL byte", NULL, NULL, NULL);
    for (const char *p = text; p < end; p++) {
        if (!in_string) {
            if (*p == '"')
                in_string = true, start = p + 1;
            continue;
        }
        if (*p == '\\' && p + 1 < end) {
            if (p[1] == 'u' && zero_escape(p + 2, end))
                return request_fail(e, "string_type",
                                    "strings may not hold NUL (\\u0000): send binary data "
                                    "as base64 in files",
                                    *key ? key : NULL, NULL, NULL);
            p++;
            continue;
        }
        if (*p != '"')
            continue;
        in_string = false;
        /* a string followed by ':' is a key: remember it for the error's path */
        const char *q = p + 1;
        while (q < end && (*q == ' ' || *q == '\n' || *q == '\r' || *q == '\t'))
            q++;
        if (q < end && *q == ':')
            snprintf(key, sizeof(key), "%.*s", (int)(p - start < 63 ? p - start : 63), start);
    }
    return 0;
}

/* ---- members ------------------------------------------------------------------------------ */

/* A heap copy of string member j (strlen is exact: NULs were refused), or NULL. */
static char *dup_str(const struct json *j, size_t *len)
{
    const char *s;
    if (!json_str(j, &s))
        return NULL;
    *len = strlen(s);
    return strdup(s);
}

static uint8_t *dup_bytes(const struct json *j, size_t *len)
{
    return (uint8_t *)dup_str(j, len);
}

static int parse_language(const struct lang_set *langs, const struct json *b,
                          enum request_shape shape, struct judge_request *r,
                          struct request_error *e)
{
    const struct json *lv = json_get(b, "language");
    const char *name = "python"; /* SandboxFusion's default for /run_code */
    if (shape == REQUEST_JUDGE && !json_str(lv, &name))
        return request_fail(e, "missing", "Field required (a language name)", "language", NULL,
                            NULL);
    if (shape == REQUEST_RUN_CODE && lv && !json_is_null(lv) && !json_str(lv, &name))
        return request_fail(e, "string_type", "Input should be a valid string", "language", NULL,
                            NULL);
    if (!(r->lang = lang_find(langs, name)))
        return request_fail(e, "enum", "unsupported language", "language", NULL, NULL);
    if (!r->lang->available)
        return request_fail(e, "enum", "language unavailable on this server", "language", NULL,
                            NULL);
    return 0;
}

static int parse_code(const struct json *b, struct judge_request *r, struct request_error *e)
{
    const struct json *c = json_get(b, "code");
    size_t len;
    if (!(r->code = dup_str(c, &len)))
        return request_fail(e, c ? "string_type" : "missing",
                            c ? "Input should be a valid string" : "Field required (a string)",
                            "code", NULL, NULL);
    return 0;
}

/* files: {path: base64}. /run_code skips null contents and IGNORE_THIS_FILE paths. */
static int parse_files(const struct json *b, enum request_shape shape, bool jupyter,
                       struct judge_request *r, struct request_error *e)
{
    const struct json *files = json_get(b, "files");
    if (files && !json_is_null(files) && !json_is_object(files))
        return request_fail(e, "dict_type", "files must be an object of path: base64", "files",
                            NULL, NULL);
    for (const struct json *m = json_first(files); m; m = json_next(m)) { /* O(1) a step */
        const char *path = json_key(m), *b64;
        size_t len;
        uint8_t *data;
        if (shape == REQUEST_RUN_CODE && (json_is_null(m) || strstr(path, "IGNORE_THIS_FILE")))
            continue;
        if (!job_path_ok(path) || strcmp(path, r->lang->source) == 0 ||
            (jupyter && strncmp(path, JUPYTER_DIR, strlen(JUPYTER_DIR)) == 0))
            return request_fail(e, "value_error",
                                "file paths are relative to the work dir, without .., at most "
                                "255 bytes, and not the program's own source (nor, for "
                                "/run_jupyter, under .verdict_jupyter)",
                                "files", path, NULL);
        if (!json_str(m, &b64) || !(data = base64_decode(b64, &len)))
            return request_fail(e, "value_error", "not valid base64", "files", path, NULL);
        int rc = judge_add_file(r, path, data, len);
        if (rc == -E2BIG)
            return request_fail(e, "too_long", "at most 256 files", "files", NULL, NULL);
        if (rc < 0)
            return request_fail(e, "memory", "out of memory", "files", NULL, NULL);
    }
    return 0;
}

/* fetch_files: a list of work-dir paths, deduplicated. */
static int parse_fetch(const struct json *b, struct judge_request *r, struct request_error *e)
{
    const struct json *fetch = json_get(b, "fetch_files");
    if (!fetch || json_is_null(fetch))
        return 0;
    if (!json_is_array(fetch))
        return request_fail(e, "list_type", "fetch_files must be a list of paths", "fetch_files",
                            NULL, NULL);
    for (const struct json *f = json_first(fetch); f; f = json_next(f)) { /* O(1) a step */
        const char *p;
        if (!json_str(f, &p))
            return request_fail(e, "string_type", "fetch_files must hold strings", "fetch_files",
                                NULL, NULL);
        if (!job_path_ok(p))
            continue; /* cannot exist in the sandbox: left out of the answer */
        int rc = judge_add_fetch(r, p);
        if (rc == -E2BIG)
            return request_fail(e, "too_long", "at most 64 distinct fetch_files", "fetch_files",
                                NULL, NULL);
        if (rc < 0)
            return request_fail(e, "memory", "out of memory", "fetch_files", NULL, NULL);
    }
    return 0;
}

/* ---- /run_code ---------------------------------------------------------------------------- */

/* A number of seconds in (0, REQUEST_MAX_TIMEOUT_S], or def when absent, as ms. */
static int seconds(const struct json *b, const char *key, double def, int64_t *ms,
                   struct request_error *e)
{
    const struct json *v = json_get(b, key);
    double s = def;
    if ((v && !json_is_null(v) && !json_num(v, &s)) || !(s > 0) || s > REQUEST_MAX_TIMEOUT_S ||
        !isfinite(s)) {
        char msg[96];
        snprintf(msg, sizeof(msg), "%s must be a number of seconds in (0, 300]", key);
        return request_fail(e, "value_error", msg, key, NULL, NULL);
    }
    *ms = (int64_t)ceil(s * 1000);
    return 0;
}

static int parse_run_code(const struct json *b, struct judge_request *r, struct request_error *e)
{
    const struct json *sv = json_get(b, "stdin"), *m = json_get(b, "memory_limit_MB");
    struct judge_test *t;
    if (!(r->tests = t = calloc(1, sizeof(*t))) || !(r->selected = calloc(1, sizeof(bool))))
        return request_fail(e, "memory", "out of memory", NULL, NULL, NULL);
    r->ntests = 1;
    r->selected[0] = true;
    r->run_only = true;
    if (sv && !json_is_null(sv) && !(t->in = dup_bytes(sv, &t->in_len)))
        return request_fail(e, "string_type", "Input should be a valid string or null", "stdin",
                            NULL, NULL);
    int64_t cms, rms;
    if (seconds(b, "compile_timeout", 10, &cms, e) < 0 || seconds(b, "run_timeout", 10, &rms, e))
        return -EINVAL;
    /* CPU decides a compile's TLE; its wall clock is program's backstop, sized for the load
     * the server admits, so a compile starved by other work is not the source's fault */
    r->compile_limits.cpu_ms = cms;
    r->limits.cpu_ms = r->limits.wall_ms = rms;
    /* run_timeout is wall-clock time, SandboxFusion's contract: time spent waiting for a CPU
     * is forgiven up to the backstop, where a run still going is TLE (wall), answered before
     * veRL's client gives up (run_timeout + compile_timeout + 10 s) */
    r->limits.backstop_ms = rms + REQUEST_RUN_BACKSTOP_MS;
    r->limits.starved_tle = true;
    double mb = -1;
    if (m && !json_is_null(m) &&
        (!json_num(m, &mb) || mb != floor(mb) || mb > REQUEST_MAX_MEMORY_MB))
        return request_fail(e, "int_parsing",
                            "memory_limit_MB must be a whole number of MiB up to 65536 "
                            "(-1: default)",
                            "memory_limit_MB", NULL, NULL);
    if (mb > 0)
        r->limits.memory_bytes = (uint64_t)mb << 20;
    return 0;
}

/* ---- /v1/judge ---------------------------------------------------------------------------- */

static int parse_tests(const struct json *b, struct judge_request *r, struct request_error *e)
{
    const struct json *tests = json_get(b, "tests");
    if (!json_is_array(tests) || json_len(tests) == 0)
        return request_fail(e, "list_type", "tests must be a non-empty list of {stdin, expected}",
                            "tests", NULL, NULL);
    int n = json_len(tests);
    if (n > JUDGE_MAX_TESTS)
        return request_fail(e, "too_long", "at most 1024 tests", "tests", NULL, NULL);
    if (!(r->tests = calloc((size_t)n, sizeof(*r->tests))))
        return request_fail(e, "memory", "out of memory", "tests", NULL, NULL);
    r->ntests = n;
    const struct json *t = json_first(tests);
    for (int i = 0; i < n; i++, t = json_next(t)) {
        const struct json *in = json_get(t, "stdin"), *want = json_get(t, "expected");
        struct judge_test *jt = &r->tests[i];
        char idx[16];
        snprintf(idx, sizeof(idx), "%d", i);
        if (!json_is_object(t))
            return request_fail(e, "dict_type", "each test is an object", "tests", idx, NULL);
        if (in && !json_is_null(in) && !(jt->in = dup_bytes(in, &jt->in_len)))
            return request_fail(e, "string_type", "stdin must be a string", "tests", idx, "stdin");
        if (!(jt->want = dup_bytes(want, &jt->want_len)))
            return request_fail(e, "string_type", "expected must be a string", "tests", idx,
                                "expected");
    }
    return 0;
}

/* An identifier of at most 128 ASCII letters, digits and underscores, not starting with a
 * digit. */
static bool entry_ok(const char *s)
{
    size_t n = strlen(s);
    return n > 0 && n <= 128 && !isdigit((unsigned char)s[0]) &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

static int parse_harness(const struct json *b, struct judge_request *r, struct request_error *e)
{
    const struct json *h = json_get(b, "harness");
    if (!h) {
        if (json_get(b, "harness_setup") || json_get(b, "entry_point"))
            return request_fail(e, "value_error", "harness_setup and entry_point need a harness",
                                json_get(b, "entry_point") ? "entry_point" : "harness_setup", NULL,
                                NULL);
        return parse_tests(b, r, e);
    }
    size_t len;
    if (!(r->harness = dup_str(h, &len)))
        return request_fail(e, "string_type", "harness must be a string of test code", "harness",
                            NULL, NULL);
    if (json_get(b, "tests"))
        return request_fail(e, "value_error", "give tests or a harness, not both", "tests", NULL,
                            NULL);
    const struct json *setup = json_get(b, "harness_setup"), *entry = json_get(b, "entry_point");
    if (setup && !(r->harness_setup = dup_str(setup, &len)))
        return request_fail(e, "string_type", "harness_setup must be a string of code",
                            "harness_setup", NULL, NULL);
    if (entry && (!(r->entry_point = dup_str(entry, &len)) || !entry_ok(r->entry_point)))
        return request_fail(e, "value_error", "entry_point must be a name (letters, digits, _)",
                            "entry_point", NULL, NULL);
    if (!(r->tests = calloc(1, sizeof(*r->tests))))
        return request_fail(e, "memory", "out of memory", "harness", NULL, NULL);
    r->ntests = 1;
    return 0;
}

/* A checker files error at compare.checker.files[.path]. */
static int checker_files_fail(struct request_error *e, const char *type, const char *msg,
                              const char *path)
{
    request_fail(e, type, msg, "compare", "checker", "files");
    if (path)
        snprintf(e->loc[e->nloc++], sizeof(e->loc[0]), "%s", path);
    return -EINVAL;
}

/* compare.checker.files: {path: base64}, the checker's context, placed in its work dir for
 * every test: at most JUDGE_MAX_CHECKER_FILES, JUDGE_CHECKER_FILES_MAX bytes together, paths
 * as the request's files but none of the test's three nor the checker's own source. */
static int parse_checker_files(const struct json *k, struct judge_request *r,
                               struct request_error *e)
{
    const struct json *files = json_get(k, "files");
    if (!files || json_is_null(files))
        return 0;
    if (!json_is_object(files))
        return checker_files_fail(e, "dict_type", "files must be an object of path: base64", NULL);
    int n = 0;
    for (const struct json *m = json_first(files); m; m = json_next(m))
        n++;
    if (n > JUDGE_MAX_CHECKER_FILES)
        return checker_files_fail(e, "too_long", "at most 16 checker files", NULL);
    if (n > 0 && !(r->checker_files = calloc((size_t)n, sizeof(*r->checker_files))))
        return checker_files_fail(e, "memory", "out of memory", NULL);
    size_t total = 0;
    for (const struct json *m = json_first(files); m; m = json_next(m)) { /* O(1) a step */
        const char *path = json_key(m), *b64;
        size_t len;
        uint8_t *data;
        if (!job_path_ok(path) || strcmp(path, "input.txt") == 0 ||
            strcmp(path, "output.txt") == 0 || strcmp(path, "answer.txt") == 0 ||
            strcmp(path, r->checker_lang->source) == 0)
            return checker_files_fail(e, "value_error",
                                      "checker file paths are relative to the work dir, without "
                                      ".., at most 255 bytes, and not input.txt, output.txt, "
                                      "answer.txt or the checker's own source",
                                      path);
        if (!json_str(m, &b64) || !(data = base64_decode(b64, &len)))
            return checker_files_fail(e, "value_error", "not valid base64", path);
        char *p = strdup(path);
        if (!p) {
            free(data);
            return checker_files_fail(e, "memory", "out of memory", NULL);
        }
        r->checker_files[r->nchecker_files++] = (struct job_file){p, 0644, data, len};
        if ((total += len) > JUDGE_CHECKER_FILES_MAX)
            return checker_files_fail(e, "too_long", "checker files hold at most 4 MiB together",
                                      NULL);
    }
    return 0;
}

static int parse_checker(const struct lang_set *langs, const struct json *c,
                         struct judge_request *r, struct request_error *e)
{
    const struct json *k = json_get(c, "checker");
    const char *lang;
    if (r->harness)
        return request_fail(e, "value_error", "a harness decides by itself: no checker", "compare",
                            "mode", NULL);
    if (!json_is_object(k))
        return request_fail(e, "missing", "mode checker needs checker: {language, code}", "compare",
                            "checker", NULL);
    if (!json_str(json_get(k, "language"), &lang) || !(r->checker_lang = lang_find(langs, lang)) ||
        !r->checker_lang->available || r->checker_lang->needs_gpu)
        return request_fail(e, "enum", "an available CPU language", "compare", "checker",
                            "language");
    if (!(r->checker_code = dup_str(json_get(k, "code"), &r->checker_len)))
        return request_fail(e, "missing", "Field required (a string)", "compare", "checker",
                            "code");
    return parse_checker_files(k, r, e);
}

static int parse_compare(const struct lang_set *langs, const struct json *b,
                         struct judge_request *r, struct request_error *e)
{
    const struct json *c = json_get(b, "compare");
    r->cmp = (struct cmp_spec){CMP_LINES, 1e-6, 1e-6};
    if (!c)
        return 0;
    const char *mode;
    if (!json_is_object(c) || !json_str(json_get(c, "mode"), &mode) ||
        cmp_mode_parse(mode, &r->cmp.mode) < 0)
        return request_fail(e, "enum",
                            "compare.mode: exact, lines, tokens, float, nocase, regex or checker",
                            "compare", "mode", NULL);
    if (r->cmp.mode == CMP_CHECKER && parse_checker(langs, c, r, e) < 0)
        return -EINVAL;
    const char *keys[2] = {"abs_eps", "rel_eps"};
    double *dst[2] = {&r->cmp.abs_eps, &r->cmp.rel_eps};
    for (int i = 0; i < 2; i++) {
        const struct json *v = json_get(c, keys[i]);
        if (v && (!json_num(v, dst[i]) || !(*dst[i] >= 0) || !isfinite(*dst[i])))
            return request_fail(e, "value_error", "must be a finite number >= 0", "compare",
                                keys[i], NULL);
    }
    return 0;
}

static int parse_limits(const struct json *b, struct judge_request *r, struct request_error *e)
{
    const struct json *l = json_get(b, "limits");
    if (!l)
        return 0;
    if (!json_is_object(l))
        return request_fail(e, "dict_type", "limits must be an object", "limits", NULL, NULL);
    static const char *const keys[] = {"time_ms", "wall_ms", "memory_mb", "instructions"};
    static const double max[] = {REQUEST_MAX_TIME_MS, REQUEST_MAX_WALL_MS, REQUEST_MAX_MEMORY_MB,
                                 REQUEST_MAX_INSTRUCTIONS};
    for (int i = 0; i < 4; i++) {
        const struct json *v = json_get(l, keys[i]);
        double d;
        if (!v)
            continue;
        if (!json_num(v, &d) || d < 1 || d > max[i] || d != floor(d))
            return request_fail(e, "value_error", "must be a whole number within range", "limits",
                                keys[i], NULL);
        if (i == 0)
            r->limits.cpu_ms = (int64_t)d;
        else if (i == 1)
            r->limits.wall_ms = (int64_t)d;
        else if (i == 2)
            r->limits.memory_bytes = (uint64_t)d << 20;
        else
            r->limits.instructions = (uint64_t)d;
    }
    return 0;
}

static int parse_options(const struct json *b, struct judge_request *r, struct request_error *e)
{
    const struct json *rw = json_get(b, "reward"), *stop = json_get(b, "stop_on_failure"),
                      *only = json_get(b, "only");
    const char *s = "";
    if (rw && (!json_str(rw, &s) || (strcmp(s, "fraction") && strcmp(s, "all"))))
        return request_fail(e, "enum", "reward: \"fraction\" or \"all\"", "reward", NULL, NULL);
    r->all_or_nothing = rw && strcmp(s, "all") == 0;
    if (stop && !json_bool(stop, &r->stop_on_failure))
        return request_fail(e, "bool_type", "stop_on_failure must be true or false",
                            "stop_on_failure", NULL, NULL);
    int n = r->ntests;
    if (!(r->selected = calloc((size_t)n, sizeof(*r->selected))))
        return request_fail(e, "memory", "out of memory", "only", NULL, NULL);
    if (!only) {
        for (int i = 0; i < n; i++)
            r->selected[i] = true;
        return 0;
    }
    if (!json_is_array(only))
        return request_fail(e, "list_type", "only must be a list of test indexes", "only", NULL,
                            NULL);
    for (const struct json *o = json_first(only); o; o = json_next(o)) {
        double d;
        if (!json_num(o, &d) || d < 0 || d >= n || d != floor(d))
            return request_fail(e, "value_error", "test index out of range", "only", NULL, NULL);
        r->selected[(int)d] = true;
    }
    return 0;
}

/* extract: true takes the program out of code, an LLM completion, by datasets/extract's
 * rules for the request's language (fenced blocks, an incomplete final fence, the language's
 * heuristic; a reasoning section dropped), post-processed as /submit does for a harness (a
 * `main` the tests bring is cut). A completion with no code is judged as an empty program. */
static int parse_extract(const struct json *b, struct judge_request *r, struct request_error *e)
{
    const struct json *x = json_get(b, "extract");
    bool on = false;
    if (x && !json_is_null(x) && !json_bool(x, &on))
        return request_fail(e, "bool_type", "extract must be true or false", "extract", NULL, NULL);
    if (!on)
        return 0;
    struct extracted ex;
    if (extract_code(r->code, strlen(r->code), r->lang->name, &ex) < 0)
        return request_fail(e, "memory", "out of memory", "extract", NULL, NULL);
    if (r->harness)
        extract_postprocess(r->lang->name, ex.code);
    free(r->code);
    r->code = ex.code; /* extracted_fini would free it: taken instead */
    return 0;
}

/* allow_exit_status: a harness that would be judged by exit status alone (its language has
 * no grader and no seal, or a compiled grader's harness names no entry_point) is refused
 * unless the client accepts that any exit 0 passes: a policy trained on such rewards learns
 * to exit early (docs/integrity.md, "Exit-status languages"). */
static int parse_exit_status(const struct json *b, struct judge_request *r, struct request_error *e)
{
    const struct json *v = json_get(b, "allow_exit_status");
    if (v && !json_is_null(v) && !json_bool(v, &r->allow_exit_status))
        return request_fail(e, "bool_type", "allow_exit_status must be true or false",
                            "allow_exit_status", NULL, NULL);
    if (!r->harness || r->allow_exit_status || judge_grading_of(r) != JUDGE_GRADING_EXIT_STATUS)
        return 0;
    char msg[sizeof(e->msg)];
    snprintf(msg, sizeof(msg),
             "a harness in %s%s is judged by exit status alone (any exit 0 passes: the program "
             "can forge it); %s, or accept that with \"allow_exit_status\": true",
             r->lang->name, r->lang->grader ? " without an entry_point" : "",
             r->lang->grader ? "name the entry_point the tests call" : "send stdin/expected tests");
    return request_fail(e, "value_error", msg, "harness", NULL, NULL);
}

static int parse_judge(const struct lang_set *langs, const struct json *b, struct judge_request *r,
                       struct request_error *e)
{
    if (parse_harness(b, r, e) < 0 || parse_exit_status(b, r, e) < 0 ||
        parse_extract(b, r, e) < 0 || parse_compare(langs, b, r, e) < 0 ||
        parse_limits(b, r, e) < 0 || parse_options(b, r, e) < 0)
        return -EINVAL;
    return 0;
}

/* An empty request for a body that is an object, or NULL with e filled. */
static struct judge_request *new_request(const struct json *body, struct request_error *e)
{
    struct judge_request *r = NULL;
    if (!json_is_object(body))
        request_fail(e, "model_attributes_type", "Input should be an object", NULL, NULL, NULL);
    else if (!(r = judge_request_new()))
        request_fail(e, "memory", "out of memory", NULL, NULL, NULL);
    return r;
}

int request_parse(const struct lang_set *langs, const struct json *body, enum request_shape shape,
                  struct judge_request **out, struct request_error *e)
{
    *out = NULL;
    struct judge_request *r = new_request(body, e);
    if (!r)
        return -EINVAL;
    /* the order of the first errors is each route's own: /run_code names code first */
    int rc = shape == REQUEST_RUN_CODE ? parse_code(body, r, e)
                                       : parse_language(langs, body, shape, r, e);
    if (rc == 0)
        rc = shape == REQUEST_RUN_CODE ? parse_language(langs, body, shape, r, e)
                                       : parse_code(body, r, e);
    if (rc == 0)
        rc = parse_files(body, shape, false, r, e);
    if (rc == 0)
        rc = parse_fetch(body, r, e);
    if (rc == 0)
        rc =
            shape == REQUEST_RUN_CODE ? parse_run_code(body, r, e) : parse_judge(langs, body, r, e);
    if (rc < 0) {
        judge_request_free(r);
        return -EINVAL;
    }
    *out = r;
    return 0;
}

int request_batch_items(const struct json *body, const struct json **items, struct request_error *e)
{
    *items = json_get(body, "items");
    int n = json_len(*items);
    if (!json_is_array(*items) || n == 0 || n > REQUEST_MAX_BATCH)
        return request_fail(e, "list_type", "items must be a list of 1 to 4096 programs", "items",
                            NULL, NULL);
    return n;
}

/* ---- /run_jupyter ------------------------------------------------------------------------- */

/* A number of seconds in [0 or >0, REQUEST_MAX_TIMEOUT_S], def when absent or null. */
static int jupyter_seconds(const struct json *b, const char *key, double def, bool zero_ok,
                           double *out, struct request_error *e)
{
    const struct json *v = json_get(b, key);
    double s = def;
    if ((v && !json_is_null(v) && !json_num(v, &s)) || !isfinite(s) || s < 0 ||
        (!zero_ok && s == 0) || s > REQUEST_MAX_TIMEOUT_S) {
        char msg[96];
        snprintf(msg, sizeof(msg), "%s must be a number of seconds in %s0, 300]", key,
                 zero_ok ? "[" : "(");
        return request_fail(e, "value_error", msg, key, NULL, NULL);
    }
    *out = s;
    return 0;
}

static int parse_cells(const struct json *b, struct json *input, struct request_error *e)
{
    const struct json *cells = json_get(b, "cells");
    if (!cells)
        return request_fail(e, "missing", "Field required (a list of code strings)", "cells", NULL,
                            NULL);
    if (!json_is_array(cells))
        return request_fail(e, "list_type", "cells must be a list of code strings", "cells", NULL,
                            NULL);
    if (json_len(cells) > REQUEST_MAX_CELLS)
        return request_fail(e, "too_long", "at most 1024 cells", "cells", NULL, NULL);
    struct json *list = json_set(input, "cells", json_array());
    int i = 0;
    for (const struct json *c = json_first(cells); c; c = json_next(c), i++) { /* O(1) a step */
        const char *src;
        char idx[16];
        snprintf(idx, sizeof(idx), "%d", i);
        if (!json_str(c, &src))
            return request_fail(e, "string_type", "each cell is a string of code", "cells", idx,
                                NULL);
        if (strlen(src) > REQUEST_MAX_CELL_BYTES)
            return request_fail(e, "too_long", "a cell holds at most 1 MiB of code", "cells", idx,
                                NULL);
        if (!json_push_str(list, src))
            return request_fail(e, "memory", "out of memory", "cells", NULL, NULL);
    }
    return i;
}

static int parse_jupyter_options(const struct json *b, struct jupyter_request *j,
                                 struct json *input, struct request_error *e)
{
    const struct json *k = json_get(b, "kernel"), *m = json_get(b, "memory_limit_MB"),
                      *stop = json_get(b, "stop_on_error");
    const char *kernel = "python3";
    if (k && !json_is_null(k) &&
        (!json_str(k, &kernel) ||
         (strcmp(kernel, "python3") != 0 && strcmp(kernel, "python") != 0)))
        return request_fail(e, "enum", "kernel: \"python3\" (the only kernel)", "kernel", NULL,
                            NULL);
    if (jupyter_seconds(b, "cell_timeout", 0, true, &j->cell_timeout_s, e) < 0 ||
        jupyter_seconds(b, "total_timeout", 45, false, &j->total_timeout_s, e) < 0)
        return -EINVAL;
    double mb = -1;
    if (m && !json_is_null(m) &&
        (!json_num(m, &mb) || mb != floor(mb) || mb > REQUEST_MAX_MEMORY_MB ||
         (mb < 16 && mb != -1)))
        return request_fail(e, "int_parsing",
                            "memory_limit_MB must be a whole number of MiB from 16 to 65536 "
                            "(-1: default)",
                            "memory_limit_MB", NULL, NULL);
    bool stop_on_error = true;
    if (stop && !json_is_null(stop) && !json_bool(stop, &stop_on_error))
        return request_fail(e, "bool_type", "stop_on_error must be true or false", "stop_on_error",
                            NULL, NULL);
    j->memory_mb = mb > 0 ? (int64_t)mb : 0;
    json_set_num(input, "cell_timeout", j->cell_timeout_s);
    json_set_bool(input, "stop_on_error", stop_on_error);
    return 0;
}

static int jupyter_run(const struct lang_set *langs, const struct json *b,
                       struct jupyter_request *j, struct request_error *e)
{
    struct judge_request *r = j->run;
    struct json *input = json_object();
    if (!input)
        return request_fail(e, "memory", "out of memory", NULL, NULL, NULL);
    int n = parse_cells(b, input, e);
    int rc = n < 0 ? n : parse_jupyter_options(b, j, input, e);
    if (rc == 0 && !(r->lang = lang_find(langs, "python")))
        rc = request_fail(e, "enum", "no python language on this server", "kernel", NULL, NULL);
    if (rc == 0 && !r->lang->available)
        rc = request_fail(e, "enum", "python is unavailable on this server", "kernel", NULL, NULL);
    if (rc == 0)
        rc = parse_files(b, REQUEST_RUN_CODE, true, r, e);
    /* the driver's files first: the run's fetch budget (JOB_FETCH_TOTAL) serves them before
     * the caller's */
    const char *own[3] = {JUPYTER_RESULTS, JUPYTER_STDOUT, JUPYTER_STDERR};
    for (int i = 0; rc == 0 && i < 3; i++)
        if (judge_add_fetch(r, own[i]) < 0)
            rc = request_fail(e, "memory", "out of memory", NULL, NULL, NULL);
    if (rc == 0 && (rc = parse_fetch(b, r, e)) < 0 && strcmp(e->type, "too_long") == 0)
        snprintf(e->msg, sizeof(e->msg), "at most %d distinct fetch_files", JUDGE_MAX_FETCH - 3);
    struct judge_test *t = NULL;
    if (rc == 0 &&
        (!(r->code = strndup(verdict_jupyter_driver, verdict_jupyter_driver_len)) ||
         !(r->tests = t = calloc(1, sizeof(*t))) || !(r->selected = calloc(1, sizeof(bool))) ||
         !(t->in = (uint8_t *)json_render(input, false))))
        rc = request_fail(e, "memory", "out of memory", NULL, NULL, NULL);
    json_free(input);
    if (rc < 0 || !t)
        return rc < 0 ? rc : -EINVAL;
    t->in_len = strlen((const char *)t->in);
    r->ntests = 1;
    r->selected[0] = true;
    r->run_only = true;
    j->ncells = n;
    int64_t ms = (int64_t)ceil(j->total_timeout_s * 1000) + JUPYTER_STARTUP_MS;
    r->limits.cpu_ms = r->limits.wall_ms = ms;
    r->limits.backstop_ms = ms + REQUEST_RUN_BACKSTOP_MS;
    r->limits.starved_tle = true; /* total_timeout is wall time, as /run_code's run_timeout */
    if (j->memory_mb > 0)
        r->limits.memory_bytes = (uint64_t)j->memory_mb << 20;
    return 0;
}

int request_parse_jupyter(const struct lang_set *langs, const struct json *body,
                          struct jupyter_request *j, struct request_error *e)
{
    *j = (struct jupyter_request){0};
    if (!json_is_object(body))
        return request_fail(e, "model_attributes_type", "Input should be an object", NULL, NULL,
                            NULL);
    if (!(j->run = judge_request_new()))
        return request_fail(e, "memory", "out of memory", NULL, NULL, NULL);
    if (jupyter_run(langs, body, j, e) < 0) {
        jupyter_request_fini(j);
        return -EINVAL;
    }
    return 0;
}

void jupyter_request_fini(struct jupyter_request *j)
{
    judge_request_free(j->run);
    j->run = NULL;
}

/* ---- /v1/sessions ------------------------------------------------------------------------- */

/* A whole number member in [lo, hi], def when absent or null. */
static int whole(const struct json *b, const char *key, int64_t lo, int64_t hi, int64_t def,
                 int64_t *out, struct request_error *e)
{
    const struct json *v = json_get(b, key);
    double d = (double)def;
    if ((v && !json_is_null(v) && !json_num(v, &d)) || !isfinite(d) || d != floor(d) ||
        d < (double)lo || d > (double)hi) {
        char msg[120];
        snprintf(msg, sizeof(msg), "%s must be a whole number from %lld to %lld", key,
                 (long long)lo, (long long)hi);
        return request_fail(e, "int_parsing", msg, "limits", key, NULL);
    }
    *out = (int64_t)d;
    return 0;
}

int request_parse_session_open(const struct lang_set *langs, const struct json *body,
                               const struct session_ceilings *ceil, struct session_spec *spec,
                               struct request_error *e)
{
    memset(spec, 0, sizeof(*spec));
    if (!json_is_object(body))
        return request_fail(e, "model_attributes_type", "Input should be an object", NULL, NULL,
                            NULL);
    struct judge_request r = {0};
    if (parse_language(langs, body, REQUEST_RUN_CODE, &r, e) < 0)
        return -EINVAL;
    if (r.lang->needs_gpu)
        return request_fail(e, "enum", "sessions run on CPU cells: GPU languages are refused",
                            "language", NULL, NULL);
    spec->lang = r.lang;
    const struct json *lim = json_get(body, "limits");
    if (lim && !json_is_null(lim) && !json_is_object(lim))
        return request_fail(e, "dict_type", "limits must be an object", "limits", NULL, NULL);
    int64_t mem, cpu, pids, call_mem, call_cpu, call_wall, idle, life;
    if (whole(lim, "memory_mb", 16, 8192, 512, &mem, e) < 0 ||
        whole(lim, "cpu_ms", 1, 3600000, 600000, &cpu, e) < 0 ||
        whole(lim, "pids", 1, 256, 64, &pids, e) < 0 ||
        whole(lim, "call_memory_mb", 1, mem, mem, &call_mem, e) < 0 ||
        whole(lim, "call_time_ms", 1, REQUEST_MAX_TIME_MS, 10000, &call_cpu, e) < 0 ||
        whole(lim, "call_wall_ms", 1, REQUEST_MAX_WALL_MS, 30000, &call_wall, e) < 0 ||
        whole(lim, "idle_ms", 1000, ceil->idle_ms, ceil->idle_ms < 300000 ? ceil->idle_ms : 300000,
              &idle, e) < 0 ||
        whole(lim, "lifetime_ms", 1000, ceil->lifetime_ms,
              ceil->lifetime_ms < 3600000 ? ceil->lifetime_ms : 3600000, &life, e) < 0)
        return -EINVAL;
    for (const struct json *m = json_first(lim); m; m = json_next(m)) {
        static const char *const known[] = {"memory_mb",      "cpu_ms",       "pids",
                                            "call_memory_mb", "call_time_ms", "call_wall_ms",
                                            "idle_ms",        "lifetime_ms"};
        bool ok = false;
        for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
            ok = ok || strcmp(json_key(m), known[i]) == 0;
        if (!ok)
            return request_fail(e, "extra_forbidden", "not a session limit", "limits", json_key(m),
                                NULL);
    }
    spec->lim.memory_bytes = (uint64_t)mem << 20;
    spec->lim.cpu_ms = cpu;
    spec->lim.pids = (uint32_t)pids;
    spec->call_memory_bytes = (uint64_t)call_mem << 20;
    spec->call_cpu_ms = call_cpu;
    spec->call_wall_ms = call_wall;
    spec->idle_ms = idle;
    spec->lifetime_ms = life;
    session_spec_defaults(spec);
    return 0;
}

static int session_exec(const struct json *b, struct judge_request *r, struct json **cells_doc,
                        int64_t *timeout_ms, struct request_error *e)
{
    const struct json *code = json_get(b, "code"), *cells = json_get(b, "cells");
    bool has_code = code && !json_is_null(code), has_cells = cells && !json_is_null(cells);
    if (has_code == has_cells)
        return request_fail(e, "missing", "exactly one of code (a string) and cells (a list)",
                            has_code ? "cells" : "code", NULL, NULL);
    if (has_code && parse_code(b, r, e) < 0)
        return -EINVAL;
    if (has_code && strlen(r->code) > REQUEST_MAX_CELL_BYTES)
        return request_fail(e, "too_long", "at most 1 MiB of code", "code", NULL, NULL);
    if (has_cells && !session_interpreted(r->lang))
        return request_fail(e, "value_error", "cells are for Python sessions; send code", "cells",
                            NULL, NULL);
    if (has_cells) {
        if (!(*cells_doc = json_object()))
            return request_fail(e, "memory", "out of memory", NULL, NULL, NULL);
        int n = parse_cells(b, *cells_doc, e);
        if (n < 0)
            return n;
        if (n == 0)
            return request_fail(e, "too_short", "at least one cell", "cells", NULL, NULL);
    }
    const struct json *in = json_get(b, "stdin");
    const char *text = "";
    if (in && !json_is_null(in) && !json_str(in, &text))
        return request_fail(e, "string_type", "stdin must be a string or null", "stdin", NULL,
                            NULL);
    struct judge_test *t = calloc(1, sizeof(*t));
    if (!t || !(t->in = (uint8_t *)strdup(text))) {
        free(t);
        return request_fail(e, "memory", "out of memory", NULL, NULL, NULL);
    }
    t->in_len = strlen(text);
    r->tests = t;
    r->ntests = 1;
    const struct json *to = json_get(b, "timeout_ms");
    double ms = 0;
    if (to && !json_is_null(to) &&
        (!json_num(to, &ms) || !isfinite(ms) || ms != floor(ms) || ms < 1 ||
         ms > REQUEST_MAX_WALL_MS))
        return request_fail(e, "int_parsing", "timeout_ms must be a whole number from 1 to 600000",
                            "timeout_ms", NULL, NULL);
    *timeout_ms = (int64_t)ms;
    /* files may replace anything of the work dir but the interpreter's own output files */
    const struct json *files = json_get(b, "files");
    for (const struct json *m = json_first(files); m; m = json_next(m))
        if (strncmp(json_key(m), SESSION_STREAMS_DIR, strlen(SESSION_STREAMS_DIR)) == 0)
            return request_fail(e, "value_error", "files may not be placed under .verdict_session",
                                "files", json_key(m), NULL);
    if (parse_files(b, REQUEST_JUDGE, false, r, e) < 0 || parse_fetch(b, r, e) < 0)
        return -EINVAL;
    return 0;
}

int request_parse_session_exec(const struct lang *l, const struct json *body,
                               struct judge_request **out, struct json **cells_doc,
                               int64_t *timeout_ms, struct request_error *e)
{
    *out = NULL;
    *cells_doc = NULL;
    *timeout_ms = 0;
    struct judge_request *r = new_request(body, e);
    if (!r)
        return -EINVAL;
    r->lang = l;
    if (session_exec(body, r, cells_doc, timeout_ms, e) < 0) {
        judge_request_free(r);
        json_free(*cells_doc);
        *cells_doc = NULL;
        return -EINVAL;
    }
    *out = r;
    return 0;
}
