/* Unit tests for server/datasets/loader and server/datasets/dataset on files written here:
 * each source format normalised, errors naming file, line and field, gzip, problem
 * directories, names for a datasets directory, imports that are all-or-nothing and skipped
 * when unchanged, and 20,000-row files read and imported in linear time. */
#include "server/datasets/dataset.h"
#include "server/datasets/loader.h"
#include "test.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

static char dir[] = "/tmp/verdict-loader-XXXXXX";

static const char *path_of(const char *name)
{
    static char p[512];
    snprintf(p, sizeof(p), "%s/%s", dir, name);
    return p;
}

static void write_file(const char *name, const char *text)
{
    FILE *f = fopen(path_of(name), "w");
    ASSERT_TRUE(f != NULL);
    fputs(text, f);
    fclose(f);
}

static const char *str(const struct json *j, const char *key)
{
    const char *s = NULL;
    json_str(json_get(j, key), &s);
    return s;
}

#define HUMANEVAL_ROW(id, sol)                                                                     \
    "{\"task_id\": \"HumanEval/" id                                                                \
    "\", \"prompt\": \"def f(x):\\n    \\\"\\\"\\\"doc\\\"\\\"\\\"\\n\", "                         \
    "\"entry_point\": \"f\", \"canonical_solution\": \"" sol "\", "                                \
    "\"test\": \"def check(c):\\n    assert c(1) == 2\\n\"}\n"

static void test_humaneval(void)
{
    write_file("he.jsonl", HUMANEVAL_ROW("0", "    return x + 1\\n") "\n" HUMANEVAL_ROW(
                               "1", "    return 2\\n"));
    struct json *ps;
    char fmt[32], err[ERR_LEN];
    ASSERT_INT_EQ(loader_read(path_of("he.jsonl"), NULL, &ps, fmt, sizeof(fmt), err), 2);
    ASSERT_STR_EQ(fmt, "humaneval");
    const struct json *p = json_at(ps, 0);
    ASSERT_STR_EQ(str(p, "id"), "HumanEval/0");
    ASSERT_STR_EQ(str(p, "language"), "python");
    ASSERT_STR_EQ(str(p, "kind"), "harness");
    ASSERT_STR_EQ(str(p, "entry_point"), "f");
    ASSERT_STR_EQ(str(p, "before"), str(p, "prompt"));
    ASSERT_TRUE(strstr(str(p, "after"), "check(f)") != NULL);
    ASSERT_STR_EQ(str(json_get(p, "solutions"), "python"), "    return x + 1\n");
    json_free(ps);

    /* The same bytes gzipped read the same. */
    gzFile gz = gzopen(path_of("he.jsonl.gz"), "wb");
    gzputs(gz, HUMANEVAL_ROW("0", "    return x + 1\\n"));
    gzclose(gz);
    ASSERT_INT_EQ(loader_read(path_of("he.jsonl.gz"), NULL, &ps, fmt, sizeof(fmt), err), 1);
    json_free(ps);
}

static void test_errors_name_line_and_field(void)
{
    struct json *ps = NULL;
    char fmt[32], err[ERR_LEN];
    write_file(
        "bad.jsonl",
        HUMANEVAL_ROW("0", "x") HUMANEVAL_ROW(
            "1", "y") "{\"task_id\": \"HumanEval/2\", \"prompt\": 7, \"entry_point\": \"f\", "
                      "\"canonical_solution\": \"\", \"test\": \"\"}\n");
    ASSERT_INT_EQ(loader_read(path_of("bad.jsonl"), NULL, &ps, fmt, sizeof(fmt), err), -EINVAL);
    ASSERT_TRUE(strstr(err, "bad.jsonl:line 3: field \"prompt\": must be a string") != NULL);
    ASSERT_TRUE(ps == NULL);

    write_file("trunc.jsonl", HUMANEVAL_ROW("0", "x") "{\"task_id\": \"Hu\n");
    ASSERT_INT_EQ(loader_read(path_of("trunc.jsonl"), NULL, &ps, fmt, sizeof(fmt), err), -EINVAL);
    ASSERT_TRUE(strstr(err, "line 2: not a JSON object") != NULL);

    write_file("dup.jsonl", HUMANEVAL_ROW("0", "x") HUMANEVAL_ROW("0", "y"));
    ASSERT_INT_EQ(loader_read(path_of("dup.jsonl"), NULL, &ps, fmt, sizeof(fmt), err), -EINVAL);
    ASSERT_TRUE(strstr(err, "line 2: field \"id\": duplicate id \"HumanEval/0\"") != NULL);

    write_file("odd.jsonl", "{\"question\": 1}\n");
    ASSERT_INT_EQ(loader_read(path_of("odd.jsonl"), NULL, &ps, fmt, sizeof(fmt), err), -EINVAL);
    ASSERT_TRUE(strstr(err, "unknown shape") != NULL);

    ASSERT_INT_EQ(loader_read(path_of("he.jsonl"), "nonsense", &ps, fmt, sizeof(fmt), err),
                  -EINVAL);
    ASSERT_TRUE(strstr(err, "unknown format") != NULL);
    ASSERT_INT_EQ(loader_read(path_of("missing.jsonl"), NULL, &ps, fmt, sizeof(fmt), err), -ENOENT);
}

