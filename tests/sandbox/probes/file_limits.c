/* Attacks: RLIMIT_FSIZE and RLIMIT_NOFILE, then raising limits. Contained: EFBIG, EMFILE, EPERM. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define MiB (1L << 20)

static char buf[MiB];

static void no_raise(const char *name, int resource)
{
    struct rlimit big = {RLIM_INFINITY, RLIM_INFINITY};
    if (setrlimit(resource, &big) == 0) {
        printf("ESCAPED: raised %s to unlimited\n", name);
        exit(1);
    }
}

int main(void)
{
    signal(SIGXFSZ, SIG_IGN);
    int fd = open("/w/big", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) {
        printf("unexpected: open /w/big: %s\n", strerror(errno));
        return 2;
    }
    long total = 0;
    ssize_t w;
    while ((w = write(fd, buf, sizeof(buf))) > 0)
        if ((total += w) > 16 * MiB) {
            printf("ESCAPED: wrote %ld MiB past RLIMIT_FSIZE (16 MiB)\n", total / MiB);
            return 1;
        }
    if (w == 0 || errno != EFBIG) {
        printf("unexpected: write stopped at %ld bytes: %s\n", total, strerror(errno));
        return 2;
    }
    close(fd);
    unlink("/w/big");
    int n = 3;
    while (open("/dev/null", O_RDONLY) >= 0)
        if (++n > 256) {
            printf("ESCAPED: %d open fds, past RLIMIT_NOFILE (256)\n", n);
            return 1;
        }
    int e = errno;
    no_raise("RLIMIT_FSIZE", RLIMIT_FSIZE);
    no_raise("RLIMIT_NOFILE", RLIMIT_NOFILE);
    no_raise("RLIMIT_CPU", RLIMIT_CPU);
    no_raise("RLIMIT_NPROC", RLIMIT_NPROC);
    no_raise("RLIMIT_MEMLOCK", RLIMIT_MEMLOCK);
    printf("contained: file stopped at %ld MiB (EFBIG), %d fds then %s, limits not raisable\n",
           total / MiB, n, strerrorname_np(e));
    return 0;
}
