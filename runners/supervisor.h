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
#include "runners/session.h"
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
    /* The open session (runners/session.h), while open. */
    struct {
        bool open;
        struct cg_job cg;          /* its cgroup for its whole life */
        struct session_limits lim; /* the session's */
        struct cg_stats base;      /* the cgroup's counters when it opened */
        uint64_t peak;             /* the most it held at once, bytes */
        pid_t interp;              /* its interpreter, or 0 */
        int req_fd, reply_fd;      /* our ends of the interpreter's fds 3 and 4 */
        int out_fd, err_fd;        /* and of its stdout and stderr */
        uint32_t starts;           /* interpreters started */
        bool cpu_spent;            /* its CPU limit was reached */
        uint8_t *reply;            /* the interpreter's last answer (heap) */
        size_t reply_len, reply_cap;
    } sess;
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

/* Opens a session (runners/session.h) in the next job's cgroup, which it keeps. Returns 0;
 * res->status is JOB_SE with the reason when it could not open (the cell stays fit), JOB_OK
 * when it did. */
int supervisor_session_open(struct supervisor *s, const struct session_limits *l,
                            struct job_result *res, char err[ERR_LEN]);

/* Runs one call of the open session and fills out (buffers borrowed from s until the next
 * call; supervisor_release(s, &out->res) after sending). Returns 0, or a negative errno when
 * the cell can no longer work. */
int supervisor_session_call(struct supervisor *s, enum session_mode mode, const struct job *j,
                            struct session_result *out, char err[ERR_LEN]);

/* While a session is open and no call runs: reaps what ended (its interpreter too), and
 * enforces the session's CPU limit on what runs between calls. */
void supervisor_session_tick(struct supervisor *s);

/* A tick, then the session's totals as they stand (all zero when none is open). */
void supervisor_session_status(struct supervisor *s, struct session_totals *t);

/* Closes the session: every process of it killed and reaped; its cgroup and directories are
 * then readied for the next job by supervisor_prepare, as a job's are. */
void supervisor_session_close(struct supervisor *s);

/* Frees the result's fetched files (held by the supervisor). */
void supervisor_release(struct supervisor *s, struct job_result *res);

/* Removes the job cgroups s still holds (the last job's, the next one's), when the cell stops:
 * a cell of the same slot started later begins its own names afresh, and cells started on
 * demand come and go for the server's whole life. Best effort: what cannot be removed (a
 * task still leaving) is removed when a leaf of that name is made again (cg_job_create). */
void supervisor_fini(struct supervisor *s);

#endif
