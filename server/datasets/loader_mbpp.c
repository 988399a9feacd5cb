/*
 * loader_mbpp: MBPP rows, full (text, test_setup_code) and sanitized (prompt, test_imports),
 * as Python harness problems: the prompt shows the asserts, the program is the imports, the
 * completion, the setup code and the asserts; the entry point is the function the first
 * assert calls.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/datasets/loader_impl.h"

static char *join_list(const struct loader_ctx *c, const struct json *r, const char *field, int *rc)
{
    const struct json *l = json_get(r, field);
    size_t n = 0;
    if (!json_is_array(l)) {
        *rc = loader_bad(c, field, l ? "must be a list of strings" : "missing");
        return NULL;
    }
    for (const struct json *e = json_first(l); e; e = json_next(e)) {
        const char *s;
        if (!json_str(e, &s)) {
            *rc = loader_bad(c, field, "must be a list of strings");
            return NULL;
        }
        n += strlen(s) + 1;
    }
    char *out = malloc(n + 1), *w = out;
    if (!out) {
        *rc = -ENOMEM;
        return NULL;
    }
    for (const struct json *e = json_first(l); e; e = json_next(e)) {
        const char *s;
        json_str(e, &s);
        w = stpcpy(stpcpy(w, s), "\n");
    }
    *w = '\0';
    return out;
}

/* Whether code defines name at its top level ("def name(" at the start of a line). */
static bool defines(const char *code, const char *name, size_t n)
{
    for (const char *p = strstr(code, "def "); p; p = strstr(p + 1, "def ")) {
        const char *q = p + 4;
        while (*q == ' ')
            q++;
        if ((p == code || p[-1] == '\n') && strncmp(q, name, n) == 0 && q[n] == '(')
            return true;
    }
    return false;
}

/* The function the tests check: the first name called in them that the reference solution
 * defines ("assert set(similar_elements(" -> similar_elements, not the builtin set), else the
 * first name the first assert calls. */
static void entry_from_asserts(const char *tests, const char *code, char *out, size_t cap)
{
    out[0] = '\0';
    for (const char *w = tests; *w; w++) {
        if (*w != '(' || w == tests || !(isalnum((unsigned char)w[-1]) || w[-1] == '_'))
            continue;
        const char *s = w;
        while (s > tests && (isalnum((unsigned char)s[-1]) || s[-1] == '_'))
            s--;
        if (defines(code, s, (size_t)(w - s))) {
            snprintf(out, cap, "%.*s", (int)(w - s), s);
            return;
        }
    }
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

static int norm_mbpp(const struct loader_ctx *c, const struct json *r, bool sanitized,
                     struct json **out)
{
    char id[32], entry[128];
    const char *text, *code, *setup = "";
    int rc = 0;
    if (loader_need_id(c, r, "task_id", id, sizeof(id)) ||
        loader_need_str(c, r, sanitized ? "prompt" : "text", &text) ||
        loader_need_str(c, r, "code", &code) ||
        (!sanitized && loader_need_str(c, r, "test_setup_code", &setup)))
        return -EINVAL;
    char *tests = join_list(c, r, "test_list", &rc);
    char *imports = sanitized ? join_list(c, r, "test_imports", &rc) : strdup("");
    if (!tests || !imports) {
        free(tests);
        free(imports);
        return rc ? rc : -ENOMEM;
    }
    entry_from_asserts(tests, code, entry, sizeof(entry));
    char *prompt = NULL;
    if (asprintf(&prompt, "%s\nYour code should pass these tests:\n\n%s", text, tests) < 0)
        prompt = NULL;
    struct json *p =
        loader_new_problem(id, prompt ? prompt : "", "python", entry, "harness", 5000, 512);
    free(prompt);
    /* The code comes before test_setup_code: its setup uses classes the solution defines. */
    rc = loader_set_harness(p, strdup(imports), strdup(imports),
                            loader_cat("\n", setup, *setup ? "\n" : "", tests));
    loader_set_solution(p, "python", code);
    const struct json *ch = json_get(r, "challenge_test_list");
    if (json_first(ch) && json_is_array(ch))
        json_set(json_child(p, "labels"), "challenge_test_list", json_dup(ch));
    free(tests);
    free(imports);
    *out = p;
    return rc;
}

int loader_norm_mbpp_full(const struct loader_ctx *c, const struct json *r, struct json **out)
{
    return norm_mbpp(c, r, false, out);
}

int loader_norm_mbpp_sanitized(const struct loader_ctx *c, const struct json *r, struct json **out)
{
    return norm_mbpp(c, r, true, out);
}
