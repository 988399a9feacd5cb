/* Unit tests for server/datasets/extract (code from LLM completions) and server/util/regex under
 * it. */
#include "server/datasets/extract.h"
#include "server/util/regex.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Extracts from text for lang; returns the code (static copy) and sets *kind, lang_out. */
static char got[1 << 16];
static const char *ex(const char *text, const char *lang, enum extract_kind *kind, char *blk_lang)
{
    struct extracted e;
    if (extract_code(text, strlen(text), lang, &e) < 0)
        return NULL;
    snprintf(got, sizeof(got), "%s", e.code);
    if (kind)
        *kind = e.kind;
    if (blk_lang)
        strcpy(blk_lang, e.language);
    extracted_fini(&e);
    return got;
}

static void test_fenced(void)
{
    enum extract_kind k;
    char l[24];
    const char *c = "Here is my solution:\n\n```python\ndef add(a, b):\n    return a + b\n```\n\n"
                    "It adds the two numbers.";
    ASSERT_STR_EQ(ex(c, "python", &k, l), "def add(a, b):\n    return a + b");
    ASSERT_INT_EQ(k, EXTRACT_FENCED);
    ASSERT_STR_EQ(l, "python");
    ASSERT_STR_EQ(extract_kind_name(k), "fenced");
    /* Several blocks: the first in the requested language wins, else the first. */
    c = "Input:\n```text\n3 4\n```\nCode:\n```cpp\nint "
        "main(){}\n```\nAlso:\n```Python3\nprint(7)\n```";
    ASSERT_STR_EQ(ex(c, "python", &k, l), "print(7)");
    ASSERT_STR_EQ(ex(c, "cpp", &k, l), "int main(){}");
    ASSERT_STR_EQ(ex(c, "c++", &k, l), "int main(){}"); /* the request's alias too */
    ASSERT_STR_EQ(ex(c, "go", &k, l), "3 4");
    ASSERT_STR_EQ(l, "text");
    /* No tag, a wrong tag, a tag with attributes; an indented closing fence. */
    ASSERT_STR_EQ(ex("```\nx = 1\n```", "python", &k, l), "x = 1");
    ASSERT_STR_EQ(l, "");
    ASSERT_STR_EQ(ex("```javascript\nprint(1)\n```", "python", &k, l), "print(1)");
    ASSERT_STR_EQ(l, "nodejs");
    ASSERT_STR_EQ(ex("```py title=\"a.py\"\nprint(2)\n   ```", "python", &k, l), "print(2)");
    ASSERT_STR_EQ(l, "python");
    /* C stays C; CUDA and Go aliases. */
    ASSERT_STR_EQ(ex("```C\nint x;\n```\n```cu\n__global__ void k(){}\n```", "cuda", &k, l),
                  "__global__ void k(){}");
    ASSERT_STR_EQ(ex("```C\nint x;\n```", "c", &k, l), "int x;");
    ASSERT_STR_EQ(l, "c");
    ASSERT_STR_EQ(ex("```golang\npackage main\n```", "go", &k, l), "package main");
    /* An empty block. */
    ASSERT_STR_EQ(ex("```python\n\n```", "python", &k, l), "");
    ASSERT_INT_EQ(k, EXTRACT_FENCED);
}

static void test_incomplete_and_crlf_and_think(void)
{
    enum extract_kind k;
    char l[24];
    /* A completion cut off by max_tokens: the open fence runs to the end. */
    ASSERT_STR_EQ(ex("Sure.\n```rust\nfn main() {\n    println!(\"hi\");\n", "rust", &k, l),
                  "fn main() {\n    println!(\"hi\");\n");
    ASSERT_INT_EQ(k, EXTRACT_INCOMPLETE);
    ASSERT_STR_EQ(extract_kind_name(k), "incomplete_fenced");
    /* A complete block outranks a later incomplete one. */
    ASSERT_STR_EQ(ex("```go\na\n```\nmore\n```go\nb", "go", &k, l), "a");
    ASSERT_INT_EQ(k, EXTRACT_FENCED);
    /* CRLF text gives LF code. */
    ASSERT_STR_EQ(ex("```python\r\nif x:\r\n    y()\r\n```\r\n", "python", &k, l),
                  "if x:\n    y()");
    /* A reasoning section's drafts are not the answer. */
    const char *c = "<think>\nMaybe:\n```python\nprint('draft')\n```\nNo, better:\n</think>\n"
                    "Final:\n```python\nprint('final')\n```";
    ASSERT_STR_EQ(ex(c, "python", &k, l), "print('final')");
    ASSERT_STR_EQ(
        ex("<think>\n```python\nprint(1)\n```\n</think>\nNo code today.", "python", &k, l), "");
    ASSERT_INT_EQ(k, EXTRACT_EMPTY);
}

