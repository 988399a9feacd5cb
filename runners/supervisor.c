/*
 * supervisor: one job, from fork to verdict, inside a cell.
 *
 * Processes. The cell (pid 1 of its namespace, root) forks the job's first process. That
 * child runs only our code until execve: it attaches itself to the job's cgroups, so the
 * program never runs outside them; then rlimits, no_new_privs, an empty capability bounding
 * set, the job uid/gid (which clears every capability), the seccomp filter, and execve. A failing
 * step writes {step, errno} to a CLOEXEC pipe and _exits 127, so the supervisor can tell a sandbox
 * fault (SE) from the program's own failure.
 *
 * Supervision is one poll loop over stdout, stderr, the stdin pipe and a signalfd for SIGCHLD,
 * waking at least every POLL_MS to read the cgroup's CPU counter, and every WAIT_MS (or when
 * the wall limit is near) to read how long the job's tasks have waited for a CPU, which the
 * wall clock does not charge (runners/clock.h). When the first process exits, or a limit
 * fires, kill(-1, SIGKILL) from pid 1 ends every other process in the namespace (fork()
 * cannot outrun it: the kernel refuses to fork a task with SIGKILL pending), the pipes are
 * drained to EOF, and everything is reaped. The job's cgroup must then be empty.
 */
#include "runners/supervisor.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/openat2.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runners/clock.h"
#include "runners/ipc.h"
#include "runners/limits.h"
#include "runners/mount.h"
#include "runners/perf.h"

#define POLL_MS 10
/* How often the job's tasks' run delay is read (also whenever the wall limit would fire):
 * a task that exits between two reads leaves at most this much of its wait unseen. */
#define WAIT_MS   100
#define MAX_TASKS 1024 /* tasks whose wait is read (pids.max caps a job far below) */
/* A job's cgroup serves the next job when the last one left at most this much charged (the
 * kernel's per-CPU charge batches, 256 KiB per CPU, and stray page cache); otherwise a fresh
 * one is made. Creating a memory cgroup and charging a new one costs ~0.2 ms per job here. */
#define REUSE_LEFTOVER (1u << 20)
#define CHUNK          65536
#define PATH_DIRS      "/usr/local/bin:/usr/bin:/bin"

/* Steps of the child before exec, reported over the error pipe. */
enum step {
    STEP_CGROUP = 1,
    STEP_FDS,
    STEP_CHDIR,
    STEP_RLIMIT,
    STEP_NNP,
    STEP_CAPS,
    STEP_UID,
    STEP_EXEC
};

static const char *const step_names[] = {"",
                                         "attach to cgroup",
                                         "set up stdio",
                                         "chdir",
                                         "set rlimits",
                                         "no_new_privs",
                                         "drop capabilities",
                                         "switch uid/gid",
                                         "exec"};

struct child_report {
    int step, error;
};

struct run {
    const struct job *job;
    struct job_limits lim;
    struct cg_job *cg;
    pid_t pid;                 /* the first process: the program, or the grader of a grader job */
    int in_fd, out_fd, err_fd; /* our ends; -1 once closed */
    size_t in_off;
    size_t out_len, err_len;
    bool out_trunc, err_trunc;
    bool exited;
    int status;
    bool killed;
    enum job_status limit; /* JOB_TLE / JOB_OLE / JOB_SE (starved) when we stopped it */
    enum job_clock clock;
    long long t0_ns, end_ns;
    long long cpu_checked_ns;  /* when the CPU counter was last read */
    long long wait_checked_ns; /* when the tasks' run delay was last read */
    long long waited_ns;       /* the longest run delay of any of the job's tasks */
    int64_t perf_start;        /* the instruction counter before the clone, or -errno */
    int64_t instructions;      /* the job's instructions, or -1: not counted */
    struct zygote *zy;         /* the cell's warm interpreter (runners/zygote.h) */
    bool warm;                 /* the program starts from it */
    bool warm_grader;          /* and so does its grader */
    pid_t program;             /* a grader job's program, until reaped (0: none) */
    uint64_t baseline;         /* then: bytes they are charged beyond the cgroup's peak */
    bool by_cgroup;            /* a session's: its processes are ended by its cgroup */
    int64_t session_left_ns;   /* a session's CPU left when the call began; -1: none */
};

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A sandbox fault: "what: reason" (what names the step and its object). */
static void set_se(struct job_result *res, const char *what, int e)
{
    res->status = JOB_SE;
    snprintf(res->message, sizeof(res->message), "%s: %s", what, strerror(e));
}

/* ---- before the job ------------------------------------------------------------------- */

/* Empties the caller's capability bounding set (what an execve could ever grant). Numbers run
 * from 0 to the kernel's last capability: the first EINVAL is past it. System calls only (the
 * job's child calls it too). Returns 0 or -1 with errno. */
static int drop_bounding_set(void)
{
    for (int cap = 0; cap <= 63; cap++) {
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0)
            continue;
        if (errno == EINVAL)
            return 0;
        return -1;
    }
    return 0;
}

int supervisor_prepare(struct supervisor *s, char err[ERR_LEN])
{
    int rc = 0;
    zygote_prepare(&s->zy); /* first: it reaps what the last job left unreaped */
    if (!s->perf_tried) {   /* once, while the cell may still call perf_event_open */
        s->perf_tried = true;
        s->perf_fd = perf_open();
    }
    if (s->last_ready) { /* the previous job's cgroup, emptied and read before its result */
        s->last_ready = false;
        rc = ipc_clean(err) < 0 ? -EIO : 0; /* what it left in the IPC namespace */
        int reused = rc == 0 ? cg_job_reuse(&s->last, REUSE_LEFTOVER, err) : 0;
        if (reused == 1 && !s->next_ready) { /* serves the next job too: no new cgroup */
            s->next = s->last;
            s->next_ready = true;
        } else if (reused >= 0) {
            rc = cg_job_destroy(&s->last, err);
        } else {
            rc = reused;
        }
    }
    if (rc == 0 && !s->dirs_clean) {
        rc = mnt_empty_job_dirs(err);
        s->dirs_clean = rc == 0;
    }
    if (rc == 0 && !s->next_ready) {
        char name[64];
        snprintf(name, sizeof(name), "c%d-j%llu", s->index, (unsigned long long)s->seq + 1);
        rc = cg_job_create(&s->cg, name, &s->next, err);
        s->next_ready = rc == 0;
    }
    return rc;
}

/* How files of a job are reached beneath the work dir: never through a symlink, a mount or
 * "..", so a session's own files (which its code may have replaced by links to anywhere)
 * cannot turn the cell's writes elsewhere. */
#define BENEATH (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV)

