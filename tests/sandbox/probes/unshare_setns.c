/* Attacks: new namespaces (unshare) and joining others (setns). Contained: EPERM for each. */
#include "probe.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

static void join(const char *path, int nstype)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        must_fail(path, -1);
        return;
    }
    char what[64];
    snprintf(what, sizeof(what), "setns %s", path + 6);
    must_fail(what, setns(fd, nstype));
    close(fd);
}

int main(void)
{
    must_fail("unshare user", unshare(CLONE_NEWUSER));
    must_fail("unshare user+mnt", unshare(CLONE_NEWUSER | CLONE_NEWNS));
    must_fail("unshare mnt", unshare(CLONE_NEWNS));
    must_fail("unshare net", unshare(CLONE_NEWNET));
    must_fail("unshare pid", unshare(CLONE_NEWPID));
    must_fail("unshare uts", unshare(CLONE_NEWUTS));
    must_fail("unshare ipc", unshare(CLONE_NEWIPC));
    must_fail("unshare cgroup", unshare(CLONE_NEWCGROUP));
    must_fail("unshare time", unshare(CLONE_NEWTIME));
    join("/proc/self/ns/net", CLONE_NEWNET);
    join("/proc/self/ns/mnt", CLONE_NEWNS);
    join("/proc/self/ns/user", CLONE_NEWUSER);
    join("/proc/1/ns/net", CLONE_NEWNET);
    int pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
    if (pidfd >= 0)
        must_fail("setns pidfd", setns(pidfd, CLONE_NEWNET | CLONE_NEWNS));
    return contained();
}
