/*
 * loader_humaneval: the HumanEval family, harness problems whose program carries its tests:
 * HumanEval (Python), HumanEval-X (C++, Go, Rust, Python; the language from the task id's
 * prefix), MultiPL-E (its stop tokens kept; C++, Go, Rust, Python and 15 more languages, each
 * run by its template) and McEval (C, C++, Go, Rust). A completion that
 * continues the prompt follows `before`; one that defines the entry point itself follows
 * `preamble` (the prompt up to the signature); `after` is the test code. HumanEval, HumanEval-X
 * and MultiPL-E completions continue the prompt unless /submit is told otherwise, as in
 * SandboxFusion's pretrain mode; Python's continuations end at their first line in column 0.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/datasets/loader_impl.h"

/* ---- HumanEval (Python) ---------------------------------------------------------------- */

int loader_norm_humaneval(const struct loader_ctx *c, const struct json *r, struct json **out)
{
    const char *id, *prompt, *entry, *test, *sol;
    if (loader_need_str(c, r, "task_id", &id) || loader_need_str(c, r, "prompt", &prompt) ||
        loader_need_str(c, r, "entry_point", &entry) || loader_need_str(c, r, "test", &test) ||
        loader_need_str(c, r, "canonical_solution", &sol))
        return -EINVAL;
    struct json *p = loader_new_problem(id, prompt, "python", entry, "harness", 3000, 512);
    json_set_bool(p, "continues", true);
    json_set_bool(p, "stop_line", true);
    char *after = NULL;
    if (asprintf(&after, "\n%s\n\ncheck(%s)\n", test, entry) < 0)
        after = NULL;
    int rc = loader_set_harness(p, strdup(prompt), strdup(prompt), after);
    loader_set_solution(p, "python", sol);
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
            char *n = loader_cat(s, cpp_includes[i], "\n", NULL);
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

int loader_norm_humanevalx(const struct loader_ctx *c, const struct json *r, struct json **out)
{
    const char *id, *prompt, *decl, *test, *sol;
    if (loader_need_str(c, r, "task_id", &id) || loader_need_str(c, r, "prompt", &prompt) ||
        loader_need_str(c, r, "declaration", &decl) || loader_need_str(c, r, "test", &test) ||
        loader_need_str(c, r, "canonical_solution", &sol))
        return -EINVAL;
    char entry[128];
    loader_guess_entry(decl, entry, sizeof(entry));
    struct json *p = NULL;
    int rc;
    if (strncmp(id, "CPP/", 4) == 0) {
        char *inc = cpp_missing_includes(prompt), *pre = loader_before_signature(prompt, entry);
        p = loader_new_problem(id, prompt, "cpp", entry, "harness", 5000, 512);
        rc = loader_set_harness(p, loader_cat(inc, "\n", prompt, NULL),
                                loader_cat(inc, "\n", pre, NULL),
                                loader_cat("\n", test, NULL, NULL));
        free(inc);
        free(pre);
        loader_set_solution(p, "cpp", sol);
    } else if (strncmp(id, "Go/", 3) == 0) {
        const char *imp, *setup;
        if (loader_need_str(c, r, "import", &imp) || loader_need_str(c, r, "test_setup", &setup))
            return -EINVAL;
        char *body = remove_all(prompt, imp);
        char *pre = body ? loader_before_signature(body, entry) : NULL;
        p = loader_new_problem(id, prompt, "go_test", entry, "harness", 5000, 512);
        rc = loader_set_harness(p, loader_cat(setup, "\n", body, NULL),
                                loader_cat(setup, "\n", pre, NULL),
                                loader_cat("\n", test, NULL, NULL));
        free(body);
        free(pre);
        loader_set_solution(p, "go_test", sol);
    } else if (strncmp(id, "Rust/", 5) == 0) {
        char *shown = loader_cat(prompt, decl, NULL, NULL),
             *pre = loader_before_signature(decl, entry);
        p = loader_new_problem(id, shown ? shown : "", "rust_test", entry, "harness", 5000, 512);
        /* Upstream prepends an empty main; `rustc --test` needs none, and leaving it out
         * lets a completion that brings its own main compile. */
        rc = loader_set_harness(p, loader_cat(prompt, decl, NULL, NULL),
                                loader_cat(prompt, pre, NULL, NULL),
                                loader_cat("\n", test, NULL, NULL));
        free(shown);
        free(pre);
        loader_set_solution(p, "rust_test", sol);
    } else if (strncmp(id, "Python/", 7) == 0) {
        p = loader_new_problem(id, prompt, "python", entry, "harness", 3000, 512);
        json_set_bool(p, "stop_line", true);
        rc = loader_set_harness(p, strdup(prompt), strdup(prompt),
                                loader_cat("\n", test, NULL, NULL));
        loader_set_solution(p, "python", sol);
    } else {
        return loader_bad(c, "task_id",
                          "a HumanEval-X language verdict runs: CPP/, Go/, Rust/ or "
                          "Python/");
    }
    json_set_bool(p, "continues", true);
    *out = p;
    return rc;
}

/* ---- MultiPL-E ------------------------------------------------------------------------- */

/* MultiPL-E's language (its file extension) -> the template that runs it, and how a line of
 * the prompt defines a function: a keyword before the name ("function ", "sub ", "(define ("),
 * "<-" for R's `name <- function`, "()" for bash's `name() {`, "name(" for D (the problem's
 * name less its `HumanEval_<n>_` prefix, followed by a parenthesis: a return type such as
 * `Tuple!(long, long)` comes first), or NULL for a C-like signature (the name before the
 * line's first parenthesis). Languages a host may lack (julia, swift)
 * import all the same; their samples are judged SKIP where the template is unavailable. */
static const struct {
    const char *ext, *run, *def;
} multiple_langs[] = {{"cpp", "cpp", NULL},
                      {"rs", "rust", NULL},
                      {"go_test", "go_test", NULL},
                      {"py", "python", NULL},
                      {"cs", "csharp", NULL},
                      {"d", "d_ut", "name("},
                      {"java", "java", NULL},
                      {"jl", "julia", "function "},
                      {"js", "nodejs", "function "},
                      {"lua", "lua", "function "},
                      {"php", "php", "function "},
                      {"pl", "perl", "sub "},
                      {"r", "r", "<-"},
                      {"rb", "ruby", "def "},
                      {"rkt", "racket", "(define ("},
                      {"scala", "scala", "def "},
                      {"sh", "bash", "()"},
                      {"swift", "swift", "func "},
                      {"ts", "typescript", "function "}};

static bool name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '?' || c == '!' || c == '-';
}

