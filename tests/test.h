/*
 * test.h: verdict's tiny test harness.
 *
 * A test file defines `static void test_x(void)` functions and a main() that calls
 * TEST_RUN(test_x) for each, then returns TEST_EXIT(). A failed assertion prints
 * "file:line: expression" with both values and returns from the current test; the other
 * tests still run. TEST_SKIP(why) ends the whole binary with 77, which ctest counts as
 * skipped (for a kernel feature this host lacks).
 */
#ifndef VERDICT_TEST_H
#define VERDICT_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failed_;   /* failures in the current test */
static int test_failures_; /* failed tests in this binary */
static int test_count_;

#define TEST_FAIL_(...)                                                                            \
    do {                                                                                           \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                            \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fputc('\n', stderr);                                                                       \
        test_failed_++;                                                                            \
        return;                                                                                    \
    } while (0)

#define ASSERT_TRUE(c)                                                                             \
    do {                                                                                           \
        if (!(c))                                                                                  \
            TEST_FAIL_("ASSERT_TRUE(%s) failed", #c);                                              \
    } while (0)

#define ASSERT_FALSE(c)                                                                            \
    do {                                                                                           \
        if (c)                                                                                     \
            TEST_FAIL_("ASSERT_FALSE(%s) failed", #c);                                             \
    } while (0)

#define ASSERT_INT_EQ(a, b)                                                                        \
    do {                                                                                           \
        long long a_ = (long long)(a), b_ = (long long)(b);                                        \
        if (a_ != b_)                                                                              \
            TEST_FAIL_("ASSERT_INT_EQ(%s, %s) failed: %lld != %lld", #a, #b, a_, b_);              \
    } while (0)

#define ASSERT_UINT_EQ(a, b)                                                                       \
    do {                                                                                           \
        unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b);             \
        if (a_ != b_)                                                                              \
            TEST_FAIL_("ASSERT_UINT_EQ(%s, %s) failed: %llu != %llu", #a, #b, a_, b_);             \
    } while (0)

#define ASSERT_STR_EQ(a, b)                                                                        \
    do {                                                                                           \
        const char *a_ = (a), *b_ = (b);                                                           \
        if (!a_ || !b_ || strcmp(a_, b_) != 0)                                                     \
            TEST_FAIL_("ASSERT_STR_EQ(%s, %s) failed:\n  \"%s\"\n  \"%s\"", #a, #b,                \
                       a_ ? a_ : "(null)", b_ ? b_ : "(null)");                                    \
    } while (0)

#define ASSERT_STR_CONTAINS(hay, needle)                                                           \
    do {                                                                                           \
        const char *h_ = (hay), *n_ = (needle);                                                    \
        if (!h_ || !strstr(h_, n_))                                                                \
            TEST_FAIL_("ASSERT_STR_CONTAINS(%s, %s) failed:\n  \"%s\"\n  lacks \"%s\"", #hay,      \
                       #needle, h_ ? h_ : "(null)", n_);                                           \
    } while (0)

#define ASSERT_NULL(p)                                                                             \
    do {                                                                                           \
        if ((p) != NULL)                                                                           \
            TEST_FAIL_("ASSERT_NULL(%s) failed", #p);                                              \
    } while (0)

#define ASSERT_NOT_NULL(p)                                                                         \
    do {                                                                                           \
        if ((p) == NULL)                                                                           \
            TEST_FAIL_("ASSERT_NOT_NULL(%s) failed", #p);                                          \
    } while (0)

#define TEST_RUN(fn)                                                                               \
    do {                                                                                           \
        test_failed_ = 0;                                                                          \
        test_count_++;                                                                             \
        fn();                                                                                      \
        printf("%s - %s\n", test_failed_ ? "FAIL" : "ok", #fn);                                    \
        fflush(stdout);                                                                            \
        test_failures_ += test_failed_ != 0;                                                       \
    } while (0)

#define TEST_SKIP(why)                                                                             \
    do {                                                                                           \
        printf("skip - %s\n", why);                                                                \
        exit(77);                                                                                  \
    } while (0)

#define TEST_EXIT()                                                                                \
    (printf("%d/%d passed\n", test_count_ - test_failures_, test_count_), test_failures_ ? 1 : 0)

#endif
