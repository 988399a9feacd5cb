/* Attacks: root via the setuid mount binary (mount -t tmpfs). Contained: fails, nothing mounted. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    struct stat w, m;
    if (mkdir("/w/m", 0755) < 0 || stat("/w", &w) < 0) {
        printf("unexpected: mkdir /w/m: %s\n", strerror(errno));
        return 2;
    }
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        execl("/usr/bin/mount", "mount", "-t", "tmpfs", "none", "/w/m", (char *)NULL);
        _exit(127);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) != pid || stat("/w/m", &m) < 0)
        return 2;
    if (m.st_dev != w.st_dev) {
        printf("ESCAPED: setuid mount put a file system on /w/m\n");
        return 1;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        printf("ESCAPED: setuid mount exited 0\n");
        return 1;
    }
    printf("contained: /usr/bin/mount %s %d, /w/m not a mount point\n",
           WIFEXITED(st) ? "exited" : "killed by signal",
           WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
    return 0;
}
