/* Unit tests for server/http/request (the one parser of judging requests) and the parts of
 * server/judge/judge that need no sandbox: the bounds every route shares (files, fetch paths,
 * NUL in strings), harness joining with repeated placeholders, a grader's fields, and how a
 * request is decided (judge_grading_of).
 * Argument: the languages directory. */
#include "server/http/request.h"
#include "server/judge/judge_internal.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static struct lang_set *langs;

/* Parses text as a body of the shape; returns request_parse's code. */
static int parse(const char *text, enum request_shape shape, struct judge_request **r,
                 struct request_error *e)
{
    struct json *body = json_parse(text);
    if (!body)
        return -999;
    int rc = request_parse(langs, body, shape, r, e);
    json_free(body);
    return rc;
}

/* A /v1/judge body with n files and the given fetch_files list (JSON). */
static char *judge_body(int nfiles, const char *fetch)
{
    size_t cap = (size_t)nfiles * 32 + strlen(fetch) + 256, o = 0;
    char *s = malloc(cap);
    o += (size_t)snprintf(s + o, cap - o,
                          "{\"language\":\"python\",\"code\":\"print(1)\","
                          "\"tests\":[{\"expected\":\"1\"}],\"fetch_files\":%s,\"files\":{",
                          fetch);
    for (int i = 0; i < nfiles; i++)
        o += (size_t)snprintf(s + o, cap - o, "%s\"f%d.txt\":\"eA==\"", i ? "," : "", i);
    snprintf(s + o, cap - o, "}}");
    return s;
}

/* 65 files crashed /v1/judge (a 65-slot array, `>` for `>=`): every count up to the bound is
 * taken, one more is a 422 naming files. */
static void test_file_bound(void)
{
    struct judge_request *r = NULL;
    struct request_error e;
    int counts[] = {64, 65, JUDGE_MAX_FILES};
    for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
        char *b = judge_body(counts[i], "[]");
        ASSERT_INT_EQ(parse(b, REQUEST_JUDGE, &r, &e), 0);
        free(b);
        ASSERT_INT_EQ(r->nfiles, counts[i]);
        judge_request_free(r);
    }
    char *b = judge_body(JUDGE_MAX_FILES + 1, "[]");
    ASSERT_INT_EQ(parse(b, REQUEST_JUDGE, &r, &e), -EINVAL);
    free(b);
    ASSERT_TRUE(r == NULL);
    ASSERT_STR_EQ(e.loc[0], "files");
    ASSERT_STR_EQ(e.type, "too_long");
}

/* One 16 MiB file listed 256 times made the cell allocate 4 GiB: paths are deduplicated, and
 * more than JUDGE_MAX_FETCH distinct ones are refused. */
static void test_fetch_bound(void)
{
    struct judge_request *r = NULL;
    struct request_error e;
    size_t cap = 256 * 16 + 16, o = 0;
    char *list = malloc(cap);
    o += (size_t)snprintf(list + o, cap - o, "[");
    for (int i = 0; i < 256; i++)
        o += (size_t)snprintf(list + o, cap - o, "%s\"big.bin\"", i ? "," : "");
    snprintf(list + o, cap - o, "]");
    char *b = judge_body(0, list);
    ASSERT_INT_EQ(parse(b, REQUEST_JUDGE, &r, &e), 0);
    ASSERT_INT_EQ(r->nfetch, 1);
    judge_request_free(r);
    free(b);
    o = (size_t)snprintf(list, cap, "[");
    for (int i = 0; i <= JUDGE_MAX_FETCH; i++)
        o += (size_t)snprintf(list + o, cap - o, "%s\"f%d\"", i ? "," : "", i);
    snprintf(list + o, cap - o, "]");
    b = judge_body(0, list);
    ASSERT_INT_EQ(parse(b, REQUEST_JUDGE, &r, &e), -EINVAL);
    ASSERT_STR_EQ(e.loc[0], "fetch_files");
    free(b);
    free(list);
}

/* "a\u0000b" reached the program as "a": a NUL anywhere in a string is refused, naming the
 * member it is in; an escaped backslash before u0000 is not a NUL. */
