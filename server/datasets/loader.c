/*
 * loader: readers (records out of bytes) and normalisers (a record as a problem).
 *
 * How each source's programs are assembled is the source's own harness, as
 * ../shared/datasets/README.md describes it; the normaliser only places the pieces in
 * before/preamble/after, and server/harness joins them with a completion.
 */
#include "server/datasets/loader.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/util/sha256.h"
#include "server/util/slurp.h"

/* Bumped whenever a normaliser changes what it produces, so stored datasets are re-read. */
#define LOADER_VERSION "verdict-loader-1"

#define MAX_TEST_FILE  (1u << 20)
#define MAX_TESTS_SIZE (8u << 20)
#define MAX_DIR_TESTS  256

struct ctx {
    const char *file;
    long where; /* line (jsonl) or index (json array) */
    bool lines;
    char *err;
};

static int bad(const struct ctx *c, const char *field, const char *what)
{
    return err_set(c->err, -EINVAL, "%.150s:%s %ld: field \"%s\": %s", c->file,
                   c->lines ? "line" : " record", c->where, field, what);
}

static int need_str(const struct ctx *c, const struct json *rec, const char *field,
                    const char **out)
{
    if (!json_str(json_get(rec, field), out))
        return bad(c, field, json_get(rec, field) ? "must be a string" : "missing");
    return 0;
}

/* An id that is a string or an integer, as a string. */
bool loader_id(const struct json *v, char *out, size_t cap)
{
    const char *s;
    double d;
    if (json_str(v, &s) && strlen(s) < cap)
        snprintf(out, cap, "%s", s);
    else if (json_num(v, &d) && d == (double)(long long)d)
        snprintf(out, cap, "%lld", (long long)d);
    else
        return false;
    return true;
}

static int need_id(const struct ctx *c, const struct json *rec, const char *field, char *out,
                   size_t cap)
{
    const struct json *v = json_get(rec, field);
    if (!loader_id(v, out, cap) || !*out)
        return bad(c, field, v ? "must be a non-empty string or an integer" : "missing");
    return 0;
}

static char *cat(const char *a, const char *b, const char *c2, const char *d)
{
    char *s = NULL;
    if (asprintf(&s, "%s%s%s%s", a ? a : "", b ? b : "", c2 ? c2 : "", d ? d : "") < 0)
        return NULL;
    return s;
}

/* The name of the function a signature line declares: after "fn "/"func " (Rust, Go), else
 * the identifier just before the line's first '('. */
static void name_in_line(const char *line, size_t len, char *out, size_t cap)
{
    const char *end = line + len, *p = line;
    while (p < end && isspace((unsigned char)*p))
        p++;
    out[0] = '\0';
    static const char *const kws[] = {"pub fn ", "fn ", "func "};
    for (size_t i = 0; i < sizeof(kws) / sizeof(kws[0]); i++) {
        size_t kl = strlen(kws[i]);
        if ((size_t)(end - p) > kl && strncmp(p, kws[i], kl) == 0) {
            const char *q = p + kl;
            while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
                q++;
            snprintf(out, cap, "%.*s", (int)(q - p - kl), p + kl);
            return;
        }
    }
    const char *paren = memchr(line, '(', len);
    if (!paren)
        return;
    const char *q = paren;
    while (q > line && isspace((unsigned char)q[-1]))
        q--;
    const char *e = q;
    while (q > line && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))
        q--;
    snprintf(out, cap, "%.*s", (int)(e - q), q);
}

/* The function that text (a prompt or declaration ending in a signature) declares last. */
static void guess_entry(const char *text, char *out, size_t cap)
{
    out[0] = '\0';
    size_t n = strlen(text);
    while (n > 0) {
        size_t e = n;
        while (e > 0 && text[e - 1] == '\n')
            e--;
        size_t b = e;
        while (b > 0 && text[b - 1] != '\n')
            b--;
        if (memchr(text + b, '(', e - b)) {
            name_in_line(text + b, e - b, out, cap);
            if (out[0])
                return;
        }
        n = b;
    }
}

/* text up to the start of the line that declares entry (for completions that define the
 * function themselves); the whole text when no line does. */
static char *before_signature(const char *text, const char *entry)
{
    size_t n = strlen(text), el = strlen(entry);
    const char *cut = NULL;
    for (size_t b = 0; b < n && el;) {
        const char *nl = memchr(text + b, '\n', n - b);
        size_t e = nl ? (size_t)(nl - text) : n;
        char name[128];
        if (memchr(text + b, '(', e - b)) {
            name_in_line(text + b, e - b, name, sizeof(name));
            if (strcmp(name, entry) == 0)
                cut = text + b; /* the last such line: overloads or doc examples come first */
        }
        b = e + 1;
    }
    return cut ? strndup(text, (size_t)(cut - text)) : strdup(text);
}

