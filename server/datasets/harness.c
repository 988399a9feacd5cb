/*
 * harness: joining completions to problems.
 *
 * Go's import merging scans a copy of the source with comments and string literals blanked
 * out, so a package named in a comment or a string does not count as used.
 */
#include "server/datasets/harness.h"
#include "server/judge/goimports.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/datasets/extract.h"

static bool ident(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The language without a test-runner suffix: go_test -> go, rust_test -> rust. */
static void base_language(const char *lang, char *out, size_t cap)
{
    const char *u = strstr(lang, "_test");
    snprintf(out, cap, "%.*s", (int)(u ? (size_t)(u - lang) : strlen(lang)), lang);
}

/* ---- does the code define the entry point? ------------------------------------------------- */

/* Position of word (a whole identifier) in s at or after from, or NULL. */
static const char *find_word(const char *s, const char *from, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(from, word); p; p = strstr(p + 1, word))
        if ((p == s || !ident(p[-1])) && !ident(p[n]))
            return p;
    return NULL;
}

static const char *skip_space(const char *p)
{
    while (*p && isspace((unsigned char)*p))
        p++;
    return p;
}

/* The keyword before a function's name in the languages that have one (MultiPL-E's
 * scripting languages), "" for R (`name <- function`) and bash (`name() {`), or NULL. */
static const char *keyword_of(const char *lang)
{
    static const char *const kws[][2] = {{"lua", "function"},
                                         {"nodejs", "function"},
                                         {"typescript", "function"},
                                         {"php", "function"},
                                         {"julia", "function"},
                                         {"perl", "sub"},
                                         {"ruby", "def"},
                                         {"scala", "def"},
                                         {"swift", "func"},
                                         {"racket", "(define ("},
                                         {"r", ""},
                                         {"bash", ""}};
    for (size_t i = 0; i < sizeof(kws) / sizeof(kws[0]); i++)
        if (strcmp(lang, kws[i][0]) == 0)
            return kws[i][1];
    return NULL;
}

/* Whether the text of p's line before p (from ls), blanks skipped, ends in word. */
static bool ends_with_word(const char *ls, const char *p, const char *word)
{
    while (p > ls && (p[-1] == ' ' || p[-1] == '\t'))
        p--;
    size_t n = strlen(word);
    /* the byte before the word is *(p - n - 1): p[-n - 1] would add a wrapped-around size_t */
    return (size_t)(p - ls) >= n && strncmp(p - n, word, n) == 0 &&
           (p - n == ls || !ident(*(p - n - 1)) || !ident(word[0]));
}

/* Whether entry at p (on the line starting at ls, whose first non-blank is lead; after
 * pointing past its name and blanks)
 * is the name a definition in lang gives: `function f(`, `local function f(`, `const f = `
 * (JavaScript, TypeScript), `sub f {`, `def f`, `func f(`, `(define (f`, `f <- function`,
 * bash's `f() {` or `function f`. */
static bool keyword_defines(const char *lang, const char *kw, const char *lead, const char *ls,
                            const char *p, const char *after)
{
    if (strcmp(lang, "r") == 0) {
        const char *q = after[0] == '<' && after[1] == '-' ? after + 2
                        : *after == '='                    ? after + 1
                                                           : NULL;
        return q && strncmp(skip_space(q), "function", 8) == 0 && lead == p;
    }
    if (strcmp(lang, "bash") == 0)
        return (after[0] == '(' && skip_space(after + 1)[0] == ')' && lead == p) ||
               ends_with_word(ls, p, "function");
    if (strcmp(lang, "racket") == 0)
        return p - ls >= 9 && strncmp(p - 9, "(define (", 9) == 0;
    if ((strcmp(lang, "nodejs") == 0 || strcmp(lang, "typescript") == 0) && *after == '=' &&
        after[1] != '=' &&
        (ends_with_word(ls, p, "const") || ends_with_word(ls, p, "let") ||
         ends_with_word(ls, p, "var")))
        return true;
    if (!ends_with_word(ls, p, kw))
        return false;
    if (strcmp(lang, "ruby") == 0 || strcmp(lang, "perl") == 0)
        return true; /* `def f` and `sub f` take no parentheses */
    return *after == '(' || *after == '<' || (strcmp(lang, "scala") == 0 && *after == '[');
}

