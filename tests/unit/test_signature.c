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
    ASSERT_INT_EQ(signature_find(prompt, "f", true, &s), 0);
    ASSERT_STR_EQ(s.text, "std :: vector < std :: vector < long > > f ( std :: vector < long > v "
                          ", const std :: string & s )");
    ASSERT_TRUE(s.plain);
    ASSERT_TRUE(strncmp(prompt + s.start, "std::vector<std::vector", 23) == 0);
    free(s.text);
}

static void test_code_first_and_plain(void)
{
    struct signature s;
    ASSERT_INT_EQ(signature_find("long g(long x);\nlong g(long x) { return x; }\n", "g", false, &s),
                  0);
    ASSERT_STR_EQ(s.text, "long g ( long x )");
    ASSERT_TRUE(s.plain);
    free(s.text);
    static const char *const smuggled[] = {
        "long g(long x = ([] { exit(0); return 0; }())) { return x; }\n",
        "long g(const char *s = \"x\") { return 0; }\n",
        "__attribute__((constructor)) long g(long x) { return x; }\n",
    };
    for (size_t i = 0; i < sizeof(smuggled) / sizeof(smuggled[0]); i++) {
        ASSERT_INT_EQ(signature_find(smuggled[i], "g", false, &s), 0);
        ASSERT_FALSE(s.plain);
        free(s.text);
    }
    /* a preprocessor line inside the declaration is never copied */
    ASSERT_INT_EQ(
        signature_find("long g(long x\n#define assert(x)\n) { return x; }\n", "g", false, &s), 0);
    ASSERT_STR_EQ(s.text, "long g ( long x )");
    free(s.text);
}

static void test_none(void)
{
    struct signature s;
    ASSERT_INT_EQ(signature_find("int main() { return f(1); }\n// int f(int)\n", "f", true, &s),
                  -ENOENT);
    ASSERT_INT_EQ(signature_find("int x = f(2);\n", "f", false, &s), -ENOENT);
    ASSERT_INT_EQ(signature_find("", "f", false, &s), -ENOENT);
}

int main(void)
{
    TEST_RUN(test_prompt_last);
    TEST_RUN(test_code_first_and_plain);
    TEST_RUN(test_none);
    return TEST_EXIT();
}