static struct json *new_problem(const char *id, const char *prompt, const char *lang,
                                const char *entry, const char *kind, long time_ms, long memory_mb)
{
    struct json *p = json_object();
    json_set_str(p, "id", id);
    json_set_str(p, "prompt", prompt);
    json_set_str(p, "language", lang);
    json_set_str(p, "entry_point", entry);
    json_set_str(p, "kind", kind);
    json_set_num(p, "time_ms", (double)time_ms);
    json_set_num(p, "memory_mb", (double)memory_mb);
    json_set(p, "solutions", json_object());
    json_set(p, "stop", json_array());
    json_set(p, "labels", json_object());
    return p;
}

/* Takes ownership of the three strings. */
static int set_harness(struct json *p, char *before, char *preamble, char *after)
{
    int rc = before && preamble && after ? 0 : -ENOMEM;
    if (rc == 0) {
        json_set_str(p, "before", before);
        json_set_str(p, "preamble", preamble);
        json_set_str(p, "after", after);
    }
    free(before);
    free(preamble);
    free(after);
    return rc;
}

static void set_solution(struct json *p, const char *lang, const char *code)
{
    json_set_str(json_child(p, "solutions"), lang, code);
}

/* ---- HumanEval (Python) ---------------------------------------------------------------- */

static int norm_humaneval(const struct ctx *c, const struct json *r, struct json **out)
{
    const char *id, *prompt, *entry, *test, *sol;
    if (need_str(c, r, "task_id", &id) || need_str(c, r, "prompt", &prompt) ||
        need_str(c, r, "entry_point", &entry) || need_str(c, r, "test", &test) ||
        need_str(c, r, "canonical_solution", &sol))
        return -EINVAL;
    struct json *p = new_problem(id, prompt, "python", entry, "harness", 3000, 512);
    char *after = NULL;
    if (asprintf(&after, "\n%s\n\ncheck(%s)\n", test, entry) < 0)
        after = NULL;
    int rc = set_harness(p, strdup(prompt), strdup(prompt), after);
    set_solution(p, "python", sol);
    *out = p;
    return rc;
}

/* ---- MBPP (full and sanitized) ---------------------------------------------------------- */

static char *join_list(const struct ctx *c, const struct json *r, const char *field, int *rc)
{
    const struct json *l = json_get(r, field);
    size_t n = 0;
    if (!json_is_array(l)) {
        *rc = bad(c, field, l ? "must be a list of strings" : "missing");
        return NULL;
    }
    for (int i = 0; i < json_len(l); i++) {
        const char *s;
        if (!json_str(json_at(l, i), &s)) {
            *rc = bad(c, field, "must be a list of strings");
            return NULL;
        }
        n += strlen(s) + 1;
    }
    char *out = malloc(n + 1), *w = out;
    if (!out) {
        *rc = -ENOMEM;
        return NULL;
    }
    for (int i = 0; i < json_len(l); i++) {
        const char *s;
        json_str(json_at(l, i), &s);
        w = stpcpy(stpcpy(w, s), "\n");
    }
    *w = '\0';
    return out;
}

/* The function the first assert calls ("assert similar_elements(" -> similar_elements). */
static void entry_from_asserts(const char *tests, char *out, size_t cap)
{
    out[0] = '\0';
    const char *a = strstr(tests, "assert");
    if (!a)
        return;
    a += 6;
    while (*a == ' ' || *a == '(')
        a++;
    for (const char *w = a; *w; w++)
        if (*w == '(') {
            const char *s = w;
            while (s > a && (isalnum((unsigned char)s[-1]) || s[-1] == '_'))
                s--;
            snprintf(out, cap, "%.*s", (int)(w - s), s);
            return;
        } else if (!(isalnum((unsigned char)*w) || *w == '_' || *w == '.' || *w == ' ' ||
                     *w == '[' || *w == ']')) {
            return;
        }
}

static int norm_mbpp(const struct ctx *c, const struct json *r, bool sanitized, struct json **out)
{
    char id[32], entry[128];
    const char *text, *code, *setup = "";
    int rc = 0;
    if (need_id(c, r, "task_id", id, sizeof(id)) ||
        need_str(c, r, sanitized ? "prompt" : "text", &text) || need_str(c, r, "code", &code) ||
        (!sanitized && need_str(c, r, "test_setup_code", &setup)))
        return -EINVAL;
    char *tests = join_list(c, r, "test_list", &rc);
    char *imports = sanitized ? join_list(c, r, "test_imports", &rc) : strdup("");
    if (!tests || !imports) {
        free(tests);
        free(imports);
        return rc ? rc : -ENOMEM;
    }
    entry_from_asserts(tests, entry, sizeof(entry));
    char *prompt = NULL;
    if (asprintf(&prompt, "%s\nYour code should pass these tests:\n\n%s", text, tests) < 0)
        prompt = NULL;
    struct json *p = new_problem(id, prompt ? prompt : "", "python", entry, "harness", 5000, 512);
    free(prompt);
    /* The code comes before test_setup_code: its setup uses classes the solution defines. */
    rc = set_harness(p, strdup(imports), strdup(imports),
                     cat("\n", setup, *setup ? "\n" : "", tests));
    set_solution(p, "python", code);
    const struct json *ch = json_get(r, "challenge_test_list");
    if (json_len(ch) > 0)
        json_set(json_child(p, "labels"), "challenge_test_list", json_dup(ch));
    free(tests);
    free(imports);
    *out = p;
    return rc;
}

