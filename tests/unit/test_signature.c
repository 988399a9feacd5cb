/* Unit tests for server/judge/signature: a prompt's last declaration of its entry point found
 * past comments, literals, preprocessor lines and the bodies of other functions that call it;
 * a program's first one; plainness refuses what could run or define in a grader. */
#include "server/judge/signature.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void test_prompt_last(void)
{
    const char *prompt = "/* >>> f({1, 2}) */\n#include <vector>\n#define f(x) g(x)\n"
                         "using namespace std;\nint helper(int a) { return f(a); }\n"
                         "// f(3) == 4\nstd::vector<std::vector<long>> f(std::vector<long> v, "
                         "const std::string &s) {\n";
    struct signature s;
    ASSERT_INT_EQ(signature_find(prompt, "f", true, false, &s), 0);
    ASSERT_STR_EQ(s.text, "std :: vector < std :: vector < long > > f ( std :: vector < long > v "
                          ", const std :: string & s )");
    ASSERT_TRUE(s.plain);
    ASSERT_TRUE(strncmp(prompt + s.start, "std::vector<std::vector", 23) == 0);
    signature_fini(&s);
}

static void test_code_first_and_plain(void)
{
    struct signature s;
    ASSERT_INT_EQ(
        signature_find("long g(long x);\nlong g(long x) { return x; }\n", "g", false, false, &s),
        0);
    ASSERT_STR_EQ(s.text, "long g ( long x )");
    ASSERT_TRUE(s.plain);
    signature_fini(&s);
    static const char *const smuggled[] = {
        "long g(long x = ([] { exit(0); return 0; }())) { return x; }\n",
        "long g(const char *s = \"x\") { return 0; }\n",
        "__attribute__((constructor)) long g(long x) { return x; }\n",
    };
    for (size_t i = 0; i < sizeof(smuggled) / sizeof(smuggled[0]); i++) {
        ASSERT_INT_EQ(signature_find(smuggled[i], "g", false, false, &s), 0);
        ASSERT_FALSE(s.plain);
        signature_fini(&s);
    }
    /* a preprocessor line inside the declaration is never copied */
    ASSERT_INT_EQ(signature_find("long g(long x\n#define assert(x)\n) { return x; }\n", "g", false,
                                 false, &s),
                  0);
    ASSERT_STR_EQ(s.text, "long g ( long x )");
    signature_fini(&s);
}

/* D: a template instance ends a return type; its parentheses are no parameter list */
static void test_d_template_instances(void)
{
    const char *prompt =
        "import std.typecons;\n/*\n >>> f(tuple(1L, 2L))\n*/\n"
        "Tuple!(long, Nullable!(string))[] f(Tuple!(long, long) p, long[string] m) \n";
    struct signature s;
    ASSERT_INT_EQ(signature_find(prompt, "f", true, false, &s), 0);
    ASSERT_STR_EQ(s.text,
                  "Tuple ! ( long , Nullable ! ( string ) ) [ ] f ( Tuple ! ( long , long ) "
                  "p , long [ string ] m )");
    ASSERT_STR_EQ(s.args, "p, m");
    ASSERT_TRUE(s.plain && s.returns);
    signature_fini(&s);
    ASSERT_INT_EQ(
        signature_find("Nullable!(long) g(long x) { return x; }\n", "g", false, false, &s), 0);
    ASSERT_STR_EQ(s.text, "Nullable ! ( long ) g ( long x )");
    ASSERT_TRUE(s.plain);
    signature_fini(&s);
    /* a call's parentheses end no type: (x) g(...) is no declaration */
    ASSERT_INT_EQ(signature_find("long x = (1) g(2);\n", "g", false, false, &s), -ENOENT);
}

/* Scala: a member of an object, its parameters named before their types, its return type
 * after them */
/* Go: `func` starts the declaration, each parameter's name is its first identifier (`a, b
 * float64` names two), the result type follows the list, an interface{}'s braces included */
