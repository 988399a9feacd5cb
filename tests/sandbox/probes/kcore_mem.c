/* Attacks: kernel memory and raw devices (/proc/kcore, /dev/mem, disks). Contained: none opens. */
#include "probe.h"

#include <fcntl.h>

int main(void)
{
    static const char *const paths[] = {"/proc/kcore",  "/dev/mem",     "/dev/kmem", "/dev/port",
                                        "/proc/kmsg",   "/dev/kmsg",    "/dev/sda",  "/dev/vda",
                                        "/dev/nvme0n1", "/dev/console", "/dev/tty0", "/dev/hwrng"};
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        /* Opening any of these is the breach itself (CAP_SYS_RAWIO or a device that must not
         * exist); nothing is read, so the probe never blocks. */
        if (open(paths[i], O_RDONLY | O_NONBLOCK) >= 0)
            escaped("opened", paths[i]);
        note_errno(paths[i], errno);
    }
    return contained();
}
