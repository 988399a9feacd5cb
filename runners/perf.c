/*
 * perf: the inherited user-mode instruction counter (perf_event_open has no libc wrapper).
 */
#include "runners/perf.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int perf_open(void)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_INSTRUCTIONS;
    a.disabled = 1;       /* the cell does not count ... */
    a.enable_on_exec = 1; /* ... each job process does, from its exec */
    a.inherit = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : (int)fd;
}

int64_t perf_read(int fd)
{
    uint64_t v;
    ssize_t n = read(fd, &v, sizeof(v));
    if (n < 0)
        return -errno;
    return n == (ssize_t)sizeof(v) ? (int64_t)v : -EIO;
}
