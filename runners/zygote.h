/*
 * zygote: the cell's warm Python interpreter, which forks a job's first process instead of
 * the cell's execve of a fresh python3 (runners/README.md, "Warm Python").
 *
 * The zygote is a child of the cell, root, outside every job cgroup, started after a job
 * that asked for it (job.warm) and kept across jobs. It runs only runners/zygote.py: it
 * imports the modules programs usually import, freezes the collector, and per request
 * clone(CLONE_PARENT)s a child (so the cell is the child's parent and reaps it as any job
 * process) that joins the job's cgroups, takes the job's descriptors, rlimits, no_new_privs,
 * an empty bounding set and the job uid, exactly as the cold child does before execve, and
 * then runs the program as `python3 -I main.py` would.
 *
 * Because the zygote must survive the job, a cell that has one ends a job's processes by
 * cgroup (zygote_kill_job) rather than kill(-1), and reaps until the job's cgroup is empty
 * (zygote_reap_job) rather than until it has no children.
 */
#ifndef VERDICT_ZYGOTE_H
#define VERDICT_ZYGOTE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "runners/cgroup.h"
#include "runners/job.h"
#include "runners/limits.h"

/* A cell's zygote; all zero: none. */
struct zygote {
    pid_t pid;         /* the zygote, or 0 */
    int sock;          /* SOCK_SEQPACKET to it, while pid is set */
    bool ready;        /* it said "R" */
    uint64_t baseline; /* bytes a cold interpreter holds before the program's first line */
    char *key;         /* argv[0], argv[1] and the environment it was started with (heap) */
    size_t key_len;
    char *want; /* the key of the last job that asked for a warm start (heap), or NULL */
    size_t want_len;
    bool broken; /* could not start, or said "F": this cell's jobs stay cold */
};

/* Whether job j can start in the zygote now: it asks for it (JOB_WARM_PYTHON), runs
 * `<python> -I <file> [args]` with <file> one of its files, the zygote is ready and was
 * started with the same interpreter and environment (gpu: the cell's GPU, which sets
 * CUDA_VISIBLE_DEVICES, or -1), and lim's memory leaves room above the baseline. Records what
 * the job wants, for zygote_prepare. */
bool zygote_fits(struct zygote *z, const struct job *j, int gpu, const struct job_limits *lim);

/* For a job whose program fits: whether its grader (`<the same python> -I -c CODE`) can start
 * in the zygote too (as the grader uid, with the grader's descriptors). */
bool zygote_fits_grader(const struct zygote *z, const struct job *j);

/* Off the request's path: reaps what earlier jobs left unreaped, and starts (or restarts, for
 * another environment) the zygote the last warm-asking job wanted. Never fails the cell: a
 * zygote that cannot start leaves jobs on the cold path. */
void zygote_prepare(struct zygote *z);

/* The descriptors of a warm start: fds[i] becomes the job's fd i (0, 1, 2, and 3, 4 for a
 * grader job's channel); report gets {step, errno} on a failed step. */
struct zygote_start {
    unsigned uid, gid;
    const char *dir;
    const struct limits_plan *rl;
    const struct cg_job *cg;
    int argc;
    const char *const *argv;
    const char *const *env;
    int fds[5];
    int nfds;
    int report;
};

/* Forks the job's first process from the zygote. Returns its pid (a child of the caller), or
 * -1 with errno when the zygote could not (it is then stopped; the caller starts the job
 * cold). */
pid_t zygote_spawn(struct zygote *z, const struct zygote_start *st);

/* True while a zygote lives (then jobs end by zygote_kill_job, not kill(-1)). */
bool zygote_alive(const struct zygote *z);

/* Notes that pid was reaped; true if it was the zygote (now gone). */
bool zygote_reaped(struct zygote *z, pid_t pid);

/* SIGKILLs first and second (a grader job's program; either may not have joined the cgroup
 * yet; 0: none) and every task of the job's cgroup until none is left (a task killed cannot
 * fork; one forked before the kill is seen on the next read). Gives up after about a second
 * of survivors (the caller finds the cgroup not empty: SE). */
void zygote_kill_job(const struct cg_job *cg, pid_t first, pid_t second);

/* Reaps the cell's children until the job's cgroup is empty (or the cell has no children
 * left), waiting on sigfd (SIGCHLD) in between; the zygote is never waited for. */
void zygote_reap_job(struct zygote *z, const struct cg_job *cg, int sigfd);

/* Stops the zygote (SIGKILL, reaped). */
void zygote_stop(struct zygote *z);

#endif
