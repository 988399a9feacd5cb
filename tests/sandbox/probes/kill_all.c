/* Attacks: kill(-1, SIGKILL) at everything it may signal. Contained: only its own children die. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    pid_t kids[2];
    for (int i = 0; i < 2; i++) {
        kids[i] = fork();
        if (kids[i] == 0)
            for (;;)
                pause();
        if (kids[i] < 0) {
            printf("unexpected: fork: %s\n", strerror(errno));
            return 2;
        }
    }
    /* Linux never signals the caller itself on kill(-1): this process lives on to report. */
    int r = kill(-1, SIGKILL);
    int e = errno, killed = 0;
    for (int i = 0; i < 2; i++) {
        int st;
        kill(kids[i], SIGKILL); /* in case kill(-1) was refused: never wait forever */
        if (waitpid(kids[i], &st, 0) == kids[i] && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
            killed++;
    }
    int cell = kill(1, 0) == 0 || errno == EPERM;
    printf("contained: kill(-1, SIGKILL) = %d (%s), own children dead: %d/2, pid 1 %s\n", r,
           r == 0 ? "ok" : strerrorname_np(e), killed, cell ? "alive" : "gone");
    return 0;
}
