/* Unit tests for server/datasets/passk against hand-computed values and the binomial formula. */
#include "server/datasets/passk.h"
#include "test.h"

#include <math.h>
#include <stdbool.h>

static bool near(double a, double b)
{
    return fabs(a - b) < 1e-12;
}

/* 1 - C(n-c, k) / C(n, k) through lgamma, for comparison on large n. */
static double by_binomials(int n, int c, int k)
{
    if (n - c < k)
        return 1.0;
    double l = lgamma(n - c + 1) - lgamma(k + 1) - lgamma(n - c - k + 1) -
               (lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1));
    return 1.0 - exp(l);
}

static void test_hand_computed(void)
{
    ASSERT_TRUE(near(passk(5, 2, 1), 0.4));   /* c / n */
    ASSERT_TRUE(near(passk(5, 2, 2), 0.7));   /* 1 - C(3,2)/C(5,2) = 1 - 3/10 */
    ASSERT_TRUE(near(passk(5, 2, 3), 0.9));   /* 1 - C(3,3)/C(5,3) = 1 - 1/10 */
    ASSERT_TRUE(near(passk(5, 2, 4), 1.0));   /* n - c < k */
    ASSERT_TRUE(near(passk(10, 0, 5), 0.0));  /* nothing passes */
    ASSERT_TRUE(near(passk(10, 10, 1), 1.0)); /* everything passes */
    ASSERT_TRUE(near(passk(1, 1, 1), 1.0));
    ASSERT_TRUE(near(passk(4, 1, 2), 0.5)); /* 1 - C(3,2)/C(4,2) = 1 - 3/6 */
}

static void test_undefined(void)
{
    ASSERT_TRUE(isnan(passk(3, 1, 5))); /* fewer samples than k */
    ASSERT_TRUE(isnan(passk(3, 4, 1))); /* more passing than samples */
    ASSERT_TRUE(isnan(passk(3, -1, 1)));
    ASSERT_TRUE(isnan(passk(3, 1, 0)));
}

static void test_large_n(void)
{
    const int cases[][3] = {{200, 37, 1},   {200, 37, 10},      {200, 37, 100},
                            {1000, 3, 100}, {2000, 1999, 1000}, {164, 80, 50}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        double p = passk(cases[i][0], cases[i][1], cases[i][2]);
        ASSERT_TRUE(p >= 0 && p <= 1);
        ASSERT_TRUE(fabs(p - by_binomials(cases[i][0], cases[i][1], cases[i][2])) < 1e-9);
    }
}

static void test_mean(void)
{
    /* Three problems with 4 samples each: 4, 1 and 0 passing. pass@1 = (1 + .25 + 0) / 3;
     * pass@2 = (1 + .5 + 0) / 3. A problem with 1 sample is left out of pass@2. */
    const int n[] = {4, 4, 4, 1}, c[] = {4, 1, 0, 1};
    int counted;
    ASSERT_TRUE(near(passk_mean(n, c, 3, 1, &counted), 1.25 / 3));
    ASSERT_INT_EQ(counted, 3);
    ASSERT_TRUE(near(passk_mean(n, c, 4, 2, &counted), 1.5 / 3));
    ASSERT_INT_EQ(counted, 3);
    ASSERT_TRUE(isnan(passk_mean(n, c, 4, 5, &counted)));
    ASSERT_INT_EQ(counted, 0);
}

int main(void)
{
    TEST_RUN(test_hand_computed);
    TEST_RUN(test_undefined);
    TEST_RUN(test_large_n);
    TEST_RUN(test_mean);
    return TEST_EXIT();
}
