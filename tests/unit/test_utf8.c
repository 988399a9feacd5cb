/*
 * test_utf8: utf8_copy keeps valid UTF-8, writes U+FFFD for each byte that begins no valid
 * sequence (stray continuation bytes, overlong forms, UTF-16 surrogates, past U+10FFFF, a
 * sequence cut short), and never cuts a character when the copy does not fit.
 */
#include <string.h>

#include "server/util/utf8.h"
#include "test.h"

#define R "\xef\xbf\xbd" /* U+FFFD */

static void test_valid_is_kept(void)
{
    char out[64];
    const char *s = "plain, \xc3\xa9t\xc3\xa9, \xe2\x82\xac, \xf0\x9f\x98\x80";
    ASSERT_UINT_EQ(utf8_copy(out, sizeof(out), s), strlen(s));
    ASSERT_STR_EQ(out, s);
    ASSERT_UINT_EQ(utf8_copy(out, sizeof(out), NULL), 0);
    ASSERT_STR_EQ(out, "");
}

static void test_invalid_is_replaced(void)
{
    char out[128];
    utf8_copy(out, sizeof(out),
              "a\xff"
              "b\x80"
              "c");
    ASSERT_STR_EQ(out, "a" R "b" R "c");
    utf8_copy(out, sizeof(out), "\xc0\xaf|\xe0\x80\xaf|\xed\xa0\x80|\xf4\x90\x80\x80");
    ASSERT_STR_EQ(out, R R "|" R R R "|" R R R "|" R R R R); /* overlong, surrogate, > U+10FFFF */
    utf8_copy(out, sizeof(out), "x\xc3");                    /* cut short by the end */
    ASSERT_STR_EQ(out, "x" R);
}

static void test_cut_whole(void)
{
    char out[6];
    ASSERT_UINT_EQ(utf8_copy(out, sizeof(out), "ab\xe2\x82\xac"), 5);  /* fits: 5 + NUL */
    ASSERT_UINT_EQ(utf8_copy(out, sizeof(out), "abc\xe2\x82\xac"), 3); /* the euro left out */
    ASSERT_STR_EQ(out, "abc");
    ASSERT_UINT_EQ(utf8_copy(out, sizeof(out), "abc\xff"), 3); /* U+FFFD does not fit */
    char one[1];
    ASSERT_UINT_EQ(utf8_copy(one, sizeof(one), "abc"), 0);
    ASSERT_STR_EQ(one, "");
}

int main(void)
{
    TEST_RUN(test_valid_is_kept);
    TEST_RUN(test_invalid_is_replaced);
    TEST_RUN(test_cut_whole);
    return TEST_EXIT();
}