static void test_other_formats(void)
{
    struct json *ps;
    char fmt[32], err[ERR_LEN];
    /* MBPP: a JSON array would be sanitized; this is the full set's JSON lines. */
    write_file("mbpp.jsonl", "{\"text\": \"Add one.\", \"code\": \"class Node:\\n    pass\\ndef "
                             "f(x):\\n    return x + 1\", "
                             "\"task_id\": 7, \"test_setup_code\": \"n = Node()\", \"test_list\": "
                             "[\"assert f(1) == 2\"], "
                             "\"challenge_test_list\": []}\n");
    ASSERT_INT_EQ(loader_read(path_of("mbpp.jsonl"), NULL, &ps, fmt, sizeof(fmt), err), 1);
    ASSERT_STR_EQ(fmt, "mbpp");
    ASSERT_STR_EQ(str(json_at(ps, 0), "id"), "7");
    ASSERT_STR_EQ(str(json_at(ps, 0), "entry_point"), "f");
    ASSERT_STR_EQ(str(json_at(ps, 0), "after"),
                  "\nn = Node()\nassert f(1) == 2\n"); /* setup after the code */
    json_free(ps);

    write_file("san.json",
               "[{\"source_file\": \"x\", \"task_id\": 2, \"prompt\": \"p\", \"code\": \"def g(): "
               "return 1\", "
               "\"test_imports\": [\"import math\"], \"test_list\": [\"assert g() == 1\"]}]");
    ASSERT_INT_EQ(loader_read(path_of("san.json"), NULL, &ps, fmt, sizeof(fmt), err), 1);
    ASSERT_STR_EQ(fmt, "mbpp_sanitized");
    ASSERT_STR_EQ(str(json_at(ps, 0), "before"), "import math\n");
    json_free(ps);

    /* HumanEval-X C++: the include list where the prompt lacks it; preamble without the
     * signature line. */
    write_file("hx.jsonl",
               "{\"task_id\": \"CPP/3\", \"prompt\": \"/* doc */\\n#include<vector>\\nusing "
               "namespace std;\\nint add(int a,int b){\\n\", "
               "\"declaration\": \"#include<vector>\\nint add(int a,int b){\\n\", "
               "\"canonical_solution\": \"return a+b;}\", "
               "\"test\": \"int main(){}\", \"example_test\": \"\"}\n");
    ASSERT_INT_EQ(loader_read(path_of("hx.jsonl"), NULL, &ps, fmt, sizeof(fmt), err), 1);
    ASSERT_STR_EQ(fmt, "humanevalx");
    const struct json *p = json_at(ps, 0);
    ASSERT_STR_EQ(str(p, "language"), "cpp");
    ASSERT_STR_EQ(str(p, "entry_point"), "add");
    ASSERT_TRUE(strstr(str(p, "before"), "#include<algorithm>") != NULL);
    ASSERT_TRUE(strstr(str(p, "preamble"), "int add(") == NULL);
    ASSERT_TRUE(strstr(str(p, "preamble"), "using namespace std;") != NULL);
    json_free(ps);

    /* MultiPL-E: language mapped, stop tokens kept. */
    write_file(
        "mpl.jsonl",
        "{\"name\": \"HumanEval_1_f\", \"language\": \"rs\", \"prompt\": \"fn f() -> i32 {\\n\", "
        "\"tests\": \"}\\nfn main(){}\", \"stop_tokens\": [\"\\n}\"], \"doctests\": \"x\"}\n");
    ASSERT_INT_EQ(loader_read(path_of("mpl.jsonl"), NULL, &ps, fmt, sizeof(fmt), err), 1);
    ASSERT_STR_EQ(fmt, "multiple");
    ASSERT_STR_EQ(str(json_at(ps, 0), "language"), "rust");
    ASSERT_STR_EQ(str(json_at(ps, 0), "entry_point"), "f");
    ASSERT_INT_EQ(json_len(json_get(json_at(ps, 0), "stop")), 1);
    json_free(ps);

    /* MultiPL-E's other languages: the template each runs in, and the entry point from the
     * language's own way of defining a function (R, Racket, Perl, D's Tuple! return types). */
    write_file(
        "mpl2.jsonl",
        "{\"name\": \"HumanEval_1_f\", \"language\": \"r\", \"prompt\": \"# f(1)\\nf <- "
        "function(a) {\", \"tests\": \"x\", \"stop_tokens\": []}\n"
        "{\"name\": \"HumanEval_2_g\", \"language\": \"rkt\", \"prompt\": \"#lang racket\\n;; "
        "(g 1)\\n(define (g a)\\n\", \"tests\": \"x\", \"stop_tokens\": []}\n"
        "{\"name\": \"HumanEval_3_h\", \"language\": \"pl\", \"prompt\": \"# h\\nsub h {\\n\", "
        "\"tests\": \"x\", \"stop_tokens\": []}\n"
        "{\"name\": \"mbpp_4_k_l\", \"language\": \"d\", \"prompt\": \"import std.typecons;\\n"
        "Tuple!(long, long) k_l(long a) \", \"tests\": \"x\", \"stop_tokens\": []}\n"
        "{\"name\": \"HumanEval_5_m\", \"language\": \"jl\", \"prompt\": \"function m(a)\\n\", "
        "\"tests\": \"x\", \"stop_tokens\": []}\n");
    ASSERT_INT_EQ(loader_read(path_of("mpl2.jsonl"), NULL, &ps, fmt, sizeof(fmt), err), 5);
    static const char *const want[][3] = {{"r", "f", "# f(1)\n"},
                                          {"racket", "g", "#lang racket\n;; (g 1)\n"},
                                          {"perl", "h", "# h\n"},
                                          {"d_ut", "k_l", "import std.typecons;\n"},
                                          {"julia", "m", ""}};
    for (int i = 0; i < 5; i++) {
        ASSERT_STR_EQ(str(json_at(ps, i), "language"), want[i][0]);
        ASSERT_STR_EQ(str(json_at(ps, i), "entry_point"), want[i][1]);
        ASSERT_STR_EQ(str(json_at(ps, i), "preamble"), want[i][2]);
    }
    json_free(ps);

    /* SandboxFusion's CodeContests rows: stdin/stdout tests; an asset bundle is refused. */
    write_file(
        "cc.jsonl",
        "{\"id\": 4, \"content\": \"Echo.\", \"labels\": \"{\\\"difficulty\\\": \\\"EASY\\\"}\", "
        "\"test\": \"[{\\\"input\\\": {\\\"stdin\\\": \\\"1\\\"}, \\\"output\\\": {\\\"stdout\\\": "
        "\\\"1\\\"}}]\"}\n");
    ASSERT_INT_EQ(loader_read(path_of("cc.jsonl"), NULL, &ps, fmt, sizeof(fmt), err), 1);
    p = json_at(ps, 0);
    ASSERT_STR_EQ(str(p, "kind"), "stdio");
    ASSERT_STR_EQ(str(json_at(json_get(p, "tests"), 0), "expected"), "1");
    ASSERT_STR_EQ(str(json_get(p, "labels"), "difficulty"), "EASY");
    json_free(ps);
    write_file("torch.jsonl", "{\"id\": \"a\", \"content\": \"c\", \"labels\": \"{}\", \"test\": "
                              "\"{\\\"asset\\\": {}}\"}\n");
    ASSERT_INT_EQ(loader_read(path_of("torch.jsonl"), NULL, &ps, fmt, sizeof(fmt), err),
                  -EOPNOTSUPP);
}

