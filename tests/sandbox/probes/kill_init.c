/* Attacks: the cell (pid 1): signals, priority, affinity, rlimits. Contained: EPERM for each. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static char msg[1024];

static void must_fail(const char *what, long r)
{
    int e = errno;
    if (r >= 0) {
        printf("ESCAPED: %s succeeded\n", what);
        exit(1);
    }
    size_t n = strlen(msg);
    snprintf(msg + n, sizeof(msg) - n, "%s%s: %s", n ? ", " : "", what, strerrorname_np(e));
}

int main(void)
{
    must_fail("kill(1, SIGTERM)", kill(1, SIGTERM));
    must_fail("kill(1, SIGKILL)", kill(1, SIGKILL));
    must_fail("kill(1, SIGSTOP)", kill(1, SIGSTOP));
    must_fail("kill(1, SIGSEGV)", kill(1, SIGSEGV));
    int pidfd = (int)syscall(SYS_pidfd_open, 1, 0);
    if (pidfd >= 0)
        must_fail("pidfd_send_signal(1, SIGKILL)",
                  syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0));
    errno = 0; /* the changes below would leave the cell as it was, should they go through */
    int prio = getpriority(PRIO_PROCESS, 1);
    if (errno == 0)
        must_fail("setpriority(1)", setpriority(PRIO_PROCESS, 1, prio));
    cpu_set_t set;
    if (sched_getaffinity(1, sizeof(set), &set) == 0)
        must_fail("sched_setaffinity(1)", sched_setaffinity(1, sizeof(set), &set));
    struct rlimit zero = {0, 0};
    must_fail("prlimit(1, RLIMIT_CORE)", prlimit(1, RLIMIT_CORE, &zero, NULL));
    printf("contained: %s\n", msg);
    return 0;
}