static void test_heuristic(void)
{
    enum extract_kind k;
    char l[24];
    const char *c = "The answer uses a helper.\n\nimport math\n\n# area\ndef area(r):\n\n"
                    "    return math.pi * r * r\n\ndef twice(x):\n    return 2 * x\nThat is all.";
    ASSERT_STR_EQ(ex(c, "python", &k, l),
                  "import math\n# area\ndef area(r):\n    return math.pi * r * r\n"
                  "def twice(x):\n    return 2 * x\n");
    ASSERT_INT_EQ(k, EXTRACT_HEURISTIC);
    ASSERT_STR_EQ(ex("@cache\nclass A:\n    pass", "python", &k, l),
                  "@cache\nclass A:\n    pass\n");
    /* Only for the requested language, and only python, sql and bash have one. */
    ASSERT_STR_EQ(ex(c, "cpp", &k, l), "");
    ASSERT_INT_EQ(k, EXTRACT_EMPTY);
    ASSERT_STR_EQ(ex("I think SELECT name FROM t WHERE id = 1; works.", "sql", &k, l),
                  "SELECT name FROM t WHERE id = 1;");
    ASSERT_STR_EQ(ex("echo hi", "bash", &k, l), "echo hi");
    /* Prose only. */
    ASSERT_STR_EQ(ex("I cannot solve this problem, sorry.", "python", &k, l), "");
    ASSERT_INT_EQ(k, EXTRACT_EMPTY);
    ASSERT_STR_EQ(ex("", "python", &k, l), "");
}

static void test_postprocess(void)
{
    static const struct {
        const char *lang, *code, *want;
    } cases[] = {
        {"python", "def f():\n    return 1\n\nif __name__ == \"__main__\":\n    print(f())\n",
         "def f():\n    return 1\n\n"},
        {"cpp", "int f() { return 1; }\nint main() { return f(); }\n", "int f() { return 1; }\n"},
        {"golang", "package main\nimport \"fmt\"\n", "import \"fmt\"\n"},
        {"java", "public class Main {\n}\n", "class Solution {\n}\n"},
        {"rust", "fn f() {}\n# Example usage\nf();\n", "fn f() {}\n"},
        {"cpp", "x = 'int main()'\n", "x = 'int main()'\n"}, /* only at the start of a line */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char code[256];
        snprintf(code, sizeof(code), "%s", cases[i].code);
        ASSERT_INT_EQ(extract_postprocess(cases[i].lang, code), strlen(cases[i].want));
        ASSERT_STR_EQ(code, cases[i].want);
    }
}

static void test_huge_inputs(void)
{
    /* A 4 MiB block, and 4 MiB of prose with no fence: a scan, not a backtracking blow-up. */
    size_t n = 4u << 20;
    char *t = malloc(n + 32);
    memcpy(t, "```c\n", 5);
    for (size_t i = 5; i < n; i++)
        t[i] = i % 80 == 0 ? '\n' : 'x';
    strcpy(t + n, "\n```");
    struct extracted e;
    ASSERT_INT_EQ(extract_code(t, strlen(t), "c", &e), 0);
    ASSERT_INT_EQ(e.kind, EXTRACT_FENCED);
    ASSERT_INT_EQ(e.len, n - 5);
    extracted_fini(&e);
    memset(t, 'a', n);
    t[n] = '\0';
    ASSERT_INT_EQ(extract_code(t, n, "python", &e), 0);
    ASSERT_INT_EQ(e.kind, EXTRACT_EMPTY);
    extracted_fini(&e);
    /* A long python body (many indented lines) still comes back whole. */
    size_t o = (size_t)sprintf(t, "def f():\n");
    for (int i = 0; i < 50000; i++)
        o += (size_t)sprintf(t + o, "    x%d = %d\n", i, i);
    ASSERT_INT_EQ(extract_code(t, o, "python", &e), 0);
    ASSERT_INT_EQ(e.kind, EXTRACT_HEURISTIC);
    ASSERT_INT_EQ(e.len, o);
    extracted_fini(&e);
    free(t);
}

