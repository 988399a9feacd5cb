/* Attacks: a double-forked setsid daemon outliving the job. Contained: nothing left over. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int keep_stdio = argc > 1 && strcmp(argv[1], "keep-stdio") == 0; /* hold the pipes open */
    printf("spawned daemon%s\n", keep_stdio ? " holding stdout/stderr" : "");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        if (fork() != 0)
            _exit(0);
        signal(SIGHUP, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        int fd = open("/dev/null", O_RDWR);
        if (!keep_stdio && fd >= 0 && (dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0))
            _exit(1);
        for (;;) {
            int out = open("/tmp/daemon.txt", O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (out >= 0 && write(out, "alive\n", 6) < 0)
                _exit(1);
            close(out);
            usleep(10000);
        }
    }
    if (pid > 0)
        waitpid(pid, NULL, 0);
    for (int i = 0; i < 100 && access("/tmp/daemon.txt", F_OK) != 0; i++)
        usleep(5000); /* exit only once the daemon is really running */
    return 0;
}