static void test_go(void)
{
    const char *prompt = "package main\n\nimport (\n    \"math\"\n)\n// >>> F(1)\n"
                         "func g(x int) int { return x }\n"
                         "func F(numbers []float64, a, b int, m map[string]interface{}) "
                         "[]interface{} {\n";
    struct signature s;
    ASSERT_INT_EQ(signature_find(prompt, "F", true, false, &s), 0);
    ASSERT_STR_EQ(s.text, "func F ( numbers [ ] float64 , a , b int , m map [ string ] interface "
                          "{ } ) [ ] interface { }");
    ASSERT_STR_EQ(s.args, "numbers, a, b, m");
    ASSERT_STR_EQ(s.type, "[ ] interface { }");
    ASSERT_TRUE(s.plain && s.returns);
    signature_fini(&s);
    /* no result: returns nothing; two results: a parenthesised list */
    ASSERT_INT_EQ(signature_find("func f(x int) {\n", "f", true, false, &s), 0);
    ASSERT_STR_EQ(s.type, "");
    ASSERT_STR_EQ(s.args, "x");
    ASSERT_TRUE(!s.returns);
    signature_fini(&s);
    /* a variadic parameter: `...` stays one token (McEval Go/12) */
    ASSERT_INT_EQ(signature_find("func f(scores ...int) int {\n", "f", true, false, &s), 0);
    ASSERT_STR_EQ(s.text, "func f ( scores ... int ) int");
    ASSERT_STR_EQ(s.args, "scores");
    signature_fini(&s);
    ASSERT_INT_EQ(signature_find("func f(x int) (int, error) {\n", "f", true, false, &s), 0);
    ASSERT_STR_EQ(s.type, "( int , error )");
    ASSERT_TRUE(s.returns);
    signature_fini(&s);
    /* a struct literal's braces are a scope to an untrusted declaration: not plain */
    ASSERT_INT_EQ(signature_find("func f(x struct{ a int }) int {\n", "f", true, false, &s), 0);
    ASSERT_TRUE(!s.plain);
    signature_fini(&s);
}

/* Rust: the item that `fn` names (its `pub` kept), a parameter's `mut` binding dropped (its type is
 * the declaration's), `->` stays whole and the return type runs to the body's `{` or a `where` */
static void test_rust(void)
{
    const char *prompt = "use std::collections::HashMap;\n/// >>> f(vec![1])\n"
                         "fn g(x: i64) -> i64 { x }\n"
                         "pub fn f(mut v: Vec<i64>, s: &str, w: &mut Vec<String>, "
                         "m: HashMap<String, (i64, f64)>) -> Option<Vec<(i64, i64)>> {\n";
    struct signature s;
    ASSERT_INT_EQ(signature_find(prompt, "f", true, false, &s), 0);
    ASSERT_STR_EQ(s.text, "pub fn f ( v : Vec < i64 > , s : & str , w : & mut Vec < String > , m : "
                          "HashMap < String , ( i64 , f64 ) > ) -> Option < Vec < ( i64 , i64 ) "
                          "> >");
    ASSERT_STR_EQ(s.args, "v, s, w, m");
    ASSERT_STR_EQ(s.type, "Option < Vec < ( i64 , i64 ) > >");
    ASSERT_TRUE(s.returns && s.plain);
    signature_fini(&s);
    ASSERT_INT_EQ(signature_find("fn f(x: i32) {\n", "f", true, false, &s), 0);
    ASSERT_STR_EQ(s.text, "fn f ( x : i32 )");
    ASSERT_TRUE(!s.returns);
    signature_fini(&s);
    ASSERT_INT_EQ(signature_find("fn f(x: i32) -> bool where i32: Copy {\n", "f", true, false, &s),
                  0);
    ASSERT_STR_EQ(s.type, "bool");
    signature_fini(&s);
    /* a generic entry point is no declaration a proxy can take: none is found */
    ASSERT_INT_EQ(signature_find("fn f<T: Ord>(x: T) -> T {\n", "f", true, false, &s), -ENOENT);
}

