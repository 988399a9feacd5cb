/* Unit tests for server/judge/compare: each mode on tricky text (CRLF, no final newline, trailing
 * blanks, NaN/inf, huge lines, invalid UTF-8, NUL bytes, regex anchoring and ReDoS). */
#include "server/judge/compare.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>

static bool eq(enum cmp_mode m, const char *want, const char *got, char why[CMP_WHY])
{
    struct cmp_spec s = {.mode = m, .abs_eps = 1e-6, .rel_eps = 1e-6};
    return cmp_equal(&s, want, strlen(want), got, strlen(got), why);
}

static void test_lines(void)
{
    char why[CMP_WHY];
    ASSERT_TRUE(eq(CMP_LINES, "1 2\n3\n", "1 2\n3\n", why));
    ASSERT_TRUE(eq(CMP_LINES, "1 2\n3\n", "1 2\r\n3\r\n", why));    /* CRLF */
    ASSERT_TRUE(eq(CMP_LINES, "1 2\n3\n", "1 2\n3", why));          /* no final newline */
    ASSERT_TRUE(eq(CMP_LINES, "1 2\n3", "1 2   \n3\t\n\n\n", why)); /* trailing blanks/lines */
    ASSERT_TRUE(eq(CMP_LINES, "", "\n\n", why));
    ASSERT_FALSE(eq(CMP_LINES, "1 2\n3\n", "1  2\n3\n", why)); /* inner spaces count */
    ASSERT_STR_EQ(why, "line 1: expected \"1 2\", got \"1  2\"");
    ASSERT_FALSE(eq(CMP_LINES, "a\nb\n", "a\n", why));
    ASSERT_STR_EQ(why, "line 2: output ended, expected more");
    ASSERT_FALSE(eq(CMP_LINES, "a\n", "a\n\nb\n", why));
    ASSERT_STR_EQ(why, "line 2: expected end of output, got more");
    ASSERT_FALSE(eq(CMP_LINES, "A\n", "a\n", why));
    ASSERT_TRUE(eq(CMP_NOCASE, "YES\nNo\n", "yes\r\nno", why));
    ASSERT_FALSE(eq(CMP_NOCASE, "yes\n", "yes!\n", why));
}

static void test_exact(void)
{
    char why[CMP_WHY];
    ASSERT_TRUE(eq(CMP_EXACT, "a\n", "a\n", why));
    ASSERT_FALSE(eq(CMP_EXACT, "a\n", "a", why));
    ASSERT_STR_EQ(why, "byte 1: output ended, expected more");
    ASSERT_FALSE(eq(CMP_EXACT, "a\n", "a\r\n", why));
    struct cmp_spec s = {.mode = CMP_EXACT};
    ASSERT_TRUE(cmp_equal(&s, "a\0b", 3, "a\0b", 3, why)); /* NUL bytes are bytes */
    ASSERT_FALSE(cmp_equal(&s, "a\0b", 3, "a\0c", 3, why));
}

static void test_tokens_and_floats(void)
{
    char why[CMP_WHY];
    ASSERT_TRUE(eq(CMP_TOKENS, "1 2 3\n", "1\n2\t\t3   ", why));
    ASSERT_FALSE(eq(CMP_TOKENS, "1 2 3", "1 2", why));
    ASSERT_STR_EQ(why, "token 3: output ended, expected more");
    ASSERT_FALSE(eq(CMP_TOKENS, "1.0", "1", why)); /* tokens: text, not numbers */
    ASSERT_TRUE(eq(CMP_FLOAT, "1.0 2.5", "1 2.5000001", why));
    ASSERT_TRUE(eq(CMP_FLOAT, "1e9", "1000000001", why)); /* relative 1e-6 */
    ASSERT_FALSE(eq(CMP_FLOAT, "0.1", "0.2", why));
    ASSERT_STR_EQ(why, "token 1: expected \"0.1\", got \"0.2\"");
    ASSERT_TRUE(eq(CMP_FLOAT, "nan inf -inf", "NaN inf -inf", why));
    ASSERT_FALSE(eq(CMP_FLOAT, "inf", "-inf", why));
    ASSERT_FALSE(eq(CMP_FLOAT, "nan", "0", why));
    ASSERT_FALSE(eq(CMP_FLOAT, "1", "1x", why)); /* not a number: compared as text */
    ASSERT_TRUE(eq(CMP_FLOAT, "answer: 3.14159", "answer: 3.1415901", why));
}

