/*
 * perf: user-mode instructions retired by a job, a cost that does not depend on load.
 *
 * One counter per cell, opened by the cell on itself before it confines itself (the seccomp
 * filter refuses perf_event_open afterwards): PERF_COUNT_HW_INSTRUCTIONS, user mode only,
 * disabled, inherited by every child and enabled in a child when it execs. The cell itself
 * never execs, so it never counts; each job's processes count from their exec on, and the
 * kernel adds a child's count to the cell's counter when the child exits. A job's count is
 * the counter's growth from before the job's first process is cloned to after its last is
 * reaped. Where the host has no PMU (most VMs), or perf events are forbidden, the counter is
 * never opened and nothing is counted.
 */
#ifndef VERDICT_PERF_H
#define VERDICT_PERF_H

#include <stdint.h>

/* Opens the inherited instruction counter on the calling process. Returns its descriptor
 * (CLOEXEC), or a negative errno when the host cannot count: -ENOENT, -EOPNOTSUPP or -ENODEV
 * without a PMU, -EACCES or -EPERM when perf events are forbidden. */
int perf_open(void);

/* The counter's value: instructions retired by the exited children it was inherited by, or
 * a negative errno. */
int64_t perf_read(int fd);

#endif
