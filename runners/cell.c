/*
 * cell: the long-lived sandbox process, and the server's handle on it.
 *
 * Start. The server clones a child into new pid, mount, ipc, uts and net namespaces (each
 * cell has its own network namespace holding only loopback: jobs of different cells cannot
 * reach each other even over 127.0.0.1). The child sets PR_SET_PDEATHSIG and execs the verdict
 * binary as `verdict __cell 3`, so the cell starts small and single-threaded. The server then
 * sends CELL_CONFIG; the cell brings loopback up, opens its cgroup tree, compiles the seccomp
 * filter, builds and enters its root, installs the filter on itself (jobs inherit it), and
 * answers CELL_READY (or CELL_FAILED with the reason).
 *
 * Serve. One CELL_JOB in, one CELL_RESULT out, strictly alternating; after each result the
 * cell empties its job directories and creates the next job's cgroup before it waits again.
 * When the socket closes, the cell exits; being pid 1, it takes any survivor with it.
 */
#include "runners/cell.h"
#include "runners/cell_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runners/mount.h"
#include "runners/seccomp.h"
#include "runners/supervisor.h"
#include "runners/wire.h"

enum {
    CELL_CONFIG = 1,
    CELL_READY,
    CELL_FAILED,
    CELL_JOB,
    CELL_RESULT,
    CELL_SESSION_OPEN,  /* session_limits -> CELL_RESULT (OK, or SE with the reason) */
    CELL_SESSION_CALL,  /* mode + job -> CELL_SESSION_RESULT */
    CELL_SESSION_CLOSE, /* (empty) -> CELL_RESULT (OK) once the session's processes are gone */
    CELL_SESSION_RESULT,
    CELL_SESSION_STATUS, /* (empty) -> CELL_SESSION_RESULT with the session's totals only */
};
/* While a session is open and no call runs, the cell looks this often at what it left
 * running (its CPU limit, an interpreter that died). */
#define SESSION_TICK_MS 250

#define CELL_FD  3
#define MAX_MSG  (1ull << 31) /* 2 GiB: files and outputs are capped well below */
#define NS_FLAGS (CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET)

struct cell {
    pid_t pid;
    int fd;
};

/* ---- server side ----------------------------------------------------------------------- */

void cell_encode_config(const struct cell_config *cfg, struct buf *b)
{
    wbuf_u32(b, (uint32_t)cfg->index);
    wbuf_u32(b, cfg->uid);
    wbuf_u32(b, cfg->gid);
    wbuf_u32(b, cfg->grader_uid);
    wbuf_u32(b, (uint32_t)cfg->tree->version);
    wbuf_u32(b, (uint32_t)cfg->tree->ndirs);
    for (int i = 0; i < cfg->tree->ndirs; i++) {
        wbuf_str(b, cfg->tree->dir[i]);
        wbuf_u32(b, cfg->tree->ctrls[i]);
    }
    wbuf_u32(b, (uint32_t)cfg->nbinds);
    for (int i = 0; i < cfg->nbinds; i++)
        wbuf_str(b, cfg->binds[i]);
    wbuf_u64(b, cfg->tmpfs_bytes ? cfg->tmpfs_bytes : CELL_TMPFS_BYTES);
    wbuf_u32(b, cfg->tmpfs_inodes ? cfg->tmpfs_inodes : CELL_TMPFS_INODES);
    wbuf_u32(b, cfg->gpu_cell ? (uint32_t)cfg->gpu + 1 : 0);
}

/* One request to the spawner thread; lives on the requester's stack until done. */
struct spawn_req {
    const char *exe;
    int fd;
    sigset_t mask; /* the requester's signal mask, which the cell starts with */
    pid_t pid;     /* the answer: the cell's pid, or -1 with errno in error */
    int error;
    bool done;
    struct spawn_req *next;
};

static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t spawn_cond = PTHREAD_COND_INITIALIZER;
static struct spawn_req *spawn_queue;
static bool spawner_started;

/* Runs in a child forked from a multi-threaded server: system calls only (no stdio, no
 * malloc, no locks) until execve. */
