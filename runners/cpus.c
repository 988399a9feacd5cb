/*
 * cpus: how many CPUs verdict may use, and its tree's CPU weight (cpus.h).
 */
#include "runners/cpus.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runners/file.h"

int cpus_from_cfs(long long quota_us, long long period_us)
{
    if (quota_us <= 0 || period_us <= 0)
        return 0;
    long long n = (quota_us + period_us - 1) / period_us;
    return n > 1 << 20 ? 1 << 20 : (int)n;
}

int cpus_from_cpu_max(const char *text)
{
    long long quota, period;
    if (!text || strncmp(text, "max", 3) == 0 || sscanf(text, "%lld %lld", &quota, &period) != 2)
        return 0;
    return cpus_from_cfs(quota, period);
}

/* The quota, as CPUs, of the cgroup directory d (0: none or unreadable). */
static int quota_of(const char *d, bool v2)
{
    char path[CG_PATH + 24], text[128];
    if (v2) {
        snprintf(path, sizeof(path), "%s/cpu.max", d);
        return file_read(path, text, sizeof(text)) < 0 ? 0 : cpus_from_cpu_max(text);
    }
    snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", d);
    if (file_read(path, text, sizeof(text)) < 0)
        return 0;
    long long quota = atoll(text);
    snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", d);
    if (file_read(path, text, sizeof(text)) < 0)
        return 0;
    return cpus_from_cfs(quota, atoll(text));
}

/* The tightest quota of dir and of every directory above it, as CPUs; 0: none. A directory
 * without the files (above the hierarchy's mount, or a v2 cgroup whose parent did not enable
 * the cpu controller) has no quota of its own. */
static int quota_above(const char *dir, bool v2)
{
    char path[CG_PATH];
    int best = 0;
    snprintf(path, sizeof(path), "%s", dir);
    while (path[0] == '/' && path[1]) {
        int n = quota_of(path, v2);
        if (n > 0 && (best == 0 || n < best))
            best = n;
        char *slash = strrchr(path, '/');
        slash[slash == path] = '\0'; /* "/a/b" -> "/a", "/a" -> "/" (ends the walk) */
    }
    return best;
}

int cpus_usable(const struct cg_host *h)
{
    cpu_set_t set;
    int n = 0;
    if (sched_getaffinity(0, sizeof(set), &set) == 0)
        n = CPU_COUNT(&set);
    if (n < 1)
        n = 1;
    const char *dir = NULL;
    bool v2 = h && h->version == CG_V2;
    if (h && v2)
        dir = h->v2_dir[0] ? h->v2_dir : NULL;
    else if (h && h->v1_dir[CG_CPU][0])
        dir = h->v1_dir[CG_CPU];
    int q = dir ? quota_above(dir, v2) : 0;
    return q > 0 && q < n ? q : n;
}

int cpus_weigh_tree(const struct cg_tree *t, int jobs, char err[ERR_LEN])
{
    if (jobs < 1)
        jobs = 1;
    for (int i = 0; i < t->ndirs; i++) {
        if (!(t->ctrls[i] & (1u << CG_CPU)))
            continue;
        char path[CG_PATH + 16], value[32];
        bool v2 = t->version == CG_V2;
        long long w = v2 ? 100LL * jobs : 1024LL * jobs;
        if (v2 && w > 10000)
            w = 10000;
        if (!v2 && w > 262144)
            w = 262144;
        snprintf(path, sizeof(path), "%s/%s", t->dir[i], v2 ? "cpu.weight" : "cpu.shares");
        snprintf(value, sizeof(value), "%lld", w);
        int rc = file_write(path, value);
        if (rc < 0)
            return err_set(err, rc, "write %s to %.200s: %s", value, path, strerror(-rc));
        return 0;
    }
    return 1;
}
