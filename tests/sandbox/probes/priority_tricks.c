/* Attacks: real-time/nice/io priority, OOM immunity. Contained: EPERM/EACCES for each. */
#include "probe.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
    struct sched_param sp = {.sched_priority = 99};
    must_fail("SCHED_FIFO 99", sched_setscheduler(0, SCHED_FIFO, &sp));
    must_fail("SCHED_RR 99", sched_setscheduler(0, SCHED_RR, &sp));
    must_fail("nice -20", setpriority(PRIO_PROCESS, 0, -20));
    must_fail("ioprio RT", syscall(SYS_ioprio_set, 1 /* WHO_PROCESS */, 0, 1 << 13 /* RT, 0 */));
    struct rlimit rt = {99, 99};
    must_fail("RLIMIT_RTPRIO 99", setrlimit(RLIMIT_RTPRIO, &rt));
    char cur[32] = "";
    int fd = open("/proc/self/oom_score_adj", O_RDWR);
    if (fd < 0 || read(fd, cur, sizeof(cur) - 1) <= 0) {
        printf("unexpected: /proc/self/oom_score_adj unreadable\n");
        return 2;
    }
    if (atoi(cur) <= -1000) {
        printf("ESCAPED: already immune to the OOM killer (oom_score_adj %d)\n", atoi(cur));
        return 1;
    }
    must_fail("oom_score_adj -1000", lseek(fd, 0, SEEK_SET) < 0 ? -1 : write(fd, "-1000", 5));
    return contained();
}