static void test_problem_dir(void)
{
    char p[600];
    snprintf(p, sizeof(p), "%s/set/01-echo/tests", dir);
    char cmd[800];
    snprintf(cmd, sizeof(cmd), "mkdir -p %s %s/set/01-echo/solutions", p, dir);
    ASSERT_INT_EQ(system(cmd), 0);
    write_file("set/01-echo/problem.json",
               "{\"title\": \"Echo\", \"time_limit_ms\": 1000, \"compare\": \"tokens\"}");
    write_file("set/01-echo/statement.md", "Print the input.\n");
    write_file("set/01-echo/tests/01.in", "5\n");
    write_file("set/01-echo/tests/01.out", "5\n");
    write_file("set/01-echo/tests/02.in", "6\n");
    write_file("set/01-echo/tests/02.out", "6\n");
    write_file("set/01-echo/solutions/python.py", "print(input())\n");
    struct json *ps;
    char fmt[32], err[ERR_LEN];
    ASSERT_TRUE(loader_is_problem_set(path_of("set")));
    ASSERT_INT_EQ(loader_read(path_of("set"), NULL, &ps, fmt, sizeof(fmt), err), 1);
    ASSERT_STR_EQ(fmt, "problem_dir");
    const struct json *pr = json_at(ps, 0);
    ASSERT_STR_EQ(str(pr, "id"), "01-echo");
    ASSERT_STR_EQ(str(pr, "kind"), "stdio");
    ASSERT_INT_EQ(json_len(json_get(pr, "tests")), 2);
    ASSERT_STR_EQ(str(json_get(pr, "compare"), "mode"), "tokens");
    ASSERT_STR_EQ(str(json_get(pr, "solutions"), "python"), "print(input())\n");
    json_free(ps);

    write_file("set/01-echo/problem.json", "{\"time_limit_ms\": \"fast\"}");
    ASSERT_INT_EQ(loader_read(path_of("set"), NULL, &ps, fmt, sizeof(fmt), err), -EINVAL);
    ASSERT_TRUE(strstr(err, "problem.json") && strstr(err, "time_limit_ms"));
    write_file("set/01-echo/problem.json", "{}");

    /* Ids are unique within a set: a second directory naming the first's id is refused, and
     * the error names both directories. */
    snprintf(cmd, sizeof(cmd), "cp -r %s/set/01-echo %s/set/02-again", dir, dir);
    ASSERT_INT_EQ(system(cmd), 0);
    write_file("set/02-again/problem.json", "{\"id\": \"01-echo\"}");
    ASSERT_INT_EQ(loader_read(path_of("set"), NULL, &ps, fmt, sizeof(fmt), err), -EINVAL);
    ASSERT_TRUE(strstr(err, "02-again: duplicate id \"01-echo\" (also 01-echo's)") != NULL);
    snprintf(cmd, sizeof(cmd), "rm -r %s/set/02-again", dir);
    ASSERT_INT_EQ(system(cmd), 0);
}

