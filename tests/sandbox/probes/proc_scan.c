/* Attacks: finding other processes (/proc, kill(pid, 0)). Contained: only pid 1 and itself;
 * with the argument "warm" (a cell whose warm Python interpreter lives, runners/zygote.h)
 * also that one process, which is hidden from /proc and answers EPERM: unsignalable. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int zygotes = argc > 1 && strcmp(argv[1], "warm") == 0 ? 1 : 0, seen = 0;
    pid_t self = getpid(), parent = getppid(); /* the parent is pid 1 or the job's own */
    DIR *d = opendir("/proc");
    if (!d) {
        printf("unexpected: opendir /proc: %s\n", strerror(errno));
        return 2;
    }
    int listed = 0, probed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        long pid = strtol(e->d_name, NULL, 10);
        listed++;
        if (pid != 1 && pid != self && pid != parent) {
            char path[64], comm[64] = "?";
            snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
            FILE *f = fopen(path, "r");
            if (f && fgets(comm, sizeof(comm), f))
                comm[strcspn(comm, "\n")] = '\0';
            printf("ESCAPED: /proc shows foreign pid %ld (%s)\n", pid, comm);
            return 1;
        }
    }
    closedir(d);
    for (pid_t pid = 2; pid < 65536; pid++) /* pids hidden from /proc but still signalable */
        if (pid != self && pid != parent && kill(pid, 0) < 0 && errno == EPERM && seen < zygotes) {
            seen++;
        } else if (pid != self && pid != parent && (kill(pid, 0) == 0 || errno == EPERM)) {
            printf("ESCAPED: kill(%d, 0) finds a process not listed in /proc\n", (int)pid);
            return 1;
        } else {
            probed++;
        }
    printf("contained: /proc lists %d pids (1 and self %d), %d other pids do not exist, %d "
           "unsignalable (the warm interpreter)\n",
           listed, (int)self, probed, seen);
    return 0;
}