/* ---- HumanEval-X (C++, Go, Rust, Python) ------------------------------------------------- */

static const char *const cpp_includes[] = {
    "#include<stdlib.h>", "#include<algorithm>", "#include<math.h>",
    "#include<stdio.h>",  "#include<vector>",    "#include<string>",
    "#include<climits>",  "#include<cstring>",   "#include<iostream>"};

static char *cpp_missing_includes(const char *prompt)
{
    char *s = strdup("");
    for (size_t i = 0; s && i < sizeof(cpp_includes) / sizeof(cpp_includes[0]); i++)
        if (!strstr(prompt, cpp_includes[i])) {
            char *n = cat(s, cpp_includes[i], "\n", NULL);
            free(s);
            s = n;
        }
    return s;
}

/* s with every occurrence of what removed (the Go prompt's import block). */
static char *remove_all(const char *s, const char *what)
{
    size_t wl = strlen(what);
    char *out = malloc(strlen(s) + 1), *w = out;
    if (!out)
        return NULL;
    for (const char *p = s; *p;) {
        if (wl && strncmp(p, what, wl) == 0)
            p += wl;
        else
            *w++ = *p++;
    }
    *w = '\0';
    return out;
}

static int norm_humanevalx(const struct ctx *c, const struct json *r, struct json **out)
{
    const char *id, *prompt, *decl, *test, *sol;
    if (need_str(c, r, "task_id", &id) || need_str(c, r, "prompt", &prompt) ||
        need_str(c, r, "declaration", &decl) || need_str(c, r, "test", &test) ||
        need_str(c, r, "canonical_solution", &sol))
        return -EINVAL;
    char entry[128];
    guess_entry(decl, entry, sizeof(entry));
    struct json *p = NULL;
    int rc;
    if (strncmp(id, "CPP/", 4) == 0) {
        char *inc = cpp_missing_includes(prompt), *pre = before_signature(prompt, entry);
        p = new_problem(id, prompt, "cpp", entry, "harness", 5000, 512);
        rc = set_harness(p, cat(inc, "\n", prompt, NULL), cat(inc, "\n", pre, NULL),
                         cat("\n", test, NULL, NULL));
        free(inc);
        free(pre);
        set_solution(p, "cpp", sol);
    } else if (strncmp(id, "Go/", 3) == 0) {
        const char *imp, *setup;
        if (need_str(c, r, "import", &imp) || need_str(c, r, "test_setup", &setup))
            return -EINVAL;
        char *body = remove_all(prompt, imp);
        char *pre = body ? before_signature(body, entry) : NULL;
        p = new_problem(id, prompt, "go_test", entry, "harness", 5000, 512);
        rc = set_harness(p, cat(setup, "\n", body, NULL), cat(setup, "\n", pre, NULL),
                         cat("\n", test, NULL, NULL));
        free(body);
        free(pre);
        set_solution(p, "go_test", sol);
    } else if (strncmp(id, "Rust/", 5) == 0) {
        char *shown = cat(prompt, decl, NULL, NULL), *pre = before_signature(decl, entry);
        p = new_problem(id, shown ? shown : "", "rust_test", entry, "harness", 5000, 512);
        /* Upstream prepends an empty main; `rustc --test` needs none, and leaving it out
         * lets a completion that brings its own main compile. */
        rc = set_harness(p, cat(prompt, decl, NULL, NULL), cat(prompt, pre, NULL, NULL),
                         cat("\n", test, NULL, NULL));
        free(shown);
        free(pre);
        set_solution(p, "rust_test", sol);
    } else if (strncmp(id, "Python/", 7) == 0) {
        p = new_problem(id, prompt, "python", entry, "harness", 3000, 512);
        rc = set_harness(p, strdup(prompt), strdup(prompt), cat("\n", test, NULL, NULL));
        set_solution(p, "python", sol);
    } else {
        return bad(c, "task_id",
                   "a HumanEval-X language verdict runs: CPP/, Go/, Rust/ or "
                   "Python/");
    }
    *out = p;
    return rc;
}

/* ---- MultiPL-E ------------------------------------------------------------------------- */

