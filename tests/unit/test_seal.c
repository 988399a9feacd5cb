/* Unit tests for server/judge/seal: the tests' entry found past comments, literals and
 * preprocessor lines that mention it; every macro the candidate #defines undone (splices,
 * comments, digraphs); Go's TestMain and Rust's sentinel; a missing entry refused; the marker
 * deterministic and never spelled out in the program. */
#include "server/judge/seal.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>

static const char *const MARKER = "VS0123456789abcdef0123456789abcdef";

/* The sealed program (heap), or NULL with the code returned in *rc. */
static char *seal(const char *lang, const char *code, const char *tests, int *rc)
{
    char *out = NULL, err[ERR_LEN] = "";
    struct seal_slots sl;
    *rc = seal_program(lang, code, tests, MARKER, &sl, &out, err);
    if (*rc < 0 && !*err)
        fprintf(stderr, "seal_program %s: no error message\n", lang);
    return out;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void test_supports(void)
{
    static const char *const yes[] = {"c", "cpp", "go", "go_test", "rust", "rust_test"};
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
        ASSERT_TRUE(seal_supports(yes[i]));
    ASSERT_FALSE(seal_supports("python"));
    ASSERT_FALSE(seal_supports(NULL));
    int rc;
    ASSERT_NULL(seal("python", "x = 1", "assert x", &rc));
    ASSERT_INT_EQ(rc, -ENOTSUP);
}

static void test_c_main_past_comments_and_literals(void)
{
    const char *tests = "// int main() { in a line comment \\\n int main() { continued }\n"
                        "/* int main() { } */\n"
                        "static const char *s = \"int main() {\";\n"
                        "static const char c = '{', q = '\\'';\n"
                        "#define BRACE {\n"
                        "static int helper(void) { return s[0] == c && q; }\n"
                        "int main(void)\n{\n    if (helper()) { assert(1); }\n}\n";
    int rc;
    char *out = seal("c", "int f(void) { return 1; }", tests, &rc);
    ASSERT_INT_EQ(rc, 0);
    ASSERT_INT_EQ(count(out, "verdict_tests_main_"), 2); /* the definition and the call */
    ASSERT_STR_CONTAINS(out, "int verdict_tests_main_(void)\n{\n    if (helper()) { assert(1); }"
                             "\n\nreturn 0;\n}");
    ASSERT_STR_CONTAINS(out, "static const char *s = \"int main() {\";");
    ASSERT_STR_CONTAINS(out, "/* int main() { } */");
    ASSERT_STR_CONTAINS(out, "int main(void)\n{\n"); /* ours, with the tests' parameters */
    ASSERT_STR_CONTAINS(out, "int verdict_rc_ = verdict_tests_main_();");
    free(out);
}

static void test_c_parameters_and_void(void)
{
    int rc;
    char *out = seal("cpp", "", "int main(int argc, const char *argv[]) { return argc > 9; }", &rc);
    ASSERT_INT_EQ(rc, 0);
    ASSERT_STR_CONTAINS(out, "int main(int argc, const char *argv[])\n");
    ASSERT_STR_CONTAINS(out, "verdict_tests_main_(argc, argv);");
    free(out);
    out = seal("c", "", "void main() { }", &rc);
    ASSERT_INT_EQ(rc, 0);
    ASSERT_FALSE(strstr(out, "return 0;\n}\n\n#include") != NULL); /* no return in a void */
    ASSERT_STR_CONTAINS(out, "verdict_tests_main_();\n    int verdict_rc_ = 0;");
    free(out);
    ASSERT_NULL(seal("c", "", "int main(int, char **) { return 0; }", &rc));
    ASSERT_INT_EQ(rc, -EINVAL);
}

static void test_c_macros_undone(void)
{
    const char *code = "#define assert(x) ((void)0)\n"
                       "# /* comment */ define NDEBUG\n"
                       "#def\\\nine SPLICED 1\n"
                       "#define SPLICED_BLANK \\  \n 2\n"
                       "%:define DIGRAPH 1\n"
                       "/* spans\n lines */ #define AFTER_COMMENT\n"
                       "   #   define   SPACED\n"
                       "int define_me = 1; /* #define not at a line's start */ int x;\n";
    int rc;
    char *out = seal("c", code, "int main() { return 0; }", &rc);
    ASSERT_INT_EQ(rc, 0);
    static const char *const names[] = {"assert",  "NDEBUG",        "SPLICED", "SPLICED_BLANK",
                                        "DIGRAPH", "AFTER_COMMENT", "SPACED"};
    char line[64];
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        snprintf(line, sizeof(line), "#undef %s\n", names[i]);
        ASSERT_STR_CONTAINS(out, line);
    }
    ASSERT_FALSE(strstr(out, "#undef define_me") != NULL);
    ASSERT_FALSE(strstr(out, "#undef x") != NULL);
    /* after the candidate's code, before the tests: undone, then assert.h again */
    const char *undef = strstr(out, "#undef assert\n"), *tests = strstr(out, "int verdict_tests");
    ASSERT_TRUE(undef && tests && undef > strstr(out, "int x;") && undef < tests);
    ASSERT_STR_CONTAINS(out, "#undef NDEBUG\n#include <assert.h>\n");
    free(out);
}