static int open_beneath(int dirfd, const char *path, int flags, mode_t mode)
{
    struct open_how how = {
        .flags = (uint64_t)(flags | O_CLOEXEC), .mode = mode, .resolve = BENEATH};
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

/* Creates path's parent directories (owned by the job user) under the work dir; returns a
 * descriptor of the parent, or -errno. */
static int make_parents(int wfd, const char *path, unsigned uid, unsigned gid)
{
    int dir = fcntl(wfd, F_DUPFD_CLOEXEC, 0);
    const char *p = path;
    for (const char *slash; dir >= 0 && (slash = strchr(p, '/')); p = slash + 1) {
        char part[256];
        snprintf(part, sizeof(part), "%.*s", (int)(slash - p), p);
        if (mkdirat(dir, part, 0755) == 0) {
            if (fchownat(dir, part, uid, gid, AT_SYMLINK_NOFOLLOW) < 0) {
                int e = errno;
                close(dir);
                return -e;
            }
        } else if (errno != EEXIST) {
            int e = errno;
            close(dir);
            return -e;
        }
        int next = open_beneath(dir, part, O_PATH | O_DIRECTORY, 0);
        int e = errno;
        close(dir);
        if (next < 0)
            return -e;
        dir = next;
    }
    return dir < 0 ? -errno : dir;
}

/* Writes the job's files; in a session a file may replace one there (a regular file only: a
 * FIFO or device planted under the name is refused, never opened for blocking I/O). */
/* A file of a session's call that could not be placed, for errno e: the session's doing (RE)
 * when its own file is in the way (a directory, a link, a FIFO) or its disk is full (what
 * it wrote fills its work dir), ours (SE) otherwise. Returns -1. */
static int place_failed(const struct supervisor *s, struct job_result *res, const char *what,
                        const char *path, int e)
{
    if (!s->sess.open || e == ENOMEM || e == EIO) {
        set_se(res, what, e);
        return -1;
    }
    res->status = JOB_RE;
    snprintf(res->message, sizeof(res->message), SESSION_PLACE_FAILED "%.100s: %.40s%s", path,
             strerror(e),
             e == ENOSPC || e == EDQUOT
                 ? " (the session's disk is full: what its calls wrote fills its work dir)"
                 : "");
    return -1;
}

static int place_files(const struct supervisor *s, const struct job *j, struct job_result *res)
{
    if (j->nfiles == 0)
        return 0;
    int wfd = open(MNT_WORKDIR, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (wfd < 0) {
        set_se(res, "open work dir", errno);
        return -1;
    }
    int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | (s->sess.open ? O_TRUNC : O_EXCL);
    int rc = 0;
    for (int i = 0; rc == 0 && i < j->nfiles; i++) {
        const struct job_file *f = &j->files[i];
        if (!job_path_ok(f->path)) {
            res->status = JOB_SE;
            snprintf(res->message, sizeof(res->message), "bad file path in job: %.200s",
                     f->path ? f->path : "(null)");
            rc = -1;
            break;
        }
        const char *base = strrchr(f->path, '/');
        base = base ? base + 1 : f->path;
        int dir = make_parents(wfd, f->path, s->uid, s->gid);
        int fd = dir < 0 ? -1 : open_beneath(dir, base, flags, 0600);
        int e = dir < 0 ? -dir : errno;
        if (dir >= 0)
            close(dir);
        struct stat st;
        if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
            e = EINVAL;
            close(fd);
            fd = -1;
        }
        if (fd < 0) {
            rc = place_failed(s, res, "create job file", f->path, e);
            break;
        }
        size_t off = 0;
        while (off < f->len) {
            ssize_t w = write(fd, f->data + off, f->len - off);
            if (w <= 0) {
                rc = place_failed(s, res, "write job file", f->path, w < 0 ? errno : EIO);
                break;
            }
            off += (size_t)w;
        }
        if (rc == 0 && (fchmod(fd, f->mode & 0777) < 0 || fchown(fd, s->uid, s->gid) < 0)) {
            set_se(res, "chmod/chown job file", errno);
            rc = -1;
        }
        close(fd);
    }
    close(wfd);
    return rc;
}

/* argv[0] as given when it has a slash, else the first executable of that name in PATH. */
static const char *resolve(const char *name, char *buf, size_t cap)
{
    if (strchr(name, '/'))
        return name;
    for (const char *p = PATH_DIRS; *p;) {
        size_t len = strcspn(p, ":");
        snprintf(buf, cap, "%.*s/%s", (int)len, p, name);
        if (access(buf, X_OK) == 0)
            return buf;
        p += len + (p[len] == ':');
    }
    return name; /* execve reports ENOENT */
}

/* ---- the child ------------------------------------------------------------------------ */

static void child_fail(int fd, int step)
{
    struct child_report r = {step, errno};
    ssize_t ignored = write(fd, &r, sizeof(r));
    (void)ignored;
    _exit(127);
}

/* The child's stack: it runs before execve only, in the cell's address space. */
static uint8_t child_stack[64 * 1024] __attribute__((aligned(16)));

struct child_args {
    const struct cg_job *cg;
    const struct limits_plan *rl;
    unsigned uid, gid;
    const char *dir; /* the working directory */
    const char *path;
    char *const *argv, *const *envp;
    int in, out, errout, report;
    int chan_in, chan_out; /* a grader job's channel, placed at fds 3 and 4; -1: none */
    int exe;               /* a compiled grader's memory file, executed instead of path; -1 */
    bool exe_file;         /* ... or given to path at fd 5 (an archive: job.h) */
};

/* fd at target, inherited across execve (dup2 of an fd onto itself would keep CLOEXEC). */
static int place_fd(int fd, int target)
{
    if (fd == target)
        return fcntl(fd, F_SETFD, 0);
    return dup2(fd, target) < 0 ? -1 : 0;
}

/* Runs on its own stack in a CLONE_VM|CLONE_VFORK child, sharing the cell's memory until
 * execve: it may only make system calls and write its own stack (no malloc, no stdio). */
static int child_main(void *arg)
{
    const struct child_args *a = arg;
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    setsid();
    if (cg_job_attach_self(a->cg) < 0)
        child_fail(a->report, STEP_CGROUP);
    bool chan = a->chan_in >= 0, exe_file = a->exe >= 0 && a->exe_file;
    /* The pipes are above 4 (fd 3 is the cell's socket), so no placement clobbers another;
     * fd 5, the archive's, is placed last, once every pipe is where it goes. */
    if (dup2(a->in, 0) < 0 || dup2(a->out, 1) < 0 || dup2(a->errout, 2) < 0 ||
        (chan && (place_fd(a->chan_in, 3) < 0 || place_fd(a->chan_out, 4) < 0)) ||
        (exe_file && place_fd(a->exe, JOB_GRADER_EXE_FD) < 0) ||
        syscall(SYS_close_range,
                exe_file ? JOB_GRADER_EXE_FD + 1
                : chan   ? 5
                         : 3,
                ~0u, CLOSE_RANGE_CLOEXEC) < 0)
        child_fail(a->report, STEP_FDS);
    if (chdir(a->dir) < 0)
        child_fail(a->report, STEP_CHDIR);
    int res;
    if (limits_apply(a->rl, &res) < 0)
        child_fail(a->report, STEP_RLIMIT);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        child_fail(a->report, STEP_NNP);
    if (drop_bounding_set() < 0)
        child_fail(a->report, STEP_CAPS);
    if (setgroups(0, NULL) < 0 || setresgid(a->gid, a->gid, a->gid) < 0 ||
        setresuid(a->uid, a->uid, a->uid) < 0)
        child_fail(a->report, STEP_UID);
    /* The seccomp filter needs no installing: the cell put it on itself, and it is
     * inherited. */
    if (a->exe >= 0 && !exe_file)
        syscall(SYS_execveat, a->exe, "", a->argv, a->envp, AT_EMPTY_PATH);
    else
        execve(a->path, a->argv, a->envp);
    child_fail(a->report, STEP_EXEC);
    return 127;
}

/* ---- supervision ---------------------------------------------------------------------- */

static void kill_all(struct run *r)
{
    if (r->by_cgroup || zygote_alive(r->zy)) /* what must outlive the job: by cgroup */
        zygote_kill_job(r->cg, r->exited ? 0 : r->pid, r->program);
    else
        kill(-1, SIGKILL); /* from pid 1: every other process of the namespace */
    r->killed = true;
}

/* Waits for every child of the cell (the job's processes, once killed or exited). */
static void reap_all(struct supervisor *s, struct run *r)
{
    int status;
    if (r->by_cgroup || zygote_alive(&s->zy)) {
        zygote_reap_job(&s->zy, r->cg, s->sigfd);
        return;
    }
    while (waitpid(-1, &status, 0) > 0 || errno == EINTR)
        ;
}

static void stop(struct run *r, enum job_status why, enum job_clock clock)
{
    if (r->limit == JOB_OK) {
        r->limit = why;
        r->clock = clock;
    }
    kill_all(r);
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Reads what a pipe holds into buf (capped); on overflow marks truncation and stops. */
static void drain(struct run *r, int *fd, uint8_t *buf, size_t *len, uint64_t cap, bool *trunc)
{
    uint8_t tmp[CHUNK];
    for (;;) {
        ssize_t n = read(*fd, tmp, sizeof(tmp));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return;
        if (n <= 0) {
            close_fd(fd);
            return;
        }
        size_t room = cap - *len, take = (size_t)n < room ? (size_t)n : room;
        memcpy(buf + *len, tmp, take);
        *len += take;
        if (take < (size_t)n) {
            *trunc = true;
            stop(r, JOB_OLE, JOB_CLOCK_NONE);
        }
    }
}

static void feed(struct run *r)
{
    const struct job *j = r->job;
    while (r->in_off < j->stdin_len) {
        ssize_t n = write(r->in_fd, j->stdin_data + r->in_off, j->stdin_len - r->in_off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return;
        if (n < 0)
            break; /* EPIPE: the program closed stdin, its right */
        r->in_off += (size_t)n;
    }
    close_fd(&r->in_fd);
}

/* Reaps the cell's children that have ended: the run's first process (r may be NULL), a
 * grader job's program, a session's interpreter, the zygote. */
static void reap(struct supervisor *s, struct run *r)
{
    struct signalfd_siginfo si;
    while (read(s->sigfd, &si, sizeof(si)) > 0)
        ;
    int status;
    pid_t p;
    while ((p = waitpid(-1, &status, WNOHANG)) > 0) {
        if (s->sess.open && p == s->sess.interp)
            s->sess.interp = 0; /* and r->pid, during a call */
        if (r && p == r->pid) {
            r->exited = true;
            r->status = status;
            r->end_ns = now_ns();
        } else if (r && p == r->program) {
            r->program = 0;
        } else {
            zygote_reaped(&s->zy, p);
        }
    }
}

/* The longest run delay of the job's live tasks, kept as r->waited_ns (a task's delay only
 * grows, so the maximum over reads is the maximum over every task seen). */
static void read_waits(struct run *r, long long now)
{
    pid_t tids[MAX_TASKS];
    r->wait_checked_ns = now;
    int n = cg_job_tasks(r->cg, tids, MAX_TASKS);
    for (int i = 0; i < n; i++) {
        int64_t d = clock_run_delay_ns(tids[i]);
        if (d > r->waited_ns)
            r->waited_ns = d;
    }
}

/* Wall clock on every wake-up; the cgroup's CPU counter (a file read) once per POLL_MS. A
 * job that outruns its CPU limit between two reads is still judged TLE at the end, from the
 * final counter; the read only decides how soon it is stopped. The wall clock is charged for
 * the time the job was not waiting for a CPU; before it fires the waits are read afresh. */
static void check_clocks(struct run *r)
{
    long long now = now_ns(), elapsed = now - r->t0_ns;
    long long waits_read = r->wait_checked_ns > r->t0_ns ? r->wait_checked_ns : r->t0_ns;
    if (now - waits_read >= WAIT_MS * 1000000LL ||
        clock_wall_check(r->lim.wall_ms, r->lim.backstop_ms, elapsed, r->waited_ns) !=
            CLOCK_WALL_RUNNING)
        read_waits(r, now);
    switch (clock_wall_check(r->lim.wall_ms, r->lim.backstop_ms, elapsed, r->waited_ns)) {
    case CLOCK_WALL_TLE:
        stop(r, JOB_TLE, JOB_CLOCK_WALL);
        return;
    case CLOCK_WALL_STARVED:
        stop(r, JOB_SE, JOB_CLOCK_NONE);
        return;
    case CLOCK_WALL_RUNNING:
        break;
    }
    if (now - r->cpu_checked_ns < POLL_MS * 1000000LL)
        return;
    r->cpu_checked_ns = now;
    int64_t cpu = cg_job_cpu_ns(r->cg);
    if (cpu > clock_allowed_ns(r->lim.cpu_ms))
        stop(r, JOB_TLE, JOB_CLOCK_CPU);
    else if (r->session_left_ns >= 0 && cpu > r->session_left_ns)
        stop(r, JOB_TLE, JOB_CLOCK_SESSION);
}

/* The run's open output pipes into p from *n (their slots in *iout, *ierr; -1: closed). */
static void poll_outputs(const struct run *r, struct pollfd *p, int *n, int *iout, int *ierr)
{
    *iout = *ierr = -1;
    if (r->out_fd >= 0)
        p[ *iout = (*n)++] = (struct pollfd){.fd = r->out_fd, .events = POLLIN};
    if (r->err_fd >= 0)
        p[ *ierr = (*n)++] = (struct pollfd){.fd = r->err_fd, .events = POLLIN};
}

/* Drains the output pipes poll found ready in p (p NULL: every open one). */
static void drain_outputs(struct supervisor *s, struct run *r, const struct pollfd *p, int iout,
                          int ierr)
{
    if (r->out_fd >= 0 && (!p || (iout >= 0 && p[iout].revents)))
        drain(r, &r->out_fd, s->out, &r->out_len, r->lim.stdout_bytes, &r->out_trunc);
    if (r->err_fd >= 0 && (!p || (ierr >= 0 && p[ierr].revents)))
        drain(r, &r->err_fd, s->err, &r->err_len, r->lim.stderr_bytes, &r->err_trunc);
}

static void supervise(struct supervisor *s, struct run *r)
{
    /* Stdin first, as much as the pipe takes: an empty one is closed at once rather than
     * after a first poll that only reports the pipe writable. */
    if (r->in_fd >= 0)
        feed(r);
    while (!r->exited || r->out_fd >= 0 || r->err_fd >= 0) {
        struct pollfd p[4];
        int n = 0, iout, ierr, iin = -1;
        poll_outputs(r, p, &n, &iout, &ierr);
        if (r->in_fd >= 0)
            p[iin = n++] = (struct pollfd){.fd = r->in_fd, .events = POLLOUT};
        p[n++] = (struct pollfd){.fd = s->sigfd, .events = POLLIN};
        if (poll(p, (nfds_t)n, POLL_MS) < 0 && errno != EINTR)
            break;
        drain_outputs(s, r, p, iout, ierr);
        if (iin >= 0 && p[iin].revents)
            feed(r);
        reap(s, r);
        if (r->exited && !r->killed)
            kill_all(r); /* the first process is done: so is the job */
        if (!r->killed)
            check_clocks(r);
    }
    close_fd(&r->in_fd);
    reap_all(s, r);
    /* Every job process has exited, so the kernel has added its count to the counter. */
    int64_t perf_end = r->perf_start >= 0 ? perf_read(s->perf_fd) : -1;
    r->instructions =
        r->perf_start >= 0 && perf_end >= r->perf_start ? perf_end - r->perf_start : -1;
}

/* ---- after the job -------------------------------------------------------------------- */

/* Whether fetch path i repeats an earlier one (O(n^2) over at most JOB_MAX_FILES short
 * paths, once per job). */
static bool fetch_repeated(const struct job *j, int i)
{
    for (int k = 0; k < i; k++)
        if (strcmp(j->fetch[k], j->fetch[i]) == 0)
            return true;
    return false;
}

/* Reads the files asked back. Every path gets an answer; what is read is bounded by
 * lim->fetch_bytes per file and lim->fetch_total (at most JOB_FETCH_TOTAL) in all (-EFBIG past
 * either, never allocated); a repeated path is answered -EEXIST and read once. */
static void fetch_files(const struct job *j, const struct job_limits *lim, struct job_result *res)
{
    res->nfetched = 0;
    res->fetched = calloc((size_t)j->nfetch + 1, sizeof(*res->fetched));
    if (!res->fetched) {
        if (j->nfetch > 0)
            set_se(res, "fetch files", ENOMEM);
        return;
    }
    uint64_t total = 0, cap = lim->fetch_total && lim->fetch_total < JOB_FETCH_TOTAL
                                  ? lim->fetch_total
                                  : JOB_FETCH_TOTAL;
    int wfd = j->nfetch > 0 ? open(MNT_WORKDIR, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
    for (int i = 0; i < j->nfetch; i++) {
        struct job_fetched *f = &res->fetched[res->nfetched++];
        f->path = j->fetch[i];
        if (!job_path_ok(f->path) || wfd < 0) {
            f->error = -EINVAL;
            continue;
        }
        if (fetch_repeated(j, i)) {
            f->error = -EEXIST;
            continue;
        }
        /* Only a regular file beneath the work dir, reached without any symlink; O_NONBLOCK so
         * a FIFO planted under the name cannot stall the cell. */
        int fd = open_beneath(wfd, f->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK, 0);
        struct stat st;
        if (fd < 0) {
            f->error = -errno;
            continue;
        }
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
            f->error = -EINVAL;
        else if ((uint64_t)st.st_size > lim->fetch_bytes || (uint64_t)st.st_size > cap - total)
            f->error = -EFBIG;
        uint8_t *data = f->error ? NULL : malloc((size_t)st.st_size + 1);
        if (!f->error && !data)
            f->error = -ENOMEM;
        if (data && pread(fd, data, (size_t)st.st_size, 0) != st.st_size)
            f->error = -EIO;
        if (f->error)
            free(data);
        else {
            f->data = data;
            f->len = (size_t)st.st_size;
            total += f->len;
        }
        close(fd);
    }
    if (wfd >= 0)
        close(wfd);
}

void supervisor_release(struct supervisor *s, struct job_result *res)
{
    (void)s;
    for (int i = 0; res->fetched && i < res->nfetched; i++)
        free((void *)(uintptr_t)res->fetched[i].data); /* ours: malloc'd in fetch_files */
    job_result_fini(res);
}

void supervisor_fini(struct supervisor *s)
{
    char ignored[ERR_LEN];
    if (s->sess.open)
        supervisor_session_close(s);
    if (s->last_ready)
        cg_job_destroy(&s->last, ignored);
    if (s->next_ready)
        cg_job_destroy(&s->next, ignored);
    s->last_ready = s->next_ready = false;
}

static bool exec_error(int e)
{
    return e == ENOENT || e == EACCES || e == ENOEXEC || e == E2BIG || e == ENOTDIR || e == ELOOP ||
           e == ENAMETOOLONG || e == ETXTBSY;
}

/* Which clock makes the job TLE, or JOB_CLOCK_NONE: the one that stopped it (named CPU when
 * the job had spent its CPU limit: runners/clock.h), else the final CPU counter past the limit
 * and its grace (or the RLIMIT_CPU backstop's signals), else the instruction count past its
 * limit. */
static enum job_clock tle_clock(const struct run *r, const struct cg_stats *st, int sig)
{
    int64_t cpu = (int64_t)st->cpu_ns, allowed = clock_allowed_ns(r->lim.cpu_ms);
    if (r->limit == JOB_TLE)
        return r->clock == JOB_CLOCK_WALL && cpu >= r->lim.cpu_ms * 1000000LL ? JOB_CLOCK_CPU
                                                                              : r->clock;
    if (cpu > allowed || sig == SIGXCPU || (sig == SIGKILL && cpu >= allowed))
        return JOB_CLOCK_CPU;
    if (r->lim.instructions && r->instructions > (int64_t)r->lim.instructions)
        return JOB_CLOCK_INSTRUCTIONS;
    return JOB_CLOCK_NONE;
}

/* The verdict, in order of precedence: our faults, the limit we enforced, the cgroup's own
 * evidence, then the exit status. */
static void decide(const struct run *r, const struct cg_stats *st, const struct child_report *cr,
                   struct job_result *res)
{
    int sig = WIFSIGNALED(r->status) ? WTERMSIG(r->status) : 0;
    int code = WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1;
    bool abnormal = sig != 0 || code != 0;
    enum job_clock clock = tle_clock(r, st, sig);
    res->exit_code = code;
    res->signal = sig;
    res->instructions = r->instructions;
    if (cr->step && !(cr->step == STEP_EXEC && exec_error(cr->error))) {
        res->status = JOB_SE;
        snprintf(res->message, sizeof(res->message), "sandbox: %s: %s", step_names[cr->step],
                 strerror(cr->error));
    } else if (cr->step) {
        res->status = JOB_RE;
        snprintf(res->message, sizeof(res->message), "exec %s: %s", r->job->argv[0],
                 strerror(cr->error));
    } else if (r->limit == JOB_SE) { /* at the backstop: SE, or a wall-clock contract's TLE */
        bool tle = r->lim.starved_tle;
        res->status = tle ? JOB_TLE : JOB_SE;
        res->starved = !tle;
        res->tle_clock = tle ? JOB_CLOCK_WALL : JOB_CLOCK_NONE;
        snprintf(res->message, sizeof(res->message),
                 "%s: %lld ms of wall time, %lld ms of it waiting for a CPU, %s the backstop of "
                 "%lld ms (wall limit %lld ms)",
                 tle ? "wall time limit exceeded" : "starved by load",
                 (r->end_ns - r->t0_ns) / 1000000, r->waited_ns / 1000000,
                 tle ? "forgiven up to" : "stopped at", (long long)r->lim.backstop_ms,
                 (long long)r->lim.wall_ms);
    } else if (clock != JOB_CLOCK_NONE) {
        res->status = JOB_TLE;
        res->tle_clock = clock;
        snprintf(res->message, sizeof(res->message), "%s limit exceeded",
                 clock == JOB_CLOCK_WALL           ? "wall time"
                 : clock == JOB_CLOCK_INSTRUCTIONS ? "instruction"
                 : clock == JOB_CLOCK_SESSION      ? "the session's CPU time"
                                                   : "CPU time");
    } else if (st->oom_kills > 0 || (st->memory_hits > 0 && abnormal)) {
        res->status = JOB_MLE;
        snprintf(res->message, sizeof(res->message),
                 "memory limit exceeded (OOM killer: %llu killed)",
                 (unsigned long long)st->oom_kills);
    } else if (r->limit == JOB_OLE || sig == SIGXFSZ) {
        res->status = JOB_OLE;
        snprintf(res->message, sizeof(res->message), "%s",
                 sig == SIGXFSZ ? "file size limit exceeded" : "output limit exceeded");
    } else if (abnormal) {
        res->status = JOB_RE;
        if (sig)
            snprintf(res->message, sizeof(res->message), "killed by signal %d (%s)", sig,
                     strsignal(sig));
        else
            snprintf(res->message, sizeof(res->message), "exit code %d", code);
        if (st->pids_hits)
            snprintf(res->message + strlen(res->message),
                     sizeof(res->message) - strlen(res->message), "; %llu forks refused",
                     (unsigned long long)st->pids_hits);
    } else {
        res->status = JOB_OK;
    }
}

static int grow(uint8_t **buf, size_t *cap, uint64_t want)
{
    if (*cap >= want)
        return 0;
    uint8_t *b = realloc(*buf, (size_t)want);
    if (!b)
        return -ENOMEM;
    *buf = b;
    *cap = (size_t)want;
    return 0;
}

static void close_pair(int p[2])
{
    close_fd(&p[0]);
    close_fd(&p[1]);
}

/* The job's environment; a GPU cell's jobs see exactly their GPU (CUDA_VISIBLE_DEVICES set
 * by the cell, whatever the job asked). Returns env itself, or *owned (heap) to be freed. */
static const char *const *job_env(const struct supervisor *s, const char *const *env,
                                  const char ***owned, char *gpu_var, size_t cap)
{
    *owned = NULL;
    if (s->gpu < 0)
        return env;
    int n = 0;
    while (env && env[n])
        n++;
    const char **v = calloc((size_t)n + 2, sizeof(*v));
    if (!v)
        return env;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (strncmp(env[i], "CUDA_VISIBLE_DEVICES=", 21) != 0)
            v[k++] = env[i];
    snprintf(gpu_var, cap, "CUDA_VISIBLE_DEVICES=%d", s->gpu);
    v[k] = gpu_var;
    *owned = v;
    return v;
}

/* Starts one process of the job (vfork semantics: the cell is suspended until the child
 * execs or fails, so nothing of the cell's address space is copied; the cost of a run stays
 * close to exec's). Returns its pid or -1 with errno. */
static pid_t spawn(struct child_args *a)
{
    return clone(child_main, child_stack + sizeof(child_stack), CLONE_VM | CLONE_VFORK | SIGCHLD,
                 a);
}

/* The program's first process forked from the zygote (same descriptors, cgroup, limits and
 * uid as spawn's child); a zygote that fails leaves this job, at its full memory limit, and
 * the cell's later ones cold. */
static pid_t spawn_warm(struct supervisor *s, struct run *r, const struct child_args *a, int argc)
{
    struct zygote_start st = {.uid = a->uid,
                              .gid = a->gid,
                              .dir = a->dir,
                              .rl = a->rl,
                              .cg = a->cg,
                              .argc = argc,
                              .argv = (const char *const *)a->argv,
                              .env = (const char *const *)a->envp,
                              .fds = {a->in, a->out, a->errout, a->chan_in, a->chan_out},
                              .nfds = a->chan_in >= 0 ? 5 : 3,
                              .report = a->report};
    pid_t pid = zygote_spawn(&s->zy, &st);
    if (pid > 0)
        return pid;
    char err[ERR_LEN];
    r->warm = r->warm_grader = false;
    r->baseline = 0;
    if (cg_job_limit(r->cg, r->lim.memory_bytes, r->lim.pids, err) < 0)
        return -1;
    return spawn((struct child_args *)(uintptr_t)a);
}

/* The pipes of a run: the first process's stdin, the shared stdout and stderr, the step
 * report; for a grader job, the program's empty stdin and the channel both ways. */
struct pipes {
    int in[2], out[2], err[2], rep[2];
    int nul[2], to_grader[2], to_program[2];
};

static int make_pipes(struct pipes *p, bool grader)
{
    int *all[] = {p->in, p->out, p->err, p->rep, p->nul, p->to_grader, p->to_program};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        all[i][0] = all[i][1] = -1;
    for (size_t i = 0; i < (grader ? 7u : 4u); i++)
        if (pipe2(all[i], O_CLOEXEC) < 0)
            return -errno;
    fcntl(p->in[1], F_SETFL, O_NONBLOCK);
    fcntl(p->out[0], F_SETFL, O_NONBLOCK);
    fcntl(p->err[0], F_SETFL, O_NONBLOCK);
    fcntl(p->out[0], F_SETPIPE_SZ, 1 << 20); /* fewer wake-ups for chatty programs */
    /* Each side may open its channel ends again by name (/dev/fd/3, /dev/fd/4): Lua's standard
     * library opens files by name only. A process reaches only its own ends that way (another
     * uid's /proc/<pid>/fd is closed to it), and a second handle on a pipe it already holds
     * lets the program read back what it wrote or write what it reads: nothing more. */
    if (grader && (fchmod(p->to_grader[0], 0666) < 0 || fchmod(p->to_program[0], 0666) < 0))
        return -errno;
    return 0;
}

static void close_pipes(struct pipes *p)
{
    int *all[] = {p->in, p->out, p->err, p->rep, p->nul, p->to_grader, p->to_program};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        close_pair(all[i]);
}

/* MFD_EXEC (Linux 6.3): an executable memory file even where vm.memfd_noexec is 1, whose
 * default then makes it non-executable; older kernels refuse the flag (EINVAL) and make every
 * memory file executable. */
#define GRADER_MFD_EXEC 0x0010U

/* A compiled grader's executable in a sealed memory file (close-on-exec: the grader does not
 * keep it, the program never sees it). Returns the fd, or -1 with errno (EACCES where
 * vm.memfd_noexec is 2: no memory file may be executed there). */
static int grader_exe_file(const struct job *j)
{
    int fd = memfd_create("verdict-grader", MFD_CLOEXEC | MFD_ALLOW_SEALING | GRADER_MFD_EXEC);
    if (fd < 0 && errno == EINVAL)
        fd = memfd_create("verdict-grader", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0)
        return -1;
    for (size_t off = 0; off < j->grader_exe_len;) {
        ssize_t n = write(fd, j->grader_exe + off, j->grader_exe_len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            close(fd);
            errno = e;
            return -1;
        }
        off += (size_t)n;
    }
    if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) < 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* Starts the job's processes: the program alone, or the program then its grader (job.h).
 * r->pid is the first process. Returns 0, or -1 with res set (SE). */
static int start(struct supervisor *s, struct run *r, struct pipes *p, struct child_args *a,
                 struct job_result *res)
{
    const struct job *j = r->job;
    bool grader = j->grader_argc > 0;
    if (grader && (s->grader_uid == 0 || s->grader_uid == s->uid)) {
        res->status = JOB_SE;
        snprintf(res->message, sizeof(res->message), "this cell has no uid for a grader");
        return -1;
    }
    /* Programs reopen their streams by name (/dev/stdin is /proc/self/fd/0, which checks the
     * pipe's own owner and mode: root's, 0600): each pipe end a process holds as a standard
     * stream is its uid's. Reopening adds nothing it could not do with the fd it has. */
    unsigned in_uid = grader ? s->grader_uid : s->uid, in_gid = grader ? s->grader_uid : s->gid;
    if (fchown(p->in[0], in_uid, in_gid) < 0 || (grader && fchown(p->nul[0], s->uid, s->gid) < 0) ||
        fchown(p->out[1], s->uid, s->gid) < 0 || fchown(p->err[1], s->uid, s->gid) < 0) {
        set_se(res, "chown the standard streams", errno);
        return -1;
    }
    char pathbuf[256];
    a->uid = s->uid;
    a->gid = s->gid;
    a->dir = MNT_WORKDIR;
    a->path = resolve(j->argv[0], pathbuf, sizeof(pathbuf));
    a->argv = (char *const *)(uintptr_t)j->argv;
    a->in = grader ? p->nul[0] : p->in[0];
    a->chan_in = grader ? p->to_program[0] : -1;
    a->chan_out = grader ? p->to_grader[1] : -1;
    r->t0_ns = r->cpu_checked_ns = now_ns();
    pid_t pid = r->warm ? spawn_warm(s, r, a, j->argc) : spawn(a);
    if (pid < 0) {
        set_se(res, "clone", errno);
        return -1;
    }
    if (grader) {
        a->exe_file = j->grader_argv[0][0] == '/';
        if (j->grader_exe_len > 0 && (a->exe = grader_exe_file(j)) < 0) {
            set_se(res, "the grader's memory file", errno);
            r->pid = pid;
            kill_all(r); /* the program started alone */
            return -1;
        }
        a->uid = a->gid = s->grader_uid;
        a->dir = "/";
        a->path = resolve(j->grader_argv[0], pathbuf, sizeof(pathbuf));
        a->argv = (char *const *)(uintptr_t)j->grader_argv;
        a->in = p->in[0];
        a->chan_in = p->to_grader[0];
        a->chan_out = p->to_program[1];
        pid_t program = r->program = pid;
        pid = r->warm_grader ? spawn_warm(s, r, a, j->grader_argc) : spawn(a);
        int e = errno;
        if (a->exe >= 0)
            close(a->exe);
        a->exe = -1;
        errno = e;
        if (pid < 0) {
            pid = program;
            set_se(res, "clone (grader)", errno);
            r->pid = pid;
            kill_all(r); /* the program started alone */
            return -1;
        }
    }
    r->pid = pid;
    return 0;
}

/* Forks and supervises; fills res from the run. */
static void run_program(struct supervisor *s, struct run *r, struct job_result *res)
{
    struct pipes p;
    struct limits_plan rl;
    char gpu_var[48];
    const char **owned_env = NULL;
    const char *const *env = job_env(s, r->job->env, &owned_env, gpu_var, sizeof(gpu_var));
    limits_plan(&r->lim, &rl);
    if (make_pipes(&p, r->job->grader_argc > 0) < 0) {
        set_se(res, "pipe", errno);
        goto out;
    }
    struct child_args a = {.cg = r->cg,
                           .rl = &rl,
                           .envp = (char *const *)(uintptr_t)env,
                           .out = p.out[1],
                           .errout = p.err[1],
                           .report = p.rep[1],
                           .exe = -1};
    if (start(s, r, &p, &a, res) < 0) {
        reap_all(s, r);
        goto out;
    }
    close_fd(&p.in[0]);
    close_fd(&p.out[1]);
    close_fd(&p.err[1]);
    close_fd(&p.rep[1]);
    r->in_fd = p.in[1];
    r->out_fd = p.out[0];
    r->err_fd = p.err[0];
    p.in[1] = p.out[0] = p.err[0] = -1;
    /* The channel and the program's stdin are the children's alone: closed here, a process's
     * exit is seen at once by the other as EOF. */
    close_pair(p.nul);
    close_pair(p.to_grader);
    close_pair(p.to_program);
    supervise(s, r);

    struct child_report cr = {0, 0};
    if (read(p.rep[0], &cr, sizeof(cr)) != (ssize_t)sizeof(cr))
        cr.step = 0;
    struct cg_stats st;
    char err[ERR_LEN];
    res->wall_ms = r->end_ns > r->t0_ns ? (r->end_ns - r->t0_ns) / 1000000 : 0;
    if (cg_job_stats(r->cg, &st, err) < 0) {
        res->status = JOB_SE;
        snprintf(res->message, sizeof(res->message), "%s", err);
        goto out;
    }
    res->cpu_ms = (int64_t)(st.cpu_ns / 1000000);
    res->memory_kib = (st.memory_peak + r->baseline) / 1024;
    res->waited_ms = r->waited_ns / 1000000;
    decide(r, &st, &cr, res);
    int left = cg_job_nprocs(r->cg);
    if (left != 0) {
        res->status = JOB_SE;
        res->starved = false;
        snprintf(res->message, sizeof(res->message), "%d processes survived the job", left);
    }
out:
    free(owned_env);
    close_pipes(&p);
    close_fd(&r->in_fd);
    close_fd(&r->out_fd);
    close_fd(&r->err_fd);
}

/* Takes the next job's cgroup (readied now if it is not yet) for a job or a session, which
 * then uses the job dirs. Returns 0, or -1 with res SE. */
static int take_next(struct supervisor *s, struct cg_job *cg, struct job_result *res,
                     char err[ERR_LEN])
{
    if ((!s->next_ready || !s->dirs_clean) && supervisor_prepare(s, err) < 0) {
        res->status = JOB_SE;
        snprintf(res->message, sizeof(res->message), "%s", err);
        return -1;
    }
    s->dirs_clean = false;
    *cg = s->next;
    s->next_ready = false;
    s->seq++;
    return 0;
}

int supervisor_run(struct supervisor *s, const struct job *j, struct job_result *res,
                   char err[ERR_LEN])
{
    memset(res, 0, sizeof(*res));
    res->instructions = -1;
    struct run r = {.job = j,
                    .lim = j->limits,
                    .in_fd = -1,
                    .out_fd = -1,
                    .err_fd = -1,
                    .perf_start = -1,
                    .instructions = -1,
                    .zy = &s->zy,
                    .session_left_ns = -1};
    job_limits_defaults(&r.lim);
    if (s->sess.open) { /* the cell runs no job while a session holds it */
        set_se(res, "job in a session's cell", EBUSY);
        return 0;
    }
    struct cg_job cg;
    if (take_next(s, &cg, res, err) < 0)
        return 0;
    r.cg = &cg;
    r.warm = zygote_fits(&s->zy, j, s->gpu, &r.lim);
    r.warm_grader = r.warm && zygote_fits_grader(&s->zy, j) &&
                    r.lim.memory_bytes > 2 * s->zy.baseline + (8ull << 20);
    r.baseline = (r.warm ? s->zy.baseline : 0) + (r.warm_grader ? s->zy.baseline : 0);
    if (grow(&s->out, &s->out_cap, r.lim.stdout_bytes) < 0 ||
        grow(&s->err, &s->err_cap, r.lim.stderr_bytes) < 0) {
        set_se(res, "output buffers", ENOMEM);
    } else if (cg_job_limit(&cg, r.lim.memory_bytes - r.baseline, r.lim.pids, err) < 0) {
        res->status = JOB_SE;
        snprintf(res->message, sizeof(res->message), "%s", err);
    } else if (place_files(s, j, res) == 0) {
        r.perf_start = s->perf_tried && s->perf_fd >= 0 ? perf_read(s->perf_fd) : -1;
        run_program(s, &r, res);
        fetch_files(j, &r.lim, res);
    }
    res->out = s->out;
    res->out_len = r.out_len;
    res->err = s->err;
    res->err_len = r.err_len;
    res->stdout_truncated = r.out_trunc;
    res->stderr_truncated = r.err_trunc;
    s->last = cg; /* removed by supervisor_prepare, after the result has gone out */
    s->last_ready = true;
    return 0;
}

/* ---- sessions ---------------------------------------------------------------------------- */

/* A session's interpreter answers calls on its fd 4 as "<length>\n<bytes>": the header's
 * digits at most. */
#define SESSION_HEADER_MAX 12
/* After the interpreter's own timer (the call's timeout) the sandbox waits this much more for
 * its answer before it kills the session's processes. */
#define SESSION_GRACE_MS 1000

int supervisor_session_open(struct supervisor *s, const struct session_limits *l,
                            struct job_result *res, char err[ERR_LEN])
{
    memset(res, 0, sizeof(*res));
    res->instructions = -1;
    if (s->sess.open) {
        set_se(res, "open a session", EBUSY);
        return 0;
    }
    if (take_next(s, &s->sess.cg, res, err) < 0)
        return 0;
    int rc = cg_job_limit(&s->sess.cg, l->memory_bytes, l->pids, err);
    if (rc == 0)
        rc = cg_job_rebase(&s->sess.cg, err);
    if (rc == 0)
        rc = cg_job_counters(&s->sess.cg, &s->sess.base, err);
    if (rc < 0) {
        res->status = JOB_SE;
        snprintf(res->message, sizeof(res->message), "%s", err);
        s->last = s->sess.cg; /* cleaned by supervisor_prepare, as a job's */
        s->last_ready = true;
        return 0;
    }
    s->sess.open = true;
    s->sess.lim = *l;
    s->sess.peak = 0;
    s->sess.interp = 0;
    s->sess.starts = 0;
    s->sess.cpu_spent = false;
    s->sess.req_fd = s->sess.reply_fd = s->sess.out_fd = s->sess.err_fd = -1;
    return 0;
}

static void session_close_fds(struct supervisor *s)
{
    close_fd(&s->sess.req_fd);
    close_fd(&s->sess.reply_fd);
    close_fd(&s->sess.out_fd);
    close_fd(&s->sess.err_fd);
}

/* Kills every process of the session (its interpreter too) and reaps them. */
static void session_kill(struct supervisor *s)
{
    zygote_kill_job(&s->sess.cg, s->sess.interp, 0);
    zygote_reap_job(&s->zy, &s->sess.cg, s->sigfd);
    s->sess.interp = 0;
    session_close_fds(s);
}

/* The session's CPU so far, ns (0 when the counter cannot be read). */
static int64_t session_cpu_ns(const struct supervisor *s)
{
    struct cg_stats now;
    char ignored[ERR_LEN];
    if (cg_job_counters(&s->sess.cg, &now, ignored) < 0)
        return 0;
    return (int64_t)(now.cpu_ns - s->sess.base.cpu_ns);
}

static void session_totals(struct supervisor *s, struct session_totals *t)
{
    int64_t usage = cg_job_usage(&s->sess.cg);
    if (usage > 0 && (uint64_t)usage > s->sess.peak)
        s->sess.peak = (uint64_t)usage;
    t->cpu_ms = session_cpu_ns(s) / 1000000;
    t->memory_kib = usage > 0 ? (uint64_t)usage / 1024 : 0;
    t->memory_peak_kib = s->sess.peak / 1024;
    t->starts = s->sess.starts;
    t->alive = s->sess.interp > 0;
    t->cpu_spent = s->sess.cpu_spent;
}

void supervisor_session_tick(struct supervisor *s)
{
    if (!s->sess.open)
        return;
    reap(s, NULL);
    if (!s->sess.interp && s->sess.req_fd >= 0)
        session_close_fds(s); /* it died between calls: the next call starts another */
    if (!s->sess.cpu_spent &&
        session_cpu_ns(s) > clock_allowed_ns(s->sess.lim.cpu_ms)) { /* spent between calls */
        s->sess.cpu_spent = true;
        session_kill(s);
    }
    int64_t usage = cg_job_usage(&s->sess.cg);
    if (usage > 0 && (uint64_t)usage > s->sess.peak)
        s->sess.peak = (uint64_t)usage;
}

void supervisor_session_status(struct supervisor *s, struct session_totals *t)
{
    memset(t, 0, sizeof(*t));
    if (!s->sess.open)
        return;
    supervisor_session_tick(s);
    session_totals(s, t);
}

void supervisor_session_close(struct supervisor *s)
{
    if (!s->sess.open)
        return;
    session_kill(s);
    free(s->sess.reply);
    s->sess.reply = NULL;
    s->sess.reply_len = s->sess.reply_cap = 0;
    s->sess.open = false;
    s->last = s->sess.cg; /* supervisor_prepare removes or reuses it, and empties the dirs */
    s->last_ready = true;
    s->dirs_clean = false;
}

/* Starts the session's interpreter (job j's argv and env), its fds 3 and 4 the request and
 * answer pipes. Returns 0, or -1 with res set (SE, or RE when it cannot be executed). */
static int session_start(struct supervisor *s, const struct job *j, struct job_result *res)
{
    int req[2] = {-1, -1}, reply[2] = {-1, -1}, out[2] = {-1, -1}, errp[2] = {-1, -1},
        rep[2] = {-1, -1};
    int null = -1, rc = -1;
    struct job_limits il = j->limits; /* the interpreter's rlimits are the session's */
    il.cpu_ms = s->sess.lim.cpu_ms;
    il.memory_bytes = s->sess.lim.memory_bytes;
    il.stack_bytes = 0;
    il.pids = s->sess.lim.pids;
    job_limits_defaults(&il);
    struct limits_plan rl;
    limits_plan(&il, &rl);
    char gpu_var[48], pathbuf[256];
    const char **owned_env = NULL;
    const char *const *env = job_env(s, j->env, &owned_env, gpu_var, sizeof(gpu_var));
    if (pipe2(req, O_CLOEXEC) < 0 || pipe2(reply, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 ||
        pipe2(errp, O_CLOEXEC) < 0 || pipe2(rep, O_CLOEXEC) < 0 ||
        (null = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
        set_se(res, "interpreter pipes", errno);
        goto out;
    }
    if (fchown(out[1], s->uid, s->gid) < 0 || fchown(errp[1], s->uid, s->gid) < 0 ||
        fchown(req[0], s->uid, s->gid) < 0 || fchown(reply[1], s->uid, s->gid) < 0) {
        set_se(res, "chown the interpreter's pipes", errno);
        goto out;
    }
    struct child_args a = {.cg = &s->sess.cg,
                           .rl = &rl,
                           .uid = s->uid,
                           .gid = s->gid,
                           .dir = MNT_WORKDIR,
                           .path = resolve(j->argv[0], pathbuf, sizeof(pathbuf)),
                           .argv = (char *const *)(uintptr_t)j->argv,
                           .envp = (char *const *)(uintptr_t)env,
                           .in = null,
                           .out = out[1],
                           .errout = errp[1],
                           .report = rep[1],
                           .chan_in = req[0],
                           .chan_out = reply[1],
                           .exe = -1};
    pid_t pid = spawn(&a);
    if (pid < 0) {
        set_se(res, "clone (interpreter)", errno);
        goto out;
    }
    close_fd(&rep[1]); /* vfork: the child has exec'd (its copy closed) or reported */
    struct child_report cr = {0, 0};
    if (read(rep[0], &cr, sizeof(cr)) == (ssize_t)sizeof(cr) && cr.step) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        res->status = cr.step == STEP_EXEC && exec_error(cr.error) ? JOB_RE : JOB_SE;
        snprintf(res->message, sizeof(res->message), "start the interpreter: %s: %s",
                 step_names[cr.step], strerror(cr.error));
        goto out;
    }
    s->sess.interp = pid;
    s->sess.starts++;
    s->sess.req_fd = req[1];
    s->sess.reply_fd = reply[0];
    s->sess.out_fd = out[0];
    s->sess.err_fd = errp[0];
    req[1] = reply[0] = out[0] = errp[0] = -1;
    fcntl(s->sess.req_fd, F_SETFL, O_NONBLOCK);
    fcntl(s->sess.reply_fd, F_SETFL, O_NONBLOCK);
    fcntl(s->sess.out_fd, F_SETFL, O_NONBLOCK);
    fcntl(s->sess.err_fd, F_SETFL, O_NONBLOCK);
    rc = 0;
out:
    free(owned_env);
    close_pair(req);
    close_pair(reply);
    close_pair(out);
    close_pair(errp);
    close_pair(rep);
    if (null >= 0)
        close(null);
    return rc;
}

/* Reads what the answer pipe holds. Returns 1 when the answer is whole, 0 for more to come,
 * -1 when the interpreter broke the framing (or passed SESSION_REPLY_MAX). */
static int session_read_reply(struct supervisor *s)
{
    for (;;) {
        if (s->sess.reply_len == s->sess.reply_cap) {
            size_t cap = s->sess.reply_cap ? s->sess.reply_cap * 2 : 65536;
            if (cap > SESSION_REPLY_MAX + SESSION_HEADER_MAX)
                cap = SESSION_REPLY_MAX + SESSION_HEADER_MAX;
            if (cap == s->sess.reply_cap)
                return -1;
            uint8_t *b = realloc(s->sess.reply, cap);
            if (!b)
                return -1;
            s->sess.reply = b;
            s->sess.reply_cap = cap;
        }
        ssize_t n = read(s->sess.reply_fd, s->sess.reply + s->sess.reply_len,
                         s->sess.reply_cap - s->sess.reply_len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            break;
        if (n <= 0) {
            close_fd(&s->sess.reply_fd);
            break;
        }
        s->sess.reply_len += (size_t)n;
    }
    const uint8_t *nl =
        memchr(s->sess.reply, '\n',
               s->sess.reply_len < SESSION_HEADER_MAX ? s->sess.reply_len : SESSION_HEADER_MAX);
    if (!nl)
        return s->sess.reply_len >= SESSION_HEADER_MAX ? -1 : 0;
    size_t want = 0;
    for (const uint8_t *p = s->sess.reply; p < nl; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        want = want * 10 + (size_t)(*p - '0');
    }
    if (nl == s->sess.reply || want > SESSION_REPLY_MAX)
        return -1;
    size_t have = s->sess.reply_len - (size_t)(nl + 1 - s->sess.reply);
    return have > want ? -1 : have == want ? 1 : 0;
}

/* Supervises one call of the interpreter: the request out, output drained, the answer in,
 * the clocks. Returns 1 with the answer, 0 when it ended without one (r says why). */
static int session_supervise(struct supervisor *s, struct run *r, const uint8_t *frame,
                             size_t frame_len)
{
    size_t sent = 0;
    r->out_fd = s->sess.out_fd;
    r->err_fd = s->sess.err_fd;
    s->sess.out_fd = s->sess.err_fd = -1; /* the run's until the call ends */
    int answered = 0;
    while (!answered && !r->exited && !r->killed) {
        struct pollfd p[5];
        int n = 0, iout, ierr, ireq = -1, irep = -1;
        poll_outputs(r, p, &n, &iout, &ierr);
        if (sent < frame_len && s->sess.req_fd >= 0)
            p[ireq = n++] = (struct pollfd){.fd = s->sess.req_fd, .events = POLLOUT};
        if (s->sess.reply_fd >= 0)
            p[irep = n++] = (struct pollfd){.fd = s->sess.reply_fd, .events = POLLIN};
        p[n++] = (struct pollfd){.fd = s->sigfd, .events = POLLIN};
        if (poll(p, (nfds_t)n, POLL_MS) < 0 && errno != EINTR)
            break;
        drain_outputs(s, r, p, iout, ierr);
        if (ireq >= 0 && p[ireq].revents) {
            ssize_t w = write(s->sess.req_fd, frame + sent, frame_len - sent);
            if (w > 0)
                sent += (size_t)w;
            else if (w < 0 && errno != EAGAIN && errno != EINTR)
                close_fd(&s->sess.req_fd); /* it closed its end: it is dying */
        }
        if (irep >= 0 && p[irep].revents) {
            answered = session_read_reply(s);
            if (answered < 0) {
                stop(r, JOB_RE, JOB_CLOCK_NONE); /* out of protocol: it cannot be trusted */
                answered = 0;
            }
        }
        reap(s, r);
        if (!r->killed && !answered)
            check_clocks(r);
    }
    drain_outputs(s, r, NULL, -1, -1); /* what it wrote before the answer */
    s->sess.out_fd = r->out_fd;
    s->sess.err_fd = r->err_fd;
    r->out_fd = r->err_fd = -1;
    return answered == 1 && !r->killed;
}

/* A call of the interpreter (SESSION_CALL). */
static void session_call(struct supervisor *s, struct run *r, const struct job *j,
                         struct session_result *out)
{
    struct job_result *res = &out->res;
    if (!s->sess.interp) {
        if (cg_job_nprocs(&s->sess.cg) > 0) /* what the last interpreter left: its state is gone */
            session_kill(s);
        session_close_fds(s);
        if (session_start(s, j, res) < 0)
            return;
        out->started = true;
    }
    r->pid = s->sess.interp;
    size_t frame_len = 0;
    char head[SESSION_HEADER_MAX + 2];
    int hn = snprintf(head, sizeof(head), "%zu\n", j->stdin_len);
    uint8_t *frame = malloc((size_t)hn + j->stdin_len);
    if (!frame) {
        set_se(res, "interpreter request", ENOMEM);
        return;
    }
    memcpy(frame, head, (size_t)hn);
    if (j->stdin_len)
        memcpy(frame + hn, j->stdin_data, j->stdin_len);
    frame_len = (size_t)hn + j->stdin_len;
    s->sess.reply_len = 0;
    r->t0_ns = r->cpu_checked_ns = now_ns();
    /* The interpreter's own timer is the call's timeout; the sandbox's, a second later. */
    r->lim.wall_ms += SESSION_GRACE_MS;
    r->lim.backstop_ms = r->lim.wall_ms * 3;
    int answered = session_supervise(s, r, frame, frame_len);
    free(frame);
    r->end_ns = now_ns();
    if (answered) {
        const uint8_t *nl = memchr(s->sess.reply, '\n', s->sess.reply_len);
        out->reply = nl + 1;
        out->reply_len = s->sess.reply_len - (size_t)(nl + 1 - s->sess.reply);
    } else {
        kill_all(r);
        session_kill(s);
        out->lost = true;
    }
    struct cg_stats st;
    char err[ERR_LEN];
    res->wall_ms = (r->end_ns - r->t0_ns) / 1000000;
    if (cg_job_stats(&s->sess.cg, &st, err) < 0) {
        res->status = JOB_SE;
        snprintf(res->message, sizeof(res->message), "%s", err);
        return;
    }
    res->cpu_ms = (int64_t)(st.cpu_ns / 1000000);
    res->memory_kib = st.memory_peak / 1024;
    if (st.memory_peak > s->sess.peak)
        s->sess.peak = st.memory_peak;
    if (answered) {
        res->status = JOB_OK;
        if (st.oom_kills)
            snprintf(res->message, sizeof(res->message),
                     "memory limit reached: the OOM killer ended %llu process(es) of the call",
                     (unsigned long long)st.oom_kills);
        return;
    }
    struct child_report none = {0, 0};
    if (r->limit == JOB_RE) {
        res->status = JOB_RE;
        res->exit_code = -1;
        snprintf(res->message, sizeof(res->message), "the interpreter answered out of protocol");
        return;
    }
    decide(r, &st, &none, res);
    if (res->status == JOB_RE || res->status == JOB_OK) {
        res->status = JOB_RE;
        char why[JOB_MSG_LEN];
        memcpy(why, res->message, sizeof(why));
        snprintf(res->message, sizeof(res->message), "the interpreter ended: %.200s",
                 why[0] ? why : "exit code 0");
    }
}

int supervisor_session_call(struct supervisor *s, enum session_mode mode, const struct job *j,
                            struct session_result *out, char err[ERR_LEN])
{
    (void)err;
    memset(out, 0, sizeof(*out));
    struct job_result *res = &out->res;
    res->instructions = -1;
    struct run r = {.job = j,
                    .lim = j->limits,
                    .cg = &s->sess.cg,
                    .in_fd = -1,
                    .out_fd = -1,
                    .err_fd = -1,
                    .perf_start = -1,
                    .instructions = -1,
                    .zy = &s->zy,
                    .by_cgroup = true};
    job_limits_defaults(&r.lim);
    char msg[ERR_LEN];
    if (!s->sess.open) {
        set_se(res, "session call", ENOENT);
        goto done;
    }
    supervisor_session_tick(s); /* what ended since the last call */
    if (s->sess.cpu_spent) {
        res->status = JOB_TLE;
        res->tle_clock = JOB_CLOCK_SESSION;
        res->exit_code = -1;
        snprintf(res->message, sizeof(res->message), "the session's CPU time (%lld ms) is spent",
                 (long long)s->sess.lim.cpu_ms);
        out->lost = mode == SESSION_CALL; /* its interpreter was killed when it was spent */
        goto done;
    }
    int64_t usage = cg_job_usage(&s->sess.cg);
    uint64_t cap = s->sess.lim.memory_bytes;
    if (usage >= 0 && (uint64_t)usage + r.lim.memory_bytes < cap)
        cap = (uint64_t)usage + r.lim.memory_bytes;
    r.session_left_ns = clock_allowed_ns(s->sess.lim.cpu_ms) - session_cpu_ns(s);
    if (r.session_left_ns < 0)
        r.session_left_ns = 0;
    if (grow(&s->out, &s->out_cap, r.lim.stdout_bytes) < 0 ||
        grow(&s->err, &s->err_cap, r.lim.stderr_bytes) < 0) {
        set_se(res, "output buffers", ENOMEM);
    } else if ((cg_job_limit(&s->sess.cg, cap, s->sess.lim.pids, msg) < 0 &&
                /* what the session holds grew past cap meanwhile (v1 refuses a limit
                 * below usage): the call gets the session's limit alone */
                cg_job_limit(&s->sess.cg, s->sess.lim.memory_bytes, s->sess.lim.pids, msg) < 0) ||
               cg_job_rebase(&s->sess.cg, msg) < 0) {
        res->status = JOB_SE;
        snprintf(res->message, sizeof(res->message), "%s", msg);
    } else if (place_files(s, j, res) == 0) {
        if (mode == SESSION_CALL) {
            session_call(s, &r, j, out);
        } else {
            run_program(s, &r, res);
        }
        fetch_files(j, &r.lim, res);
    }
    /* the session's own limit again, for what runs between calls */
    if (cg_job_limit(&s->sess.cg, s->sess.lim.memory_bytes, s->sess.lim.pids, msg) < 0 &&
        res->status != JOB_SE) {
        res->status = JOB_SE;
        snprintf(res->message, sizeof(res->message), "%s", msg);
    }
    if (res->status == JOB_TLE && res->tle_clock == JOB_CLOCK_SESSION) {
        s->sess.cpu_spent = true;
        session_kill(s);
        out->lost = out->lost || mode == SESSION_CALL;
    }
done:
    res->out = s->out;
    res->out_len = r.out_len;
    res->err = s->err;
    res->err_len = r.err_len;
    res->stdout_truncated = r.out_trunc;
    res->stderr_truncated = r.err_trunc;
    session_totals(s, &out->totals);
    return 0;
}
