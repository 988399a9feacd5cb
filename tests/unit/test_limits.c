/* Unit tests for runners/limits: the rlimits a job gets (never RLIMIT_AS), and applying them. */
#include "runners/limits.h"
#include "test.h"

#include <stdbool.h>

#include <sys/wait.h>
#include <unistd.h>

static bool has(const struct limits_plan *p, int resource)
{
    for (int i = 0; i < p->n; i++)
        if (p->set[i].resource == resource)
            return true;
    return false;
}

/* The planned value ({0, 0} when absent: has() tells). */
static struct rlimit get(const struct limits_plan *p, int resource)
{
    for (int i = 0; i < p->n; i++)
        if (p->set[i].resource == resource)
            return p->set[i].value;
    return (struct rlimit){0, 0};
}

static void test_plan(void)
{
    struct job_limits l = {.cpu_ms = 1500, .memory_bytes = 64 << 20, .pids = 10};
    job_limits_defaults(&l);
    struct limits_plan p;
    limits_plan(&l, &p);
    ASSERT_FALSE(has(&p, RLIMIT_AS)); /* memory is the cgroup's job */
    ASSERT_FALSE(has(&p, RLIMIT_DATA));
    ASSERT_TRUE(has(&p, RLIMIT_CPU));
    ASSERT_UINT_EQ(get(&p, RLIMIT_CPU).rlim_cur, 3); /* 1.5 s + grace rounded up, + 1 s */
    ASSERT_UINT_EQ(get(&p, RLIMIT_CPU).rlim_max, 4);
    ASSERT_UINT_EQ(get(&p, RLIMIT_STACK).rlim_cur, 64 << 20);
    ASSERT_TRUE(has(&p, RLIMIT_CORE));
    ASSERT_UINT_EQ(get(&p, RLIMIT_CORE).rlim_max, 0);
    ASSERT_UINT_EQ(get(&p, RLIMIT_NOFILE).rlim_cur, 256);
    ASSERT_UINT_EQ(get(&p, RLIMIT_FSIZE).rlim_cur, l.file_bytes);
    ASSERT_UINT_EQ(get(&p, RLIMIT_NPROC).rlim_cur, 20);
    for (int i = 0; i < p.n; i++) /* soft never above hard: setrlimit would refuse */
        ASSERT_TRUE(p.set[i].value.rlim_cur <= p.set[i].value.rlim_max);
}

static void test_apply(void)
{
    struct job_limits l = {.cpu_ms = 1000, .nofile = 32};
    job_limits_defaults(&l);
    struct limits_plan p;
    limits_plan(&l, &p);
    pid_t pid = fork();
    if (pid == 0) {
        int failed = 0;
        struct rlimit r;
        if (limits_apply(&p, &failed) < 0 || getrlimit(RLIMIT_NOFILE, &r) < 0 || r.rlim_max != 32)
            _exit(1);
        _exit(0);
    }
    int st = -1;
    ASSERT_INT_EQ(waitpid(pid, &st, 0), pid);
    ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(void)
{
    TEST_RUN(test_plan);
    TEST_RUN(test_apply);
    return TEST_EXIT();
}
