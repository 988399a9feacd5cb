/* Unit tests for runners/perf: where the host cannot count (this VM has no PMU) the counter
 * does not open and says why; where it can, only exec'd children count. */
#include "runners/perf.h"
#include "test.h"

#include <errno.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

/* Without a PMU the counter does not open, with one of the errors that say so; with one, a
 * child that execs is counted and the counter grows. */
static void test_perf(void)
{
    int fd = perf_open();
    if (fd < 0) {
        ASSERT_TRUE(fd == -ENOENT || fd == -EOPNOTSUPP || fd == -ENODEV || fd == -EACCES ||
                    fd == -EPERM || fd == -EINVAL);
        ASSERT_INT_EQ(perf_read(fd), -EBADF);
        printf("perf: no instruction counter here (%s): the unsupported path\n", strerror(-fd));
        return;
    }
    int64_t before = perf_read(fd);
    pid_t p = fork();
    if (p == 0) {
        execl("/bin/true", "true", (char *)NULL);
        _exit(127);
    }
    int status;
    ASSERT_INT_EQ(waitpid(p, &status, 0), p);
    int64_t after = perf_read(fd);
    close(fd);
    ASSERT_INT_EQ(before, 0); /* the opener never execs: it never counts */
    ASSERT_TRUE(after > 10000);
}

int main(void)
{
    TEST_RUN(test_perf);
    return TEST_EXIT();
}