static pid_t clone_cell(const struct spawn_req *r)
{
    _Static_assert(CELL_FD == 3, "the cell's argv spells its descriptor");
    pid_t pid = (pid_t)syscall(SYS_clone, NS_FLAGS | SIGCHLD, NULL, NULL, NULL, 0);
    if (pid != 0)
        return pid;
    /* The child: die with the server. The death signal follows the thread that cloned us,
     * which is the spawner, alive as long as the process (getppid() cannot tell: the parent
     * is outside our pid namespace, 0 here; should the server die before this line, the cell
     * still ends, at the socket's EOF). Then keep only the socket and become the cell. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (dup2(r->fd, CELL_FD) < 0)
        _exit(126);
    syscall(SYS_close_range, CELL_FD + 1, ~0u, 0);
    sigprocmask(SIG_SETMASK, &r->mask, NULL);
    char arg0[] = "verdict", arg1[] = "__cell", fdarg[] = "3";
    char *argv[] = {arg0, arg1, fdarg, NULL};
    char *envp[] = {NULL};
    execve(r->exe, argv, envp);
    _exit(127);
}

/* The spawner: one thread, never exiting, clones every cell, so that PR_SET_PDEATHSIG (tied
 * to the cloning thread, not the process) fires only when the server process dies, never
 * when a worker thread that replaced a cell ends. */
static void *spawner(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&spawn_lock);
    for (;;) {
        while (!spawn_queue)
            pthread_cond_wait(&spawn_cond, &spawn_lock);
        struct spawn_req *r = spawn_queue;
        spawn_queue = r->next;
        pthread_mutex_unlock(&spawn_lock);
        r->pid = clone_cell(r);
        r->error = errno;
        pthread_mutex_lock(&spawn_lock);
        r->done = true;
        pthread_cond_broadcast(&spawn_cond);
    }
    return NULL;
}

/* Starts the spawner on first use, with every signal blocked (the process's signals go to its
 * other threads). Called with spawn_lock held. */
static int start_spawner(void)
{
    if (spawner_started)
        return 0;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t attr;
    pthread_t t;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &attr, spawner, NULL);
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    spawner_started = rc == 0;
    return -rc;
}

/* Clones the cell through the spawner; returns its pid, or -1 with errno. */
static pid_t spawn_cell(const char *exe, int fd)
{
    struct spawn_req r = {.exe = exe, .fd = fd};
    pthread_sigmask(SIG_SETMASK, NULL, &r.mask);
    pthread_mutex_lock(&spawn_lock);
    int rc = start_spawner();
    if (rc == 0) {
        r.next = spawn_queue;
        spawn_queue = &r;
        pthread_cond_broadcast(&spawn_cond);
        while (!r.done)
            pthread_cond_wait(&spawn_cond, &spawn_lock);
    }
    pthread_mutex_unlock(&spawn_lock);
    errno = rc < 0 ? -rc : r.error;
    return rc < 0 ? -1 : r.pid;
}

int cell_start(const struct cell_config *cfg, struct cell **out, char err[ERR_LEN])
{
    *out = NULL;
    if (cfg->nbinds < 0 || cfg->nbinds > CELL_MAX_BINDS)
        return err_set(err, -E2BIG, "cell %d: %d binds, at most %d fit a cell", cfg->index,
                       cfg->nbinds, CELL_MAX_BINDS);
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return err_set(err, -errno, "socketpair: %m");
    pid_t pid = spawn_cell(cfg->exe, sv[1]);
    int e = errno;
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        return err_set(err, -e, "clone into new namespaces: %s", strerror(e));
    }
    struct cell *c = calloc(1, sizeof(*c));
    if (!c) {
        close(sv[0]);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return err_set(err, -ENOMEM, "out of memory");
    }
    c->pid = pid;
    c->fd = sv[0];
    struct buf b;
    buf_init(&b, 0);
    cell_encode_config(cfg, &b);
    int rc = b.err ? b.err : wire_send(c->fd, CELL_CONFIG, b.data, b.len);
    buf_fini(&b);
    uint32_t type = 0;
    uint8_t *msg = NULL;
    size_t len = 0;
    if (rc == 0)
        rc = wire_recv(c->fd, &type, &msg, &len, 4096);
    if (rc < 0) {
        err_set(err, rc, "cell %d did not start: %s", cfg->index, strerror(-rc));
    } else if (type != CELL_READY) {
        rc = err_set(err, -EIO, "cell %d setup failed: %.*s", cfg->index, (int)len,
                     msg ? (const char *)msg : "");
    }
    free(msg);
    if (rc < 0) {
        cell_stop(c);
        return rc;
    }
    *out = c;
    return 0;
}

