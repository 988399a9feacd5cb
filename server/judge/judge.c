/*
 * judge: compile once, run each test, compare, reward.
 *
 * Request (see docs/api.md): language, code, files, tests ([{stdin, expected}]) or harness
 * (test code), compare ({mode, abs_eps, rel_eps, checker: {language, code}}), limits ({time_ms,
 * wall_ms, memory_mb}), reward ("fraction" or "all"), stop_on_failure, only (test indexes). The
 * marker for harness runs is 128 random bits from getrandom, printed by the template's trailer; the
 * program's stdout is checked for it as its own last line, then the line is removed from what is
 * shown. A language without a trailer (compiled ones, whose tests hold main) joins code and
 * harness and is judged by exit status alone, as the benchmarks' own harnesses are. A checker is
 * built once like the program and, for each test the program passed its limits on, run in its own
 * sandbox job as `checker input.txt output.txt answer.txt` with those three files in its work dir;
 * its verdict is its exit status (testlib's convention), its reason the first line it wrote to
 * stderr (or stdout). A checker that fails, crashes or times out is SE, never the program's fault.
 */
#include "server/judge/judge.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "server/judge/compare.h"
#include "server/util/base64.h"

#define MAX_TESTS   1024
#define EXCERPT     512
#define MAX_FILES_J 64

struct test {
    char *in;
    size_t in_len;
    char *want;
    size_t want_len;
};

struct judge_request {
    const struct lang *lang;
    char *code;
    int nfiles;
    struct job_file files[MAX_FILES_J + 1];
    uint8_t *data[MAX_FILES_J + 1];
    char *paths[MAX_FILES_J + 1];
    char *harness;
    int ntests;
    struct test *tests;
    bool *selected;
    struct cmp_spec cmp;
    const struct lang *checker_lang; /* CMP_CHECKER */
    char *checker_code;
    struct job_limits limits;
    bool all_or_nothing, stop_on_failure;
};