static void test_default_names(void)
{
    char n[80];
    ASSERT_INT_EQ(loader_default_name("HumanEval.jsonl.gz", 0, n, sizeof(n)), 0);
    ASSERT_STR_EQ(n, "humaneval");
    ASSERT_INT_EQ(loader_default_name("mceval/C.jsonl", 0, n, sizeof(n)), 0);
    ASSERT_STR_EQ(n, "mceval_c");
    ASSERT_INT_EQ(loader_default_name("multipl-e/humaneval-rs.jsonl", 0, n, sizeof(n)), 0);
    ASSERT_STR_EQ(n, "multiple_rs");
    ASSERT_INT_EQ(loader_default_name("multipl-e/mbpp-rkt.jsonl", 0, n, sizeof(n)), 0);
    ASSERT_STR_EQ(n, "multiple_mbpp_rkt");
    ASSERT_INT_EQ(loader_default_name("stdio", 1, n, sizeof(n)), 0);
    ASSERT_STR_EQ(n, "verdict_stdio");
    ASSERT_INT_EQ(loader_default_name("notes/README.md", 0, n, sizeof(n)), -ENOENT);
}

static void test_import_is_all_or_nothing(void)
{
    struct dataset_store *s;
    char err[ERR_LEN];
    bool skipped;
    ASSERT_INT_EQ(dataset_open(path_of("store.db"), &s, err), 0);
    ASSERT_INT_EQ(dataset_import(s, "he", path_of("he.jsonl"), NULL, false, &skipped, err), 2);
    ASSERT_FALSE(skipped);
    ASSERT_INT_EQ(dataset_import(s, "he", path_of("he.jsonl"), NULL, false, &skipped, err), 0);
    ASSERT_TRUE(skipped); /* unchanged: not read again */
    /* A bad version of the file changes nothing. */
    ASSERT_INT_EQ(dataset_import(s, "he", path_of("bad.jsonl"), NULL, false, &skipped, err),
                  -EINVAL);
    struct json *ids = dataset_ids(s, "he");
    ASSERT_INT_EQ(json_len(ids), 2);
    json_free(ids);
    struct json *p = dataset_problem(s, "he", "HumanEval/1");
    ASSERT_STR_EQ(str(p, "entry_point"), "f");
    json_free(p);
    ASSERT_TRUE(dataset_problem(s, "he", "HumanEval/9") == NULL);
    ASSERT_TRUE(dataset_ids(s, "nope") == NULL);
    ASSERT_INT_EQ(dataset_import(s, "Bad Name", path_of("he.jsonl"), NULL, false, NULL, err),
                  -EINVAL);
    /* SandboxFusion's id for HumanEval finds ours. */
    ASSERT_INT_EQ(dataset_import(s, "humaneval", path_of("he.jsonl"), NULL, false, NULL, err), 2);
    char real[80];
    ASSERT_TRUE(dataset_resolve(s, "humaneval_python", real, sizeof(real)));
    ASSERT_STR_EQ(real, "humaneval");
    struct json *page = dataset_problems(s, "humaneval", 1, 5);
    ASSERT_INT_EQ(json_len(page), 1);
    ASSERT_STR_EQ(str(json_at(page, 0), "id"), "HumanEval/1");
    json_free(page);
    struct json *list = dataset_list(s);
    ASSERT_INT_EQ(json_len(list), 2);
    json_free(list);
    dataset_close(s);

    /* A restart reads the store, not the sources. */
    ASSERT_INT_EQ(dataset_open(path_of("store.db"), &s, err), 0);
    ids = dataset_ids(s, "he");
    ASSERT_INT_EQ(json_len(ids), 2);
    json_free(ids);
    dataset_close(s);
}

