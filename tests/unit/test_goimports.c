/* goimports: Go imports made one block of what the source uses. */
#include "server/judge/goimports.h"
#include "test.h"
#include <stdlib.h>
#include <string.h>

static void test_merge(void)
{
    const char *src =
        "package main\n\nimport (\n    \"testing\"\n    \"github.com/stretchr/testify/assert\"\n"
        ")\nimport \"math\"\n\n// strings.Split is mentioned in a comment\n"
        "func F(s string) int {\n\tx := \"sort.Ints\"\n\treturn len(strconv.Itoa(len(x)))\n}\n"
        "package main\nimport \"strconv\"\n"
        "func TestF(t *testing.T) {\n\tassert := assert.New(t)\n\tassert.Equal(1, F(\"\"))\n}\n";
    char *out = goimports_fix(src);
    ASSERT_TRUE(out != NULL);
    ASSERT_TRUE(strncmp(out, "package main\n\nimport (\n", 23) == 0);
    ASSERT_TRUE(strstr(out, "\"testing\"") != NULL);
    ASSERT_TRUE(strstr(out, "\"github.com/stretchr/testify/assert\"") != NULL);
    ASSERT_TRUE(strstr(out, "\"strconv\"") != NULL);
    ASSERT_TRUE(strstr(out, "\"math\"") == NULL);         /* imported, unused: dropped */
    ASSERT_TRUE(strstr(out, "\"strings\"") == NULL);      /* only in a comment */
    ASSERT_TRUE(strstr(out, "\"sort\"") == NULL);         /* only in a string */
    ASSERT_TRUE(strstr(out + 1, "package main") == NULL); /* one package clause */
    free(out);

    /* A standard package used but not imported is added; aliases and blank imports stay. */
    out = goimports_fix("package p_test\nimport (\n\tb \"bytes\"\n\t_ \"embed\"\n)\n"
                        "func F() string { return fmt.Sprint(b.MinRead, math.Pi) }\n");
    ASSERT_TRUE(strstr(out, "\tb \"bytes\"") != NULL);
    ASSERT_TRUE(strstr(out, "\t_ \"embed\"") != NULL);
    ASSERT_TRUE(strstr(out, "\t\"fmt\"") != NULL);
    ASSERT_TRUE(strstr(out, "\t\"math\"") != NULL);
    free(out);

    /* No package clause: unchanged. */
    out = goimports_fix("func F() {}\n");
    ASSERT_STR_EQ(out, "func F() {}\n");
    free(out);
}

/* Imports after declarations (a runtime appended to the tests) are hoisted into the block. */
static void test_hoisted(void)
{
    char *out = goimports_fix("package main\nimport \"fmt\"\nfunc F() { fmt.Println() }\n"
                              "import (\n\tvos \"os\"\n)\nfunc G() { vos.Exit(0) }\n");
    ASSERT_TRUE(out != NULL);
    ASSERT_TRUE(strncmp(out, "package main\n\nimport (\n\t\"fmt\"\n\tvos \"os\"\n)\n", 41) == 0);
    ASSERT_TRUE(strstr(out, "func G() { vos.Exit(0) }") != NULL);
    free(out);
}

/* An `import (` a candidate leaves open before the tests (in a function of its own that the
 * tests' body would then close) is not an import: the tests' header is never swallowed. */
static void test_unclosed_block_swallows_nothing(void)
{
    const char *src = "package p_test\nimport \"testing\"\nfunc F() int { return 1 }\n"
                      "func dummy(t *testing.T) {\nimport (\n"
                      "}\n\nfunc TestF(t *testing.T) {\n\tif F() != 2 {\n\t\tt.Fail()\n\t}\n}\n";
    char *out = goimports_fix(src);
    ASSERT_TRUE(out != NULL);
    ASSERT_TRUE(strstr(out, "func TestF(t *testing.T) {") != NULL);
    ASSERT_TRUE(strstr(out, "{\nimport (\n}") != NULL); /* left where it was */
    free(out);
    /* nor does a lone `import` before them, nor one whose spec is not a path */
    out = goimports_fix("package p\nimport\nfunc TestF(t *testing.T) {}\nimport x\n");
    ASSERT_TRUE(strstr(out, "import\nfunc TestF(t *testing.T) {}\nimport x\n") != NULL);
    free(out);
    /* a comment holding a parenthesis inside a block is a comment */
    out = goimports_fix("package p\nimport (\n\t// fmt (printing)\n\t\"fmt\"\n)\n"
                        "func F() { fmt.Println() }\n");
    ASSERT_TRUE(strstr(out, "\t\"fmt\"\n)\nfunc F()") != NULL);
    free(out);
}

int main(void)
{
    TEST_RUN(test_merge);
    TEST_RUN(test_hoisted);
    TEST_RUN(test_unclosed_block_swallows_nothing);
    return TEST_EXIT();
}