int cell_run(struct cell *c, const struct job *j, struct job_result *res, uint8_t **payload,
             char err[ERR_LEN])
{
    *payload = NULL;
    memset(res, 0, sizeof(*res));
    struct buf b;
    buf_init(&b, 0);
    int rc = job_check(j, res->message);
    if (rc == 0)
        job_encode(j, &b);
    if (rc == 0 && b.err) /* the cell is fine: this job cannot be sent */
        rc = err_set(res->message, b.err, "job too large to encode: %s", strerror(-b.err));
    if (rc < 0) {
        buf_fini(&b);
        res->status = JOB_SE;
        res->exit_code = -1;
        return 0;
    }
    rc = wire_send(c->fd, CELL_JOB, b.data, b.len);
    buf_fini(&b);
    if (rc < 0)
        return err_set(err, rc, "send job to cell: %s", strerror(-rc));
    uint32_t type;
    size_t len;
    rc = wire_recv(c->fd, &type, payload, &len, MAX_MSG);
    if (rc < 0)
        return err_set(err, rc, "cell died: %s", strerror(-rc));
    struct rbuf r;
    rbuf_init(&r, *payload, len);
    if (type != CELL_RESULT || (rc = result_decode(&r, res)) < 0) {
        free(*payload);
        *payload = NULL;
        return err_set(err, -EBADMSG, "cell answered an unreadable result");
    }
    return 0;
}

/* Sends one message and reads the answer of the expected type (payload heap). */
static int exchange(struct cell *c, uint32_t type, const struct buf *b, uint32_t want,
                    uint8_t **payload, size_t *len, char err[ERR_LEN])
{
    *payload = NULL;
    int rc = b->err ? b->err : wire_send(c->fd, type, b->data, b->len);
    if (rc < 0)
        return err_set(err, rc, "send to cell: %s", strerror(-rc));
    uint32_t got;
    rc = wire_recv(c->fd, &got, payload, len, MAX_MSG);
    if (rc < 0)
        return err_set(err, rc, "cell died: %s", strerror(-rc));
    if (got != want) {
        free(*payload);
        *payload = NULL;
        return err_set(err, -EBADMSG, "cell answered out of protocol");
    }
    return 0;
}

int cell_session_open(struct cell *c, const struct session_limits *l, char msg[JOB_MSG_LEN],
                      char err[ERR_LEN])
{
    struct buf b;
    buf_init(&b, 0);
    session_limits_encode(l, &b);
    uint8_t *payload;
    size_t len;
    int rc = exchange(c, CELL_SESSION_OPEN, &b, CELL_RESULT, &payload, &len, err);
    buf_fini(&b);
    if (rc < 0)
        return rc;
    struct rbuf r;
    struct job_result res;
    rbuf_init(&r, payload, len);
    rc = result_decode(&r, &res);
    if (rc < 0) {
        free(payload);
        return err_set(err, -EBADMSG, "cell answered an unreadable result");
    }
    snprintf(msg, JOB_MSG_LEN, "%s", res.message);
    rc = res.status == JOB_OK ? 0 : 1;
    job_result_fini(&res);
    free(payload);
    return rc;
}

int cell_session_call(struct cell *c, enum session_mode mode, const struct job *j,
                      struct session_result *out, uint8_t **payload, char err[ERR_LEN])
{
    *payload = NULL;
    memset(out, 0, sizeof(*out));
    struct buf b;
    buf_init(&b, 0);
    int rc = job_check(j, out->res.message);
    if (rc == 0)
        session_call_encode(mode, j, &b);
    if (rc == 0 && b.err)
        rc = err_set(out->res.message, b.err, "call too large to encode: %s", strerror(-b.err));
    if (rc < 0) {
        buf_fini(&b);
        out->res.status = JOB_SE;
        out->res.exit_code = -1;
        return 0;
    }
    size_t len;
    rc = exchange(c, CELL_SESSION_CALL, &b, CELL_SESSION_RESULT, payload, &len, err);
    buf_fini(&b);
    if (rc < 0)
        return rc;
    struct rbuf r;
    rbuf_init(&r, *payload, len);
    if (session_result_decode(&r, out) < 0) {
        free(*payload);
        *payload = NULL;
        return err_set(err, -EBADMSG, "cell answered an unreadable result");
    }
    return 0;
}