static void test_nul(void)
{
    struct request_error e;
    const char *bad = "{\"code\": \"x\", \"stdin\": \"a\\u0000b\"}";
    ASSERT_INT_EQ(request_check_text(bad, strlen(bad), &e), -EINVAL);
    ASSERT_STR_EQ(e.loc[0], "stdin");
    const char *key = "{\"files\": {\"a\\u0000\": \"\"}}";
    ASSERT_INT_EQ(request_check_text(key, strlen(key), &e), -EINVAL);
    const char *raw = "{\"code\": \"x\"}\0trailing";
    ASSERT_INT_EQ(request_check_text(raw, 22, &e), -EINVAL);
    ASSERT_STR_EQ(e.type, "json_invalid");
    const char *fine = "{\"code\": \"print('\\\\u0000')\", \"stdin\": \"\\u00001\"}";
    ASSERT_INT_EQ(request_check_text(fine, strlen(fine), &e), -EINVAL); /* the stdin one */
    ASSERT_STR_EQ(e.loc[0], "stdin");
    const char *ok = "{\"code\": \"print('\\\\u0000')\"}";
    ASSERT_INT_EQ(request_check_text(ok, strlen(ok), &e), 0);
}

/* /run_code's shape: the defaults and SandboxFusion's quirks, one request model. */
static void test_run_code_shape(void)
{
    struct judge_request *r = NULL;
    struct request_error e;
    ASSERT_INT_EQ(
        parse("{\"code\": \"print(1)\", \"stdin\": \"5\", \"run_timeout\": 2.5, "
              "\"files\": {\"IGNORE_THIS_FILE\": \"eA==\", \"n\": null, \"d\": \"eA==\"}, "
              "\"fetch_files\": [\"/etc/passwd\", \"out\", \"out\"]}",
              REQUEST_RUN_CODE, &r, &e),
        0);
    ASSERT_STR_EQ(r->lang->name, "python");
    ASSERT_TRUE(r->run_only);
    ASSERT_INT_EQ(r->ntests, 1);
    ASSERT_INT_EQ(r->tests[0].in_len, 1);
    ASSERT_INT_EQ(r->limits.cpu_ms, 2500);
    ASSERT_INT_EQ(r->compile_limits.cpu_ms, 10000);
    ASSERT_INT_EQ(r->compile_limits.wall_ms, 0); /* program's backstop */
    ASSERT_INT_EQ(r->nfiles, 1);
    ASSERT_INT_EQ(r->nfetch, 1);
    judge_request_free(r);
    ASSERT_INT_EQ(parse("{\"language\": \"python\"}", REQUEST_RUN_CODE, &r, &e), -EINVAL);
    ASSERT_STR_EQ(e.loc[0], "code");
    ASSERT_INT_EQ(parse("{\"code\": \"x\", \"run_timeout\": 301}", REQUEST_RUN_CODE, &r, &e),
                  -EINVAL);
    ASSERT_STR_EQ(e.loc[0], "run_timeout");
}

/* /run_jupyter: the driver's python run, the cells and options its stdin, the driver's own
 * files fetched, total_timeout as CPU and wall limits, the bounds. */
static int parse_jupyter(const char *text, struct jupyter_request *j, struct request_error *e)
{
    struct json *body = json_parse(text);
    if (!body)
        return -999;
    int rc = request_parse_jupyter(langs, body, j, e);
    json_free(body);
    return rc;
}

