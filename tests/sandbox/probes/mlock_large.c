/* Attacks: mlock/mlockall of 192 MiB (over the 128 MiB limit). Contained: ENOMEM/EPERM, or MLE. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define SIZE (192L << 20)

int main(void)
{
    char *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED) {
        printf("unexpected: mmap: %s\n", strerror(errno));
        return 2;
    }
    if (mlock(p, SIZE) == 0) {
        printf("ESCAPED: mlock of 192 MiB succeeded\n");
        return 1;
    }
    int e = errno;
    if (mlockall(MCL_CURRENT | MCL_FUTURE) == 0) {
        printf("ESCAPED: mlockall with 192 MiB mapped succeeded\n");
        return 1;
    }
    printf("contained: mlock: %s, mlockall: %s\n", strerrorname_np(e), strerrorname_np(errno));
    return 0;
}
