/* Unit tests for runners/clock, the time limits' arithmetic: the grace, the wall clock that
 * does not charge waiting for a CPU, the backstop that makes a starved job SE, the schedstat
 * parser. */
#include "runners/clock.h"
#include "test.h"

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#define MS 1000000LL

static void test_grace(void)
{
    /* 10% of the limit, at least 50 ms */
    ASSERT_INT_EQ(clock_allowed_ns(1000), 1100 * MS);
    ASSERT_INT_EQ(clock_allowed_ns(10000), 11000 * MS);
    ASSERT_INT_EQ(clock_allowed_ns(100), 150 * MS);
    ASSERT_INT_EQ(clock_allowed_ns(500), 550 * MS); /* where the two meet */
    ASSERT_INT_EQ(clock_allowed_ns(1), 51 * MS);
    ASSERT_INT_EQ(clock_allowed_ns(300000), 330000 * MS);
}

static void test_wall_not_charged_for_waiting(void)
{
    /* a sleeper: no wait, TLE as soon as the limit and its grace pass */
    ASSERT_INT_EQ(clock_wall_check(1000, 3000, 999 * MS, 0), CLOCK_WALL_RUNNING);
    ASSERT_INT_EQ(clock_wall_check(1000, 3000, 1100 * MS, 0), CLOCK_WALL_RUNNING);
    ASSERT_INT_EQ(clock_wall_check(1000, 3000, 1101 * MS, 0), CLOCK_WALL_TLE);
    ASSERT_INT_EQ(clock_wall_check(200, 600, 251 * MS, 0), CLOCK_WALL_TLE);
    /* 4x oversubscribed: 2.5 s elapsed, 1.9 s of it waiting: 0.6 s charged */
    ASSERT_INT_EQ(clock_wall_check(1000, 3000, 2500 * MS, 1900 * MS), CLOCK_WALL_RUNNING);
    /* ... but what it did not wait for still counts */
    ASSERT_INT_EQ(clock_wall_check(1000, 3000, 2500 * MS, 1300 * MS), CLOCK_WALL_TLE);
    /* a wait longer than the elapsed time (tasks waiting in parallel) charges nothing */
    ASSERT_INT_EQ(clock_wall_check(1000, 3000, 500 * MS, 900 * MS), CLOCK_WALL_RUNNING);
}

static void test_backstop(void)
{
    ASSERT_INT_EQ(clock_backstop_ms(1000), 3000);
    /* still within its limit at the backstop: starved, not TLE */
    ASSERT_INT_EQ(clock_wall_check(1000, 3000, 3000 * MS, 2500 * MS), CLOCK_WALL_RUNNING);
    ASSERT_INT_EQ(clock_wall_check(1000, 3000, 3001 * MS, 2500 * MS), CLOCK_WALL_STARVED);
    ASSERT_INT_EQ(clock_wall_check(1000, 3000, 9000 * MS, 9000 * MS), CLOCK_WALL_STARVED);
    /* over its limit at the backstop: TLE wins */
    ASSERT_INT_EQ(clock_wall_check(1000, 3000, 3001 * MS, 1800 * MS), CLOCK_WALL_TLE);
    /* /run_code's: run_timeout + 8 s */
    ASSERT_INT_EQ(clock_wall_check(10000, 18000, 18001 * MS, 17000 * MS), CLOCK_WALL_STARVED);
    /* a backstop below the allowed wall time (plus half of it, 1 s at least) is read as that:
     * a sleeper is never SE, nor a job that waited a little */
    ASSERT_INT_EQ(clock_wall_check(1000, 500, 1050 * MS, 0), CLOCK_WALL_RUNNING);
    ASSERT_INT_EQ(clock_wall_check(1000, 500, 1101 * MS, 0), CLOCK_WALL_TLE);
    ASSERT_INT_EQ(clock_wall_check(1000, 500, 1101 * MS, 600 * MS), CLOCK_WALL_RUNNING);
    ASSERT_INT_EQ(clock_wall_check(1000, 500, 2101 * MS, 1200 * MS), CLOCK_WALL_STARVED);
    /* the compile test's case: a wall of 1900 ms raised past a backstop of 900 ms, 2 ms of
     * waiting: TLE once its allowed 2090 ms are charged */
    ASSERT_INT_EQ(clock_wall_check(1900, 900, 2092 * MS, 2 * MS), CLOCK_WALL_RUNNING);
    ASSERT_INT_EQ(clock_wall_check(1900, 900, 2093 * MS, 2 * MS), CLOCK_WALL_TLE);
}

static void test_parse_schedstat(void)
{
    ASSERT_INT_EQ(clock_parse_schedstat("382000000 1208000000 57\n"), 1208000000);
    ASSERT_INT_EQ(clock_parse_schedstat("0 0 0"), 0);
    ASSERT_INT_EQ(clock_parse_schedstat(""), -EINVAL);
    ASSERT_INT_EQ(clock_parse_schedstat("12"), -EINVAL);
    ASSERT_INT_EQ(clock_parse_schedstat("12 x 3"), -EINVAL);
    ASSERT_INT_EQ(clock_parse_schedstat("12 -5 3"), -EINVAL);
}

static void test_run_delay_of_self(void)
{
    ASSERT_TRUE(clock_run_delay_ns(getpid()) >= 0);
    ASSERT_INT_EQ(clock_run_delay_ns(0x3fffffff), -ENOENT); /* no such task */
}

int main(void)
{
    TEST_RUN(test_grace);
    TEST_RUN(test_wall_not_charged_for_waiting);
    TEST_RUN(test_backstop);
    TEST_RUN(test_parse_schedstat);
    TEST_RUN(test_run_delay_of_self);
    return TEST_EXIT();
}