static void test_jupyter_shape(void)
{
    struct jupyter_request j;
    struct request_error e;
    ASSERT_INT_EQ(parse_jupyter("{\"cells\": [\"x = 1\", \"x\"], \"cell_timeout\": 2, "
                                "\"memory_limit_MB\": 256, \"files\": {\"d\": \"eA==\", \"n\": "
                                "null}, \"fetch_files\": [\"out\"]}",
                                &j, &e),
                  0);
    struct judge_request *r = j.run;
    ASSERT_STR_EQ(r->lang->name, "python");
    ASSERT_TRUE(r->run_only);
    ASSERT_INT_EQ(j.ncells, 2);
    ASSERT_TRUE(strncmp(r->code, "# verdict's notebook driver", 27) == 0);
    ASSERT_INT_EQ(r->limits.cpu_ms, 45000 + JUPYTER_STARTUP_MS);
    ASSERT_INT_EQ(r->limits.wall_ms, 45000 + JUPYTER_STARTUP_MS);
    ASSERT_INT_EQ(r->limits.memory_bytes, 256ull << 20);
    ASSERT_INT_EQ(r->nfiles, 1);
    ASSERT_INT_EQ(r->nfetch, 4);                 /* out and the driver's three */
    ASSERT_STR_EQ(r->fetch[0], JUPYTER_RESULTS); /* the driver's files first */
    ASSERT_STR_EQ(r->fetch[3], "out");
    struct json *in = json_parse((const char *)r->tests[0].in);
    ASSERT_INT_EQ(json_len(json_get(in, "cells")), 2);
    double t;
    ASSERT_TRUE(json_num(json_get(in, "cell_timeout"), &t) && t == 2);
    bool stop = false;
    ASSERT_TRUE(json_bool(json_get(in, "stop_on_error"), &stop) && stop);
    json_free(in);
    jupyter_request_fini(&j);
    static const char *const bad[][2] = {
        {"{}", "cells"},
        {"{\"cells\": [\"a\", 1]}", "cells"},
        {"{\"cells\": [], \"total_timeout\": 0}", "total_timeout"},
        {"{\"cells\": [], \"cell_timeout\": -0.5}", "cell_timeout"},
        {"{\"cells\": [], \"memory_limit_MB\": 0}", "memory_limit_MB"},
        {"{\"cells\": [], \"kernel\": \"ir\"}", "kernel"},
        {"{\"cells\": [], \"files\": {\".verdict_jupyter/x\": \"eA==\"}}", "files"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ASSERT_INT_EQ(parse_jupyter(bad[i][0], &j, &e), -EINVAL);
        ASSERT_TRUE(j.run == NULL);
        ASSERT_STR_EQ(e.loc[0], bad[i][1]);
    }
}

/* A template repeating a placeholder overflowed its buffer (sized for one of each). */
static void test_join_repeated(void)
{
    char code[4096];
    memset(code, 'c', sizeof(code) - 1);
    code[sizeof(code) - 1] = '\0';
    char *s = judge_join_harness("{code}{code}{code}|{tests}{tests}|{marker}", code, "TT");
    ASSERT_TRUE(s != NULL);
    ASSERT_UINT_EQ(strlen(s), 3 * 4095 + 1 + 4 + 1 + 8);
    ASSERT_TRUE(strstr(s, "|TTTT|{marker}") != NULL); /* not a placeholder */
    free(s);
}

/* A grader's setup and entry point: strings and a name, and only with a harness. */
static void test_grader_fields(void)
{
    struct judge_request *r = NULL;
    struct request_error e;
    ASSERT_INT_EQ(parse("{\"language\": \"python\", \"code\": \"def f(): return 1\", "
                        "\"harness\": \"assert f() == g()\", \"harness_setup\": "
                        "\"def g(): return 1\", \"entry_point\": \"f\"}",
                        REQUEST_JUDGE, &r, &e),
                  0);
    ASSERT_STR_EQ(r->harness_setup, "def g(): return 1");
    ASSERT_STR_EQ(r->entry_point, "f");
    judge_request_free(r);
    static const char *const bad[][2] = {
        {"{\"language\": \"python\", \"code\": \"x\", \"harness\": \"y\", "
         "\"entry_point\": \"f()\"}",
         "entry_point"},
        {"{\"language\": \"python\", \"code\": \"x\", \"harness\": \"y\", "
         "\"entry_point\": \"9f\"}",
         "entry_point"},
        {"{\"language\": \"python\", \"code\": \"x\", \"harness\": \"y\", "
         "\"harness_setup\": 3}",
         "harness_setup"},
        {"{\"language\": \"python\", \"code\": \"x\", \"tests\": [], "
         "\"harness_setup\": \"z\"}",
         "harness_setup"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        r = NULL;
        ASSERT_TRUE(parse(bad[i][0], REQUEST_JUDGE, &r, &e) < 0);
        ASSERT_STR_EQ(e.loc[0], bad[i][1]);
        judge_request_free(r);
    }
}

/* How a request is decided: by its harness, its entry point and the language (a grader, a
 * compiled one only with an entry point; seal's rule; neither), else by output; run_only by
 * nothing. The names round-trip. */
static void test_grading(void)
{
    enum {
        I = JUDGE_GRADING_ISOLATED,
        O = JUDGE_GRADING_OUTPUT,
        P = JUDGE_GRADING_IN_PROCESS,
        X = JUDGE_GRADING_EXIT_STATUS
    };
    static const struct {
        const char *lang;
        bool harness, entry;
        int want;
    } cases[] = {
        {"python", true, false, I},   {"python", false, false, O}, {"pytest", true, false, I},
        {"cpp", true, true, I},       {"cpp", true, false, P},     {"c", true, false, P},
        {"c", false, false, O},       {"go_test", true, false, P}, {"go", true, true, P},
        {"rust_test", true, true, I}, {"java", true, true, I},     {"java", true, false, X},
        {"junit", true, false, X},    {"junit", true, true, I},    {"sql", true, false, X},
        {"verilog", true, true, X},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct judge_request *r = judge_request_new();
        r->lang = lang_find(langs, cases[i].lang);
        ASSERT_NOT_NULL(r->lang);
        r->code = strdup("x");
        r->harness = cases[i].harness ? strdup("y") : NULL;
        r->entry_point = cases[i].entry ? strdup("f") : NULL;
        ASSERT_INT_EQ(judge_grading_of(r), cases[i].want);
        r->run_only = !cases[i].harness; /* /run_code: nothing decides */
        if (r->run_only)
            ASSERT_INT_EQ(judge_grading_of(r), JUDGE_GRADING_NONE);
        judge_request_free(r);
    }
    /* every other language's harness: a grader's, or exit status alone */
    for (int i = 0; i < lang_count(langs); i++) {
        const struct lang *l = lang_at(langs, i);
        enum judge_grading g = judge_harness_grading(l);
        ASSERT_TRUE(g == JUDGE_GRADING_ISOLATED || g == JUDGE_GRADING_IN_PROCESS ||
                    g == JUDGE_GRADING_EXIT_STATUS);
        ASSERT_TRUE((g == JUDGE_GRADING_ISOLATED) == (l->grader != NULL));
    }
    for (int g = 0; g < JUDGE_GRADING_COUNT; g++) {
        enum judge_grading back;
        ASSERT_INT_EQ(judge_grading_parse(judge_grading_name((enum judge_grading)g), &back), 0);
        ASSERT_INT_EQ(back, g);
    }
    enum judge_grading x;
    ASSERT_STR_EQ(judge_grading_name(JUDGE_GRADING_IN_PROCESS), "in-process");
    ASSERT_STR_EQ(judge_grading_name(JUDGE_GRADING_COUNT), "?");
    ASSERT_INT_EQ(judge_grading_parse("sealed", &x), -EINVAL);
    ASSERT_INT_EQ(judge_grading_parse(NULL, &x), -EINVAL);
}

/* A harness that exit status alone would decide is refused (422 at harness, naming the way
 * out) unless the client accepts it; allow_exit_status is a bool. */
static void test_exit_status_refused(void)
{
    static const char *const refused[] = {
        "{\"language\": \"sql\", \"code\": \"x\", \"harness\": \"y\"}",
        "{\"language\": \"junit\", \"code\": \"x\", \"harness\": \"y\"}",
        "{\"language\": \"java\", \"code\": \"x\", \"harness\": \"y\", "
        "\"allow_exit_status\": false}",
    };
    struct judge_request *r = NULL;
    struct request_error e;
    static const char *const names[] = {"sql", "junit", "java"};
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        lang_probe(langs, names[i]);
        if (!lang_find(langs, names[i])->available) { /* a host without sqlite3 or java */
            printf("# %s unavailable: its refusal not tried\n", names[i]);
            return;
        }
        ASSERT_INT_EQ(parse(refused[i], REQUEST_JUDGE, &r, &e), -EINVAL);
        ASSERT_TRUE(r == NULL);
        ASSERT_STR_EQ(e.loc[0], "harness");
        ASSERT_TRUE(strstr(e.msg, "allow_exit_status") != NULL);
        ASSERT_TRUE(strstr(e.msg, "exit status") != NULL);
    }
    ASSERT_TRUE(strstr(e.msg, "without an entry_point") != NULL); /* java: name it */
    ASSERT_INT_EQ(parse("{\"language\": \"sql\", \"code\": \"x\", \"harness\": \"y\", "
                        "\"allow_exit_status\": true}",
                        REQUEST_JUDGE, &r, &e),
                  0);
    ASSERT_TRUE(r->allow_exit_status);
    ASSERT_INT_EQ(judge_grading_of(r), JUDGE_GRADING_EXIT_STATUS);
    judge_request_free(r);
    /* a graded harness or tests need no consent, and may carry it */
    ASSERT_INT_EQ(parse("{\"language\": \"sql\", \"code\": \"x\", \"tests\": "
                        "[{\"expected\": \"1\"}], \"allow_exit_status\": true}",
                        REQUEST_JUDGE, &r, &e),
                  0);
    judge_request_free(r);
    ASSERT_INT_EQ(parse("{\"language\": \"python\", \"code\": \"x\", \"harness\": \"y\"}",
                        REQUEST_JUDGE, &r, &e),
                  0);
    ASSERT_FALSE(r->allow_exit_status);
    judge_request_free(r);
    ASSERT_INT_EQ(parse("{\"language\": \"sql\", \"code\": \"x\", \"harness\": \"y\", "
                        "\"allow_exit_status\": \"yes\"}",
                        REQUEST_JUDGE, &r, &e),
                  -EINVAL);
    ASSERT_STR_EQ(e.loc[0], "allow_exit_status");
}

/* Which runs the judge runs again: starved ones up to 3 runs, SE up to 2, a CPU TLE that
 * waited for a CPU at least 5% of its CPU time (50 ms at least) up to 3, except for
 * /run_code (run_only); never a plain TLE, a wall TLE, or the program's own verdicts. */
static void test_rerun_reasons(void)
{
    struct job_result r = {.status = JOB_SE, .starved = true};
    ASSERT_INT_EQ(judge_rerun_reason(&r, 1, false), JUDGE_RERUN_STARVED);
    ASSERT_INT_EQ(judge_rerun_reason(&r, 2, true), JUDGE_RERUN_STARVED);
    ASSERT_INT_EQ(judge_rerun_reason(&r, 3, false), JUDGE_RERUN_NONE);
    r = (struct job_result){.status = JOB_SE};
    ASSERT_INT_EQ(judge_rerun_reason(&r, 1, true), JUDGE_RERUN_SANDBOX);
    ASSERT_INT_EQ(judge_rerun_reason(&r, 2, false), JUDGE_RERUN_NONE);
    r = (struct job_result){
        .status = JOB_TLE, .tle_clock = JOB_CLOCK_CPU, .cpu_ms = 1100, .waited_ms = 60};
    ASSERT_INT_EQ(judge_rerun_reason(&r, 1, false), JUDGE_RERUN_CONTENDED);
    ASSERT_INT_EQ(judge_rerun_reason(&r, 2, false), JUDGE_RERUN_CONTENDED);
    ASSERT_INT_EQ(judge_rerun_reason(&r, 3, false), JUDGE_RERUN_NONE);
    ASSERT_INT_EQ(judge_rerun_reason(&r, 1, true), JUDGE_RERUN_NONE); /* /run_code */
    r.waited_ms = 49;                                                 /* a calm machine */
    ASSERT_INT_EQ(judge_rerun_reason(&r, 1, false), JUDGE_RERUN_NONE);
    r.cpu_ms = 4000, r.waited_ms = 150; /* under 5% of 4 s */
    ASSERT_INT_EQ(judge_rerun_reason(&r, 1, false), JUDGE_RERUN_NONE);
    r.waited_ms = 200;
    ASSERT_INT_EQ(judge_rerun_reason(&r, 1, false), JUDGE_RERUN_CONTENDED);
    r.tle_clock = JOB_CLOCK_WALL; /* wall time is charged less the wait already */
    ASSERT_INT_EQ(judge_rerun_reason(&r, 1, false), JUDGE_RERUN_NONE);
    static const enum job_status own[] = {JOB_OK, JOB_RE, JOB_MLE, JOB_OLE};
    for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
        r = (struct job_result){.status = own[i], .waited_ms = 5000, .cpu_ms = 100};
        ASSERT_INT_EQ(judge_rerun_reason(&r, 1, false), JUDGE_RERUN_NONE);
    }
    ASSERT_STR_EQ(judge_rerun_name(JUDGE_RERUN_CONTENDED), "contended");
    ASSERT_TRUE(judge_rerun_name(JUDGE_RERUN_NONE) == NULL);
}

