/* Attacks: watches the shared read-only /usr with inotify (and fanotify), which would show
 * other cells' and the host's file accesses there. Contained: both refused (ENOSYS, EPERM). */
#include "probe.h"

#include <fcntl.h>
#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
    int fd = inotify_init1(IN_NONBLOCK);
    if (fd >= 0 && inotify_add_watch(fd, "/usr/bin", IN_ACCESS | IN_OPEN) >= 0)
        escaped("watched", "/usr/bin with inotify");
    note_errno("inotify_init1", fd >= 0 ? EEXIST : errno);
    must_fail("inotify_init", syscall(SYS_inotify_init));
    must_fail("fanotify_init", fanotify_init(FAN_CLASS_NOTIF, O_RDONLY));
    return contained();
}