static int bad(struct judge_error *e, const char *type, const char *msg, const char *l0,
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

static char *dup_str(const struct json *j, size_t *len)
{
    const char *s;
    if (!json_str(j, &s))
        return NULL;
    *len = strlen(s);
    return strdup(s);
}

static int parse_tests(const struct json *b, struct judge_request *r, struct judge_error *e)
{
    const struct json *tests = json_get(b, "tests");
    if (!json_is_array(tests) || json_len(tests) == 0)
        return bad(e, "list_type", "tests must be a non-empty list of {stdin, expected}", "tests",
                   NULL, NULL);
    r->ntests = json_len(tests);
    if (r->ntests > MAX_TESTS)
        return bad(e, "too_long", "at most 1024 tests", "tests", NULL, NULL);
    r->tests = calloc((size_t)r->ntests, sizeof(*r->tests));
    if (!r->tests)
        return bad(e, "memory", "out of memory", "tests", NULL, NULL);
    for (int i = 0; i < r->ntests; i++) {
        const struct json *t = json_at(tests, i), *in = json_get(t, "stdin"),
                          *want = json_get(t, "expected");
        char idx[16];
        snprintf(idx, sizeof(idx), "%d", i);
        if (!json_is_object(t))
            return bad(e, "dict_type", "each test is an object", "tests", idx, NULL);
        if (in && !json_is_null(in) && !(r->tests[i].in = dup_str(in, &r->tests[i].in_len)))
            return bad(e, "string_type", "stdin must be a string", "tests", idx, "stdin");
        if (!(r->tests[i].want = dup_str(want, &r->tests[i].want_len)))
            return bad(e, "string_type", "expected must be a string", "tests", idx, "expected");
    }
    return 0;
}

static int parse_checker(const struct lang_set *langs, const struct json *c,
                         struct judge_request *r, struct judge_error *e)
{
    const struct json *k = json_get(c, "checker");
    const char *lang;
    size_t len;
    if (r->harness)
        return bad(e, "value_error", "a harness decides by itself: no checker", "compare", "mode",
                   NULL);
    if (!json_is_object(k))
        return bad(e, "missing", "mode checker needs checker: {language, code}", "compare",
                   "checker", NULL);
    if (!json_str(json_get(k, "language"), &lang) || !(r->checker_lang = lang_find(langs, lang)) ||
        !r->checker_lang->available || r->checker_lang->needs_gpu)
        return bad(e, "enum", "an available CPU language", "compare", "checker", "language");
    if (!(r->checker_code = dup_str(json_get(k, "code"), &len)))
        return bad(e, "missing", "Field required (a string)", "compare", "checker", "code");
    return 0;
}

static int parse_compare(const struct lang_set *langs, const struct json *b,
                         struct judge_request *r, struct judge_error *e)
{
    const struct json *c = json_get(b, "compare");
    r->cmp = (struct cmp_spec){CMP_LINES, 1e-6, 1e-6};
    if (!c)
        return 0;
    const char *mode;
    if (!json_is_object(c) || !json_str(json_get(c, "mode"), &mode) ||
        cmp_mode_parse(mode, &r->cmp.mode) < 0)
        return bad(e, "enum", "compare.mode: exact, lines, tokens, float, nocase, regex or checker",
                   "compare", "mode", NULL);
    if (r->cmp.mode == CMP_CHECKER && parse_checker(langs, c, r, e) < 0)
        return -EINVAL;
    const char *keys[2] = {"abs_eps", "rel_eps"};
    double *dst[2] = {&r->cmp.abs_eps, &r->cmp.rel_eps};
    for (int i = 0; i < 2; i++) {
        const struct json *v = json_get(c, keys[i]);
        if (v && (!json_num(v, dst[i]) || !(*dst[i] >= 0) || !isfinite(*dst[i])))
            return bad(e, "value_error", "must be a finite number >= 0", "compare", keys[i], NULL);
    }
    return 0;
}

static int parse_limits(const struct json *b, struct judge_request *r, struct judge_error *e)
{
    const struct json *l = json_get(b, "limits");
    if (!l)
        return 0;
    if (!json_is_object(l))
        return bad(e, "dict_type", "limits must be an object", "limits", NULL, NULL);
    const char *keys[] = {"time_ms", "wall_ms", "memory_mb"};
    double max[] = {300000, 600000, 65536};
    for (int i = 0; i < 3; i++) {
        const struct json *v = json_get(l, keys[i]);
        double d;
        if (!v)
            continue;
        if (!json_num(v, &d) || d < 1 || d > max[i] || d != floor(d))
            return bad(e, "value_error", "must be a whole number within range", "limits", keys[i],
                       NULL);
        if (i == 0)
            r->limits.cpu_ms = (int64_t)d;
        else if (i == 1)
            r->limits.wall_ms = (int64_t)d;
        else
            r->limits.memory_bytes = (uint64_t)d << 20;
    }
    return 0;
}

static int parse_options(const struct json *b, struct judge_request *r, struct judge_error *e)
{
    const struct json *rw = json_get(b, "reward"), *stop = json_get(b, "stop_on_failure"),
                      *only = json_get(b, "only");
    const char *s;
    if (rw && (!json_str(rw, &s) || (strcmp(s, "fraction") && strcmp(s, "all"))))
        return bad(e, "enum", "reward: \"fraction\" or \"all\"", "reward", NULL, NULL);
    r->all_or_nothing = rw && strcmp(s, "all") == 0;
    if (stop && !json_bool(stop, &r->stop_on_failure))
        return bad(e, "bool_type", "stop_on_failure must be true or false", "stop_on_failure", NULL,
                   NULL);
    int n = r->harness ? 1 : r->ntests;
    r->selected = calloc((size_t)n, sizeof(*r->selected));
    if (!r->selected)
        return bad(e, "memory", "out of memory", "only", NULL, NULL);
    if (!only) {
        for (int i = 0; i < n; i++)
            r->selected[i] = true;
        return 0;
    }
    if (!json_is_array(only))
        return bad(e, "list_type", "only must be a list of test indexes", "only", NULL, NULL);
    for (int i = 0; i < json_len(only); i++) {
        double d;
        if (!json_num(json_at(only, i), &d) || d < 0 || d >= n || d != floor(d))
            return bad(e, "value_error", "test index out of range", "only", NULL, NULL);
        r->selected[(int)d] = true;
    }
    return 0;
}

static int add_file(struct judge_request *r, const char *path, uint8_t *data, size_t len)
{
    char *p = strdup(path);
    if (!p || r->nfiles > MAX_FILES_J) {
        free(p);
        free(data);
        return -ENOMEM;
    }
    r->paths[r->nfiles] = p;
    r->data[r->nfiles] = data;
    r->files[r->nfiles++] = (struct job_file){p, 0644, data, len};
    return 0;
}

static int parse_files(const struct json *b, struct judge_request *r, struct judge_error *e)
{
    const struct json *files = json_get(b, "files");
    if (files && !json_is_object(files))
        return bad(e, "dict_type", "files must be an object of path: base64", "files", NULL, NULL);
    for (int i = 0; i < json_members(files); i++) {
        const struct json *m = json_member(files, i);
        const char *path = json_key(m), *b64;
        size_t len;
        uint8_t *data;
        if (!job_path_ok(path) || strcmp(path, r->lang->source) == 0)
            return bad(e, "value_error", "paths are relative to the work dir, without ..", "files",
                       path, NULL);
        if (!json_str(m, &b64) || !(data = base64_decode(b64, &len)))
            return bad(e, "value_error", "not valid base64", "files", path, NULL);
        if (add_file(r, path, data, len) < 0)
            return bad(e, "too_long", "too many files", "files", NULL, NULL);
    }
    return 0;
}

int judge_parse(const struct lang_set *langs, const struct json *b, struct judge_request **out,
                struct judge_error *e)
{
    *out = NULL;
    if (!json_is_object(b))
        return bad(e, "model_attributes_type", "Input should be an object", NULL, NULL, NULL);
    struct judge_request *r = calloc(1, sizeof(*r));
    if (!r)
        return bad(e, "memory", "out of memory", NULL, NULL, NULL);
    const char *lang = NULL;
    size_t len;
    int rc = 0;
    const struct json *h = json_get(b, "harness");
    if (!json_str(json_get(b, "language"), &lang))
        rc = bad(e, "missing", "Field required (a language name)", "language", NULL, NULL);
    else if (!(r->lang = lang_find(langs, lang)))
        rc = bad(e, "enum", "unsupported language", "language", NULL, NULL);
    else if (!r->lang->available)
        rc = bad(e, "enum", "language unavailable on this server", "language", NULL, NULL);
    else if (!(r->code = dup_str(json_get(b, "code"), &len)))
        rc = bad(e, "missing", "Field required (a string)", "code", NULL, NULL);
    else if (h && !(r->harness = dup_str(h, &len)))
        rc = bad(e, "string_type", "harness must be a string of test code", "harness", NULL, NULL);
    else if (r->harness && json_get(b, "tests"))
        rc = bad(e, "value_error", "give tests or a harness, not both", "tests", NULL, NULL);
    if (rc == 0 && !r->harness)
        rc = parse_tests(b, r, e);
    if (rc == 0)
        rc = parse_compare(langs, b, r, e);
    if (rc == 0)
        rc = parse_limits(b, r, e);
    if (rc == 0)
        rc = parse_files(b, r, e);
    if (rc == 0)
        rc = parse_options(b, r, e);
    if (rc < 0) {
        judge_request_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

const struct lang *judge_language(const struct judge_request *r)
{
    return r->lang;
}

void judge_request_free(struct judge_request *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->nfiles; i++) {
        free(r->paths[i]);
        free(r->data[i]);
    }
    for (int i = 0; r->tests && i < r->ntests; i++) {
        free(r->tests[i].in);
        free(r->tests[i].want);
    }
    free(r->tests);
    free(r->selected);
    free(r->code);
    free(r->harness);
    free(r->checker_code);
    free(r);
}

/* {code}, {tests} and {marker} of the language's harness template, filled. */
static char *join_harness(const char *tmpl, const char *code, const char *tests, const char *marker)
{
    size_t cap = strlen(tmpl) + strlen(code) + strlen(tests) + 64, o = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    for (const char *p = tmpl; *p;) {
        const char *v = NULL;
        size_t skip = 0;
        if (strncmp(p, "{code}", 6) == 0)
            v = code, skip = 6;
        else if (strncmp(p, "{tests}", 7) == 0)
            v = tests, skip = 7;
        else if (strncmp(p, "{marker}", 8) == 0)
            v = marker, skip = 8;
        if (!v) {
            out[o++] = *p++;
            continue;
        }
        size_t n = strlen(v);
        memcpy(out + o, v, n);
        o += n;
        p += skip;
    }
    out[o] = '\0';
    return out;
}

static void new_marker(char out[40])
{
    uint8_t b[16];
    if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
        memset(b, 0x5a, sizeof(b));
    int o = snprintf(out, 40, "VERDICT-");
    for (int i = 0; i < 8; i++)
        o += snprintf(out + o, (size_t)(40 - o), "%02x", b[i] ^ b[i + 8]);
}

/* Removes the marker line at the end of out (if it is there); true when it was. */
static bool take_marker(const uint8_t *out, size_t *len, const char *marker)
{
    size_t n = *len, m = strlen(marker);
    while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == '\r'))
        n--;
    if (n < m || memcmp(out + n - m, marker, m) != 0 || (n > m && out[n - m - 1] != '\n'))
        return false;
    *len = n - m;
    return true;
}

