/*
 * pool: the server's set of cells, one per concurrency slot.
 *
 * pool_new() finds the host's cgroups, creates verdict's job tree beneath them and starts the
 * warm cells; pool_run() hands a job to a free cell, and replaces a cell that dies, retrying
 * the job once on a fresh cell before answering SE. When every started cell is busy and the
 * pool has room (max_cells), a job that has waited 20 ms with no cell coming free in that
 * time (about what a start takes), or 0.5 s in all, starts another cell for itself; a cell
 * started so that has been idle for idle_ms is stopped again, and its
 * uids given back, by the pool's own thread. The warm cells are never stopped for idleness.
 * Thread-safe. The pool keeps its own copies of the configuration's strings (a cell started
 * later needs them).
 */
#ifndef VERDICT_POOL_H
#define VERDICT_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include "runners/err.h"
#include "runners/job.h"
#include "runners/session.h"

/* Cells in one pool at most: each takes two uids (its jobs', its graders') of the uid range,
 * and the default range (uidlock.h) must leave room for smaller processes beside. */
#define POOL_MAX_CELLS 512

struct pool_config {
    int cells;       /* warm cells, started at once and kept, >= 1 */
    int max_cells;   /* CPU cells at most, started on demand (0: cells; >= cells) */
    int idle_ms;     /* a cell beyond the warm ones idle this long is stopped (0: 30000) */
    const char *exe; /* the verdict executable (runs `verdict __cell`); NULL: this one */
    /* Each cell runs jobs as a uid (and that gid) of its own, and their graders as a second
     * one, each the first of [uid_base, uid_base + uid_count) whose lock file under
     * uid_lock_dir no other cell of any process holds (uidlock.h), held until pool_free. 0 / NULL:
     * UIDLOCK_BASE, UIDLOCK_COUNT, UIDLOCK_DIR (60000..61183 under /run/verdict). */
    unsigned uid_base;
    unsigned uid_count;
    const char *uid_lock_dir;
    int nbinds; /* extra read-only binds for every cell */
    const char *const *binds;
    uint64_t tmpfs_bytes;  /* size of each job tmpfs (/w, /tmp, /dev/shm); 0: default */
    uint32_t tmpfs_inodes; /* inodes of each; 0: default */
    int gpus;              /* GPU cells besides: one per NVIDIA GPU 0..gpus-1 */
};

struct pool;

/* How many of the capabilities cells need (SYS_ADMIN, NET_ADMIN, MKNOD, SETUID, SETGID,
 * SETPCAP, KILL, CHOWN, DAC_OVERRIDE) the CapEff line of proc_status (/proc/self/status's
 * text) lacks; their names, "CAP_KILL, ...", go to names (cut to cap bytes). A text without
 * the line lacks them all. pool_new refuses to start with any missing. */
int pool_missing_caps(const char *proc_status, char *names, size_t cap);

/* Returns 0 with *out, or a negative errno with the reason in err (-EPERM: a capability the
 * cells need is missing; no usable cgroups, a cell that failed to build its sandbox,
 * -EAGAIN: every uid of the range held by other cells, ...). */
int pool_new(const struct pool_config *cfg, struct pool **out, char err[ERR_LEN]);

/* Runs one job and fills res. Never fails: a sandbox fault is res->status == JOB_SE with the
 * reason. When *payload is non-NULL the result's buffers borrow from it: free it after
 * job_result_fini(res). */
void pool_run(struct pool *p, const struct job *j, struct job_result *res, uint8_t **payload);

/* Like pool_run, on a GPU cell (one per GPU, its device nodes bound in, its jobs seeing only
 * it through CUDA_VISIBLE_DEVICES). Without GPUs: SE "no GPU on this server". */
void pool_run_gpu(struct pool *p, const struct job *j, struct job_result *res, uint8_t **payload);

/* A session (runners/session.h) holds one CPU cell of the pool for its whole life: a free
 * one, or one started for it when none is free and the pool has room; never one a waiting
 * job was promised. */
struct pool_session;

/* Opens a session. Returns 0 with *out; -EBUSY when no cell is free and the pool is at
 * max_cells (the caller answers 503); another negative errno with err when the cell could not
 * be started or refused. Blocks for a cell's start at most. */
int pool_session_open(struct pool *p, const struct session_limits *l, struct pool_session **out,
                      char err[ERR_LEN]);

/* One call (cell_session_call's contract). Never fails: a cell that dies is replaced, the
 * answer is SE with the reason, and *dead is set: the session is gone. */
void pool_session_call(struct pool_session *ps, enum session_mode mode, const struct job *j,
                       struct session_result *out, uint8_t **payload, bool *dead);

/* The session's totals as they stand now (its processes between calls included). Not while a
 * call of it runs (the caller keeps them apart). Returns 0 with *t; -EIO when its cell failed
 * (now or before: replaced, the session gone, as pool_session_call's *dead). */
int pool_session_status(struct pool_session *ps, struct session_totals *t);

/* Closes the session (every process of it ended, its cell wiped as after a job) and gives
 * the cell back to the pool. NULL: no-op. */
void pool_session_close(struct pool_session *ps);

/* Cells replaced so far because they died (for metrics and tests). */
unsigned pool_replaced(struct pool *p);

struct pool_stats {
    int warm, max;      /* CPU cells always kept, and at most */
    int cells;          /* CPU cells started now (warm ones included) */
    int busy;           /* CPU cells running a job now */
    int waiting;        /* jobs waiting for a CPU cell now */
    unsigned waited;    /* jobs that have had to wait for a CPU cell, so far */
    unsigned started;   /* cells started on demand so far */
    unsigned stopped;   /* of those, stopped again for idleness */
    unsigned no_growth; /* times a cell could not be started on demand (the job waited) */
    int sessions;       /* CPU cells held by sessions now (counted in busy) */
};

/* A snapshot of the CPU cells. */
void pool_get_stats(struct pool *p, struct pool_stats *st);

/* Pid of cell i (0..max_cells - 1: CPU cells; then the GPU cells), or -1 when it has none
 * (tests use it to check a cell survived). */
int pool_cell_pid(struct pool *p, int i);

/* The uid cell i runs its jobs as, or 0 when there is no cell i. */
unsigned pool_cell_uid(struct pool *p, int i);

/* Stops every cell and removes the job tree. NULL is a no-op. */
void pool_free(struct pool *p);

#endif