static void test_fuzz_smoke(void)
{
    /* Random and fence-heavy inputs through the fuzz entry point (it aborts on a broken
     * invariant; ASan watches the bytes). Deterministic, bounded. */
    static const char *const pieces[] = {"```",      "\n",        "python", " ",
                                         "def f():", "    x",     "\r\n",   "</think>",
                                         "<think>",  "select 1;", "`",      "\0"};
    unsigned seed = 12345;
    uint8_t buf[512];
    for (int round = 0; round < 20000; round++) {
        size_t n = 0;
        seed = seed * 1103515245u + 12345u;
        buf[n++] = (uint8_t)(seed >> 16);
        while (n < sizeof(buf) - 16) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = seed >> 16;
            if (r % 7 == 0)
                break;
            if (r % 3 == 0) {
                buf[n++] = (uint8_t)(r >> 3);
            } else {
                const char *p = pieces[r % (sizeof(pieces) / sizeof(pieces[0]))];
                size_t pl = *p ? strlen(p) : 1;
                memcpy(buf + n, p, pl);
                n += pl;
            }
        }
        ASSERT_INT_EQ(extract_fuzz_one(buf, n), 0);
    }
}

static void test_regex(void)
{
    struct rx *r;
    struct rx_match m;
    char err[ERR_LEN];
    ASSERT_INT_EQ(rx_compile("(a+)(b)?c", 9, 0, &r, err), 0);
    ASSERT_INT_EQ(rx_match(r, "xxaac", 5, 0, &m), 1);
    ASSERT_INT_EQ(m.start[0], 2);
    ASSERT_INT_EQ(m.end[1], 4);
    ASSERT_INT_EQ(m.start[2], -1); /* did not take part */
    ASSERT_INT_EQ(rx_match(r, "xxaac", 5, 3, &m), 1);
    ASSERT_INT_EQ(rx_match(r, "xxaac", 5, 5, &m), 0);
    ASSERT_INT_EQ(rx_match(r, "xxaac", 5, 9, &m), 0);
    rx_free(r);
    ASSERT_INT_EQ(rx_compile("a.c", 3, RX_FULL, &r, err), 0);
    ASSERT_INT_EQ(rx_match(r,
                           "a\xff"
                           "c",
                           3, 0, &m),
                  1); /* bytes, not UTF-8 */
    ASSERT_INT_EQ(rx_match(r, "abcd", 4, 0, &m), 0);
    rx_free(r);
    ASSERT_INT_EQ(rx_compile("(a", 2, 0, &r, err), -EINVAL);
    ASSERT_STR_CONTAINS(err, "bad pattern at 2");
    /* Catastrophic backtracking ends at the limit. */
    ASSERT_INT_EQ(rx_compile("(a+)+$", 6, 0, &r, err), 0);
    char s[64];
    memset(s, 'a', 40);
    s[40] = 'b';
    ASSERT_INT_EQ(rx_match(r, s, 41, 0, &m), -E2BIG);
    rx_free(r);
}

int main(void)
{
    TEST_RUN(test_regex);
    TEST_RUN(test_fenced);
    TEST_RUN(test_incomplete_and_crlf_and_think);
    TEST_RUN(test_heuristic);
    TEST_RUN(test_postprocess);
    TEST_RUN(test_huge_inputs);
    TEST_RUN(test_fuzz_smoke);
    return TEST_EXIT();
}