/* The name line[0..len) defines in the form def, written to out; "" when it defines none. */
static void multiple_def(const char *def, const char *line, size_t len, char *out, size_t cap)
{
    const char *p = line, *end = line + len, *name = NULL;
    out[0] = '\0';
    while (p < end && isspace((unsigned char)*p))
        p++;
    size_t dl = strlen(def);
    if (strcmp(def, "<-") == 0 || strcmp(def, "()") == 0) {
        name = p;
        while (p < end && name_char(*p))
            p++;
        const char *ne = p;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        bool r = def[0] == '<';
        if (ne == name || (size_t)(end - p) < 2 || strncmp(p, r ? "<-" : "()", 2) != 0)
            return;
        if (r) {
            p += 2;
            while (p < end && (*p == ' ' || *p == '\t'))
                p++;
            if ((size_t)(end - p) < 8 || strncmp(p, "function", 8) != 0)
                return;
        }
        snprintf(out, cap, "%.*s", (int)(ne - name), name);
        return;
    }
    static const char *const mods[] = {"local ",   "export ", "async ",   "public ",
                                       "private ", "static ", "override "};
    for (bool more = true; more;) {
        more = false;
        for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++)
            if ((size_t)(end - p) > strlen(mods[i]) && strncmp(p, mods[i], strlen(mods[i])) == 0) {
                p += strlen(mods[i]);
                more = true;
            }
    }
    if ((size_t)(end - p) <= dl || strncmp(p, def, dl) != 0)
        return;
    p += dl;
    name = p;
    while (p < end && name_char(*p))
        p++;
    snprintf(out, cap, "%.*s", (int)(p - name), name);
}

/* The function a MultiPL-E prompt declares last (its entry point) and the prompt up to that
 * declaration's line (the preamble a whole answer follows). */
static char *multiple_entry(const char *def, const char *prompt, const char *id, char *entry,
                            size_t cap)
{
    if (def && strcmp(def, "name(") == 0) {
        const char *u = strchr(id, '_'), *v = u ? strchr(u + 1, '_') : NULL;
        snprintf(entry, cap, "%s", v ? v + 1 : id);
        size_t el = strlen(entry), cut = strlen(prompt);
        for (const char *b = prompt; *b;) {
            const char *nl = strchr(b, '\n');
            size_t len = nl ? (size_t)(nl - b) : strlen(b);
            for (const char *q = b; el && q + el < b + len; q++)
                if (strncmp(q, entry, el) == 0 && q[el] == '(' &&
                    (q == b || !(isalnum((unsigned char)q[-1]) || q[-1] == '_')))
                    cut = (size_t)(b - prompt);
            b += len + (nl != NULL);
        }
        return strndup(prompt, cut);
    }
    if (!def) {
        loader_guess_entry(prompt, entry, cap);
        return loader_before_signature(prompt, entry);
    }
    entry[0] = '\0';
    size_t cut = strlen(prompt);
    for (const char *b = prompt; *b;) {
        const char *nl = strchr(b, '\n');
        size_t len = nl ? (size_t)(nl - b) : strlen(b);
        char name[128];
        multiple_def(def, b, len, name, sizeof(name));
        if (name[0]) {
            snprintf(entry, cap, "%s", name);
            cut = (size_t)(b - prompt);
        }
        b += len + (nl != NULL);
    }
    return strndup(prompt, cut);
}