/* The line an occurrence of the entry is on, followed occurrence after occurrence: each
 * search for the line's start goes back only to the previous occurrence, and the line's first
 * non-blank is found once a line, so a line holding many occurrences costs linear time (a
 * search back to the line's start for each was quadratic in a one-line completion). */
struct line_at {
    const char *ls, *seen, *lead; /* the line's start, the last occurrence, its first non-blank */
};

static void line_of(struct line_at *l, const char *p)
{
    const char *nl = p > l->seen ? memrchr(l->seen, '\n', (size_t)(p - l->seen)) : NULL;
    if (nl) {
        l->ls = nl + 1;
        l->lead = skip_space(l->ls);
    }
    l->seen = p;
}

/* C and C++: `entry(...)` followed by a body ('{', after `const` or `noexcept`), not on a line
 * that starts with `return` or with the name itself. Every such occurrence's '(' is matched
 * with its ')' in one sweep over the code (a stack of the depths of those still open,
 * innermost on top), so nested calls `f(f(f(...)))` cost linear time, not a scan to the end
 * each; the stack holds at most one int per two bytes of code. */
static bool c_defines(const char *code, const char *entry)
{
    size_t n = strlen(entry), cap = 0, top = 0;
    int *open = NULL, depth = 0; /* code is at most a request body: its depth fits an int */
    struct line_at l = {code, code, skip_space(code)};
    const char *next = find_word(code, code, entry), *paren = NULL;
    bool found = false;
    for (const char *q = code; *q && !found; q++) {
        if (next == q) {
            line_of(&l, q);
            bool line_ok = strncmp(l.lead, "return", 6) != 0 && l.lead != q;
            paren = line_ok ? skip_space(q + n) : NULL;
            next = find_word(code, q + 1, entry);
        }
        if (*q == '(' && q == paren) {
            if (top == cap) {
                int *s = realloc(open, (cap = cap ? 2 * cap : 16) * sizeof(*s));
                if (!s)
                    break;
                open = s;
            }
            open[top++] = depth;
        }
        depth += (*q == '(') - (*q == ')');
        if (*q != ')' || top == 0 || open[top - 1] != depth)
            continue;
        top--;
        const char *after = skip_space(q + 1);
        while (strncmp(after, "const", 5) == 0 || strncmp(after, "noexcept", 8) == 0)
            after = skip_space(after + (*after == 'c' ? 5 : 8));
        found = *after == '{';
    }
    free(open);
    return found;
}

bool harness_defines(const char *language, const char *code, const char *entry)
{
    char lang[32];
    base_language(language, lang, sizeof(lang));
    if (!entry || !*entry)
        return false;
    const char *key = keyword_of(lang);
    bool go = strcmp(lang, "go") == 0 || strcmp(lang, "rust") == 0;
    if (!key && !go && strcmp(lang, "python") != 0)
        return c_defines(code, entry);
    struct line_at l = {code, code, skip_space(code)};
    for (const char *p = find_word(code, code, entry); p; p = find_word(code, p + 1, entry)) {
        const char *after = skip_space(p + strlen(entry));
        line_of(&l, p);
        if (key) {
            if (keyword_defines(lang, key, l.lead, l.ls, p, after))
                return true;
        } else if (!go) { /* python: `def`, blanks, p (checked back from p: linear) */
            const char *k = p, *name = l.lead; /* "def " is there before name moves past it */
            if (strncmp(l.lead, "def ", 4) == 0 && p >= (name += 4) && *after == '(') {
                while (k > name && isspace((unsigned char)k[-1]))
                    k--;
                if (k == name)
                    return true;
            }
        } else {
            const char *kw = strcmp(lang, "go") == 0 ? "func" : "fn";
            const char *k = p; /* just after the keyword, if there is one */
            while (k > code && (k[-1] == ' ' || k[-1] == '\t'))
                k--;
            long kl = (long)strlen(kw);
            if (*after && strchr("(<[", *after) && k < p && k - code >= kl &&
                strncmp(k - kl, kw, (size_t)kl) == 0 && (k - kl == code || !ident(k[-kl - 1])))
                return true;
        }
    }
    return false;
}

/* ---- building ------------------------------------------------------------------------------- */

/* The completion cut at the first of the problem's stop tokens, and with by_line where the
 * problem's stop_line says, before its first line that starts in column 0 (a newline followed
 * by a non-space character). */