static int norm_multiple(const struct ctx *c, const struct json *r, struct json **out)
{
    const char *name, *lang, *prompt, *tests;
    if (need_str(c, r, "name", &name) || need_str(c, r, "language", &lang) ||
        need_str(c, r, "prompt", &prompt) || need_str(c, r, "tests", &tests))
        return -EINVAL;
    const char *run = strcmp(lang, "cpp") == 0           ? "cpp"
                      : strcmp(lang, "rs") == 0          ? "rust"
                      : strncmp(lang, "go_test", 7) == 0 ? "go_test"
                      : strcmp(lang, "py") == 0          ? "python"
                                                         : NULL;
    if (!run)
        return bad(c, "language", "a MultiPL-E language verdict runs: cpp, rs, go_test.go, py");
    char entry[128];
    guess_entry(prompt, entry, sizeof(entry));
    struct json *p = new_problem(name, prompt, run, entry, "harness", 5000, 512);
    int rc = set_harness(p, strdup(prompt), before_signature(prompt, entry),
                         cat("\n", tests, NULL, NULL));
    const struct json *stop = json_get(r, "stop_tokens");
    for (int i = 0; i < json_len(stop); i++) {
        const char *s;
        if (!json_str(json_at(stop, i), &s)) {
            json_free(p);
            return bad(c, "stop_tokens", "must be a list of strings");
        }
        json_push_str(json_child(p, "stop"), s);
    }
    *out = p;
    return rc;
}

/* ---- McEval ---------------------------------------------------------------------------- */

static int norm_mceval(const struct ctx *c, const struct json *r, struct json **out)
{
    const char *id, *prompt, *test, *sol, *entry;
    if (need_str(c, r, "task_id", &id) || need_str(c, r, "prompt", &prompt) ||
        need_str(c, r, "test", &test) || need_str(c, r, "canonical_solution", &sol) ||
        need_str(c, r, "entry_point", &entry))
        return -EINVAL;
    static const struct {
        const char *prefix, *lang;
    } langs[] = {{"C/", "c"}, {"CPP/", "cpp"}, {"Go/", "go_test"}, {"Rust/", "rust_test"}};
    const char *lang = NULL;
    for (size_t i = 0; i < sizeof(langs) / sizeof(langs[0]); i++)
        if (strncmp(id, langs[i].prefix, strlen(langs[i].prefix)) == 0)
            lang = langs[i].lang;
    if (!lang)
        return bad(c, "task_id", "a McEval language verdict runs: C/, CPP/, Go/ or Rust/");
    struct json *p = new_problem(id, prompt, lang, entry, "harness", 5000, 512);
    /* "\n" between the parts: C/10's prompt ends in a // comment without a newline. */
    int rc = set_harness(p, cat(prompt, "\n", NULL, NULL), before_signature(prompt, entry),
                         cat("\n", test, NULL, NULL));
    set_solution(p, lang, sol);
    const char *level;
    if (json_str(json_get(r, "level"), &level))
        json_set_str(json_child(p, "labels"), "level", level);
    *out = p;
    return rc;
}

/* ---- SandboxFusion CodeContests rows (stdin/stdout) ------------------------------------ */

static int norm_code_contests(const struct ctx *c, const struct json *r, struct json **out)
{
    char id[64];
    const char *content, *test, *labels;
    if (need_id(c, r, "id", id, sizeof(id)) || need_str(c, r, "content", &content) ||
        need_str(c, r, "test", &test))
        return -EINVAL;
    struct json *t = json_parse(test);
    if (!json_is_array(t)) {
        int rc = json_get(t, "asset")
                     ? err_set(c->err, -EOPNOTSUPP,
                               "%.150s: its tests are SandboxFusion asset bundles (python_gpu, "
                               "torch), which verdict does not run",
                               c->file)
                     : bad(c, "test", "must be a JSON list of {input: {stdin}, output: {stdout}}");
        json_free(t);
        return rc;
    }
    struct json *p = new_problem(id, content, "python", "", "stdio", 5000, 512);
    struct json *tests = json_set(p, "tests", json_array());
    for (int i = 0; i < json_len(t); i++) {
        const char *in, *want;
        const struct json *e = json_at(t, i);
        if (!json_str(json_get(json_get(e, "input"), "stdin"), &in) ||
            !json_str(json_get(json_get(e, "output"), "stdout"), &want)) {
            json_free(t);
            json_free(p);
            return bad(c, "test", "each test is {input: {stdin}, output: {stdout}}");
        }
        struct json *o = json_push(tests, json_object());
        json_set_str(o, "stdin", in);
        json_set_str(o, "expected", want);
    }
    json_free(t);
    /* SandboxFusion's check: lines stripped, compared without regard to case. */
    struct json *cmp = json_set(p, "compare", json_object());
    json_set_str(cmp, "mode", "nocase");
    if (json_str(json_get(r, "labels"), &labels)) {
        struct json *l = json_parse(labels);
        if (json_is_object(l)) {
            json_set(p, "labels", l);
            l = NULL;
        }
        json_free(l);
    }
    *out = p;
    return 0;
}

