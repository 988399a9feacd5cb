/*
 * limits: rlimit values for a job.
 *
 * RLIMIT_CPU is a backstop only: the cell polls the cgroup's CPU counter and kills at the
 * limit plus its grace (runners/clock.h); the rlimit (that, in whole seconds rounded up, plus
 * one) catches a job should polling ever fall behind (SIGXCPU at the soft limit, SIGKILL one second
 * later). RLIMIT_NPROC counts every process of the job's uid, which is unique to its cell, so it
 * only backs up pids.max.
 */
#include "runners/limits.h"

#include <errno.h>

#include "runners/clock.h"

#define MiB (1024ull * 1024)

static void put(struct limits_plan *p, int resource, rlim_t soft, rlim_t hard)
{
    p->set[p->n].resource = resource;
    p->set[p->n].value.rlim_cur = soft;
    p->set[p->n].value.rlim_max = hard;
    p->n++;
}

void limits_plan(const struct job_limits *l, struct limits_plan *p)
{
    p->n = 0;
    int64_t allowed_ms = clock_allowed_ns(l->cpu_ms) / 1000000;
    rlim_t cpu_s = (rlim_t)((allowed_ms + 999) / 1000) + 1;
    put(p, RLIMIT_CPU, cpu_s, cpu_s + 1);
    put(p, RLIMIT_STACK, l->stack_bytes, l->stack_bytes);
    put(p, RLIMIT_FSIZE, l->file_bytes, l->file_bytes);
    put(p, RLIMIT_NOFILE, l->nofile, l->nofile);
    put(p, RLIMIT_CORE, 0, 0);
    put(p, RLIMIT_NPROC, (rlim_t)l->pids * 2, (rlim_t)l->pids * 2);
    put(p, RLIMIT_MEMLOCK, 8 * MiB, 8 * MiB); /* pinned pages still count in the cgroup */
    put(p, RLIMIT_MSGQUEUE, 819200, 819200);  /* the kernel's default for POSIX queues */
    put(p, RLIMIT_RTPRIO, 0, 0);              /* no real-time scheduling */
}

int limits_apply(const struct limits_plan *p, int *failed)
{
    for (int i = 0; i < p->n; i++) {
        if (setrlimit(p->set[i].resource, &p->set[i].value) < 0) {
            *failed = p->set[i].resource;
            return -errno;
        }
    }
    return 0;
}
