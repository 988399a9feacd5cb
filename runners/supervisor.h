/*
 * supervisor: inside a cell, runs one job from fork to verdict.
 *
 * Per job: place the files, arm the job's cgroup, fork the program into it (the child attaches
 * itself, sets rlimits, no_new_privs, drops every capability, switches to the cell's
 * unprivileged uid, execs under the seccomp filter it inherits from the cell), then feed
 * stdin, drain stdout and
 * stderr continuously into capped buffers, and enforce CPU (cgroup counter), wall (timer),
 * output and memory limits, killing every process of the job when one fires. The verdict is
 * decided from the cgroup's counters and the exit status, never guessed from a signal alone.
 */
#ifndef VERDICT_SUPERVISOR_H
#define VERDICT_SUPERVISOR_H

#include <stdbool.h>
#include <stdint.h>

#include "runners/cgroup.h"
#include "runners/job.h"
#include "runners/seccomp.h"
#include "runners/zygote.h"

struct supervisor {
    int index;           /* the cell's slot (names cgroups) */
    unsigned uid, gid;   /* the job user */
    unsigned grader_uid; /* a job's grader runs as this uid (and gid) */
    int gpu;             /* the GPU this cell serves (CUDA_VISIBLE_DEVICES), or -1 */
    struct cg_root cg;   /* the job tree, opened before pivot_root */
    struct cg_job next;  /* the next job's cgroup, created ahead of time */
    struct cg_job last;  /* the last job's cgroup, removed after its result is sent */
    bool last_ready;
    bool next_ready;
    bool dirs_clean;  /* /w, /tmp and /dev/shm are empty */
    uint64_t seq;     /* jobs run */
    int sigfd;        /* signalfd for SIGCHLD */
    bool perf_tried;  /* perf_fd was opened (or failed), at the first prepare */
    int perf_fd;      /* the inherited instruction counter (runners/perf.h), or -errno */
    struct zygote zy; /* the warm Python interpreter, when a job has asked for one */
    /* Output of the current job (reused between jobs). */
    uint8_t *out, *err;
    size_t out_cap, err_cap;
};

/* Removes the last job's cgroup and IPC objects, empties the job dirs and prepares the next
 * job's cgroup; called at start (where it also opens the instruction counter, before the
 * cell's seccomp filter forbids it) and after each result is sent, off the request's critical
 * path. Returns 0 or a negative errno with err (the cell is then unfit for more jobs). */
int supervisor_prepare(struct supervisor *s, char err[ERR_LEN]);

/* Runs j and fills res (buffers borrowed from s until the next call). Sandbox faults become
 * status SE with the reason in res->message; the return value is always 0 unless the cell
 * itself can no longer work (then a negative errno and err). */
int supervisor_run(struct supervisor *s, const struct job *j, struct job_result *res,
                   char err[ERR_LEN]);

/* Frees the result's fetched files (held by the supervisor). */
void supervisor_release(struct supervisor *s, struct job_result *res);

/* Removes the job cgroups s still holds (the last job's, the next one's), when the cell stops:
 * a cell of the same slot started later begins its own names afresh, and cells started on
 * demand come and go for the server's whole life. Best effort: what cannot be removed (a
 * task still leaving) is removed when a leaf of that name is made again (cg_job_create). */
void supervisor_fini(struct supervisor *s);

#endif
