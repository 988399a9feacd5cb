/*
 * fuzz_harness: extraction and harness assembly together (server/datasets/extract and harness),
 * as /submit runs them. The first byte picks how the code is taken (as given, extracted, a
 * continuation) and the language asked for (none, or one of ten); the second whether the
 * problem is a source record to normalise first (loader_record) or already a problem of the
 * loader's model. The rest is the problem's JSON, a NUL byte, and the completion.
 *
 * Invariants: extraction's (as fuzz_extract checks them); harness_build refuses exactly what
 * harness_accepts refuses, and is deterministic (built twice, the same program); a built harness
 * has a code, a program and a /v1/judge body naming a language and the code; the code is the
 * completion as given for a stdin/stdout problem, a prefix of it for a continuation, and what
 * extract_code finds when extracted for a stdin/stdout problem; a stdin/stdout program is its
 * code with the problem's tests, a harness program its code and the body's harness joined (Go:
 * their imports merged, goimports.h); request_parse then accepts the body or names what is wrong
 * with it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "server/datasets/extract.h"
#include "server/datasets/harness.h"
#include "server/datasets/loader.h"
#include "server/http/request.h"
#include "server/judge/goimports.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_langs();
    return 0;
}

static void check_extract(const char *completion, const char *lang)
{
    struct extracted e;
    size_t n = strlen(completion);
    FUZZ_CHECK(extract_code(completion, n, lang, &e) == 0);
    FUZZ_CHECK(e.code && e.len <= n + 1 && e.code[e.len] == '\0' && strlen(e.code) == e.len);
    FUZZ_CHECK(e.kind != EXTRACT_EMPTY || (e.len == 0 && e.language[0] == '\0'));
    size_t post = extract_postprocess(lang, e.code);
    FUZZ_CHECK(post <= e.len && e.code[post] == '\0');
    extracted_fini(&e);
}

/* What harness_build took as the code, checked against the completion. */
static void check_code(const struct json *p, const struct harness *h, const char *completion,
                       const char *base, enum harness_take take)
{
    const char *kind = json_get_str(p, "kind");
    bool stdio = kind && strcmp(kind, "stdio") == 0;
    FUZZ_CHECK((take == HARNESS_EXTRACT) == (h->extracted_type != NULL));
    if (take != HARNESS_EXTRACT) {
        /* a whole PHP or Racket answer loses the line that reopens its preamble's */
        bool reopens = strcmp(base, "php") == 0 || strcmp(base, "racket") == 0;
        size_t n = strlen(h->code);
        FUZZ_CHECK(stdio ? strcmp(h->code, completion) == 0
                         : reopens || strncmp(h->code, completion, n) == 0);
        return;
    }
    if (!stdio)
        return;
    struct extracted e;
    FUZZ_CHECK(extract_code(completion, strlen(completion), base, &e) == 0);
    FUZZ_CHECK(strcmp(e.code, h->code) == 0);
    extracted_fini(&e);
}

static void check_program(const struct json *p, const struct harness *h, const char *base)
{
    const char *code = json_get_str(h->request, "code"),
               *harness = json_get_str(h->request, "harness");
    const char *kind = json_get_str(p, "kind");
    FUZZ_CHECK(code && json_get_str(h->request, "language"));
    if (kind && strcmp(kind, "stdio") == 0) {
        FUZZ_CHECK(!harness && strcmp(h->program, h->code) == 0 && strcmp(code, h->code) == 0);
        FUZZ_CHECK(json_len(json_get(h->request, "tests")) == json_len(json_get(p, "tests")));
        return;
    }
    FUZZ_CHECK(harness != NULL);
    if (strcmp(base, "go") == 0) { /* the whole program: code and tests, imports merged */
        char *joined = NULL, *merged = NULL;
        FUZZ_CHECK(asprintf(&joined, "%s\n%s", code, harness) >= 0);
        merged = goimports_fix(joined);
        FUZZ_CHECK(merged && strcmp(h->program, merged) == 0);
        free(joined);
        free(merged);
        return;
    }
    size_t cl = strlen(code);
    FUZZ_CHECK(strncmp(h->program, code, cl) == 0 && h->program[cl] == '\n');
    FUZZ_CHECK(strcmp(h->program + cl + 1, harness) == 0);
}

static void build(const struct json *p, const char *completion, const char *lang,
                  enum harness_take take)
{
    struct harness h, again;
    char err[ERR_LEN];
    if (harness_build(p, completion, lang, take, &h, err) < 0) {
        FUZZ_CHECK(!harness_accepts(p, lang) && err[0]);
        return;
    }
    FUZZ_CHECK(harness_accepts(p, lang));
    FUZZ_CHECK(h.code && h.program && json_is_object(h.request));
    const char *plang = json_get_str(p, "language"), *used = lang && *lang ? lang : plang;
    char base[32]; /* the language without a test-runner suffix, as harness.c takes it */
    const char *u = used ? strstr(used, "_test") : NULL;
    snprintf(base, sizeof(base), "%.*s", (int)(u ? (size_t)(u - used) : strlen(used ? used : "")),
             used ? used : "");
    check_code(p, &h, completion, base, take);
    check_program(p, &h, base);
    FUZZ_CHECK(harness_build(p, completion, lang, take, &again, err) == 0);
    FUZZ_CHECK(strcmp(again.program, h.program) == 0 && strcmp(again.code, h.code) == 0);
    harness_fini(&again);
    struct judge_request *r = NULL;
    struct request_error e;
    if (request_parse(fuzz_langs(), h.request, REQUEST_JUDGE, &r, &e) == 0) {
        FUZZ_CHECK(strcmp(r->code, json_get_str(h.request, "code")) == 0);
        judge_request_free(r);
    } else {
        FUZZ_CHECK(r == NULL && e.type[0] && e.msg[0]);
    }
    harness_fini(&h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const langs[] = {NULL,        "python", "cpp",    "go",    "go_test", "rust",
                                        "rust_test", "java",   "csharp", "scala", "lua"};
    if (size < 2)
        return 0;
    enum harness_take take = (enum harness_take)(data[0] % 3);
    const char *lang = langs[(data[0] / 3) % (sizeof(langs) / sizeof(langs[0]))];
    const uint8_t *rest = data + 2, *end = data + size;
    const uint8_t *z = memchr(rest, '\0', (size_t)(end - rest));
    char *problem = fuzz_text(rest, (size_t)((z ? z : end) - rest));
    char *completion = z ? fuzz_text(z + 1, (size_t)(end - z - 1)) : fuzz_text(rest, 0);
    struct json *p = json_parse(problem);
    check_extract(completion, lang);
    if (p && (data[1] & 1)) {
        struct json *norm = NULL;
        char err[ERR_LEN];
        if (loader_record(p, NULL, &norm, err) == 0)
            fuzz_check_problem(norm);
        json_free(p);
        p = norm;
    }
    if (json_is_object(p))
        build(p, completion, lang, take);
    json_free(p);
    free(problem);
    free(completion);
    return 0;
}
