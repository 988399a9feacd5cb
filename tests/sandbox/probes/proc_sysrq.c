/* Attacks: the magic SysRq interface (/proc/sysrq-trigger). Contained: cannot open it to write. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    int fd = open("/proc/sysrq-trigger", O_WRONLY);
    if (fd >= 0) {
        ssize_t w = write(fd, "h", 1); /* 'h' only prints help to the kernel log */
        printf("ESCAPED: opened /proc/sysrq-trigger for writing (write returned %zd)\n", w);
        return 1;
    }
    int e = errno;
    if (open("/proc/sys/kernel/sysrq", O_WRONLY) >= 0) {
        printf("ESCAPED: opened /proc/sys/kernel/sysrq for writing\n");
        return 1;
    }
    printf("contained: /proc/sysrq-trigger: %s, /proc/sys/kernel/sysrq: %s\n", strerrorname_np(e),
           strerrorname_np(errno));
    return 0;
}