static char *cut_at_stop(const struct json *p, const char *completion, bool by_line)
{
    size_t cut = strlen(completion);
    bool line = false;
    if (by_line && json_bool(json_get(p, "stop_line"), &line) && line)
        for (const char *nl = strchr(completion, '\n'); nl; nl = strchr(nl + 1, '\n'))
            if (nl[1] && !isspace((unsigned char)nl[1])) {
                cut = (size_t)(nl - completion);
                break;
            }
    const struct json *stop = json_get(p, "stop");
    for (const struct json *e = json_first(stop); e; e = json_next(e)) {
        const char *s, *at;
        if (json_str(e, &s) && *s && (at = strstr(completion, s)) &&
            (size_t)(at - completion) < cut)
            cut = (size_t)(at - completion);
    }
    return strndup(completion, cut);
}

/* The end of the block that starts at line (the first '{' on or after it, to its matching
 * '}', string and character literals and // comments skipped), past that line's newline. */
static char *block_end(char *line)
{
    int depth = 0;
    bool opened = false;
    for (char *p = line; *p; p++) {
        if (*p == '"' || *p == '\'') {
            char q = *p;
            for (p++; *p && *p != q && *p != '\n'; p++)
                p += *p == '\\' && p[1];
            if (!*p)
                break;
        } else if (p[0] == '/' && p[1] == '/') {
            while (p[1] && p[1] != '\n')
                p++;
        } else if (*p == '{') {
            depth++;
            opened = true;
        } else if (*p == '}' && opened && --depth == 0) {
            char *nl = strchr(p, '\n');
            return nl ? nl + 1 : p + strlen(p);
        }
    }
    return line + strlen(line);
}

/* Extracted code loses the functions the tests bring themselves (SandboxFusion cuts C++ at
 * `int main()`): main for C, C++, Rust and D, and Go's Test functions, which would be declared
 * twice; D's unittest blocks (the answer's own examples, run with the tests); in Java, C# and Scala
 * the main method (indented, in a class; `public` or not). Go's main goes always: a test binary
 * never runs it, and it calls what went (the answer's own Test functions). */
static void drop_own_functions(const char *lang, const char *after, char *code)
{
    static const char *const own[][2] = {
        {"c", "int main"},     {"cpp", "int main"},           {"go", "func main("},
        {"go", "func Test"},   {"rust", "fn main("},          {"d_ut", "void main("},
        {"d_ut", "unittest"},  {"java", "static void main("}, {"csharp", "static void Main("},
        {"scala", "def main("}};
    bool method =
        strcmp(lang, "java") == 0 || strcmp(lang, "csharp") == 0 || strcmp(lang, "scala") == 0;
    for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
        bool always = strcmp(own[i][1], "func main(") == 0;
        if (strcmp(lang, own[i][0]) != 0 || (!always && !strstr(after, own[i][1])))
            continue;
        size_t pl = strlen(own[i][1]);
        char *w = code; /* one pass: read at r, write at w <= r (no memmove of the rest) */
        for (char *r = code; *r;) {
            char *t = r, *nl = strchr(r, '\n'), *eol = nl ? nl + 1 : r + strlen(r);
            if (method) {
                while (*t == ' ' || *t == '\t')
                    t++;
                if (strncmp(t, "public ", 7) == 0)
                    t += 7;
            }
            if (strncmp(t, own[i][1], pl) == 0) {
                /* Scala's `def main(...) = expr` on one line has no block */
                bool brace = memchr(t, '{', (size_t)(eol - t)) != NULL;
                r = strcmp(lang, "scala") == 0 && !brace ? eol : block_end(t);
                continue;
            }
            memmove(w, r, (size_t)(eol - r));
            w += eol - r;
            r = eol;
        }
        *w = '\0';
    }
}

/* A string field of problem p, "" when absent. */
static const char *str_of(const struct json *p, const char *key)
{
    const char *s = json_get_str(p, key);
    return s ? s : "";
}

/* A whole Rust answer inside a module of its own: its `use` lines would clash with the
 * preamble's (E0252), while in the module they shadow the `use super::*` glob, which still
 * gives it everything the preamble imported. Its top-level items become pub (not main) and
 * are glob-imported back, where the tests find them. */
