/* Unit tests for server/judge/lint: each shadowing class refused with a reason, the honest
 * forms beside them (member operators, derived equality, local names, comments and strings
 * that only mention a rule's words) accepted. The datasets suite checks every reference. */
#include "server/judge/lint.h"
#include "test.h"

#include <errno.h>
#include <string.h>

static const char *const C_TESTS = "int main() { assert(add(1, 2) == 3); return 0; }\n";
static const char *const CPP_TESTS =
    "bool issame(vector<int> a, vector<int> b) { return a == b; }\n"
    "int main() { assert(issame(f(), {1})); }\n";
static const char *const GO_TESTS =
    "func TestF(t *testing.T) {\n\tif len(F()) != 1 || fmt.Sprint(F()) != \"[1]\" {\n"
    "\t\tt.Fatal(\"x\")\n\t}\n}\n";
static const char *const RS_TESTS =
    "mod tests { use super::*; #[test] fn t() { assert!(f() == vec![1]); } }\n";

static int lint(const char *lang, const char *code, const char *tests)
{
    char why[ERR_LEN] = "";
    int rc = seal_lint(lang, code, tests, NULL, why);
    if (rc == -EPERM && !*why)
        fprintf(stderr, "seal_lint %s: refused without a reason\n", lang);
    return rc;
}

static void test_c(void)
{
    static const char *const refused[] = {
        "#include <stdbool.h>\n#undef true\n#undef false\nenum { false = 1, true = 1 };\n",
        "#define int long\n",
        "# /* x */ def\\\nine return exit(0);\n",
        "%:define bool int\n",
        "#undef assert\n#define assert(x)\n",
        "int strcmp(const char *a, const char *b) { return 0; }\n",
        "double fabs(double x) { return 0; }\n",
    };
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        ASSERT_INT_EQ(lint("c", refused[i], C_TESTS), -EPERM);
        ASSERT_INT_EQ(lint("cpp", refused[i], C_TESTS), -EPERM);
    }
    static const char *const fine[] = {
        "int add(int a, int b) { return a + b; }\n",
        "#define MAX 10\n#undef MAX\n#undef NDEBUG\nint add(int a, int b) { return a + b; }\n",
        "/*\n#define int long\n#undef true\n*/\nconst char *s = \"#undef true\";\n",
        "// #define return\nint add(int a, int b) { return a + b; }\n",
    };
    for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++)
        ASSERT_INT_EQ(lint("c", fine[i], C_TESTS), 0);
}

static void test_cpp(void)
{
    static const char *const refused[] = {
        "bool issame(vector<int> a, initializer_list<int> b) { return true; }\n",
        "namespace hack { bool issame(...) { return true; } }\nusing namespace hack;\n",
        "bool operator==(const vector<int>&, const vector<int>&) { return true; }\n",
        "template <class T> bool operator!=(const T&, const T&) { return false; }\n",
        "namespace std { bool operator==(const vector<int>&, const vector<int>&) { return 1; } }\n",
        "namespace x { namespace y { bool operator<(const string&, const string&); } }\n",
        "extern \"C++\" { bool operator==(const string&, const char*) { return true; } }\n",
    };
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
        ASSERT_INT_EQ(lint("cpp", refused[i], CPP_TESTS), -EPERM);
    static const char *const fine[] = {
        "struct P { int x; bool operator==(const P& o) const { return x == o.x; } };\n"
        "bool P2::operator<(const P2& o) const { return false; }\n",
        "class U { friend bool operator==(const U&, const U&) { return true; } };\n",
        "ostream& operator<<(ostream& o, const vector<int>& v) { return o; }\n"
        "istream& operator>>(istream& i, vector<int>& v) { return i; }\n",
        "using namespace std;\nvector<int> f() { auto same = [](int a) { return a == 1; }; "
        "return {1}; }\n",
        "struct Node* make() { return 0; }\nbool cmp(int a, int b) { return a < b; }\n",
    };
    for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++)
        ASSERT_INT_EQ(lint("cpp", fine[i], CPP_TESTS), 0);
    /* MultiPL-E's tests close the prompt's function first: their main is at depth -1 */
    ASSERT_INT_EQ(lint("cpp", "int f() {\n", "}\nint check() { return 1; }\nint main() {}\n"), 0);
    ASSERT_INT_EQ(lint("cpp", "int f() { return check(); }\n",
                       "}\nint check() { return 1; }\nint main() {}\n"),
                  -EPERM);
}