/* A completion is cut at its first stop token: each token is searched for in the whole
 * completion, so their number is bounded (MultiPL-E's rows have a handful), keeping /submit
 * linear in what a client sends in provided_data. */
#define MAX_STOPS      64
#define MAX_STOP_BYTES 256

/* Java runs class Main: MultiPL-E's tests put main in class Problem, which this one calls. */
static const char java_main[] =
    "\nclass Main {\n    public static void main(String[] args) throws Exception {\n"
    "        Problem.main(args);\n    }\n}\n";

int loader_norm_multiple(const struct loader_ctx *c, const struct json *r, struct json **out)
{
    const char *name, *lang, *prompt, *tests;
    if (loader_need_str(c, r, "name", &name) || loader_need_str(c, r, "language", &lang) ||
        loader_need_str(c, r, "prompt", &prompt) || loader_need_str(c, r, "tests", &tests))
        return -EINVAL;
    const char *run = NULL, *def = NULL;
    for (size_t i = 0; !run && i < sizeof(multiple_langs) / sizeof(multiple_langs[0]); i++)
        if (strcmp(multiple_langs[i].ext, "go_test") == 0
                ? strncmp(lang, "go_test", 7) == 0
                : strcmp(lang, multiple_langs[i].ext) == 0) {
            run = multiple_langs[i].run;
            def = multiple_langs[i].def;
        }
    if (!run)
        return loader_bad(c, "language",
                          "a MultiPL-E language: cpp, cs, d, go_test.go, java, jl, js, lua, "
                          "php, pl, py, r, rb, rkt, rs, scala, sh, swift, ts");
    char entry[128];
    char *pre = multiple_entry(def, prompt, name, entry, sizeof(entry));
    struct json *p = loader_new_problem(name, prompt, run, entry, "harness", 5000, 512);
    json_set_bool(p, "continues", true);
    int rc = loader_set_harness(
        p, strdup(prompt), pre,
        loader_cat("\n", tests, strcmp(run, "java") == 0 ? java_main : "", NULL));
    const struct json *stop = json_get(r, "stop_tokens");
    int nstop = 0;
    for (const struct json *e = json_first(stop); e; e = json_next(e)) {
        const char *s;
        if (!json_str(e, &s)) {
            json_free(p);
            return loader_bad(c, "stop_tokens", "must be a list of strings");
        }
        if (++nstop > MAX_STOPS || strlen(s) > MAX_STOP_BYTES) { /* each is searched for in */
            json_free(p);                                        /* the whole completion */
            return loader_bad(c, "stop_tokens", "at most 64 strings of at most 256 bytes");
        }
        json_push_str(json_child(p, "stop"), s);
    }
    *out = p;
    return rc;
}

/* ---- McEval ---------------------------------------------------------------------------- */

int loader_norm_mceval(const struct loader_ctx *c, const struct json *r, struct json **out)
{
    const char *id, *prompt, *test, *sol, *entry;
    if (loader_need_str(c, r, "task_id", &id) || loader_need_str(c, r, "prompt", &prompt) ||
        loader_need_str(c, r, "test", &test) || loader_need_str(c, r, "canonical_solution", &sol) ||
        loader_need_str(c, r, "entry_point", &entry))
        return -EINVAL;
    static const struct {
        const char *prefix, *lang;
    } langs[] = {{"C/", "c"}, {"CPP/", "cpp"}, {"Go/", "go_test"}, {"Rust/", "rust_test"}};
    const char *lang = NULL;
    for (size_t i = 0; i < sizeof(langs) / sizeof(langs[0]); i++)
        if (strncmp(id, langs[i].prefix, strlen(langs[i].prefix)) == 0)
            lang = langs[i].lang;
    if (!lang)
        return loader_bad(c, "task_id", "a McEval language verdict runs: C/, CPP/, Go/ or Rust/");
    struct json *p = loader_new_problem(id, prompt, lang, entry, "harness", 5000, 512);
    /* "\n" between the parts: C/10's prompt ends in a // comment without a newline. */
    int rc = loader_set_harness(p, loader_cat(prompt, "\n", NULL, NULL),
                                loader_before_signature(prompt, entry),
                                loader_cat("\n", test, NULL, NULL));
    loader_set_solution(p, lang, sol);
    const char *level;
    if (json_str(json_get(r, "level"), &level))
        json_set_str(json_child(p, "labels"), "level", level);
    *out = p;
    return rc;
}
