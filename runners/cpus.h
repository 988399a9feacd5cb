/*
 * cpus: verdict's share of the host's CPUs, prefix cpus_.
 *
 * How many CPUs its jobs may use at once: the server's affinity mask (which a cpuset narrows)
 * and the CPU quota of the cgroup it runs in or of any cgroup above it (v1
 * cpu.cfs_quota_us / cpu.cfs_period_us, v2 cpu.max), so that a container limited to 2 CPUs
 * of a 64-core host counts 2. The server admits that many CPU-bound jobs at once by default
 * (`serve --cells`): a job that waits in verdict's queue is charged nothing, one that waits
 * for a CPU inside the kernel is slowed, and its verdict with it (docs/performance.md,
 * "Verdicts under load").
 *
 * And the weight of verdict's cgroup tree (v1 cpu.shares, v2 cpu.weight, on the tree's own
 * directory, which verdict created), so that its jobs compete with the host's other processes
 * as that many tasks, not as one: under the cpu controller a cgroup weighs as much as one
 * task of its parent, whatever it holds.
 */
#ifndef VERDICT_CPUS_H
#define VERDICT_CPUS_H

#include "runners/cgroup.h"

/* The CPUs this process may run on (sched_getaffinity), bounded by the CPU quota of its
 * cgroup and of the cgroups above it (rounded up to whole CPUs). At least 1. */
int cpus_usable(const struct cg_host *h);

/* A quota as CPUs (rounded up) from a v2 cpu.max line ("max 100000" or "150000 100000") or
 * a v1 pair (quota, period; quota -1: none). 0 when there is no limit or the text does not
 * parse. Pure. */
int cpus_from_cpu_max(const char *text);
int cpus_from_cfs(long long quota_us, long long period_us);

/* Gives the tree the CPU weight of `jobs` tasks (v1: 1024 shares each; v2: 100 each, at
 * most 10000). Returns 0, 1 when the tree has no cpu controller (nothing to weigh), or a
 * negative errno with the reason in err. */
int cpus_weigh_tree(const struct cg_tree *t, int jobs, char err[ERR_LEN]);

#endif
