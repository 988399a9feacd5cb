/*
 * clock: the time limits' arithmetic, and a task's run delay from /proc.
 *
 * The grace and the backstop are documented in docs/design.md ("Time limits"); the numbers
 * behind them come from benchmarks/flip_rate.py on a 2-core VM with 8 judged jobs in flight.
 */
#include "runners/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int64_t clock_allowed_ns(int64_t limit_ms)
{
    int64_t grace = limit_ms * CLOCK_GRACE_PERCENT / 100;
    if (grace < CLOCK_GRACE_MIN_MS)
        grace = CLOCK_GRACE_MIN_MS;
    return (limit_ms + grace) * 1000000LL;
}

int64_t clock_backstop_ms(int64_t wall_ms)
{
    return wall_ms * CLOCK_BACKSTOP_FACTOR;
}

enum clock_wall clock_wall_check(int64_t wall_ms, int64_t backstop_ms, int64_t elapsed_ns,
                                 int64_t waited_ns)
{
    int64_t waited = waited_ns < elapsed_ns ? waited_ns : elapsed_ns;
    int64_t allowed = clock_allowed_ns(wall_ms), backstop = backstop_ms * 1000000LL;
    int64_t margin = allowed / 2 > CLOCK_STARVED_MIN_MS * 1000000LL
                         ? allowed / 2
                         : CLOCK_STARVED_MIN_MS * 1000000LL;
    if (elapsed_ns - waited > allowed)
        return CLOCK_WALL_TLE;
    if (elapsed_ns > (backstop > allowed + margin ? backstop : allowed + margin))
        return CLOCK_WALL_STARVED;
    return CLOCK_WALL_RUNNING;
}

int64_t clock_parse_schedstat(const char *line)
{
    char *end;
    strtoull(line, &end, 10);
    if (end == line || *end != ' ')
        return -EINVAL;
    const char *delay = end + 1;
    long long v = strtoll(delay, &end, 10);
    if (end == delay || v < 0)
        return -EINVAL;
    return v;
}

int64_t clock_run_delay_ns(pid_t tid)
{
    char path[64], buf[128];
    snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    int e = errno;
    close(fd);
    if (n <= 0)
        return n < 0 ? -e : -EINVAL;
    buf[n] = '\0';
    return clock_parse_schedstat(buf);
}