static char *rust_module(const char *code)
{
    static const char *const items[] = {"fn ",    "struct ", "enum ",  "type ",
                                        "const ", "trait ",  "static "};
    size_t n = strlen(code), cap = n * 2 + 256, o = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    o += (size_t)snprintf(out, cap,
                          "mod verdict_answer {\n#![allow(unused_imports, dead_code)]\n"
                          "use super::*;\n");
    for (const char *line = code; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
        for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++)
            if (strncmp(line, items[i], strlen(items[i])) == 0 &&
                strncmp(line, "fn main(", 8) != 0) {
                memcpy(out + o, "pub ", 4);
                o += 4;
                break;
            }
        memcpy(out + o, line, len);
        o += len;
        line += len;
    }
    snprintf(out + o, cap - o, "\n}\npub use verdict_answer::*;\n");
    return out;
}

/* What follows an unwrapped class, less its top-level statements (`println(...)`,
 * `Problem.main(...)`: a script's lines, which Scala 2, Java and C# 7 have no place for);
 * declarations (a column-0 line that starts with one of decl's words, with the lines indented
 * or closing below it) stay, and comments among them. In place. */
static void keep_declarations(char *s)
{
    static const char *const decl[] = {
        "object ",    "class ",    "trait ",    "case ",    "sealed ",    "abstract ",
        "final ",     "import ",   "public ",   "private ", "protected ", "static ",
        "interface ", "enum ",     "record ",   "@",        "using ",     "namespace ",
        "struct ",    "internal ", "implicit ", "package "};
    bool keep = true;
    char *w = s;
    for (char *line = s; *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
        /* a column-0 brace, parenthesis or comment belongs to what came before */
        bool follows = isspace((unsigned char)*line) || strchr("{}()*", *line) ||
                       strncmp(line, "//", 2) == 0 || strncmp(line, "/*", 2) == 0;
        if (!follows) {
            keep = false;
            for (size_t i = 0; !keep && i < sizeof(decl) / sizeof(decl[0]); i++)
                keep = strncmp(line, decl[i], strlen(decl[i])) == 0;
        }
        if (keep) {
            memmove(w, line, len);
            w += len;
        }
        line += len;
    }
    *w = '\0';
}

/* The '}' that closes the '{' at open (string and character literals and comments skipped),
 * or NULL. */
static const char *close_of(const char *open)
{
    int depth = 0;
    for (const char *p = open; *p; p++) {
        if (*p == '"' || *p == '\'') {
            char q = *p;
            for (p++; *p && *p != q && *p != '\n'; p++)
                p += *p == '\\' && p[1];
            if (!*p)
                return NULL;
        } else if (p[0] == '/' && p[1] == '/') {
            while (p[1] && p[1] != '\n')
                p++;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            if (!e)
                return NULL;
            p = e + 1;
        } else if (*p == '{') {
            depth++;
        } else if (*p == '}' && --depth == 0) {
            return p;
        }
    }
    return NULL;
}

/* The start of the first line of s that declares MultiPL-E's class Problem (Java, C#) or
 * object Problem (Scala), `public` or not, or NULL. */
static const char *problem_class(const char *s)
{
    for (const char *line = s; *line;) {
        const char *t = line;
        while (*t == ' ' || *t == '\t')
            t++;
        if (strncmp(t, "public ", 7) == 0)
            t += 7;
        if ((strncmp(t, "class Problem", 13) == 0 || strncmp(t, "object Problem", 14) == 0) &&
            !ident(t[*t == 'c' ? 13 : 14]))
            return line;
        const char *nl = strchr(line, '\n');
        line = nl ? nl + 1 : line + strlen(line);
    }
    return NULL;
}

/* A whole Java, C# or Scala answer that brings the class Problem the prompt opens: the
 * prompt's text before its class header (imports), the answer's text before its class (its
 * own imports), the declarations that follow the answer's class (helper classes; its
 * top-level statements dropped), the prompt's header, then the class's body. What follows the
 * class goes before it, never after the tests: a graded harness's tests are the problem's
 * alone (server/judge/graded.h), and the languages take their classes in any order. NULL
 * (nothing to unwrap) when either has no such class. */