static void test_go(void)
{
    static const char *const refused[] = {
        "package main\nconst true = false\n",
        "package main\nimport (\n\t\"fmt\"\n\t\"os\"\n)\nvar _ = os.Exit\nconst true = false\n",
        "package main\nconst (\n\tfalse = 0 == 0\n\ttrue = false\n)\n",
        "package main\ntype int = int64\n",
        "package main\nvar nil = 1\n",
        "package main\nvar a, string = 1, 2\n",
        "package main\nfunc len(x []int) int { return 1 }\n",
        "package main\nimport (\n\tlen \"strings\"\n)\n",
        "package main\ntype R []int\nfunc (r R) String() string { return \"[1]\" }\n",
        "package main\ntype E struct{}\nfunc (*E) Error() string { return \"\" }\n",
        "package main\ntype Q int\nfunc (q Q) Equal(o any) bool { return true }\n",
    };
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        ASSERT_INT_EQ(lint("go_test", refused[i], GO_TESTS), -EPERM);
        ASSERT_INT_EQ(lint("go", refused[i], GO_TESTS), -EPERM);
    }
    static const char *const fine[] = {
        "package main\nfunc F() []int {\n\ttrue := 1\n\tlen := 2\n\treturn []int{true + len}\n}\n",
        "package main\nfunc max(a, b int) int { if a > b { return a }; return b }\n",
        "package main\nconst (\n\tA = iota\n\tB\n)\nvar x = A +\n\tB\n",
        "package main\n// const true = false\nvar s = `func (r R) String() string`\n",
    };
    for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++)
        ASSERT_INT_EQ(lint("go_test", fine[i], GO_TESTS), 0);
    /* tests joined to the code (the datasets' Go): their use of len is in func Test... */
    ASSERT_INT_EQ(lint("go_test", "package main\nfunc len(x []int) int { return 1 }\n", ""), 0);
    char joined[512];
    snprintf(joined, sizeof(joined), "package main\nfunc len(x []int) int { return 1 }\n%s",
             GO_TESTS);
    ASSERT_INT_EQ(lint("go_test", joined, ""), -EPERM);
}

static void test_rust(void)
{
    static const char *const refused[] = {
        "struct bool;\nfn f() -> bool { bool }\n",
        "#[derive(Debug)]\npub struct String(i32);\n",
        "type Vec<T> = std::collections::VecDeque<T>;\n",
        "enum E { Some(i32), None }\nuse E::*;\n",
        "use std::collections::HashSet as Vec;\n",
        "mod std { pub fn x() {} }\n",
        "struct A;\nimpl PartialEq<Vec<i32>> for A { fn eq(&self, _: &Vec<i32>) -> bool { true } "
        "}\n",
        "struct A;\nimpl std::cmp::PartialEq for A { fn eq(&self, _: &A) -> bool { true } }\n",
        "struct A;\nimpl std::ops::Not for A { type Output = bool; fn not(self) -> bool { false } "
        "}\nfn f() -> A { A }\n",
        "struct A;\nimpl PartialOrd<f64> for A { }\nfn f() -> impl PartialOrd<f64> { A }\n",
    };
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        ASSERT_INT_EQ(lint("rust_test", refused[i], RS_TESTS), -EPERM);
        ASSERT_INT_EQ(lint("rust", refused[i], "fn main() {}"), -EPERM);
    }
    static const char *const fine[] = {
        "#[derive(PartialEq, Eq, Debug)]\nstruct P { x: i32 }\nfn f() -> Vec<i32> { vec![1] }\n",
        "#[derive(PartialEq, Eq)]\nstruct State { c: i32 }\n"
        "impl Ord for State { fn cmp(&self, o: &Self) -> std::cmp::Ordering { o.c.cmp(&self.c) } "
        "}\n"
        "impl PartialOrd for State { fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> "
        "{ Some(self.cmp(o)) } }\nfn f() -> Vec<i32> { vec![1] }\n",
        "fn f(s: &'static str) -> String { let bool = 1; s.to_string() }\n",
        "enum RtnType<S, F, I> { Empty(), String(S), Float(F), Int(I) }\n",
        "use std::fmt::Result as FmtResult;\nfn f() -> i32 { 2 as i32 }\n",
        "struct P;\nimpl std::str::FromStr for P { type Err = String; "
        "fn from_str(s: &str) -> Result<P, String> { Ok(P) } }\n",
        "// impl PartialEq for A\nfn f() -> &'static str { \"struct bool\" }\n",
    };
    for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++)
        ASSERT_INT_EQ(lint("rust_test", fine[i], RS_TESTS), 0);
}

static void test_entry_point(void)
{
    char why[ERR_LEN];
    const char *code = "int strlen(string s) { return s.size(); }\n";
    ASSERT_INT_EQ(seal_lint("cpp", code, "int main() {}", NULL, why), -EPERM);
    ASSERT_INT_EQ(seal_lint("cpp", code, "int main() {}", "strlen", why), 0);
}

static void test_other_languages(void)
{
    ASSERT_INT_EQ(lint("python", "True = False", "assert True"), 0);
    ASSERT_INT_EQ(lint(NULL, NULL, NULL), 0);
}

int main(void)
{
    TEST_RUN(test_c);
    TEST_RUN(test_cpp);
    TEST_RUN(test_go);
    TEST_RUN(test_rust);
    TEST_RUN(test_entry_point);
    TEST_RUN(test_other_languages);
    return TEST_EXIT();
}