static const char *verdict_of(enum job_status s)
{
    return job_status_name(s);
}

static struct json *test_json(int index, const char *verdict, const struct job_result *res,
                              size_t out_len, const char *reason)
{
    struct json *t = json_object();
    json_set_num(t, "index", index);
    json_set_str(t, "verdict", verdict);
    json_set_num(t, "time_ms", (double)res->cpu_ms);
    json_set_num(t, "wall_ms", (double)res->wall_ms);
    json_set_num(t, "memory_kib", (double)res->memory_kib);
    json_set_num(t, "exit_code", res->exit_code);
    json_set_bytes(t, "stdout", res->out, out_len < EXCERPT ? out_len : EXCERPT);
    json_set_bytes(t, "stderr", res->err, res->err_len < EXCERPT ? res->err_len : EXCERPT);
    if (reason && *reason)
        json_set_str(t, "reason", reason);
    return t;
}

/* The first line of what a checker said (stderr, else stdout), bounded, printable. */
static void first_line(const struct job_result *cr, char *out, size_t cap)
{
    const uint8_t *t = cr->err_len ? cr->err : cr->out;
    size_t n = cr->err_len ? cr->err_len : cr->out_len, o = 0;
    for (size_t i = 0; i < n && t[i] != '\n' && o + 1 < cap; i++)
        out[o++] = t[i] >= 0x20 && t[i] < 0x7f ? (char)t[i] : '?';
    out[o] = '\0';
}

