/* Unit tests for server/judge/program's pure steps (program_internal.h): what a compile run
 * says about its source (only the compiler's own refusal is CE; a limit is TLE or MLE, and a
 * wall-clock kill with CPU to spare is load), the wall-clock backstop sized by cells per core,
 * and the cache key (every input counts). The compiles themselves, through real cells, are
 * tests/sandbox/test_compile.c. */
#include "server/judge/program_internal.h"
#include "test.h"

static void test_outcome(void)
{
    struct job_limits lim = {.cpu_ms = 10000, .wall_ms = 30000};
    struct job_result r = {.status = JOB_RE, .exit_code = 1};
    bool starved = true;
    ASSERT_INT_EQ(program_compile_outcome(&r, &lim, &starved), VERDICT_CE);
    ASSERT_FALSE(starved);
    r.status = JOB_OLE; /* the compiler's own flood of errors */
    ASSERT_INT_EQ(program_compile_outcome(&r, &lim, &starved), VERDICT_CE);
    r = (struct job_result){.status = JOB_OK};
    ASSERT_INT_EQ(program_compile_outcome(&r, &lim, &starved), VERDICT_OK);
    r = (struct job_result){.status = JOB_MLE};
    ASSERT_INT_EQ(program_compile_outcome(&r, &lim, &starved), VERDICT_MLE);
    r = (struct job_result){.status = JOB_SE};
    ASSERT_INT_EQ(program_compile_outcome(&r, &lim, &starved), VERDICT_SE);
    /* Out of CPU: the source's doing (a template bomb), TLE at once. */
    r = (struct job_result){.status = JOB_TLE, .tle_clock = JOB_CLOCK_CPU, .cpu_ms = 10003};
    ASSERT_INT_EQ(program_compile_outcome(&r, &lim, &starved), VERDICT_TLE);
    ASSERT_FALSE(starved);
    /* Out of wall time with CPU to spare: starved by load, worth a retry; never CE. */
    r = (struct job_result){
        .status = JOB_TLE, .tle_clock = JOB_CLOCK_WALL, .cpu_ms = 2500, .wall_ms = 30001};
    ASSERT_INT_EQ(program_compile_outcome(&r, &lim, &starved), VERDICT_TLE);
    ASSERT_TRUE(starved);
}

static void test_wall_backstop(void)
{
    /* /run_code's compile_timeout 10 s (cpu = wall = 10 s) on 2 cores with 16 cells: each
     * compile gets an eighth of a core, so the wall clock must allow 8x and more. */
    ASSERT_INT_EQ(program_compile_wall_ms(10000, 10000, 16, 2), 10000 * 9 + 1000);
    ASSERT_INT_EQ(program_compile_wall_ms(10000, 10000, 2, 2), 10000 * 3 + 1000);
    ASSERT_INT_EQ(program_compile_wall_ms(10000, 10000, 0, 2), 10000 * 3 + 1000);
    ASSERT_INT_EQ(program_compile_wall_ms(10000, 10000, 4, 0), 10000 * 3 + 1000);
    ASSERT_INT_EQ(program_compile_wall_ms(1000, 60000, 16, 2), 60000); /* asked for more */
    ASSERT_INT_EQ(program_compile_wall_ms(30000, 60000, 1024, 16), 30000 * 65 + 1000);
}

static void test_key(void)
{
    struct lang l = {.name = "c", .compiled = true};
    snprintf(l.version_line, sizeof(l.version_line), "gcc 12");
    struct program_env env = {.cells = 4};
    struct job_file f = {"main.c", 0644, (const uint8_t *)"int main(){}", 12};
    struct job_limits lim = {.cpu_ms = 1000};
    char a[65], b[65];
    program_key(&env, &l, &lim, &f, 1, a);
    ASSERT_INT_EQ((int)strlen(a), 64);
    program_key(&env, &l, &lim, &f, 1, b);
    ASSERT_STR_EQ(a, b);
    env.cells = 16; /* the server's size (and so the wall backstop) does not change it */
    program_key(&env, &l, &lim, &f, 1, b);
    ASSERT_STR_EQ(a, b);
    lim.memory_bytes = 1 << 20;
    program_key(&env, &l, &lim, &f, 1, b);
    ASSERT_TRUE(strcmp(a, b) != 0);
    lim.memory_bytes = 0;
    f.len = 11;
    program_key(&env, &l, &lim, &f, 1, b);
    ASSERT_TRUE(strcmp(a, b) != 0);
}

int main(void)
{
    TEST_RUN(test_outcome);
    TEST_RUN(test_wall_backstop);
    TEST_RUN(test_key);
    return TEST_EXIT();
}