static void test_record(void)
{
    struct json *rec =
        json_parse("{\"task_id\": \"HumanEval/5\", \"prompt\": \"def f():\\n\", "
                   "\"entry_point\": \"f\", \"canonical_solution\": \"\", \"test\": \"\"}");
    struct json *p = NULL;
    char err[ERR_LEN];
    ASSERT_INT_EQ(loader_record(rec, NULL, &p, err), 0);
    ASSERT_STR_EQ(str(p, "id"), "HumanEval/5");
    json_free(p);
    json_free(rec);
    rec = json_parse("[1]");
    ASSERT_INT_EQ(loader_record(rec, NULL, &p, err), -EINVAL);
    json_free(rec);
}

/* Milliseconds since an earlier now_ms(). */
static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

#define BIG 20000

/* BIG HumanEval rows as JSON lines (array false) or a JSON array, then, when dup, one more
 * row repeating the first id. */
static void write_big(const char *name, bool array, bool dup)
{
    FILE *f = fopen(path_of(name), "w");
    ASSERT_TRUE(f != NULL);
    fputs(array ? "[\n" : "", f);
    for (int i = 0; i < BIG + (dup ? 1 : 0); i++)
        fprintf(f,
                "%s{\"task_id\": \"HumanEval/%d\", \"prompt\": \"def f%d(x):\\n\", "
                "\"entry_point\": \"f%d\", \"canonical_solution\": \"    return x\\n\", "
                "\"test\": \"def check(c):\\n    assert c(1) == 1\\n\"}\n",
                array && i ? "," : "", i < BIG ? i : 0, i, i);
    fputs(array ? "]\n" : "", f);
    fclose(f);
}