/* Runs the checker on one test the program finished: "OK", "WA", or "SE" when the checker
 * itself failed (why says what it said). */
static const char *run_checker(const struct program_env *env, const struct program *ck,
                               const struct test *t, const struct job_result *res,
                               char why[CMP_WHY])
{
    static const char *const args[3] = {"input.txt", "output.txt", "answer.txt"};
    const struct job_file files[3] = {
        {args[0], 0644, (const uint8_t *)t->in, t->in_len},
        {args[1], 0644, res->out, res->out_len},
        {args[2], 0644, (const uint8_t *)t->want, t->want_len},
    };
    struct program_io io = {.nargs = 3, .args = args, .nfiles = 3, .files = files};
    struct job_result cr;
    uint8_t *payload;
    program_run(env, ck, &io, &cr, &payload);
    const char *verdict = "SE", *what = cr.message;
    char said[120] = "";
    if (cr.status == JOB_OK || (cr.status == JOB_RE && cr.signal == 0)) {
        enum cmp_checker c = cmp_checker_status(cr.exit_code, &what);
        verdict = c == CMP_ACCEPTED ? "OK" : c == CMP_WRONG ? "WA" : "SE";
        first_line(&cr, said, sizeof(said));
    } else if (cr.status != JOB_SE) {
        what = cr.status == JOB_RE ? "checker crashed" : "checker exceeded its limits";
    }
    snprintf(why, CMP_WHY, "%.96s%s%.88s", what, *said ? ": " : "", said);
    job_result_fini(&cr);
    free(payload);
    return verdict;
}

