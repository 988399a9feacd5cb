/* Attacks: ptrace/process_vm_readv on a sibling and pid 1. Contained: all refused. */
#include "probe.h"

#include <signal.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static long secret = 42;

int main(void)
{
    pid_t sib = fork();
    if (sib == 0)
        for (;;)
            pause();
    pid_t tracee = fork();
    if (tracee == 0) { /* asks to be traced, then stops for the parent to peek */
        if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
            _exit(100 + (errno & 63)); /* reports the errno */
        raise(SIGSTOP);
        _exit(0);
    }
    if (sib < 0 || tracee < 0)
        return 2;
    long copy = 0;
    struct iovec local = {&copy, sizeof(copy)}, remote = {&secret, sizeof(secret)};
    must_fail("PTRACE_ATTACH sibling", ptrace(PTRACE_ATTACH, sib, NULL, NULL));
    must_fail("PTRACE_SEIZE sibling", ptrace(PTRACE_SEIZE, sib, NULL, NULL));
    must_fail("PTRACE_ATTACH pid 1", ptrace(PTRACE_ATTACH, 1, NULL, NULL));
    must_fail("process_vm_readv sibling", process_vm_readv(sib, &local, 1, &remote, 1, 0));
    int st;
    waitpid(tracee, &st, 0);
    if (WIFSTOPPED(st)) { /* TRACEME went through: try to use it */
        errno = 0;
        long word = ptrace(PTRACE_PEEKDATA, tracee, &secret, NULL);
        kill(tracee, SIGKILL);
        if (errno == 0 && word == secret) {
            printf("ESCAPED: PTRACE_TRACEME child peeked by its parent\n");
            return 1;
        }
        must_fail("PTRACE_PEEKDATA traced child", -1);
    } else {
        int refused = WIFEXITED(st) && WEXITSTATUS(st) >= 100;
        errno = refused ? WEXITSTATUS(st) - 100 : 0;
        must_fail("PTRACE_TRACEME", refused ? -1 : 0);
    }
    kill(sib, SIGKILL);
    waitpid(sib, NULL, 0);
    waitpid(tracee, NULL, 0);
    return contained();
}