static void test_regex(void)
{
    char why[CMP_WHY];
    ASSERT_TRUE(eq(CMP_REGEX, "[0-9]+\\n?", "12345\n", why));
    ASSERT_FALSE(eq(CMP_REGEX, "[0-9]+", "x12345", why)); /* the whole output must match */
    ASSERT_FALSE(eq(CMP_REGEX, "[0-9]+", "12345x", why));
    ASSERT_STR_EQ(why, "regex: the output does not match the pattern");
    ASSERT_FALSE(eq(CMP_REGEX, "(", "x", why));
    ASSERT_STR_CONTAINS(why, "regex: bad pattern");
    ASSERT_TRUE(eq(CMP_REGEX, "a.c",
                   "a\xff"
                   "c",
                   why)); /* invalid UTF-8 in the output */
    /* Catastrophic backtracking gives up instead of stalling. */
    char *got = malloc(64);
    memset(got, 'a', 40);
    strcpy(got + 40, "!");
    ASSERT_FALSE(eq(CMP_REGEX, "(a+)+$", got, why));
    free(got);
}

static void test_huge_lines(void)
{
    size_t n = 8 << 20;
    char *a = malloc(n + 1), *b = malloc(n + 1);
    memset(a, 'x', n);
    memset(b, 'x', n);
    a[n] = b[n] = '\0';
    b[n - 1] = 'y';
    char why[CMP_WHY];
    ASSERT_FALSE(eq(CMP_LINES, a, b, why));
    ASSERT_TRUE(strlen(why) < CMP_WHY); /* the excerpt is cut, not the whole line */
    ASSERT_STR_CONTAINS(why, "...");
    b[n - 1] = 'x';
    ASSERT_TRUE(eq(CMP_TOKENS, a, b, why));
    free(a);
    free(b);
}

static void test_modes(void)
{
    enum cmp_mode m;
    ASSERT_INT_EQ(cmp_mode_parse("float", &m), 0);
    ASSERT_INT_EQ(m, CMP_FLOAT);
    ASSERT_INT_EQ(cmp_mode_parse("fuzzy", &m), -EINVAL);
    ASSERT_STR_EQ(cmp_mode_name(CMP_REGEX), "regex");
    ASSERT_INT_EQ(cmp_mode_parse("checker", &m), 0);
    ASSERT_INT_EQ(m, CMP_CHECKER);
    char why[CMP_WHY];
    ASSERT_FALSE(eq(CMP_CHECKER, "1", "1", why)); /* never a text comparison */
}

static void test_checker_status(void)
{
    const char *what;
    ASSERT_INT_EQ(cmp_checker_status(0, &what), CMP_ACCEPTED);
    ASSERT_INT_EQ(cmp_checker_status(1, &what), CMP_WRONG);
    ASSERT_INT_EQ(cmp_checker_status(2, &what), CMP_WRONG);
    ASSERT_STR_EQ(what, "presentation error");
    ASSERT_INT_EQ(cmp_checker_status(3, &what), CMP_CHECKER_FAILED);
    ASSERT_INT_EQ(cmp_checker_status(7, &what), CMP_CHECKER_FAILED);
    ASSERT_INT_EQ(cmp_checker_status(-1, &what), CMP_CHECKER_FAILED);
    ASSERT_INT_EQ(cmp_checker_status(42, &what), CMP_CHECKER_FAILED);
}

int main(void)
{
    TEST_RUN(test_lines);
    TEST_RUN(test_exact);
    TEST_RUN(test_tokens_and_floats);
    TEST_RUN(test_regex);
    TEST_RUN(test_huge_lines);
    TEST_RUN(test_modes);
    TEST_RUN(test_checker_status);
    return TEST_EXIT();
}