struct json *judge_run(const struct program_env *env, struct judge_request *r)
{
    struct json *d = json_object();
    char marker[40] = "", err[ERR_LEN] = "";
    char *source = r->code;
    if (r->harness && r->lang->harness) {
        new_marker(marker);
        source = join_harness(r->lang->harness, r->code, r->harness, marker);
    } else if (r->harness) { /* no trailer to print a marker: judged by exit status alone */
        source = join_harness("{code}\n{tests}\n", r->code, r->harness, "");
    }
    int n = r->nfiles;
    r->files[n] = (struct job_file){r->lang->source, 0644, (const uint8_t *)source,
                                    source ? strlen(source) : 0};
    struct program p;
    int rc = source ? program_build(env, r->lang, r->files, n + 1, NULL, &p, err) : -ENOMEM;
    int total = 0, passed = 0, ran = 0;
    const char *status = "OK";
    struct json *tests = json_array();
    if (rc < 0) {
        status = "SE";
        json_set_str(d, "message", err);
    } else if (!p.ok) {
        status = "CE";
        json_set_str(d, "compile_output", p.message ? p.message : "");
    }
    struct program ck;
    struct job_file f;    /* the checker's source: it must outlive ck */
    bool checker = false; /* built: the tests can run */
    if (rc == 0 && p.ok && r->checker_lang) {
        f = (struct job_file){r->checker_lang->source, 0644, (const uint8_t *)r->checker_code,
                              strlen(r->checker_code)};
        int crc = program_build(env, r->checker_lang, &f, 1, NULL, &ck, err);
        if (crc < 0 || !ck.ok) { /* the checker's fault is not the program's */
            status = "SE";
            json_set_str(d, "message", crc < 0 ? err : "the checker did not compile");
            if (crc == 0) {
                json_set_str(d, "checker_compile_output", ck.message ? ck.message : "");
                program_free(env, &ck);
            }
        } else {
            checker = true;
        }
    }
    int count = r->harness ? 1 : r->ntests;
    for (int i = 0; i < count; i++)
        total += r->selected[i];
    for (int i = 0; rc == 0 && p.ok && (checker || !r->checker_lang) && i < count; i++) {
        if (!r->selected[i])
            continue;
        struct job_result res;
        uint8_t *payload;
        struct program_io io = {.in = r->harness ? NULL : (const uint8_t *)r->tests[i].in,
                                .in_len = r->harness ? 0 : r->tests[i].in_len,
                                .limits = &r->limits};
        program_run(env, &p, &io, &res, &payload);
        ran++;
        size_t out_len = res.out_len;
        const char *verdict = verdict_of(res.status), *reason = res.message;
        char why[CMP_WHY] = "";
        if (res.status == JOB_OK && r->harness) {
            if (*marker && !take_marker(res.out, &out_len, marker)) {
                verdict = "WA";
                reason = "exited 0 before the checks finished (no completion marker)";
            }
        } else if (res.status == JOB_OK && checker) {
            verdict = run_checker(env, &ck, &r->tests[i], &res, why);
            reason = why;
        } else if (res.status == JOB_OK &&
                   !cmp_equal(&r->cmp, r->tests[i].want, r->tests[i].want_len,
                              (const char *)res.out, res.out_len, why)) {
            verdict = "WA";
            reason = why;
        }
        bool ok = strcmp(verdict, "OK") == 0;
        passed += ok;
        if (strcmp(verdict, "SE") == 0)
            status = "SE";
        json_push(tests, test_json(i, verdict, &res, out_len, ok ? "" : reason));
        job_result_fini(&res);
        free(payload);
        if (!ok && r->stop_on_failure)
            break;
    }
    double reward = total == 0          ? 0
                    : r->all_or_nothing ? (passed == total ? 1.0 : 0.0)
                                        : (double)passed / total;
    json_set_str(d, "status", status);
    json_set_num(d, "reward", reward);
    json_set_num(d, "passed", passed);
    json_set_num(d, "total", total);
    json_set_num(d, "ran", ran);
    if (rc == 0) {
        struct json *c = json_set(d, "compile", json_object());
        json_set_bool(c, "ok", p.ok);
        json_set_bool(c, "cached", p.cached);
        if (!p.cached && p.lang->compiled)
            json_set_num(c, "wall_ms", (double)p.compile.wall_ms);
        program_free(env, &p);
    }
    if (checker)
        program_free(env, &ck);
    json_set(d, "tests", tests);
    if (source != r->code)
        free(source);
    return d;
}