static void test_scala_member(void)
{
    const char *prompt =
        "import scala.collection.mutable._\nobject Problem {\n    // >>> f(1l)\n"
        "    def g(x : Long) : Long = x\n"
        "    def f(numbers : List[Float], m : Map[String,Long]) : Option[Tuple2[Long, "
        "Long]] = {\n";
    struct signature s;
    ASSERT_INT_EQ(signature_find(prompt, "f", true, true, &s), 0);
    ASSERT_STR_EQ(s.text,
                  "def f ( numbers : List [ Float ] , m : Map [ String , Long ] ) : Option [ "
                  "Tuple2 [ Long , Long ] ]");
    ASSERT_STR_EQ(s.args, "numbers, m");
    ASSERT_STR_EQ(s.type, "Option [ Tuple2 [ Long , Long ] ]");
    ASSERT_STR_EQ(s.owner, "Problem");
    ASSERT_TRUE(s.plain && s.returns);
    signature_fini(&s);
    ASSERT_INT_EQ(signature_find("object P {\n  def u(a : Long) : Unit = {\n", "u", true, true, &s),
                  0);
    ASSERT_FALSE(s.returns);
    signature_fini(&s);
}

/* Java: a member at depth 1, its class, its parameters' names, a void return */
static void test_member(void)
{
    const char *prompt = "import java.util.*;\nclass Problem {\n    // >>> f(g(1), 2)\n"
                         "    static long g(long x) { return f(x, 1); }\n"
                         "    public static HashMap<String, ArrayList<Long>> f(Map<Long, Long> m, "
                         "long[] xs, long... rest) {\n";
    struct signature s;
    ASSERT_INT_EQ(signature_find(prompt, "f", true, true, &s), 0);
    ASSERT_STR_EQ(s.text, "public static HashMap < String , ArrayList < Long > > f ( Map < Long , "
                          "Long > m , long [ ] xs , long ... rest )"); /* `...` whole */
    ASSERT_STR_EQ(s.args, "m, xs, rest");
    ASSERT_STR_EQ(s.type, "HashMap < String , ArrayList < Long > >");
    ASSERT_STR_EQ(s.owner, "Problem");
    ASSERT_TRUE(s.returns);
    ASSERT_FALSE(s.plain); /* brackets and dots */
    signature_fini(&s);
    ASSERT_INT_EQ(signature_find("class A { void h() {} }\nclass B {\n public void h(int a) {", "h",
                                 true, true, &s),
                  0);
    ASSERT_STR_EQ(s.owner, "B");
    ASSERT_STR_EQ(s.type, "void");
    ASSERT_STR_EQ(s.args, "a");
    ASSERT_FALSE(s.returns);
    signature_fini(&s);
    /* at depth 0 a member is not found, and a member search skips a free function */
    ASSERT_INT_EQ(signature_find(prompt, "f", true, false, &s), -ENOENT);
    ASSERT_INT_EQ(signature_find("long f(long x) { return x; }\n", "f", true, true, &s), -ENOENT);
}

static void test_none(void)
{
    struct signature s;
    ASSERT_INT_EQ(
        signature_find("int main() { return f(1); }\n// int f(int)\n", "f", true, false, &s),
        -ENOENT);
    ASSERT_INT_EQ(signature_find("int x = f(2);\n", "f", false, false, &s), -ENOENT);
    ASSERT_INT_EQ(signature_find("", "f", false, false, &s), -ENOENT);
}

int main(void)
{
    TEST_RUN(test_prompt_last);
    TEST_RUN(test_code_first_and_plain);
    TEST_RUN(test_d_template_instances);
    TEST_RUN(test_go);
    TEST_RUN(test_rust);
    TEST_RUN(test_scala_member);
    TEST_RUN(test_member);
    TEST_RUN(test_none);
    return TEST_EXIT();
}
