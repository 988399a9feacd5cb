/* Attacks: namespaces through clone() and clone3() flags. Contained: EPERM / ENOSYS, no child. */
#include "probe.h"

#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

struct clone3_args { /* struct clone_args of <linux/sched.h>, version 2 */
    uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid,
        set_tid_size, cgroup;
};

/* r is the raw clone result: 0 in the child (which leaves at once), > 0 in the parent. */
static void no_child(const char *what, long r)
{
    int e = errno;
    if (r == 0)
        _exit(0);
    if (r > 0) {
        waitpid((pid_t)r, NULL, 0);
        printf("ESCAPED: %s created a child\n", what);
        exit(1);
    }
    note_errno(what, e);
}

int main(void)
{
    static const struct {
        const char *name;
        unsigned long flags;
    } ns[] = {{"user", CLONE_NEWUSER}, {"user+mnt", CLONE_NEWUSER | CLONE_NEWNS},
              {"mnt", CLONE_NEWNS},    {"net", CLONE_NEWNET},
              {"pid", CLONE_NEWPID},   {"uts", CLONE_NEWUTS},
              {"ipc", CLONE_NEWIPC},   {"cgroup", CLONE_NEWCGROUP}};
    char what[64];
    for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
        snprintf(what, sizeof(what), "clone %s", ns[i].name);
        no_child(what, syscall(SYS_clone, ns[i].flags | SIGCHLD, 0, NULL, NULL, 0));
        struct clone3_args a = {.flags = ns[i].flags, .exit_signal = SIGCHLD};
        snprintf(what, sizeof(what), "clone3 %s", ns[i].name);
        no_child(what, syscall(SYS_clone3, &a, sizeof(a)));
    }
    struct clone3_args t = {.flags = CLONE_NEWTIME, .exit_signal = SIGCHLD};
    no_child("clone3 time", syscall(SYS_clone3, &t, sizeof(t)));
    return contained();
}