static void test_verdict_names(void)
{
    for (int v = 0; v < VERDICT_COUNT; v++) {
        enum verdict back;
        ASSERT_INT_EQ(verdict_parse(verdict_name((enum verdict)v), &back), 0);
        ASSERT_INT_EQ(back, v);
    }
    enum verdict x;
    ASSERT_INT_EQ(verdict_parse("Accepted", &x), -EINVAL);
    ASSERT_INT_EQ(verdict_of_job(JOB_MLE), VERDICT_MLE);
    ASSERT_INT_EQ(verdict_of_job(JOB_SE), VERDICT_SE);
}

/* A /v1/judge body with a python checker whose files member is the given JSON. */
static char *checker_body(const char *files)
{
    size_t cap = strlen(files) + 256;
    char *s = malloc(cap);
    snprintf(s, cap,
             "{\"language\":\"python\",\"code\":\"print(1)\",\"tests\":[{\"expected\":\"1\"}],"
             "\"compare\":{\"mode\":\"checker\",\"checker\":{\"language\":\"python\","
             "\"code\":\"pass\",\"files\":%s}}}",
             files);
    return s;
}

/* compare.checker.files: the checker's context, decoded into the request; each bound a 422
 * at compare.checker.files (and the path where one is at fault). */
static void test_checker_files(void)
{
    struct judge_request *r = NULL;
    struct request_error e;
    char *b = checker_body("{\"ctx.json\":\"e30=\",\"d/w.txt\":\"\"}");
    ASSERT_INT_EQ(parse(b, REQUEST_JUDGE, &r, &e), 0);
    free(b);
    ASSERT_INT_EQ(r->nchecker_files, 2);
    ASSERT_STR_EQ(r->checker_files[0].path, "ctx.json");
    ASSERT_INT_EQ((int)r->checker_files[0].len, 2);
    ASSERT_TRUE(memcmp(r->checker_files[0].data, "{}", 2) == 0);
    ASSERT_INT_EQ((int)r->checker_files[1].len, 0);
    judge_request_free(r);
    b = checker_body("null");
    ASSERT_INT_EQ(parse(b, REQUEST_JUDGE, &r, &e), 0);
    free(b);
    ASSERT_INT_EQ(r->nchecker_files, 0);
    judge_request_free(r);

    const char *bad[][2] = {
        {"[]", NULL},
        {"{\"answer.txt\":\"\"}", "answer.txt"},
        {"{\"input.txt\":\"\"}", "input.txt"},
        {"{\"main.py\":\"\"}", "main.py"}, /* the python checker's own source */
        {"{\"../x\":\"\"}", "../x"},
        {"{\"/etc/x\":\"\"}", "/etc/x"},
        {"{\"x\":\"!!\"}", "x"},
        {"{\"x\":1}", "x"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        b = checker_body(bad[i][0]);
        ASSERT_INT_EQ(parse(b, REQUEST_JUDGE, &r, &e), -EINVAL);
        free(b);
        ASSERT_TRUE(r == NULL);
        ASSERT_INT_EQ(e.nloc, bad[i][1] ? 4 : 3);
        ASSERT_STR_EQ(e.loc[2], "files");
        if (bad[i][1])
            ASSERT_STR_EQ(e.loc[3], bad[i][1]);
    }
    /* 16 files are taken, 17 refused */
    char files[512];
    for (int n = JUDGE_MAX_CHECKER_FILES; n <= JUDGE_MAX_CHECKER_FILES + 1; n++) {
        size_t o = (size_t)snprintf(files, sizeof(files), "{");
        for (int i = 0; i < n; i++)
            o += (size_t)snprintf(files + o, sizeof(files) - o, "%s\"f%d\":\"eA==\"", i ? "," : "",
                                  i);
        snprintf(files + o, sizeof(files) - o, "}");
        b = checker_body(files);
        int rc = parse(b, REQUEST_JUDGE, &r, &e);
        free(b);
        ASSERT_INT_EQ(rc, n <= JUDGE_MAX_CHECKER_FILES ? 0 : -EINVAL);
        if (rc == 0)
            judge_request_free(r);
        else
            ASSERT_STR_EQ(e.type, "too_long");
    }
    /* past 4 MiB together: two files of 3 MiB each (base64: 4 MiB each) */
    size_t n64 = 4u << 20, cap = 2 * n64 + 64, o = 0;
    char *big = malloc(cap);
    o += (size_t)snprintf(big, cap, "{\"a\":\"");
    memset(big + o, 'A', n64), o += n64;
    o += (size_t)snprintf(big + o, cap - o, "\",\"b\":\"");
    memset(big + o, 'A', n64), o += n64;
    snprintf(big + o, cap - o, "\"}");
    b = checker_body(big);
    free(big);
    ASSERT_INT_EQ(parse(b, REQUEST_JUDGE, &r, &e), -EINVAL);
    free(b);
    ASSERT_STR_EQ(e.type, "too_long");
    ASSERT_STR_EQ(e.loc[2], "files");
}

/* extract: the program taken out of a completion (fenced, by the request's language). */
static void test_extract(void)
{
    struct judge_request *r = NULL;
    struct request_error e;
    ASSERT_INT_EQ(
        parse("{\"language\":\"python\",\"extract\":true,\"tests\":[{\"expected\":\"1\"}],"
              "\"code\":\"Here:\\n```python\\nprint(1)\\n```\\nDone.\"}",
              REQUEST_JUDGE, &r, &e),
        0);
    ASSERT_STR_EQ(r->code, "print(1)");
    judge_request_free(r);
    /* with a harness, post-processed: the program's own main guard is cut */
    ASSERT_INT_EQ(parse("{\"language\":\"python\",\"extract\":true,\"harness\":\"assert f()\","
                        "\"code\":\"```py\\ndef f():\\n    return 1\\nif __name__ == "
                        "\\\"__main__\\\":\\n    f()\\n```\"}",
                        REQUEST_JUDGE, &r, &e),
                  0);
    ASSERT_TRUE(strstr(r->code, "def f()") && !strstr(r->code, "__main__"));
    judge_request_free(r);
    /* false (or absent) keeps the code as sent */
    ASSERT_INT_EQ(parse("{\"language\":\"python\",\"extract\":false,\"tests\":[{\"expected\":"
                        "\"1\"}],\"code\":\"```python\\nprint(1)\\n```\"}",
                        REQUEST_JUDGE, &r, &e),
                  0);
    ASSERT_TRUE(strncmp(r->code, "```", 3) == 0);
    judge_request_free(r);
    ASSERT_INT_EQ(parse("{\"language\":\"python\",\"extract\":\"yes\",\"tests\":[{\"expected\":"
                        "\"1\"}],\"code\":\"\"}",
                        REQUEST_JUDGE, &r, &e),
                  -EINVAL);
    ASSERT_STR_EQ(e.loc[0], "extract");
}

int main(int argc, char **argv)
{
    char err[ERR_LEN];
    if (argc < 2 || lang_load_dir(argv[1], &langs, err) < 0) {
        fprintf(stderr, "usage: test_request LANGUAGES_DIR (%s)\n", argc < 2 ? "" : err);
        return 2;
    }
    lang_probe(langs, "python");
    if (!lang_find(langs, "python")->available)
        TEST_SKIP("no python3 here");
    TEST_RUN(test_file_bound);
    TEST_RUN(test_fetch_bound);
    TEST_RUN(test_nul);
    TEST_RUN(test_run_code_shape);
    TEST_RUN(test_jupyter_shape);
    TEST_RUN(test_join_repeated);
    TEST_RUN(test_grader_fields);
    TEST_RUN(test_verdict_names);
    TEST_RUN(test_grading);
    TEST_RUN(test_exit_status_refused);
    TEST_RUN(test_rerun_reasons);
    TEST_RUN(test_checker_files);
    TEST_RUN(test_extract);
    lang_set_free(langs);
    return TEST_EXIT();
}
