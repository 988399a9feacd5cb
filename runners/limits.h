/*
 * limits: the resource limits (setrlimit) a job runs under, as a backstop to its cgroup.
 *
 * Memory is limited by the cgroup alone, never by RLIMIT_AS (which breaks Go, Java and
 * numpy's thread pools). The rlimits here cap what cgroups do not: the size of one file, open
 * descriptors, core dumps, the stack, and a CPU-time backstop in case polling is late.
 */
#ifndef VERDICT_LIMITS_H
#define VERDICT_LIMITS_H

#include <sys/resource.h>

#include "runners/job.h"

#define LIMITS_COUNT 9

struct limits_plan {
    int n;
    struct {
        int resource; /* RLIMIT_* */
        struct rlimit value;
    } set[LIMITS_COUNT];
};

/* Computes the rlimits for a job (l must have its defaults filled). Pure. */
void limits_plan(const struct job_limits *l, struct limits_plan *p);

/* Applies the plan to the calling process. System calls only (safe between fork and exec).
 * Returns 0, or the negative errno of the first failure with *failed set to its resource. */
int limits_apply(const struct limits_plan *p, int *failed);

#endif
