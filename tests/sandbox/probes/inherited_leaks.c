/* Attacks: what the server may leak into a job: env vars and open fds. Contained: env, fds clean.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

int main(void)
{
    int leaks = 0, vars = 0;
    for (char **e = environ; *e; e++, vars++)
        if (strcmp(*e, "PATH=/usr/local/bin:/usr/bin:/bin") != 0 && strcmp(*e, "HOME=/w") != 0) {
            printf("%sleaked env %.*s", leaks++ ? ", " : "ESCAPED: ", (int)strcspn(*e, "="), *e);
        }
    DIR *d = opendir("/proc/self/fd");
    struct dirent *de;
    int fds = 0;
    while (d && (de = readdir(d))) {
        int fd = isdigit((unsigned char)de->d_name[0]) ? atoi(de->d_name) : -1;
        if (fd < 0 || fd == dirfd(d))
            continue;
        fds++;
        if (fd > 2) {
            char path[64], target[256] = "?";
            snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
            ssize_t n = readlink(path, target, sizeof(target) - 1);
            target[n > 0 ? n : 1] = '\0';
            printf("%sinherited fd %d -> %s", leaks++ ? ", " : "ESCAPED: ", fd, target);
        }
    }
    if (!d)
        return 2;
    closedir(d);
    if (leaks) {
        printf("\n");
        return 1;
    }
    printf("contained: env holds only PATH and HOME (%d vars), fds: %d (0-2 only)\n", vars, fds);
    return 0;
}
