/* Attacks: opening /proc/sys knobs for writing. Contained: every open refused. */
#include "probe.h"

#include <fcntl.h>

int main(void)
{
    static const char *const knobs[] = {
        "/proc/sys/kernel/hostname",     "/proc/sys/vm/drop_caches",
        "/proc/sys/kernel/core_pattern", "/proc/sys/kernel/randomize_va_space",
        "/proc/sys/net/ipv4/ip_forward", "/proc/sys/fs/file-max",
        "/proc/sys/kernel/modprobe"};
    for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
        /* On a read-only /proc/sys an open for writing fails: success alone is the breach, and
         * nothing is written so a broken sandbox does no harm. */
        if (open(knobs[i], O_WRONLY) >= 0) {
            printf("ESCAPED: opened %s for writing\n", knobs[i]);
            return 1;
        }
        note_errno(knobs[i] + 10, errno);
    }
    return contained();
}