/* ---- problem directories (problems/README.md) ---------------------------------------- */

/* snprintf for paths: false when the path does not fit. */
static bool __attribute__((format(printf, 3, 4))) pathf(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, cap, fmt, ap);
    va_end(ap);
    return n >= 0 && (size_t)n < cap;
}

static int read_text(const char *path, size_t cap, char **out, char err[ERR_LEN])
{
    size_t len;
    int rc = slurp(path, cap, out, &len, err);
    if (rc == 0 && strlen(*out) != len) {
        free(*out);
        return err_set(err, -EINVAL, "%.200s: holds a NUL byte", path);
    }
    return rc;
}

static int visible(const struct dirent *d)
{
    return d->d_name[0] != '.';
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int dir_tests(const char *dir, struct json *p, char err[ERR_LEN])
{
    char path[4096];
    struct dirent **ents;
    pathf(path, sizeof(path), "%s/tests", dir);
    int n = scandir(path, &ents, visible, alphasort), rc = 0, count = 0;
    if (n < 0)
        return err_set(err, -errno, "%.200s: %m", path);
    struct json *tests = json_set(p, "tests", json_array());
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        size_t l = strlen(name);
        if (rc == 0 && l > 3 && strcmp(name + l - 3, ".in") == 0) {
            char *in = NULL, *want = NULL;
            pathf(path, sizeof(path), "%s/tests/%s", dir, name);
            rc = read_text(path, MAX_TEST_FILE, &in, err);
            pathf(path, sizeof(path), "%s/tests/%.*s.out", dir, (int)(l - 3), name);
            if (rc == 0)
                rc = read_text(path, MAX_TEST_FILE, &want, err);
            if (rc == 0 && (total += strlen(in) + strlen(want)) > MAX_TESTS_SIZE)
                rc = err_set(err, -EFBIG, "%.200s/tests: more than 8 MiB", dir);
            if (rc == 0 && ++count > MAX_DIR_TESTS)
                rc = err_set(err, -E2BIG, "%.200s/tests: more than 256 tests", dir);
            if (rc == 0) {
                struct json *o = json_push(tests, json_object());
                json_set_str(o, "name", name);
                json_set_str(o, "stdin", in);
                json_set_str(o, "expected", want);
            }
            free(in);
            free(want);
        }
        free(ents[i]);
    }
    free(ents);
    if (rc == 0 && count == 0)
        rc = err_set(err, -EINVAL, "%.200s/tests: no NAME.in/NAME.out pairs", dir);
    return rc;
}

static int dir_solutions(const char *dir, struct json *p, char err[ERR_LEN])
{
    char path[4096];
    struct dirent **ents;
    pathf(path, sizeof(path), "%s/solutions", dir);
    int n = scandir(path, &ents, visible, alphasort), rc = 0;
    if (n < 0)
        return errno == ENOENT ? 0 : err_set(err, -errno, "%.200s: %m", path);
    struct json *sols = json_child(p, "solutions");
    for (int i = 0; i < n; i++) {
        char lang[32], *code = NULL;
        const char *dot = strchr(ents[i]->d_name, '.');
        snprintf(lang, sizeof(lang), "%.*s",
                 (int)(dot ? (size_t)(dot - ents[i]->d_name) : strlen(ents[i]->d_name)),
                 ents[i]->d_name);
        pathf(path, sizeof(path), "%s/solutions/%s", dir, ents[i]->d_name);
        if (rc == 0 && (rc = read_text(path, MAX_TEST_FILE, &code, err)) == 0)
            json_set_str(sols, lang, code);
        free(code);
        free(ents[i]);
    }
    free(ents);
    return rc;
}

