/* Unit tests for server/util/strset: adding, finding, repeats keeping the first value, and
 * growth past many doublings. */
#include "server/util/strset.h"
#include "test.h"

#include <stdio.h>

static void test_add_find(void)
{
    struct strset *s = strset_new();
    ASSERT_NOT_NULL(s);
    long v = 0;
    ASSERT_INT_EQ(strset_add(s, "a", 1, NULL), 1);
    ASSERT_INT_EQ(strset_add(s, "b", 2, NULL), 1);
    ASSERT_INT_EQ(strset_add(s, "", 3, NULL), 1); /* the empty string is a key too */
    ASSERT_INT_EQ(strset_add(s, "a", 9, &v), 0);
    ASSERT_INT_EQ(v, 1); /* the first value is kept */
    ASSERT_INT_EQ(strset_find(s, "b", &v), 1);
    ASSERT_INT_EQ(v, 2);
    ASSERT_INT_EQ(strset_find(s, "c", &v), 0);
    ASSERT_INT_EQ(strset_find(s, "", NULL), 1);
    ASSERT_UINT_EQ(strset_count(s), 3);
    strset_free(s);
    strset_free(NULL);
}

static void test_growth(void)
{
    struct strset *s = strset_new();
    char key[32];
    for (long i = 0; i < 100000; i++) {
        snprintf(key, sizeof(key), "id/%ld", i);
        ASSERT_INT_EQ(strset_add(s, key, i, NULL), 1);
    }
    ASSERT_UINT_EQ(strset_count(s), 100000);
    for (long i = 0; i < 100000; i += 997) {
        long v = -1;
        snprintf(key, sizeof(key), "id/%ld", i);
        ASSERT_INT_EQ(strset_find(s, key, &v), 1);
        ASSERT_INT_EQ(v, i);
    }
    ASSERT_INT_EQ(strset_find(s, "id/100000", NULL), 0);
    strset_free(s);
}

int main(void)
{
    TEST_RUN(test_add_find);
    TEST_RUN(test_growth);
    return TEST_EXIT();
}
