/* Attacks: root via setuid su (su -c 'id -u' root). Contained: su fails, nothing runs as uid 0. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    int p[2];
    if (pipe(p) < 0)
        return 2;
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(p[1], 1);
        dup2(null, 2);
        close(p[0]);
        execl("/usr/bin/su", "su", "-c", "id -u", "root", (char *)NULL);
        _exit(127);
    }
    if (pid < 0)
        return 2;
    close(p[1]);
    char out[256] = "";
    size_t len = 0;
    struct pollfd pfd = {p[0], POLLIN, 0};
    while (len < sizeof(out) - 1 && poll(&pfd, 1, 1500) > 0) { /* su must not hang the probe */
        ssize_t r = read(p[0], out + len, sizeof(out) - 1 - len);
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    out[len] = '\0';
    kill(pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    for (char *line = out, *nl; (nl = strchr(line, '\n')); line = nl + 1)
        if (nl - line == 1 && line[0] == '0') { /* a line "0": id -u ran as root */
            printf("ESCAPED: su ran 'id -u' as root\n");
            return 1;
        }
    printf("contained: su %s %d, printed %zu bytes, no uid 0\n",
           WIFEXITED(st) ? "exited" : "killed by signal",
           WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), len);
    return 0;
}