static int load_problem_dir(const char *dir, const char *slug, struct json **out, char err[ERR_LEN])
{
    char path[4096], *meta_text = NULL, *statement = NULL;
    pathf(path, sizeof(path), "%s/problem.json", dir);
    int rc = read_text(path, 1u << 20, &meta_text, err);
    struct json *meta = rc == 0 ? json_parse(meta_text) : NULL;
    free(meta_text);
    if (rc < 0)
        return rc;
    struct ctx c = {.file = path, .where = 0, .err = err};
    const char *id = slug, *lang = "python", *mode = "lines";
    double time_ms = 2000, memory_mb = 256, abs_eps = 1e-6, rel_eps = 1e-6;
    if (!json_is_object(meta))
        rc = err_set(err, -EINVAL, "%.200s: not a JSON object", path);
    else if (json_get(meta, "id") && !json_str(json_get(meta, "id"), &id))
        rc = bad(&c, "id", "must be a string");
    else if (json_get(meta, "language") && !json_str(json_get(meta, "language"), &lang))
        rc = bad(&c, "language", "must be a string");
    else if (json_get(meta, "compare") && !json_str(json_get(meta, "compare"), &mode))
        rc = bad(&c, "compare", "must be a string");
    else if ((json_get(meta, "time_limit_ms") &&
              !json_num(json_get(meta, "time_limit_ms"), &time_ms)) ||
             time_ms < 1 || time_ms > 60000)
        rc = bad(&c, "time_limit_ms", "must be a number of milliseconds, 1..60000");
    else if ((json_get(meta, "memory_mb") && !json_num(json_get(meta, "memory_mb"), &memory_mb)) ||
             memory_mb < 16 || memory_mb > 16384)
        rc = bad(&c, "memory_mb", "must be a number of MiB, 16..16384");
    json_num(json_get(meta, "abs_eps"), &abs_eps);
    json_num(json_get(meta, "rel_eps"), &rel_eps);
    pathf(path, sizeof(path), "%s/statement.md", dir);
    if (rc == 0)
        rc = read_text(path, 1u << 20, &statement, err);
    struct json *p = NULL;
    if (rc == 0) {
        p = new_problem(id, statement, lang, "", "stdio", (long)time_ms, (long)memory_mb);
        struct json *cmp = json_set(p, "compare", json_object());
        json_set_str(cmp, "mode", mode);
        json_set_num(cmp, "abs_eps", abs_eps);
        json_set_num(cmp, "rel_eps", rel_eps);
        const char *title;
        if (json_str(json_get(meta, "title"), &title))
            json_set_str(json_child(p, "labels"), "title", title);
        rc = dir_tests(dir, p, err);
        if (rc == 0)
            rc = dir_solutions(dir, p, err);
    }
    free(statement);
    json_free(meta);
    if (rc < 0) {
        json_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

static int read_problem_set(const char *dir, struct json *arr, char err[ERR_LEN])
{
    struct dirent **ents;
    int n = scandir(dir, &ents, visible, alphasort), rc = 0, count = 0;
    if (n < 0)
        return err_set(err, -errno, "%.200s: %m", dir);
    for (int i = 0; i < n; i++) {
        char sub[4096], meta[4200];
        pathf(sub, sizeof(sub), "%s/%s", dir, ents[i]->d_name);
        pathf(meta, sizeof(meta), "%s/problem.json", sub);
        struct json *p = NULL;
        if (rc == 0 && is_dir(sub) && access(meta, F_OK) == 0 &&
            (rc = load_problem_dir(sub, ents[i]->d_name, &p, err)) == 0) {
            json_push(arr, p);
            count++;
        }
        free(ents[i]);
    }
    free(ents);
    if (rc == 0 && count == 0)
        rc = err_set(err, -ENOENT, "%.200s: no problem directories (DIR/NAME/problem.json)", dir);
    return rc < 0 ? rc : count;
}

/* ---- formats and detection --------------------------------------------------------------- */

typedef int (*norm_fn)(const struct ctx *c, const struct json *r, struct json **out);

static int norm_mbpp_full(const struct ctx *c, const struct json *r, struct json **out)
{
    return norm_mbpp(c, r, false, out);
}

static int norm_mbpp_sanitized(const struct ctx *c, const struct json *r, struct json **out)
{
    return norm_mbpp(c, r, true, out);
}

static const struct format {
    const char *name;
    norm_fn fn;
    const char *fields[4]; /* a record with all of these is of this format */
} formats[] = {
    {"humanevalx", norm_humanevalx, {"declaration", "canonical_solution", "task_id"}},
    {"humaneval", norm_humaneval, {"entry_point", "canonical_solution", "test", "prompt"}},
    {"mbpp", norm_mbpp_full, {"test_list", "test_setup_code", "code"}},
    {"mbpp_sanitized", norm_mbpp_sanitized, {"test_list", "test_imports", "code"}},
    {"multiple", norm_multiple, {"stop_tokens", "tests", "prompt", "name"}},
    {"mceval", norm_mceval, {"signature", "entry_point", "canonical_solution", "test"}},
    {"code_contests", norm_code_contests, {"content", "test", "id"}},
};

const char *loader_formats(void)
{
    return "humaneval, mbpp, mbpp_sanitized, humanevalx, multiple, mceval, code_contests, "
           "problem_dir";
}

static const struct format *detect(const struct json *rec)
{
    const char *id;
    /* McEval rows also have HumanEval's fields; its signature field tells them apart. */
    if (json_get(rec, "signature") && json_get(rec, "entry_point"))
        return &formats[5];
    if (json_str(json_get(rec, "task_id"), &id) && strncmp(id, "HumanEval/", 10) != 0 &&
        json_get(rec, "declaration"))
        return &formats[0];
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
        bool all = true;
        for (int k = 0; k < 4 && formats[i].fields[k]; k++)
            all = all && json_get(rec, formats[i].fields[k]);
        if (all)
            return &formats[i];
    }
    return NULL;
}

static const struct format *format_named(const char *name)
{
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
        if (strcmp(formats[i].name, name) == 0)
            return &formats[i];
    return NULL;
}

/* One record: normalise, check the id is new, append. */
static int add_record(struct ctx *c, const struct json *rec, const struct format **f,
                      const char *want, struct json *arr, char *fmt, size_t cap)
{
    if (!json_is_object(rec))
        return bad(c, "(record)", "each record is a JSON object");
    if (!*f) {
        *f = want && *want ? format_named(want) : detect(rec);
        if (!*f)
            return err_set(c->err, -EINVAL,
                           "%.150s: records of an unknown shape (known formats: %s)", c->file,
                           loader_formats());
        snprintf(fmt, cap, "%s", (*f)->name);
    }
    struct json *p = NULL;
    int rc = (*f)->fn(c, rec, &p);
    if (rc < 0) {
        json_free(p);
        return rc == -ENOMEM ? err_set(c->err, rc, "out of memory") : rc;
    }
    const char *id;
    json_str(json_get(p, "id"), &id);
    for (int i = 0; i < json_len(arr); i++) {
        const char *other;
        if (json_str(json_get(json_at(arr, i), "id"), &other) && strcmp(other, id) == 0) {
            char what[200];
            snprintf(what, sizeof(what), "duplicate id \"%.120s\"", id);
            json_free(p);
            return bad(c, "id", what);
        }
    }
    json_push(arr, p);
    return 0;
}

static int read_records(const char *path, const char *want, struct json *arr, char *fmt, size_t cap,
                        char err[ERR_LEN])
{
    char *text;
    size_t len;
    int rc = slurp(path, LOADER_MAX_FILE, &text, &len, err);
    if (rc < 0)
        return rc;
    const struct format *f = NULL;
    struct ctx c = {.file = path, .err = err};
    const char *s = text;
    while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')
        s++;
    struct json *doc = *s == '[' ? json_parse(text) : NULL;
    if (doc) { /* a JSON array of records */
        for (int i = 0; rc == 0 && i < json_len(doc); i++) {
            c.where = i;
            rc = add_record(&c, json_at(doc, i), &f, want, arr, fmt, cap);
        }
        json_free(doc);
    } else { /* JSON lines */
        c.lines = true;
        char *line = text;
        for (long no = 1; rc == 0 && line < text + len; no++) {
            char *nl = strchr(line, '\n');
            if (nl)
                *nl = '\0';
            c.where = no;
            char *p = line;
            while (*p == ' ' || *p == '\t' || *p == '\r')
                p++;
            if (*p) {
                struct json *rec = json_parse(line);
                rc = rec ? add_record(&c, rec, &f, want, arr, fmt, cap)
                         : err_set(err, -EINVAL, "%.150s: line %ld: not a JSON object (%s)", path,
                                   no,
                                   no == 1 ? "is this a JSON or JSON lines file?"
                                           : "a bad or truncated line");
                json_free(rec);
            }
            line = nl ? nl + 1 : text + len;
        }
    }
    free(text);
    if (rc == 0 && json_len(arr) == 0)
        rc = err_set(err, -EINVAL, "%.200s: no records", path);
    return rc < 0 ? rc : json_len(arr);
}

int loader_record(const struct json *rec, const char *format, struct json **problem,
                  char err[ERR_LEN])
{
    const struct format *f = format && *format ? format_named(format) : NULL;
    struct json *arr = json_array();
    char fmt[32];
    struct ctx c = {.file = "provided_data", .where = 0, .err = err};
    int rc = arr ? add_record(&c, rec, &f, NULL, arr, fmt, sizeof(fmt)) : -ENOMEM;
    if (rc == 0)
        *problem = json_dup(json_at(arr, 0));
    json_free(arr);
    return rc == 0 && !*problem ? -ENOMEM : rc;
}

int loader_read(const char *path, const char *format, struct json **problems, char *fmt, size_t cap,
                char err[ERR_LEN])
{
    if (format && *format && strcmp(format, "problem_dir") != 0 && !format_named(format))
        return err_set(err, -EINVAL, "unknown format \"%.60s\" (known: %s)", format,
                       loader_formats());
    struct json *arr = json_array();
    if (!arr)
        return err_set(err, -ENOMEM, "out of memory");
    int rc;
    if (is_dir(path)) {
        snprintf(fmt, cap, "problem_dir");
        rc = read_problem_set(path, arr, err);
    } else if (format && strcmp(format, "problem_dir") == 0) {
        rc = err_set(err, -ENOTDIR, "%.200s: format problem_dir is a directory", path);
    } else {
        rc = read_records(path, format, arr, fmt, cap, err);
    }
    if (rc < 0) {
        json_free(arr);
        return rc;
    }
    *problems = arr;
    return rc;
}

/* ---- fingerprints and names ----------------------------------------------------------------- */

static int hash_tree(struct sha256 *h, const char *path, const char *rel, char err[ERR_LEN])
{
    if (!is_dir(path)) {
        char *data;
        size_t len;
        int rc = slurp(path, LOADER_MAX_FILE, &data, &len, err);
        if (rc < 0)
            return rc;
        sha256_update(h, rel, strlen(rel) + 1);
        sha256_update(h, &len, sizeof(len));
        sha256_update(h, data, len);
        free(data);
        return 0;
    }
    struct dirent **ents;
    int n = scandir(path, &ents, visible, alphasort), rc = 0;
    if (n < 0)
        return err_set(err, -errno, "%.200s: %m", path);
    for (int i = 0; i < n; i++) {
        char sub[4096], subrel[4096];
        pathf(sub, sizeof(sub), "%s/%s", path, ents[i]->d_name);
        snprintf(subrel, sizeof(subrel), "%s/%s", rel, ents[i]->d_name);
        if (rc == 0)
            rc = hash_tree(h, sub, subrel, err);
        free(ents[i]);
    }
    free(ents);
    return rc;
}

int loader_fingerprint(const char *path, char hex[65], char err[ERR_LEN])
{
    struct sha256 h;
    sha256_init(&h);
    sha256_update(&h, LOADER_VERSION, sizeof(LOADER_VERSION));
    int rc = hash_tree(&h, path, ".", err);
    if (rc == 0)
        sha256_hex(&h, hex);
    return rc;
}

int loader_is_problem_set(const char *dir)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, visible, alphasort), found = 0;
    for (int i = 0; i < n; i++) {
        char meta[4200];
        pathf(meta, sizeof(meta), "%s/%s/problem.json", dir, ents[i]->d_name);
        found = found || access(meta, F_OK) == 0;
        free(ents[i]);
    }
    if (n >= 0)
        free(ents);
    return found;
}

