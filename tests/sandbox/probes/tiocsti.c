/* Attacks: keystroke injection with TIOCSTI (fds 0-2, /dev/tty). Contained: ioctl fails. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static char msg[256];

static void inject(const char *name, int fd, int open_errno)
{
    char c = '#';
    if (fd >= 0 && ioctl(fd, TIOCSTI, &c) == 0) {
        printf("ESCAPED: TIOCSTI on %s injected a character\n", name);
        fflush(stdout);
        _exit(1);
    }
    size_t n = strlen(msg);
    snprintf(msg + n, sizeof(msg) - n, "%s%s: %s", n ? ", " : "", name,
             strerrorname_np(fd >= 0 ? errno : open_errno));
}

int main(void)
{
    inject("fd 0", 0, EBADF);
    inject("fd 1", 1, EBADF);
    inject("fd 2", 2, EBADF);
    int tty = open("/dev/tty", O_RDWR | O_NOCTTY);
    inject("/dev/tty", tty, errno);
    printf("contained: %s\n", msg);
    return 0;
}
