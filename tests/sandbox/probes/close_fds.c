/* Attacks: closes fds 0-2, then writes to them. Contained: no crash, a dup of stdout works. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    int keep = dup(1);
    if (keep < 0)
        return 2;
    close(0);
    close(1);
    close(2);
    errno = 0;
    ssize_t w = write(1, "lost\n", 5);
    int e = errno;
    printf("lost\n");
    fflush(stdout);
    fprintf(stderr, "lost\n");
    int fd = open("/dev/null", O_RDWR); /* takes fd 0 */
    if (w >= 0) {
        dprintf(keep, "unexpected: write to closed fd 1 returned %zd\n", w);
        return 2;
    }
    dprintf(keep, "contained: write(1) after close: %s, reopened fd %d, wrote via dup'ed fd %d\n",
            strerrorname_np(e), fd, keep);
    return 0;
}