int loader_default_name(const char *relpath, int dir, char *name, size_t cap)
{
    static const struct {
        const char *path, *name;
    } known[] = {
        {"HumanEval.jsonl.gz", "humaneval"},
        {"mbpp/mbpp.jsonl", "mbpp"},
        {"mbpp/sanitized-mbpp.json", "mbpp_sanitized"},
        {"humaneval-x/humaneval_cpp.jsonl.gz", "humanevalx_cpp"},
        {"humaneval-x/humaneval_go.jsonl.gz", "humanevalx_go"},
        {"humaneval-x/humaneval_rust.jsonl.gz", "humanevalx_rust"},
        {"multipl-e/humaneval-cpp.jsonl", "multiple_cpp"},
        {"multipl-e/humaneval-go.jsonl", "multiple_go"},
        {"multipl-e/humaneval-rs.jsonl", "multiple_rs"},
        {"multipl-e/mbpp-cpp.jsonl", "multiple_mbpp_cpp"},
        {"multipl-e/mbpp-go.jsonl", "multiple_mbpp_go"},
        {"multipl-e/mbpp-rs.jsonl", "multiple_mbpp_rs"},
        {"stdio/sandboxfusion_code_contests.jsonl", "code_contests"},
    };
    for (size_t i = 0; !dir && i < sizeof(known) / sizeof(known[0]); i++)
        if (strcmp(relpath, known[i].path) == 0) {
            snprintf(name, cap, "%s", known[i].name);
            return 0;
        }
    const char *base = strrchr(relpath, '/');
    base = base ? base + 1 : relpath;
    size_t len = strlen(base);
    static const char *const exts[] = {".jsonl.gz", ".jsonl", ".json.gz", ".json"};
    size_t keep = 0;
    for (size_t i = 0; !dir && !keep && i < sizeof(exts) / sizeof(exts[0]); i++) {
        size_t el = strlen(exts[i]);
        if (len > el && strcmp(base + len - el, exts[i]) == 0)
            keep = len - el;
    }
    if (!dir && !keep)
        return -ENOENT;
    /* A problem-set directory is verdict_<dir>; a file is <dir>_<stem> (mceval/C -> mceval_c). */
    char raw[512];
    if (dir)
        snprintf(raw, sizeof(raw), "verdict_%s", base);
    else if (base != relpath)
        snprintf(raw, sizeof(raw), "%.*s_%.*s", (int)(base - 1 - relpath), relpath, (int)keep,
                 base);
    else
        snprintf(raw, sizeof(raw), "%.*s", (int)keep, base);
    size_t w = 0;
    for (const char *p = raw; *p && w + 1 < cap; p++)
        name[w++] = isalnum((unsigned char)*p) ? (char)tolower((unsigned char)*p) : '_';
    name[w] = '\0';
    return 0;
}
