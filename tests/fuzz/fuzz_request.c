/*
 * fuzz_request: the request parsers of every route on arbitrary bytes. The first byte picks the
 * route (/run_code, /v1/judge, /v1/judge/batch, /submit, /get_prompts, /run_jupyter, /list_ids,
 * /get_prompt_by_id); the rest is the body, taken as the server takes it (api_read_body): the
 * raw-text check (request_check_text), json_parse, then the route's parser (request_parse,
 * request_batch_items and request_parse per item, request_parse_jupyter, query_parse; /submit
 * then builds the harness and parses its request, as submit_route does).
 *
 * Invariants: a refused body leaves no request and an error with a type, a path of at most four
 * parts and a message, which renders as JSON; an accepted one has an available language, a code,
 * 1..JUDGE_MAX_TESTS tests, files and fetch paths within their bounds (safe work-dir paths,
 * fetch paths distinct), limits within request.h's ranges, a known comparison mode with finite
 * epsilons >= 0, a checker only in checker mode, and the shape's own fields (/run_code: one
 * plain run, its timeouts and backstop; /run_jupyter: the cells back out of the driver's stdin);
 * /get_prompts' window is within QUERY_MAX_WINDOW, provided rows are problems of loader.h's
 * model.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "server/datasets/harness.h"
#include "server/http/query.h"
#include "server/http/request.h"

enum route { RUN_CODE, JUDGE, BATCH, SUBMIT, PROMPTS, JUPYTER, IDS, PROMPT, NROUTES };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_langs();
    return 0;
}

static void check_error(const struct request_error *e)
{
    FUZZ_CHECK(e->nloc >= 0 && e->nloc <= 4 && e->type[0] && e->msg[0]);
    FUZZ_CHECK(memchr(e->type, '\0', sizeof(e->type)) && memchr(e->msg, '\0', sizeof(e->msg)));
    for (int i = 0; i < e->nloc; i++)
        FUZZ_CHECK(memchr(e->loc[i], '\0', sizeof(e->loc[i])) != NULL);
    struct json *j = request_error_json(e, "body");
    char *text = json_render(j, false);
    FUZZ_CHECK(text != NULL);
    free(text);
    json_free(j);
}

static void check_bytes(const uint8_t *p, size_t len)
{
    FUZZ_CHECK(p ? strlen((const char *)p) == len : len == 0);
}

static void check_files(const struct judge_request *r)
{
    FUZZ_CHECK(r->nfiles >= 0 && r->nfiles <= JUDGE_MAX_FILES);
    for (int i = 0; i < r->nfiles; i++)
        FUZZ_CHECK(job_path_ok(r->files[i].path) && strcmp(r->files[i].path, r->lang->source));
    FUZZ_CHECK(r->nfetch >= 0 && r->nfetch <= JUDGE_MAX_FETCH);
    for (int i = 0; i < r->nfetch; i++) {
        FUZZ_CHECK(job_path_ok(r->fetch[i]));
        for (int k = 0; k < i; k++)
            FUZZ_CHECK(strcmp(r->fetch[i], r->fetch[k]) != 0);
    }
}

static void check_compare(const struct judge_request *r)
{
    FUZZ_CHECK(strcmp(cmp_mode_name(r->cmp.mode), "?") != 0);
    FUZZ_CHECK(isfinite(r->cmp.abs_eps) && r->cmp.abs_eps >= 0);
    FUZZ_CHECK(isfinite(r->cmp.rel_eps) && r->cmp.rel_eps >= 0);
    if (r->cmp.mode != CMP_CHECKER) {
        FUZZ_CHECK(!r->checker_lang && !r->checker_code && r->nchecker_files == 0);
        return;
    }
    FUZZ_CHECK(!r->harness && r->checker_lang && r->checker_lang->available);
    FUZZ_CHECK(!r->checker_lang->needs_gpu && r->checker_code);
    FUZZ_CHECK(strlen(r->checker_code) == r->checker_len);
    FUZZ_CHECK(r->nchecker_files >= 0 && r->nchecker_files <= JUDGE_MAX_CHECKER_FILES);
    size_t total = 0;
    for (int i = 0; i < r->nchecker_files; i++) {
        FUZZ_CHECK(job_path_ok(r->checker_files[i].path));
        total += r->checker_files[i].len;
    }
    FUZZ_CHECK(total <= JUDGE_CHECKER_FILES_MAX);
}

/* An identifier of 1..128 ASCII letters, digits and underscores, not starting with a digit. */
static bool ident_ok(const char *s)
{
    size_t n = strlen(s);
    return n >= 1 && n <= 128 && !(s[0] >= '0' && s[0] <= '9') &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

static void check_judge_limits(const struct job_limits *l)
{
    FUZZ_CHECK(l->cpu_ms >= 0 && l->cpu_ms <= REQUEST_MAX_TIME_MS);
    FUZZ_CHECK(l->wall_ms >= 0 && l->wall_ms <= REQUEST_MAX_WALL_MS);
    FUZZ_CHECK(l->memory_bytes <= (uint64_t)REQUEST_MAX_MEMORY_MB << 20);
    FUZZ_CHECK(l->memory_bytes % (1u << 20) == 0);
    FUZZ_CHECK(l->instructions <= (uint64_t)REQUEST_MAX_INSTRUCTIONS);
}

static void check_request(const struct judge_request *r, enum request_shape shape)
{
    FUZZ_CHECK(r->lang && r->lang->available && r->code);
    FUZZ_CHECK(r->ntests >= 1 && r->ntests <= JUDGE_MAX_TESTS && r->tests && r->selected);
    check_files(r);
    for (int i = 0; i < r->ntests; i++) {
        check_bytes(r->tests[i].in, r->tests[i].in_len);
        check_bytes(r->tests[i].want, r->tests[i].want_len);
        FUZZ_CHECK(r->run_only || r->harness ? !r->tests[i].want : r->tests[i].want != NULL);
    }
    if (shape == REQUEST_RUN_CODE) {
        const struct job_limits *l = &r->limits;
        FUZZ_CHECK(r->run_only && r->ntests == 1 && r->selected[0] && !r->harness);
        FUZZ_CHECK(l->cpu_ms >= 1 && l->cpu_ms <= REQUEST_MAX_TIMEOUT_S * 1000);
        FUZZ_CHECK(l->wall_ms == l->cpu_ms &&
                   l->backstop_ms == l->cpu_ms + REQUEST_RUN_BACKSTOP_MS);
        FUZZ_CHECK(r->compile_limits.cpu_ms >= 1 &&
                   r->compile_limits.cpu_ms <= REQUEST_MAX_TIMEOUT_S * 1000);
        FUZZ_CHECK(l->memory_bytes <= (uint64_t)REQUEST_MAX_MEMORY_MB << 20);
        return;
    }
    FUZZ_CHECK(!r->run_only);
    if (r->harness)
        FUZZ_CHECK(r->ntests == 1 && (!r->entry_point || ident_ok(r->entry_point)));
    else
        FUZZ_CHECK(!r->harness_setup && !r->entry_point);
    check_compare(r);
    check_judge_limits(&r->limits);
}

static void parse_judge(const struct json *body, enum request_shape shape)
{
    static struct judge_request unset;
    struct judge_request *r = &unset;
    struct request_error e;
    if (request_parse(fuzz_langs(), body, shape, &r, &e) < 0) {
        FUZZ_CHECK(r == NULL);
        check_error(&e);
        return;
    }
    check_request(r, shape);
    judge_request_free(r);
}

static void parse_batch(const struct json *body)
{
    const struct json *items;
    struct request_error e;
    int n = request_batch_items(body, &items, &e);
    if (n < 0) {
        check_error(&e);
        return;
    }
    FUZZ_CHECK(n >= 1 && n <= REQUEST_MAX_BATCH && json_len(items) == n);
    for (const struct json *it = json_first(items); it; it = json_next(it))
        parse_judge(it, REQUEST_JUDGE);
}

static void parse_jupyter(const struct json *body)
{
    struct jupyter_request j;
    struct request_error e;
    if (request_parse_jupyter(fuzz_langs(), body, &j, &e) < 0) {
        FUZZ_CHECK(j.run == NULL);
        check_error(&e);
        return;
    }
    const struct judge_request *r = j.run;
    FUZZ_CHECK(r && r->run_only && r->ntests == 1 && r->tests[0].in);
    FUZZ_CHECK(j.ncells >= 0 && j.ncells <= REQUEST_MAX_CELLS);
    FUZZ_CHECK(j.cell_timeout_s >= 0 && j.cell_timeout_s <= REQUEST_MAX_TIMEOUT_S);
    FUZZ_CHECK(j.total_timeout_s > 0 && j.total_timeout_s <= REQUEST_MAX_TIMEOUT_S);
    FUZZ_CHECK(j.memory_mb == 0 || (j.memory_mb >= 16 && j.memory_mb <= REQUEST_MAX_MEMORY_MB));
    FUZZ_CHECK(r->nfetch >= 3); /* the driver's own files first */
    check_files(r);
    struct json *input = json_parse((const char *)r->tests[0].in);
    FUZZ_CHECK(json_len(json_get(input, "cells")) == j.ncells);
    json_free(input);
    jupyter_request_fini(&j);
}

/* /submit past its body: the problem's harness and its request, as submit_route builds them. */
static void submit(const struct query *q)
{
    const struct json *p = json_first(q->provided);
    bool continues = false;
    json_bool(json_get(p, "continues"), &continues);
    bool freeform = q->freeform < 0 ? !continues : q->freeform == 1;
    struct harness h;
    char err[ERR_LEN];
    if (harness_build(p, q->completion, q->language, freeform ? HARNESS_EXTRACT : HARNESS_CONTINUE,
                      &h, err) < 0)
        return;
    FUZZ_CHECK(h.code && h.program && json_is_object(h.request));
    if (!freeform || *h.code)
        parse_judge(h.request, REQUEST_JUDGE);
    harness_fini(&h);
}

static void parse_query(const struct json *body, enum query_route route)
{
    struct query q;
    struct request_error e;
    int rc = query_parse(body, route, &q, &e);
    if (rc == -EINVAL)
        check_error(&e);
    if (rc == -EBADMSG)
        FUZZ_CHECK(q.detail[0] && memchr(q.detail, '\0', sizeof(q.detail)));
    if (rc < 0) {
        FUZZ_CHECK(rc == -EINVAL || rc == -EBADMSG || rc == -ENOMEM);
        FUZZ_CHECK(q.provided == NULL);
        return;
    }
    FUZZ_CHECK(q.dataset != NULL);
    FUZZ_CHECK(!q.has_id || memchr(q.id, '\0', sizeof(q.id)));
    FUZZ_CHECK(q.first >= 0 && q.first <= QUERY_MAX_WINDOW);
    FUZZ_CHECK(q.count >= -1 && q.count <= QUERY_MAX_WINDOW);
    FUZZ_CHECK(q.freeform >= -1 && q.freeform <= 1);
    FUZZ_CHECK(route != QUERY_SUBMIT || q.completion);
    for (const struct json *p = json_first(q.provided); p; p = json_next(p))
        fuzz_check_problem(p);
    if (q.provided && (route == QUERY_PROMPT || route == QUERY_SUBMIT))
        FUZZ_CHECK(json_len(q.provided) == 1);
    if (route == QUERY_SUBMIT && q.provided)
        submit(&q);
    query_fini(&q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    enum route route = (enum route)(data[0] % NROUTES);
    const char *text = (const char *)data + 1;
    struct request_error e;
    if (request_check_text(text, size - 1, &e) < 0) {
        check_error(&e);
        return 0;
    }
    FUZZ_CHECK(!memchr(text, '\0', size - 1));
    char *s = fuzz_text(data + 1, size - 1);
    struct json *body = json_parse(s);
    free(s);
    if (!body)
        return 0;
    static const enum query_route queries[] = {[SUBMIT] = QUERY_SUBMIT,
                                               [PROMPTS] = QUERY_PROMPTS,
                                               [IDS] = QUERY_IDS,
                                               [PROMPT] = QUERY_PROMPT};
    if (route == RUN_CODE || route == JUDGE)
        parse_judge(body, route == RUN_CODE ? REQUEST_RUN_CODE : REQUEST_JUDGE);
    else if (route == BATCH)
        parse_batch(body);
    else if (route == JUPYTER)
        parse_jupyter(body);
    else
        parse_query(body, queries[route]);
    json_free(body);
    return 0;
}
