/*
 * cgroup: control groups, v2 (unified) and v1 (one hierarchy per controller), prefix cg_.
 *
 * verdict never creates cgroups at a hierarchy's root by assumption: it reads where its own
 * process sits (/proc/self/cgroup), finds that cgroup's directory through the mount table
 * (/proc/self/mountinfo, whose root field matters inside containers), and works beneath it as
 * in a delegated subtree. This issue provides detection and the host probe; per-job cgroups
 * arrive with the sandbox engine.
 */
#ifndef VERDICT_CGROUP_H
#define VERDICT_CGROUP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "runners/err.h"

#define CG_PATH 512

enum cg_version { CG_NONE = 0, CG_V1 = 1, CG_V2 = 2 };

/* The controllers a job needs. On v2 CPU accounting is cpu.stat, which every cgroup has with
 * or without the cpu controller: cg_dir() always answers CG_CPUACCT there. */
enum cg_ctrl { CG_MEMORY, CG_PIDS, CG_CPU, CG_CPUACCT, CG_NCTRL };

struct cg_host {
    enum cg_version version;        /* the hierarchy verdict will use; CG_NONE if unusable */
    bool v2_mounted;                /* some cgroup2 mount is visible (maybe with no controllers) */
    char v2_dir[CG_PATH];           /* our cgroup's directory in the v2 hierarchy, or "" */
    unsigned v2_controllers;        /* bit (1u << cg_ctrl): listed in our cgroup.controllers */
    char v1_dir[CG_NCTRL][CG_PATH]; /* our cgroup's directory per v1 controller, or "" */
};

/* Short name of a controller ("memory", "pids", "cpu", "cpuacct"); static string. */
const char *cg_ctrl_name(enum cg_ctrl c);

/* Parses the text of /proc/self/cgroup and /proc/self/mountinfo into h (version left
 * CG_NONE, v2_controllers 0). Pure: reads no files. Returns 0, or -EINVAL with the offending
 * line in err when either text is malformed. */
int cg_parse(const char *self_cgroup, const char *mountinfo, struct cg_host *h, char err[ERR_LEN]);

/* Parses a v2 cgroup.controllers or cgroup.subtree_control line ("cpuset cpu io memory
 * pids") into a bit mask over enum cg_ctrl (never CG_CPUACCT: v2 has no such controller). */
unsigned cg_parse_controllers(const char *text);

/* Chooses h->version: v2 when our v2 cgroup offers memory and pids, else v1 when the v1
 * memory hierarchy is mounted, else CG_NONE. Pure. */
void cg_decide(struct cg_host *h);

/* cg_parse + reading our v2 cgroup.controllers + cg_decide, on the running host. Returns 0,
 * or a negative errno with the reason in err (no /proc, unparsable files). A host without
 * usable cgroups is not an error: h->version is CG_NONE. */
int cg_detect(struct cg_host *h, char err[ERR_LEN]);

/* Directory in which verdict would create its cgroups for controller c (our own cgroup in
 * that controller's hierarchy under the chosen version), or NULL if there is none. Borrowed. */
const char *cg_dir(const struct cg_host *h, enum cg_ctrl c);

/* Tries controller c for real: creates a temporary child cgroup beneath cg_dir(), writes a
 * limit and reads it back, attaches a short-lived child process to it, and removes it again.
 * Returns 0 with what was verified in detail, or a negative errno with the failing step in
 * err. Touches nothing but the temporary cgroup it creates. On v2, a controller not yet
 * enabled in our cgroup.subtree_control is reported as usable only if this process is alone
 * in its cgroup (so the server can move itself into a leaf and enable it). */
int cg_probe(const struct cg_host *h, enum cg_ctrl c, char detail[ERR_LEN], char err[ERR_LEN]);

/*
 * The job tree. The server creates one directory "verdict-<pid>" per hierarchy beneath its
 * own cgroup (cg_tree_create); each cell opens those directories before it pivots away from
 * the host's /sys (cg_tree_open) and creates one leaf cgroup per job inside them, through
 * directory file descriptors. On v2 there is one hierarchy; on v1 there are three or four
 * (memory, pids, cpuacct, and cpu when present).
 */
#define CG_MAX_DIRS 4

struct cg_tree {
    enum cg_version version;
    int ndirs;
    char dir[CG_MAX_DIRS][CG_PATH]; /* absolute paths of the tree directories */
    unsigned ctrls[CG_MAX_DIRS];    /* bit (1u << cg_ctrl) for what each directory governs */
};

/* Creates the tree beneath our cgroups. On v2, if the controllers are not yet enabled for
 * our children, moves this process into a leaf "verdict-server-<pid>" it creates and then
 * enables them (refused, with the reason, when other processes share our cgroup). Returns 0
 * or a negative errno with the reason in err. */
int cg_tree_create(const struct cg_host *h, struct cg_tree *t, char err[ERR_LEN]);

/* Removes the tree's directories and the job leaves left in them (every cell must have
 * exited). Errors are ignored: this runs at exit. cg_tree_create likewise sweeps the trees of
 * verdict processes that died without removing theirs. */
void cg_tree_remove(const struct cg_tree *t);

/* A cell's open handles on the tree (cgroupfs is not mounted inside the cell). */
struct cg_root {
    enum cg_version version;
    int ndirs;
    int dirfd[CG_MAX_DIRS];
    unsigned ctrls[CG_MAX_DIRS];
};

int cg_root_open(const struct cg_tree *t, struct cg_root *r, char err[ERR_LEN]);
void cg_root_close(struct cg_root *r);