static void test_c_tests_closing_the_prompt(void)
{
    /* MultiPL-E: the tests close the function the prompt opened */
    const char *code = "#include <vector>\nint add(int a, int b) {\n    return a + b;";
    const char *tests =
        "}\nint main() {\n    auto candidate = add;\n    assert(candidate(1, 2) == 3);\n}\n";
    int rc;
    char *out = seal("cpp", code, tests, &rc);
    ASSERT_INT_EQ(rc, 0);
    const char *close = strstr(out, "return a + b;\n}"), *guard = strstr(out, "#undef NDEBUG");
    ASSERT_TRUE(close && guard && guard > close); /* at the top level, not inside add */
    ASSERT_STR_CONTAINS(out, "int verdict_tests_main_() {");
    free(out);
}

static void test_missing_entry(void)
{
    int rc;
    ASSERT_NULL(
        seal("c", "int main() { return 0; }", "/* int main() {} */ \"int main() {}\"", &rc));
    ASSERT_INT_EQ(rc, -EINVAL);
    ASSERT_NULL(seal("cpp", "", "int main();\nint x = main();", &rc));
    ASSERT_INT_EQ(rc, -EINVAL);
    ASSERT_NULL(seal("c", "", "void f() { int main() { return 0; } }", &rc)); /* not top level */
    ASSERT_INT_EQ(rc, -EINVAL);
    ASSERT_NULL(seal("go", "package main\n", "func notmain() {}\n", &rc));
    ASSERT_INT_EQ(rc, -EINVAL);
    ASSERT_NULL(seal("go_test", "func F() {}\n", "", &rc)); /* no package clause */
    ASSERT_INT_EQ(rc, -EINVAL);
    ASSERT_NULL(seal("rust", "", "// fn main() {}\nfn other() {}\n", &rc));
    ASSERT_INT_EQ(rc, -EINVAL);
    ASSERT_NULL(
        seal("rust_test", "", "mod a { #[test] fn x() {} }\nmod b { #[test] fn y() {} }", &rc));
    ASSERT_INT_EQ(rc, -EINVAL); /* the sentinel would not see both */
}

static void test_go(void)
{
    const char *code = "// a comment before the clause\npackage main\n\nimport \"testing\"\n\n"
                       "func Add(a, b int) int { return a + b }\n";
    const char *tests =
        "func TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"x\")\n\t}\n}\n";
    int rc;
    char *out = seal("go_test", code, tests, &rc);
    ASSERT_INT_EQ(rc, 0);
    ASSERT_STR_CONTAINS(out, "package main\n\nimport (\n\tvflag \"flag\"\n\tvos \"os\"\n"
                             "\tvtesting \"testing\"\n)\n\n\nimport (\n\t\"testing\"\n)\n"
                             "// a comment before the clause"); /* one block (goimports.h) */
    ASSERT_STR_CONTAINS(out, "func TestMain(verdictM *vtesting.M) {");
    ASSERT_STR_CONTAINS(out, "verdictRC := verdictM.Run()");
    free(out);
    /* the dataset harness's Go: code and tests joined, tests blank */
    out = seal("go",
               "package main\nimport \"fmt\"\nfunc main() {\n\tfmt.Println(`func main() {`)\n}\n",
               "", &rc);
    ASSERT_INT_EQ(rc, 0);
    ASSERT_STR_CONTAINS(out, "func verdictTestsMain() {\n\tfmt.Println(`func main() {`)");
    ASSERT_STR_CONTAINS(out, "func main() {\n\tverdictTestsMain()");
    free(out);
}