/* Reading and importing is linear: 20,000 rows, which the quadratic id check (a walk of
 * every earlier problem, each found by index) took hours over, take well under a second per
 * step here, and the ctest timeout (60 s) bounds them all. A repeated id is still refused
 * at its own line, naming the first. */
static void test_large_import(void)
{
    struct json *ps = NULL;
    char fmt[32], err[ERR_LEN];
    const char *const files[] = {"big.jsonl", "big.json"};
    for (int k = 0; k < 2; k++) {
        write_big(files[k], k == 1, false);
        double t0 = now_ms();
        ASSERT_INT_EQ(loader_read(path_of(files[k]), NULL, &ps, fmt, sizeof(fmt), err), BIG);
        ASSERT_TRUE(now_ms() - t0 < 20000);
        int n = 0;
        const struct json *last = NULL;
        for (const struct json *p = json_first(ps); p; p = json_next(p), n++)
            last = p;
        ASSERT_INT_EQ(n, BIG);
        ASSERT_STR_EQ(str(json_first(ps), "id"), "HumanEval/0");
        ASSERT_STR_EQ(str(last, "id"), "HumanEval/19999");
        json_free(ps);
        ps = NULL;
    }
    write_big("bigdup.jsonl", false, true);
    ASSERT_INT_EQ(loader_read(path_of("bigdup.jsonl"), NULL, &ps, fmt, sizeof(fmt), err), -EINVAL);
    ASSERT_TRUE(strstr(err, "bigdup.jsonl:line 20001: field \"id\": duplicate id \"HumanEval/0\" "
                            "(first at line 1)") != NULL);
    ASSERT_TRUE(ps == NULL);
    write_big("bigdup.json", true, true);
    ASSERT_INT_EQ(loader_read(path_of("bigdup.json"), NULL, &ps, fmt, sizeof(fmt), err), -EINVAL);
    ASSERT_TRUE(strstr(err, "bigdup.json: record 20000: field \"id\": duplicate id "
                            "\"HumanEval/0\" (first at record 0)") != NULL);

    struct dataset_store *s;
    ASSERT_INT_EQ(dataset_open(":memory:", &s, err), 0);
    double t0 = now_ms();
    ASSERT_INT_EQ(dataset_import(s, "big", path_of("big.jsonl"), NULL, false, NULL, err), BIG);
    ASSERT_TRUE(now_ms() - t0 < 20000);
    struct json *ids = dataset_ids(s, "big");
    ASSERT_INT_EQ(json_len(ids), BIG);
    json_free(ids);
    struct json *tail = dataset_problems(s, "big", BIG - 1, 5);
    ASSERT_STR_EQ(str(json_first(tail), "id"), "HumanEval/19999");
    json_free(tail);
    dataset_close(s);
}

static void test_id_forms(void)
{
    char out[32];
    struct json *d = json_parse("[7, \"x\", 1.5, 1e300, -1e300, true, \"\"]");
    const struct json *e = json_first(d);
    ASSERT_TRUE(loader_id(e, out, sizeof(out)));
    ASSERT_STR_EQ(out, "7");
    ASSERT_TRUE(loader_id(e = json_next(e), out, sizeof(out)));
    ASSERT_STR_EQ(out, "x");
    ASSERT_FALSE(loader_id(e = json_next(e), out, sizeof(out))); /* not integral */
    ASSERT_FALSE(loader_id(e = json_next(e), out, sizeof(out))); /* beyond long long */
    ASSERT_FALSE(loader_id(e = json_next(e), out, sizeof(out)));
    ASSERT_FALSE(loader_id(e = json_next(e), out, sizeof(out)));
    ASSERT_TRUE(loader_id(json_next(e), out, sizeof(out))); /* empty: need_id refuses it */
    json_free(d);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    TEST_RUN(test_humaneval);
    TEST_RUN(test_errors_name_line_and_field);
    TEST_RUN(test_other_formats);
    TEST_RUN(test_problem_dir);
    TEST_RUN(test_default_names);
    TEST_RUN(test_import_is_all_or_nothing);
    TEST_RUN(test_record);
    TEST_RUN(test_large_import);
    TEST_RUN(test_id_forms);
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    int rc = system(cmd);
    (void)rc;
    return TEST_EXIT();
}