/* One job's leaf cgroup in every hierarchy. */
struct cg_stats {
    uint64_t cpu_ns;      /* CPU time of all tasks, ns */
    uint64_t memory_peak; /* peak memory, bytes (0 when the kernel has no peak file) */
    uint64_t oom_kills;   /* processes killed by the cgroup's OOM killer */
    uint64_t memory_hits; /* times a charge hit the limit (v1 failcnt, v2 events "max") */
    uint64_t pids_hits;   /* forks refused by pids.max */
};

/* The counter files a leaf keeps open: a job reads them several times, and opening a
 * cgroup file costs more than reading it. Only single-value files: v1 `cgroup.procs` and
 * `tasks` cache their pid list per open file, so those are opened afresh every time. */
enum cg_stat_file {
    CG_STAT_CPU,
    CG_STAT_PEAK,
    CG_STAT_HITS,
    CG_STAT_OOM,
    CG_STAT_USAGE,
    CG_STAT_PIDS_EVENTS,
    CG_NSTAT
};

/* One job's leaf cgroup in every hierarchy. A leaf may serve several jobs in turn (see
 * cg_job_reuse): the counters it reports are then relative to `base`. */
struct cg_job {
    const struct cg_root *root;
    char name[64];
    int dirfd[CG_MAX_DIRS];
    int procs_fd[CG_MAX_DIRS]; /* where the child writes "0" to join: see cg_job_create */
    int peak_fd;               /* v2 memory.peak, kept open: its reset is per descriptor */
    int stat_fd[CG_NSTAT];     /* counter files kept open, reread with pread (-1: by name) */
    uint64_t memory_set;       /* the limits last written on this leaf (0: none yet) */
    uint32_t pids_set;
    struct cg_stats base; /* cumulative counters when the current job began */
};

/* Creates the leaf `name` in every hierarchy and opens its files. No limits yet. A leaf of
 * that name already there (left by a dead cell of the same slot) is removed and made afresh,
 * so that no job is charged what another left in its counters. The child
 * joins through v2's cgroup.procs, but through v1's "tasks": moving one thread (the child is
 * single-threaded until exec) skips the kernel's threadgroup lock, whose write side waits for
 * an RCU grace period: milliseconds per job on v1 hosts, measured by bench_spawn. */
int cg_job_create(const struct cg_root *r, const char *name, struct cg_job *j, char err[ERR_LEN]);

/* Readies a used leaf for the next job, if that keeps the accounting exact: every process
 * must be gone and what the last job left charged (page cache, the kernel's per-CPU charge
 * batches) at most max_leftover bytes. Then the peak restarts from that leftover and the
 * cumulative counters (CPU, OOM kills, limit hits) are read as the new base. Returns 1 when
 * reused, 0 when the caller should destroy it and create a fresh leaf (too much left over,
 * or a v2 kernel without a resettable memory.peak), or a negative errno with err. */
int cg_job_reuse(struct cg_job *j, uint64_t max_leftover, char err[ERR_LEN]);

/* Socket buffers on v1 (memory.kmem.tcp.limit_in_bytes, TCP and UDP): a quarter of the
 * memory limit, at least CG_SOCKET_MIN bytes. v2 charges them to the memory limit itself. */
#define CG_SOCKET_SHARE 4
#define CG_SOCKET_MIN   (4ull << 20)

/* Writes the job's limits: memory (and memsw/swap to the same value: swap off), socket
 * buffers on v1 (CG_SOCKET_SHARE), pids. A reused leaf that holds these values already is
 * not written again (nothing in a cell can change them: cgroupfs is not mounted there). */
int cg_job_limit(struct cg_job *j, uint64_t memory_bytes, uint32_t pids, char err[ERR_LEN]);

/* In the forked child, before exec: moves the caller into the job's cgroups. System calls
 * only. Returns 0 or -errno. */
int cg_job_attach_self(const struct cg_job *j);

/* Reads the job's counters. Returns 0 or a negative errno with the reason in err. */
int cg_job_stats(const struct cg_job *j, struct cg_stats *s, char err[ERR_LEN]);

/* The counters as they stand, cumulative over the leaf's whole life (no base taken off). */
int cg_job_counters(const struct cg_job *j, struct cg_stats *s, char err[ERR_LEN]);

/* Starts the job's accounting afresh while its processes live on (a session's next call):
 * the counters as they stand become the base, and the peak restarts from what is held now
 * (v2 kernels without a resettable memory.peak keep the old peak). Returns 0 or a negative
 * errno with err. */
int cg_job_rebase(struct cg_job *j, char err[ERR_LEN]);

/* Memory charged to the leaf now, bytes; negative errno on failure. */
int64_t cg_job_usage(const struct cg_job *j);

/* CPU time so far, ns, from the cheapest counter; negative errno on failure. */
int64_t cg_job_cpu_ns(const struct cg_job *j);

/* Number of processes still in the job's cgroup (0 = empty), or a negative errno. */
int cg_job_nprocs(const struct cg_job *j);

/* The job's tasks (every thread of every process) as its pids hierarchy lists them (v1
 * "tasks", v2 "cgroup.threads"), in the caller's pid namespace: up to cap ids into tids.
 * Returns how many were stored, or a negative errno. */
int cg_job_tasks(const struct cg_job *j, pid_t *tids, int cap);

/* Closes the handles and removes the leaf (retrying briefly while the kernel finishes
 * tearing down exited tasks). Returns 0 or a negative errno with the reason in err. */
int cg_job_destroy(struct cg_job *j, char err[ERR_LEN]);

#endif
