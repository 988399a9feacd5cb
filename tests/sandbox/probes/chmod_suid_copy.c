/* Attacks: setuid copy of itself, chown to root, exec. Contained: chown fails, euid != 0. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "whoami") == 0) {
        printf("%d %d\n", (int)geteuid(), (int)getegid());
        return 0;
    }
    char buf[65536];
    int in = open("/proc/self/exe", O_RDONLY);
    int out = open("/w/suid_copy", O_WRONLY | O_CREAT | O_TRUNC, 0755);
    ssize_t r;
    while (in >= 0 && out >= 0 && (r = read(in, buf, sizeof(buf))) > 0)
        if (write(out, buf, (size_t)r) != r)
            return 2;
    if (in < 0 || out < 0)
        return 2;
    if (fchown(out, 0, 0) == 0 || fchown(out, (uid_t)-1, 0) == 0) {
        printf("ESCAPED: chowned /w/suid_copy to root\n");
        return 1;
    }
    int e = errno;
    if (fchmod(out, 06755) < 0 || close(out) < 0) {
        printf("unexpected: fchmod 6755: %s\n", strerror(errno));
        return 2;
    }
    FILE *f = popen("/w/suid_copy whoami", "r");
    int euid = -1, egid = -1;
    if (!f || fscanf(f, "%d %d", &euid, &egid) != 2 || pclose(f) != 0) {
        printf("unexpected: could not run the setuid copy\n");
        return 2;
    }
    if (euid == 0 || egid == 0) {
        printf("ESCAPED: setuid copy ran with euid %d egid %d\n", euid, egid);
        return 1;
    }
    printf("contained: chown to root: %s, setuid copy ran as euid %d egid %d\n", strerrorname_np(e),
           euid, egid);
    return 0;
}