static char *unwrap_problem(const char *prefix, const char *code)
{
    const char *ph = problem_class(prefix), *ch = problem_class(code);
    const char *open = ch ? strchr(ch, '{') : NULL, *close = open ? close_of(open) : NULL;
    if (!ph || !close)
        return NULL;
    char *trailing = strdup(close + 1), *out = NULL;
    if (!trailing)
        return NULL;
    keep_declarations(trailing);
    if (asprintf(&out, "%.*s%.*s%s%s%s\n%.*s", (int)(ph - prefix), prefix, (int)(ch - code), code,
                 trailing, *skip_space(trailing) ? "\n" : "", ph, (int)(close - open - 1),
                 open + 1) < 0)
        out = NULL;
    free(trailing);
    return out;
}

/* A whole answer after a preamble that already opened what the answer opens again: PHP's
 * `<?php` (and a closing `?>` line, which would turn the tests into text) and Racket's `#lang`
 * line go. */
static void drop_reopening(const char *lang, const char *prefix, char *code)
{
    bool php = strcmp(lang, "php") == 0 && strstr(prefix, "<?php");
    bool rkt = strcmp(lang, "racket") == 0 && strstr(prefix, "#lang");
    if (!php && !rkt)
        return;
    /* One pass, reading at r and writing at w <= r (a memmove of the rest for each tag was
     * quadratic in a completion of many); a line's end is found once a line. */
    char *w = code, *end = code;
    for (char *r = code; *r;) {
        char *t = r;
        while (*t == ' ' || *t == '\t')
            t++;
        if (r >= end) {
            char *nl = strchr(r, '\n');
            end = nl ? nl + 1 : r + strlen(r);
        }
        if (php && strncmp(t, "<?php", 5) == 0) {
            r = t + 5; /* the rest of the line, looked at again */
            continue;
        }
        const char *q = t;
        if (php && strncmp(t, "?>", 2) == 0)
            q = skip_space(t + 2);
        if (!((php && q != t && (*q == '\0' || q >= end)) ||
              (rkt && strncmp(t, "#lang", 5) == 0))) {
            memmove(w, r, (size_t)(end - r)); /* the line kept */
            w += end - r;
        }
        r = end;
    }
    *w = '\0';
}

bool harness_accepts(const struct json *p, const char *language)
{
    char base[32], pbase[32];
    if (!language || !*language || strcmp(str_of(p, "kind"), "stdio") == 0)
        return true;
    base_language(language, base, sizeof(base));
    base_language(str_of(p, "language"), pbase, sizeof(pbase));
    return strcmp(base, pbase) == 0;
}

/* The code taken from the completion: extracted (and post-processed for a harness problem)
 * or as given, cut at the problem's stops. Returns 0 or -ENOMEM. */
static int take_code(const struct json *p, const char *completion, const char *base, bool stdio,
                     enum harness_take take, struct harness *h)
{
    if (take == HARNESS_EXTRACT) {
        struct extracted ex;
        if (extract_code(completion, strlen(completion), base, &ex) < 0)
            return -ENOMEM;
        h->extracted_type = extract_kind_name(ex.kind);
        h->code = ex.code;
        if (!stdio) {
            extract_postprocess(base, h->code);
            drop_own_functions(base, str_of(p, "after"), h->code);
        }
    } else {
        h->code = stdio ? strdup(completion) : cut_at_stop(p, completion, take == HARNESS_CONTINUE);
    }
    return h->code ? 0 : -ENOMEM;
}

/* A stdin/stdout problem: the code against the problem's tests and comparison. */
static void build_stdio(const struct json *p, struct harness *h)
{
    struct json *r = h->request;
    h->program = strdup(h->code);
    json_set_str(r, "code", h->code);
    struct json *tests = json_set(r, "tests", json_array());
    for (const struct json *t = json_first(json_get(p, "tests")); t; t = json_next(t)) {
        struct json *o = json_push(tests, json_object());
        json_set_str(o, "stdin", str_of(t, "stdin"));
        json_set_str(o, "expected", str_of(t, "expected"));
    }
    if (json_get(p, "compare"))
        json_set(r, "compare", json_dup(json_get(p, "compare")));
}

/* A harness problem: preamble + code (a whole definition) or before + code (a continuation),
 * then the tests. */
