/*
 * cell: a long-lived sandbox process that runs one job at a time.
 *
 * The server side starts a cell with cell_start(): clone(2) into new pid, mount, ipc, uts and
 * net namespaces, then execve of verdict itself as `verdict __cell`, so the cell is a small,
 * fresh, single-threaded process whatever the server's state. The cell builds its root once
 * and then serves jobs over a socketpair (protocol: runners/README.md). The cell is pid 1 of
 * its pid namespace: every process a job leaves behind is its child, and kill(-1) from it
 * ends them all.
 */
#ifndef VERDICT_CELL_H
#define VERDICT_CELL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "runners/cgroup.h"
#include "runners/err.h"
#include "runners/job.h"
#include "runners/session.h"

#define CELL_MAX_BINDS    32
#define CELL_TMPFS_BYTES  (64ull << 20) /* default size of /w, /tmp and /dev/shm each */
#define CELL_TMPFS_INODES 16384
/* Largest socket buffer a job may ask for (net.core.[rw]mem_max, the top of tcp_[rw]mem), set
 * in each cell's network namespace. */
#define CELL_SOCKET_BUF     (1u << 20)
#define CELL_SOCKET_BUF_STR "1048576"

struct cell_config {
    const char *exe;     /* the verdict executable to run as the cell */
    int index;           /* slot number: names job cgroups */
    unsigned uid, gid;   /* the unprivileged job user, unique to this cell */
    unsigned grader_uid; /* a second one (and its gid) for a job's grader (job.h) */
    const struct cg_tree *tree;
    int nbinds; /* extra read-only binds (toolchain directories) */
    const char *const *binds;
    uint64_t tmpfs_bytes;  /* size of each of /w, /tmp, /dev/shm (0: CELL_TMPFS_BYTES) */
    uint32_t tmpfs_inodes; /* inodes of each (0: CELL_TMPFS_INODES) */
    bool gpu_cell;         /* serves one NVIDIA GPU: its device nodes are in the cell's /dev */
    int gpu;               /* which (its jobs get CUDA_VISIBLE_DEVICES=gpu) */
};

struct cell;

/* Starts a cell and waits until it reports ready (root built, filter compiled). Returns 0
 * with *out, or a negative errno with the reason in err (the cell's own setup error when it
 * reported one; -E2BIG for more than CELL_MAX_BINDS binds). Any thread may call it: cells
 * are cloned by one spawner thread that lives as long as the process, and die with the
 * process (PR_SET_PDEATHSIG), not with the calling thread. */
int cell_start(const struct cell_config *cfg, struct cell **out, char err[ERR_LEN]);

/* Runs one job. On success returns 0 and fills res, whose buffers borrow from *payload (free
 * it after job_result_fini(res)). A job that cannot be sent (job_check, or too large to
 * encode) is answered here as SE with the reason, *payload NULL; the cell is unharmed. A negative
 * return means the cell itself failed (it died, or answered garbage): the cell is unusable and must
 * be stopped and replaced; err says why. */
int cell_run(struct cell *c, const struct job *j, struct job_result *res, uint8_t **payload,
             char err[ERR_LEN]);

/* A session on the cell (runners/session.h). Open: 0, or 1 when the cell refused (msg says
 * why; the cell is unharmed). Call: 0 and out filled, its buffers borrowing from *payload
 * (free it after job_result_fini(&out->res)); a call that cannot be sent is answered SE here.
 * Close: 0 once the session's processes are gone and the cell serves jobs again. A negative
 * return, as cell_run's: the cell failed and must be replaced (the session is gone). */
int cell_session_open(struct cell *c, const struct session_limits *l, char msg[JOB_MSG_LEN],
                      char err[ERR_LEN]);
int cell_session_call(struct cell *c, enum session_mode mode, const struct job *j,
                      struct session_result *out, uint8_t **payload, char err[ERR_LEN]);
int cell_session_close(struct cell *c, char err[ERR_LEN]);
/* The open session's totals as they stand now (between calls: what its processes spent since,
 * its CPU limit enforced first). 0 with *t; a negative return as cell_run's. */
int cell_session_status(struct cell *c, struct session_totals *t, char err[ERR_LEN]);

/* Pid of the cell (in the server's pid namespace). */
pid_t cell_pid(const struct cell *c);

/* Stops the cell (closing its socket ends its loop; SIGKILL if it lingers) and reaps it.
 * NULL is a no-op. */
void cell_stop(struct cell *c);

/* The cell process's entry point (`verdict __cell FD`): reads its configuration from the
 * socket fd, builds the sandbox, serves jobs until the socket closes. Returns the exit code. */
int cell_main(int fd);

#endif