int cell_session_status(struct cell *c, struct session_totals *t, char err[ERR_LEN])
{
    struct buf b;
    buf_init(&b, 0);
    uint8_t *payload;
    size_t len;
    int rc = exchange(c, CELL_SESSION_STATUS, &b, CELL_SESSION_RESULT, &payload, &len, err);
    buf_fini(&b);
    if (rc < 0)
        return rc;
    struct rbuf r;
    struct session_result out;
    rbuf_init(&r, payload, len);
    rc = session_result_decode(&r, &out);
    if (rc == 0) {
        *t = out.totals;
        job_result_fini(&out.res);
    }
    free(payload);
    return rc < 0 ? err_set(err, -EBADMSG, "cell answered an unreadable status") : 0;
}

int cell_session_close(struct cell *c, char err[ERR_LEN])
{
    struct buf b;
    buf_init(&b, 0);
    uint8_t *payload;
    size_t len;
    int rc = exchange(c, CELL_SESSION_CLOSE, &b, CELL_RESULT, &payload, &len, err);
    buf_fini(&b);
    free(payload);
    return rc;
}

pid_t cell_pid(const struct cell *c)
{
    return c->pid;
}

void cell_stop(struct cell *c)
{
    if (!c)
        return;
    close(c->fd); /* the cell sees EOF and exits */
    for (int i = 0; i < 100; i++) {
        if (waitpid(c->pid, NULL, WNOHANG) == c->pid)
            goto out;
        usleep(1000);
    }
    kill(c->pid, SIGKILL);
    waitpid(c->pid, NULL, 0);
out:
    free(c);
}

/* ---- inside the cell ------------------------------------------------------------------ */

int cell_decode_config(struct rbuf *r, struct cell_setup *cs)
{
    memset(cs, 0, sizeof(*cs));
    cs->index = (int)rbuf_u32(r);
    cs->uid = rbuf_u32(r);
    cs->gid = rbuf_u32(r);
    cs->grader_uid = rbuf_u32(r);
    uint32_t version = rbuf_u32(r);
    if (version > CG_V2)
        return -EBADMSG;
    cs->tree.version = (enum cg_version)version;
    uint32_t n = rbuf_u32(r);
    if (n > CG_MAX_DIRS)
        return -EBADMSG;
    cs->tree.ndirs = (int)n;
    for (uint32_t i = 0; i < n; i++) {
        const char *d = rbuf_str(r);
        if (!d || strlen(d) >= CG_PATH) /* a cut path would name another cgroup */
            return -EBADMSG;
        memcpy(cs->tree.dir[i], d, strlen(d) + 1);
        cs->tree.ctrls[i] = rbuf_u32(r);
    }
    n = rbuf_u32(r);
    if (n > CELL_MAX_BINDS)
        return -EBADMSG;
    cs->nbinds = (int)n;
    for (uint32_t i = 0; i < n; i++)
        cs->binds[i] = rbuf_str(r);
    cs->tmpfs_bytes = rbuf_u64(r);
    cs->tmpfs_inodes = rbuf_u32(r);
    uint32_t gpu = rbuf_u32(r); /* GPU index + 1; 0: none */
    if (gpu > CELL_MAX_GPU + 1)
        return -EBADMSG;
    cs->gpu_cell = gpu > 0;
    cs->gpu = (int)gpu - 1;
    return r->err;
}

/* Loopback in the cell's own network namespace starts down. */
static int loopback_up(char err[ERR_LEN])
{
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return err_set(err, -errno, "socket: %m");
    struct ifreq ifr;
    memset(&ifr, 0, sizeof(ifr));
    snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
    int rc = 0;
    if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0 ||
        (ifr.ifr_flags |= IFF_UP | IFF_RUNNING, ioctl(s, SIOCSIFFLAGS, &ifr) < 0))
        rc = err_set(err, -errno, "bring loopback up: %m");
    close(s);
    return rc;
}

/* Per-socket buffer caps in the cell's own network namespace (kernel defaults: 4 MiB for
 * net.core, 32 MiB for TCP autotuning). Only what the namespace has is written: a sysctl the
 * kernel keeps global is registered in the initial namespace only, so it is absent here
 * (ENOENT) and the host's value is never touched; some kernels show net.core's read-only
 * (EACCES) outside the initial namespace. Totals are the cgroup's (cgroup.c). */