static void test_rust(void)
{
    const char *tests =
        "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n"
        "    fn test_a() { assert_eq!(add(1, 2), 3); std::assert!(true); }\n"
        "    #[test]\n    #[should_panic]\n    fn test_b() { panic!(\"x\"); }\n"
        "    #[test]\n    #[ignore]\n    fn test_c() { }\n"
        "    #[test]\n    fn test_d() -> Result<(), String> { Ok(()) }\n"
        "    fn lifetime<'a>(s: &'a str) -> &'a str { let _ = r#\"assert!(\"#; s }\n"
        "}\n";
    int rc;
    char *out = seal("rust_test", "fn add(a: i32, b: i32) -> i32 { a + b }", tests, &rc);
    ASSERT_INT_EQ(rc, 0);
    ASSERT_STR_CONTAINS(out, "::std::assert_eq!(add(1, 2), 3); std::assert!(true);");
    ASSERT_STR_CONTAINS(out, "::std::panic!(\"x\")");
    ASSERT_STR_CONTAINS(out, "r#\"assert!(\"#"); /* a raw string is not code */
    ASSERT_INT_EQ(count(out, "::std::::std"), 0);
    const char *sentinel = strstr(out, "fn verdict_seal_sentinel_() {");
    ASSERT_TRUE(sentinel && sentinel > strstr(out, "fn lifetime")); /* inside mod tests, last */
    ASSERT_STR_CONTAINS(sentinel,
                        "    test_a();\n"
                        "    ::std::assert!(::std::panic::catch_unwind(test_b).is_err());\n"
                        "    ::std::result::Result::unwrap(test_d());\n");
    ASSERT_FALSE(strstr(sentinel, "test_c") != NULL);
    ASSERT_STR_CONTAINS(sentinel, "}\n}\n"); /* the sentinel's brace, then the module's */
    free(out);
    out =
        seal("rust", "fn add(a: i32, b: i32) -> i32 {\n    a + b",
             "}\n\nfn main() {\n    let candidate = add;\n    assert_eq!(candidate(1, 2), 3);\n}\n",
             &rc);
    ASSERT_INT_EQ(rc, 0);
    ASSERT_STR_CONTAINS(out, "fn verdict_tests_main_() {");
    ASSERT_STR_CONTAINS(out, "fn main() {\n    verdict_tests_main_();\n");
    free(out);
}

static void test_rust_without_tests(void)
{
    /* HumanEval-X Rust/32: the tests are a comment; libtest passes them, so does the seal */
    int rc;
    char *out = seal("rust_test", "fn f() {}", "/*\nmod tests { #[test] fn t() {} }\n*/\n", &rc);
    ASSERT_INT_EQ(rc, 0);
    ASSERT_STR_CONTAINS(out, "*/\n\n#[test]\nfn verdict_seal_sentinel_() {\n    static VERDICT_K");
    free(out);
}

static void test_marker(void)
{
    char a[SEAL_MARKER_LEN], b[SEAL_MARKER_LEN], c[SEAL_MARKER_LEN];
    ASSERT_INT_EQ(seal_marker("c", "int f;", "int main() {}", a), 0);
    ASSERT_INT_EQ(seal_marker("c", "int f;", "int main() {}", b), 0);
    ASSERT_INT_EQ(seal_marker("c", "int f; ", "int main() {}", c), 0);
    ASSERT_STR_EQ(a, b); /* the same sources: the same program, the compile cache hits */
    ASSERT_FALSE(strcmp(a, c) == 0);
    ASSERT_INT_EQ(seal_marker("cpp", "int f;", "int main() {}", c), 0);
    ASSERT_FALSE(strcmp(a, c) == 0);
    ASSERT_UINT_EQ(strlen(a), 34);
    ASSERT_TRUE(strncmp(a, "VS", 2) == 0 && strspn(a + 2, "0123456789abcdef") == 32);
    /* the same arguments split differently hash differently */
    ASSERT_INT_EQ(seal_marker("c", "ab", "c", b), 0);
    ASSERT_INT_EQ(seal_marker("c", "a", "bc", c), 0);
    ASSERT_FALSE(strcmp(b, c) == 0);
}

