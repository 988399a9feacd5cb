/*
 * child: fork, run, report over a CLOEXEC pipe, _exit.
 *
 * The child writes one record to the pipe: its int code followed by the err text. The parent
 * polls the pipe until EOF or the deadline, then reaps the child; a child past its deadline is
 * killed with SIGKILL and reaped, so no probe leaves a zombie or an orphan behind. A probe that
 * forks grandchildren must reap them itself.
 */
#include "runners/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct report {
    int code;
    char err[ERR_LEN];
};

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void child_main(int wfd, child_fn fn, void *arg)
{
    struct report rep = {0};
    rep.code = fn(arg, rep.err);
    ssize_t n = write(wfd, &rep, sizeof(rep));
    _exit(n == (ssize_t)sizeof(rep) ? 0 : 127);
}

/* Reads the child's report until EOF or the deadline; returns bytes read or -ETIMEDOUT. */
static ssize_t read_report(int rfd, struct report *rep, long long deadline)
{
    size_t got = 0;
    for (;;) {
        long long left = deadline - now_ms();
        if (left <= 0)
            return -ETIMEDOUT;
        struct pollfd p = {.fd = rfd, .events = POLLIN};
        int r = poll(&p, 1, (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return r == 0 ? -ETIMEDOUT : -errno;
        ssize_t n = read(rfd, (char *)rep + got, sizeof(*rep) - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return (ssize_t)got;
        got += (size_t)n;
        if (got == sizeof(*rep))
            return (ssize_t)got;
    }
}

int child_run(child_fn fn, void *arg, int timeout_ms, char err[ERR_LEN])
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0)
        return err_set(err, -errno, "pipe: %m");
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        return err_set(err, -e, "fork: %s", strerror(e));
    }
    if (pid == 0) {
        close(fds[0]);
        child_main(fds[1], fn, arg);
    }
    close(fds[1]);

    struct report rep = {0};
    ssize_t got = read_report(fds[0], &rep, now_ms() + timeout_ms);
    close(fds[0]);
    if (got == -ETIMEDOUT)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (got == -ETIMEDOUT)
        return err_set(err, -ETIMEDOUT, "probe did not finish within %d ms", timeout_ms);
    if (got != (ssize_t)sizeof(rep)) {
        if (WIFSIGNALED(status))
            return err_set(err, -ECHILD, "probe killed by signal %d (%s)", WTERMSIG(status),
                           strsignal(WTERMSIG(status)));
        return err_set(err, -ECHILD, "probe exited with status %d without a report",
                       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    rep.err[ERR_LEN - 1] = '\0';
    if (err)
        memcpy(err, rep.err, ERR_LEN);
    return rep.code;
}