static void build_harness(const struct json *p, const char *lang, const char *base,
                          struct harness *h)
{
    struct json *r = h->request;
    bool whole = harness_defines(lang, h->code, str_of(p, "entry_point"));
    const char *prefix = str_of(p, whole ? "preamble" : "before");
    const char *after = str_of(p, "after");
    /* Tests that start by closing the prompt's open function (MultiPL-E) lose that brace
     * when the completion brought a whole function of its own. */
    if (whole && *skip_space(after) == '}')
        after = skip_space(after) + 1;
    /* bash's grader runs the tests apart from the code: a continuation keeps that brace */
    bool brace_to_code = !whole && strcmp(base, "bash") == 0 && *skip_space(after) == '}';
    if (brace_to_code)
        after = skip_space(after) + 1;
    char *own = whole && strcmp(base, "rust") == 0 ? rust_module(h->code) : NULL;
    if (whole)
        drop_reopening(base, prefix, h->code);
    char *code = NULL;
    if (whole &&
        (strcmp(base, "java") == 0 || strcmp(base, "csharp") == 0 || strcmp(base, "scala") == 0))
        code = unwrap_problem(prefix, h->code);
    if (!code && asprintf(&code, "%s%s%s%s", prefix, whole && *prefix ? "\n" : "",
                          own ? own : h->code, brace_to_code ? "\n}\n" : "") < 0)
        code = NULL;
    free(own);
    if (code) {
        json_set_str(r, "code", code);
        json_set_str(r, "harness", after);
        /* with a grader, the tests call the entry point in the program (judge.h) */
        if (*str_of(p, "entry_point"))
            json_set_str(r, "entry_point", str_of(p, "entry_point"));
        /* Python's grader runs the prompt's own code for the tests, and calls the entry point
         * (and any other name the prompt does not define) in the program */
        if (strcmp(base, "python") == 0)
            json_set_str(r, "harness_setup", prefix);
        /* the compiled graders (C's, C++'s, Java's, C#'s, D's, Scala's, Go's, Rust's) take the
         * tests' setup and the entry point's declaration from the whole prompt, whichever way
         * the answer was joined (server/judge/graded.h) */
        if (strcmp(base, "c") == 0 || strcmp(base, "cpp") == 0 || strcmp(base, "java") == 0 ||
            strcmp(base, "csharp") == 0 || strcmp(base, "d_ut") == 0 ||
            strcmp(base, "scala") == 0 || strcmp(base, "go") == 0 || strcmp(base, "rust") == 0)
            json_set_str(r, "harness_setup", str_of(p, "before"));
        if (asprintf(&h->program, "%s\n%s", code, after) < 0)
            h->program = NULL;
        /* Go's joined program has one import block (as seal judges it in-process) */
        if (h->program && strcmp(base, "go") == 0) {
            char *fixed = goimports_fix(h->program);
            free(h->program);
            h->program = fixed;
        }
        free(code);
    }
}

int harness_build(const struct json *p, const char *completion, const char *language,
                  enum harness_take take, struct harness *h, char err[ERR_LEN])
{
    memset(h, 0, sizeof(*h));
    const char *kind = str_of(p, "kind"), *plang = str_of(p, "language");
    bool stdio = strcmp(kind, "stdio") == 0;
    const char *lang = language && *language ? language : plang;
    char base[32];
    base_language(lang, base, sizeof(base));
    if (!harness_accepts(p, language))
        return err_set(err, -EINVAL, "this problem's tests are %s: language must be %s", plang,
                       plang);
    if (!stdio)
        lang = plang;
    if (take_code(p, completion, base, stdio, take, h) < 0)
        return err_set(err, -ENOMEM, "out of memory");
    struct json *r = h->request = json_object();
    json_set_str(r, "language", lang);
    struct json *limits = json_set(r, "limits", json_object());
    double v;
    if (json_num(json_get(p, "time_ms"), &v))
        json_set_num(limits, "time_ms", v);
    if (json_num(json_get(p, "memory_mb"), &v))
        json_set_num(limits, "memory_mb", v);
    json_set_bool(r, "stop_on_failure", true);
    if (stdio)
        build_stdio(p, h);
    else
        build_harness(p, lang, base, h);
    if (!h->program || !h->request) {
        harness_fini(h);
        return err_set(err, -ENOMEM, "out of memory");
    }
    return 0;
}

void harness_fini(struct harness *h)
{
    json_free(h->request);
    free(h->code);
    free(h->program);
    memset(h, 0, sizeof(*h));
}
