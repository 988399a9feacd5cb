/*
 * clock: when a job's time is up. The arithmetic of the three time limits, apart from the
 * counters it is fed: CPU time with a grace, the wall clock charged only for time the job
 * was not waiting for a CPU, and a hard wall backstop; and the reading of one task's wait.
 *
 * CPU time is the limit that makes a program TLE; it is what the program spent, nearly
 * independent of load, but it still spreads under load (context switches and caches shared
 * with 4x as many jobs as cores: +12-19% measured here, benchmarks/flip_rate.py), so the
 * limit fires at limit + grace. The wall clock catches a program that sleeps or blocks: time
 * its tasks spent runnable but waiting for a CPU (their run delay, /proc/<tid>/schedstat) is
 * not charged to it, and it has the same grace, since what is charged (time on a CPU, time
 * asleep) spreads as CPU time does; a job still starved at the backstop
 * (job_limits.backstop_ms) was held back by load, which is ours to answer (SE), never the
 * program's TLE. A TLE is named "cpu" when the job had spent its CPU limit, whichever clock
 * stopped it: /run_code gives both clocks the same limit, and a CPU-bound program's charged
 * wall time is its CPU time.
 */
#ifndef VERDICT_CLOCK_H
#define VERDICT_CLOCK_H

#include <stdint.h>
#include <sys/types.h>

#define CLOCK_GRACE_MIN_MS    50   /* the CPU grace is at least this, ms */
#define CLOCK_GRACE_PERCENT   10   /* ... and at least this share of the CPU limit */
#define CLOCK_BACKSTOP_FACTOR 3    /* the default backstop: this many wall limits of elapsed time */
#define CLOCK_STARVED_MIN_MS  1000 /* a backstop is at least the allowed wall time plus this */

/* Time, ns, a job with a CPU (or wall) limit of limit_ms may be charged before it is TLE:
 * the limit plus max(CLOCK_GRACE_MIN_MS, CLOCK_GRACE_PERCENT% of it). Pure. */
int64_t clock_allowed_ns(int64_t limit_ms);

/* The default backstop of a wall limit of wall_ms: CLOCK_BACKSTOP_FACTOR times it, ms. Pure. */
int64_t clock_backstop_ms(int64_t wall_ms);

enum clock_wall {
    CLOCK_WALL_RUNNING, /* within its wall limit */
    CLOCK_WALL_TLE,     /* the time it was not waiting for a CPU passed the wall limit */
    CLOCK_WALL_STARVED  /* at the backstop, still within its limit once waiting is taken off */
};

/* The wall clock's state elapsed_ns after the job started, its tasks having waited waited_ns
 * runnable for a CPU (0 <= waited_ns; more than elapsed_ns is read as elapsed_ns): TLE once
 * elapsed - waited passes clock_allowed_ns(wall_ms), STARVED once elapsed passes backstop_ms
 * first. A backstop is never read as less than the allowed wall time plus half of it
 * (CLOCK_STARVED_MIN_MS at least), so only a job that waited that long is ever starved: a
 * compile whose wall clock its caller raised past the backstop, or a run that waited a few
 * ms, ends TLE, never SE. Pure. */
enum clock_wall clock_wall_check(int64_t wall_ms, int64_t backstop_ms, int64_t elapsed_ns,
                                 int64_t waited_ns);

/* The run delay in a /proc/<tid>/schedstat line ("<on-cpu ns> <run delay ns> <slices>"), ns,
 * or -EINVAL when the line has no such field. Pure. */
int64_t clock_parse_schedstat(const char *line);

/* Task tid's run delay so far (time runnable but waiting for a CPU), ns, or a negative errno
 * (-ENOENT: it has exited). Needs CONFIG_SCHED_INFO. Reads /proc/<tid>/schedstat. */
int64_t clock_run_delay_ns(pid_t tid);

#endif