static int cap_socket_buffers(char err[ERR_LEN])
{
    static const char *const knobs[][2] = {
        {"/proc/sys/net/core/rmem_max", CELL_SOCKET_BUF_STR},
        {"/proc/sys/net/core/wmem_max", CELL_SOCKET_BUF_STR},
        {"/proc/sys/net/ipv4/tcp_rmem", "4096 131072 " CELL_SOCKET_BUF_STR},
        {"/proc/sys/net/ipv4/tcp_wmem", "4096 16384 " CELL_SOCKET_BUF_STR},
    };
    for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
        int fd = open(knobs[i][0], O_WRONLY | O_CLOEXEC);
        if (fd < 0 && (errno == ENOENT || errno == EACCES))
            continue; /* global, or read-only outside the initial namespace (net.core here) */
        ssize_t n = fd < 0 ? -1 : write(fd, knobs[i][1], strlen(knobs[i][1]));
        int e = errno;
        if (fd >= 0)
            close(fd);
        if (n < 0)
            return err_set(err, -e, "%s: %s", knobs[i][0], strerror(e));
    }
    return 0;
}

static int setup(struct cell_setup *cs, struct supervisor *sv, char err[ERR_LEN])
{
    struct sc_filter *filter = NULL;
    struct mnt_plan *plan = malloc(sizeof(*plan));
    if (!plan)
        return err_set(err, -ENOMEM, "out of memory");
    struct mnt_config mc = {.host_prefix = "",
                            .binds = cs->binds,
                            .nbinds = cs->nbinds,
                            .uid = cs->uid,
                            .gid = cs->gid,
                            .tmpfs_bytes = cs->tmpfs_bytes,
                            .tmpfs_inodes = cs->tmpfs_inodes,
                            .gpu_cell = cs->gpu_cell,
                            .gpu = cs->gpu};
    int rc = sethostname("verdict", 7) < 0 ? err_set(err, -errno, "sethostname: %m") : 0;
    if (rc == 0)
        rc = loopback_up(err);
    if (rc == 0)
        rc = cap_socket_buffers(err);
    if (rc == 0)
        rc = cg_root_open(&cs->tree, &sv->cg, err);
    if (rc == 0)
        rc = sc_filter_build(&filter, err);
    if (rc == 0)
        rc = mnt_plan_build(&mc, plan, err);
    if (rc == 0)
        rc = mnt_plan_apply(plan, err);
    free(plan);
    if (rc < 0) {
        sc_filter_free(filter);
        return rc;
    }
    sv->index = cs->index;
    sv->uid = cs->uid;
    sv->gid = cs->gid;
    sv->grader_uid = cs->grader_uid;
    sv->gpu = cs->gpu_cell ? cs->gpu : -1;
    /* SIGCHLD through a signalfd: the supervisor's poll loop wakes on every exit. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);
    sv->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    if (sv->sigfd < 0)
        return err_set(err, -errno, "signalfd: %m");
    umask(022);
    rc = supervisor_prepare(sv, err);
    /* Last, the cell confines itself with the job filter: every job process inherits it at
     * no cost per run, and the cell, root as it is, can no longer mount, unshare, ptrace or
     * load kernel code should it ever be subverted. */
    if (rc == 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        rc = err_set(err, -errno, "no_new_privs: %m");
    if (rc == 0 && (rc = sc_filter_install(filter)) < 0)
        err_set(err, rc, "install the seccomp filter: %s", strerror(-rc));
    sc_filter_free(filter);
    return rc;
}

static int serve_one(int fd, struct supervisor *sv, const uint8_t *msg, size_t len)
{
    struct rbuf r;
    struct job j;
    struct job_result res;
    char err[ERR_LEN] = "";
    rbuf_init(&r, msg, len);
    int rc = job_decode(&r, &j);
    if (rc < 0) {
        memset(&res, 0, sizeof(res));
        res.status = JOB_SE;
        snprintf(res.message, sizeof(res.message), "malformed job: %s", strerror(-rc));
    } else if ((rc = supervisor_run(sv, &j, &res, err)) < 0) {
        return rc;
    }
    struct buf b;
    buf_init(&b, 0);
    result_encode(&res, &b);
    rc = b.err ? b.err : wire_send(fd, CELL_RESULT, b.data, b.len);
    buf_fini(&b);
    supervisor_release(sv, &res);
    job_decoded_fini(&j);
    if (rc == 0 && (rc = supervisor_prepare(sv, err)) < 0) /* unfit: exit, be replaced */
        fprintf(stderr, "verdict cell %d: %s\n", sv->index, err);
    return rc;
}

/* The answer to a session message; a negative return: the cell cannot go on. */
static int serve_session(int fd, struct supervisor *sv, uint32_t type, const uint8_t *msg,
                         size_t len)
{
    char err[ERR_LEN] = "";
    struct rbuf r;
    struct buf b;
    buf_init(&b, 0);
    rbuf_init(&r, msg, len);
    int rc;
    if (type == CELL_SESSION_STATUS) {
        struct session_result out;
        memset(&out, 0, sizeof(out));
        supervisor_session_status(sv, &out.totals);
        session_result_encode(&out, &b);
        rc = b.err ? b.err : wire_send(fd, CELL_SESSION_RESULT, b.data, b.len);
        buf_fini(&b);
        return rc;
    }
    if (type == CELL_SESSION_CALL) {
        enum session_mode mode;
        struct job j;
        struct session_result out;
        memset(&out, 0, sizeof(out));
        rc = session_call_decode(&r, &mode, &j);
        if (rc < 0) {
            out.res.status = JOB_SE;
            snprintf(out.res.message, sizeof(out.res.message), "malformed call: %s", strerror(-rc));
        } else if ((rc = supervisor_session_call(sv, mode, &j, &out, err)) < 0) {
            job_decoded_fini(&j);
            buf_fini(&b);
            return rc;
        }
        session_result_encode(&out, &b);
        rc = b.err ? b.err : wire_send(fd, CELL_SESSION_RESULT, b.data, b.len);
        supervisor_release(sv, &out.res);
        job_decoded_fini(&j);
        buf_fini(&b);
        return rc;
    }
    struct job_result res;
    memset(&res, 0, sizeof(res));
    if (type == CELL_SESSION_OPEN) {
        struct session_limits l;
        if (session_limits_decode(&r, &l) < 0) {
            res.status = JOB_SE;
            snprintf(res.message, sizeof(res.message), "malformed session limits");
        } else if ((rc = supervisor_session_open(sv, &l, &res, err)) < 0) {
            buf_fini(&b);
            return rc;
        }
    } else {
        supervisor_session_close(sv);
    }
    result_encode(&res, &b);
    rc = b.err ? b.err : wire_send(fd, CELL_RESULT, b.data, b.len);
    buf_fini(&b);
    if (rc == 0 && !sv->sess.open && (rc = supervisor_prepare(sv, err)) < 0)
        fprintf(stderr, "verdict cell %d: %s\n", sv->index, err);
    return rc;
}

/* While a session is open: waits for the next message, looking at the session meanwhile. */
static int session_wait(int fd, struct supervisor *sv)
{
    while (sv->sess.open) {
        struct pollfd p[2] = {{.fd = fd, .events = POLLIN}, {.fd = sv->sigfd, .events = POLLIN}};
        int n = poll(p, 2, SESSION_TICK_MS);
        if (n < 0 && errno != EINTR)
            return -errno;
        supervisor_session_tick(sv);
        if (n > 0 && p[0].revents)
            return 0;
    }
    return 0;
}

int cell_main(int fd)
{
    uint32_t type;
    uint8_t *msg;
    size_t len;
    char err[ERR_LEN] = "";
    struct cell_setup cs;
    struct supervisor sv;
    memset(&sv, 0, sizeof(sv));
    clearenv();
    int rc = wire_recv(fd, &type, &msg, &len, 1 << 20);
    if (rc < 0)
        return 1;
    if (type != CELL_CONFIG) {
        free(msg);
        return 1;
    }
    struct rbuf r;
    rbuf_init(&r, msg, len);
    rc = cell_decode_config(&r, &cs);
    if (rc < 0)
        err_set(err, rc, "malformed cell configuration");
    else
        rc = setup(&cs, &sv, err);
    free(msg); /* the binds have been applied (or failed): nothing borrows from it any more */
    if (rc < 0) {
        wire_send(fd, CELL_FAILED, err, strlen(err));
        return 1;
    }
    if (wire_send(fd, CELL_READY, NULL, 0) < 0)
        return 1;
    int code = 1;
    for (;;) {
        rc = session_wait(fd, &sv);
        if (rc == 0)
            rc = wire_recv(fd, &type, &msg, &len, MAX_MSG);
        if (rc < 0) {
            code = rc == -ECONNRESET ? 0 : 1;
            break;
        }
        if (type == CELL_JOB)
            rc = serve_one(fd, &sv, msg, len);
        else if ((type >= CELL_SESSION_OPEN && type <= CELL_SESSION_CLOSE) ||
                 type == CELL_SESSION_STATUS)
            rc = serve_session(fd, &sv, type, msg, len);
        else
            rc = -EBADMSG;
        free(msg);
        if (rc < 0)
            break;
    }
    supervisor_fini(&sv); /* a stopped cell leaves no job cgroup behind */
    return code;
}