static void test_marker_not_in_program(void)
{
    static const char *const cases[][3] = {
        {"c", "", "int main() { return 0; }"},
        {"cpp", "", "int main() { return 0; }"},
        {"go", "package main\n", "func main() {}\n"},
        {"go_test", "package main\nimport \"testing\"\n", "func TestX(t *testing.T) {}\n"},
        {"rust", "", "fn main() {}\n"},
        {"rust_test", "", "mod tests { #[test] fn t() {} }\n"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char m[SEAL_MARKER_LEN], *out = NULL, *again = NULL, err[ERR_LEN];
        struct seal_slots sl, sl2;
        ASSERT_INT_EQ(seal_marker(cases[i][0], cases[i][1], cases[i][2], m), 0);
        ASSERT_INT_EQ(seal_program(cases[i][0], cases[i][1], cases[i][2], m, &sl, &out, err), 0);
        ASSERT_INT_EQ(seal_program(cases[i][0], cases[i][1], cases[i][2], m, &sl2, &again, err), 0);
        ASSERT_STR_EQ(out, again); /* deterministic: the compile cache hits */
        ASSERT_TRUE(memcmp(&sl, &sl2, sizeof(sl)) == 0);
        ASSERT_NULL(strstr(out, m));
        ASSERT_NULL(strstr(out, m + 2)); /* not even its hex digits */
        /* the slots' XOR is the marker line; the source holds the placeholders, not them */
        char line[SEAL_LINE_MAX + 1];
        ASSERT_UINT_EQ(sl.len, strlen(m) + 2);
        for (size_t k = 0; k < sl.len; k++)
            line[k] = (char)(sl.put[0][k] ^ sl.put[1][k]);
        line[sl.len] = '\0';
        ASSERT_TRUE(line[0] == '\n' && strncmp(line + 1, m, strlen(m)) == 0);
        const char *sfx = strncmp(cases[i][0], "rust", 4) == 0 ? "u8" : "";
        for (int k = 0; k < 2; k++) {
            char put[48], find[48];
            snprintf(put, sizeof(put), "0x%02x%s, 0x%02x%s, 0x%02x", sl.put[k][0], sfx,
                     sl.put[k][1], sfx, sl.put[k][2]);
            snprintf(find, sizeof(find), "0x%02x%s, 0x%02x%s, 0x%02x", sl.find[k][0], sfx,
                     sl.find[k][1], sfx, sl.find[k][2]);
            ASSERT_NULL(strstr(out, put));
            ASSERT_NOT_NULL(strstr(out, find));
        }
        free(out);
        free(again);
    }
}

static void test_many_edits(void)
{
    char *tests = malloc(64 * 1024), *w = tests;
    w += sprintf(w, "mod tests {\n#[test]\nfn t() {\n");
    for (int i = 0; i < 2000; i++)
        w += sprintf(w, "assert!(%d > 0);\n", i + 1);
    sprintf(w, "}\n}\n");
    int rc;
    char *out = seal("rust_test", "", tests, &rc);
    ASSERT_INT_EQ(rc, 0);
    ASSERT_INT_EQ(count(out, "::std::assert!("), 2000);
    free(out);
    free(tests);
}

/* Bad test code or candidate code: every prefix of texts with unterminated comments and
 * literals, never a crash, an error only -EINVAL. */
static void test_truncated_input(void)
{
    static const char *const cases[][2] = {
        {"c", "int main() { /* x */ char *s = \"}\\\"\"; char c = '\\''; return 0; }"},
        {"cpp", "}\nint main() { auto s = R\"d(})d\"; // }\n return 0; }"},
        {"go", "package main\nfunc main() { s := `}` + \"}\" + string('}') }\n"},
        {"go_test", "package main\nimport \"testing\"\nfunc TestX(t *testing.T) { /* } */ }\n"},
        {"rust", "}\nfn main() { let s = r#\"}\"#; let c = '}'; /* /* } */ */ }\n"},
        {"rust_test", "mod tests { #[test] fn t<'a>() { let _ = b'}'; let _ = \"}\"; } }\n"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        size_t n = strlen(cases[i][1]);
        for (size_t k = 0; k <= n; k++) {
            char *t = strndup(cases[i][1], k), *out = NULL, err[ERR_LEN];
            bool go = strncmp(cases[i][0], "go", 2) == 0;
            struct seal_slots sl;
            int rc = seal_program(cases[i][0], go ? "" : t, go ? t : t, MARKER, &sl, &out, err);
            ASSERT_TRUE(rc == 0 || rc == -EINVAL);
            ASSERT_TRUE(rc == 0 ? out != NULL : *err != '\0');
            free(out);
            free(t);
        }
    }
}

int main(void)
{
    TEST_RUN(test_supports);
    TEST_RUN(test_c_main_past_comments_and_literals);
    TEST_RUN(test_c_parameters_and_void);
    TEST_RUN(test_c_macros_undone);
    TEST_RUN(test_c_tests_closing_the_prompt);
    TEST_RUN(test_missing_entry);
    TEST_RUN(test_go);
    TEST_RUN(test_rust);
    TEST_RUN(test_rust_without_tests);
    TEST_RUN(test_marker);
    TEST_RUN(test_marker_not_in_program);
    TEST_RUN(test_many_edits);
    TEST_RUN(test_truncated_input);
    return TEST_EXIT();
}
