/* Attacks: the cell (pid 1): signals, priority, affinity, rlimits. Contained: EPERM for each. */
#include "probe.h"

#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

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
    return contained();
}
