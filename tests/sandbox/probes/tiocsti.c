/* Attacks: keystroke injection with TIOCSTI (fds 0-2, /dev/tty). Contained: ioctl fails. */
#include "probe.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

static void inject(const char *name, int fd, int open_errno)
{
    char c = '#';
    if (fd >= 0 && ioctl(fd, TIOCSTI, &c) == 0) {
        printf("ESCAPED: TIOCSTI on %s injected a character\n", name);
        fflush(stdout);
        _exit(1);
    }
    note_errno(name, fd >= 0 ? errno : open_errno);
}

int main(void)
{
    inject("fd 0", 0, EBADF);
    inject("fd 1", 1, EBADF);
    inject("fd 2", 2, EBADF);
    int tty = open("/dev/tty", O_RDWR | O_NOCTTY);
    inject("/dev/tty", tty, errno);
    return contained();
}
