/*
 * zygote: the cell's warm Python interpreter (zygote.h; the Python side is zygote.py, built
 * into the executable as zygote_py).
 *
 * Wire, over a SOCK_SEQPACKET socketpair (one message each): the zygote says "R <KiB>" once
 * ready (the baseline) or "F <why>"; the cell asks for a job process with the request text
 * (zygote.py) and its descriptors attached; the zygote answers "P <pid>" or "E <errno>".
 */
#include "runners/zygote.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runners/buf.h"
#include "runners/zygote_py.h"

#define REPLY_MS    5000 /* the zygote answers a fork in milliseconds; past this it is stuck */
#define MIN_ROOM    (8ull << 20) /* memory a warm job must have above the baseline */
#define KILL_ROUNDS 2000         /* ~1 s of 0.5 ms rounds */

static bool job_shape(const struct job *j)
{
    if (j->warm != JOB_WARM_PYTHON || j->argc < 3 || j->argv[0][0] != '/' ||
        strcmp(j->argv[1], "-I") != 0 || j->argv[2][0] == '-')
        return false;
    for (int i = 0; i < j->nfiles; i++)
        if (strcmp(j->files[i].path, j->argv[2]) == 0)
            return true;
    return false;
}

/* `<the program's python> -I -c CODE [args]` */
static bool grader_shape(const struct job *j)
{
    return j->grader_argc >= 4 && strcmp(j->grader_argv[0], j->argv[0]) == 0 &&
           strcmp(j->grader_argv[1], "-I") == 0 && strcmp(j->grader_argv[2], "-c") == 0;
}

bool zygote_fits_grader(const struct zygote *z, const struct job *j)
{
    return z->ready && grader_shape(j);
}

static void put(struct buf *b, const char *s)
{
    buf_append(b, s, strlen(s) + 1);
}

/* argv[0], argv[1], then the environment as the job will see it (a GPU cell's
 * CUDA_VISIBLE_DEVICES: supervisor.c, job_env), each NUL-terminated. */
static void make_key(const struct job *j, int gpu, struct buf *b)
{
    put(b, j->argv[0]);
    put(b, j->argv[1]);
    for (int i = 0; i < j->nenv; i++)
        if (gpu < 0 || strncmp(j->env[i], "CUDA_VISIBLE_DEVICES=", 21) != 0)
            put(b, j->env[i]);
    if (gpu >= 0) {
        char v[48];
        snprintf(v, sizeof(v), "CUDA_VISIBLE_DEVICES=%d", gpu);
        put(b, v);
    }
}

bool zygote_alive(const struct zygote *z)
{
    return z->pid > 0;
}

void zygote_stop(struct zygote *z)
{
    if (z->pid != 0)
        close(z->sock);
    if (z->pid > 0) {
        kill(z->pid, SIGKILL);
        waitpid(z->pid, NULL, 0);
    }
    z->pid = 0;
    z->sock = -1;
    z->ready = false;
    free(z->key);
    z->key = NULL;
    z->key_len = 0;
}

bool zygote_reaped(struct zygote *z, pid_t pid)
{
    if (pid <= 0 || pid != z->pid)
        return false;
    z->pid = -1; /* already reaped: zygote_stop closes its socket only */
    zygote_stop(z);
    return true;
}

/* Reads the zygote's "R"/"F" without waiting. */
static void poll_ready(struct zygote *z)
{
    if (z->ready || z->pid <= 0)
        return;
    char msg[256];
    ssize_t n = recv(z->sock, msg, sizeof(msg) - 1, MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n > 2 && msg[0] == 'R') {
        msg[n] = '\0';
        z->baseline = strtoull(msg + 2, NULL, 10) * 1024;
        z->ready = true;
        return;
    }
    z->broken = true; /* "F", EOF, or nonsense: this cell stays cold */
    zygote_stop(z);
}

bool zygote_fits(struct zygote *z, const struct job *j, int gpu, const struct job_limits *lim)
{
    if (z->broken || !job_shape(j))
        return false;
    struct buf b;
    buf_init(&b, 0);
    make_key(j, gpu, &b);
    if (b.err) {
        buf_fini(&b);
        return false;
    }
    if (!z->want || z->want_len != b.len || memcmp(z->want, b.data, b.len) != 0) {
        char *w = malloc(b.len);
        if (w) {
            memcpy(w, b.data, b.len);
            free(z->want);
            z->want = w;
            z->want_len = b.len;
        }
    }
    bool same = z->key && z->key_len == b.len && memcmp(z->key, b.data, b.len) == 0;
    buf_fini(&b);
    poll_ready(z);
    return same && z->ready && lim->memory_bytes > z->baseline + MIN_ROOM;
}

static int start(struct zygote *z)
{
    int sv[2], p[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
        return -errno;
    if (pipe2(p, O_CLOEXEC) < 0) {
        close(sv[0]);
        close(sv[1]);
        return -errno;
    }
    /* The key's strings: the interpreter, its flag, then the environment. */
    int n = 0;
    for (size_t off = 0; off < z->want_len; off += strlen(z->want + off) + 1)
        n++;
    const char **env = calloc((size_t)n + 1, sizeof(*env));
    pid_t pid = env ? fork() : -1;
    if (pid == 0) {
        int k = 0;
        for (size_t off = 0; off < z->want_len; off += strlen(z->want + off) + 1)
            env[k++] = z->want + off;
        env[k] = NULL;
        const char *argv[] = {env[0], env[1], "-c", zygote_py, NULL};
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        if (dup2(p[0], 0) < 0 || dup2(p[1], 1) < 0 || dup2(p[1], 2) < 0 || dup2(sv[1], 3) < 0 ||
            syscall(SYS_close_range, 4, ~0u, 0) < 0 || chdir("/") < 0)
            _exit(127);
        execve(argv[0], (char *const *)(uintptr_t)argv, (char *const *)(uintptr_t)(env + 2));
        _exit(127);
    }
    int e = errno;
    free(env);
    close(sv[1]);
    close(p[0]);
    close(p[1]);
    if (pid < 0) {
        close(sv[0]);
        return -e;
    }
    z->pid = pid;
    z->sock = sv[0];
    z->ready = false;
    z->key = malloc(z->want_len);
    if (!z->key) {
        zygote_stop(z);
        return -ENOMEM;
    }
    memcpy(z->key, z->want, z->want_len);
    z->key_len = z->want_len;
    return 0;
}

void zygote_prepare(struct zygote *z)
{
    int status;
    pid_t p;
    while ((p = waitpid(-1, &status, WNOHANG)) > 0) /* strays of the last job, or the zygote */
        zygote_reaped(z, p);
    if (z->broken || !z->want)
        return;
    if (z->pid > 0 && z->key_len == z->want_len && memcmp(z->key, z->want, z->key_len) == 0)
        return;
    zygote_stop(z);
    if (start(z) < 0)
        z->broken = true;
}

static void add_num(struct buf *b, long long v)
{
    char s[32];
    snprintf(s, sizeof(s), "%lld", v);
    put(b, s);
}

pid_t zygote_spawn(struct zygote *z, const struct zygote_start *st)
{
    struct buf b;
    buf_init(&b, 0);
    add_num(&b, st->uid);
    add_num(&b, st->gid);
    put(&b, st->dir);
    add_num(&b, st->cg->root->ndirs);
    add_num(&b, st->rl->n);
    for (int i = 0; i < st->rl->n; i++) {
        char s[96];
        const struct rlimit *v = &st->rl->set[i].value;
        snprintf(s, sizeof(s), "%d %lld %lld", st->rl->set[i].resource,
                 v->rlim_cur == RLIM_INFINITY ? -1LL : (long long)v->rlim_cur,
                 v->rlim_max == RLIM_INFINITY ? -1LL : (long long)v->rlim_max);
        put(&b, s);
    }
    add_num(&b, st->argc);
    for (int i = 0; i < st->argc; i++)
        put(&b, st->argv[i]);
    int nenv = 0;
    while (st->env && st->env[nenv])
        nenv++;
    add_num(&b, nenv);
    for (int i = 0; i < nenv; i++)
        put(&b, st->env[i]);

    int fds[1 + CG_MAX_DIRS + 5], nfds = 0;
    fds[nfds++] = st->report;
    for (int i = 0; i < st->cg->root->ndirs; i++)
        fds[nfds++] = st->cg->procs_fd[i];
    for (int i = 0; i < st->nfds; i++)
        fds[nfds++] = st->fds[i];
    union {
        char buf[CMSG_SPACE(sizeof(fds))];
        struct cmsghdr align;
    } u;
    memset(&u, 0, sizeof(u));
    struct iovec iov = {.iov_base = b.data, .iov_len = b.len};
    struct msghdr m = {.msg_iov = &iov,
                       .msg_iovlen = 1,
                       .msg_control = u.buf,
                       .msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds)};
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
    memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)nfds);
    int e = b.err ? -b.err : 0;
    if (!e && sendmsg(z->sock, &m, MSG_NOSIGNAL) != (ssize_t)b.len)
        e = errno ? errno : EIO;
    buf_fini(&b);
    char reply[64];
    ssize_t n = -1;
    if (!e) {
        struct pollfd pf = {.fd = z->sock, .events = POLLIN};
        int ready;
        while ((ready = poll(&pf, 1, REPLY_MS)) < 0 && errno == EINTR)
            ;
        n = ready == 1 ? recv(z->sock, reply, sizeof(reply) - 1, 0) : -1;
        e = n > 2 ? 0 : ETIMEDOUT;
    }
    if (!e) {
        reply[n] = '\0';
        long v = strtol(reply + 2, NULL, 10);
        if (reply[0] == 'P' && v > 0)
            return (pid_t)v;
        e = reply[0] == 'E' && v > 0 ? (int)v : EIO;
    }
    zygote_stop(z); /* the next warm-asking job's prepare starts a fresh one */
    errno = e;
    return -1;
}

void zygote_kill_job(const struct cg_job *cg, pid_t first, pid_t second)
{
    pid_t tids[1024];
    if (first > 0)
        kill(first, SIGKILL);
    if (second > 0)
        kill(second, SIGKILL);
    for (int round = 0; round < KILL_ROUNDS; round++) {
        int n = cg_job_tasks(cg, tids, (int)(sizeof(tids) / sizeof(tids[0])));
        if (n <= 0)
            return;
        for (int i = 0; i < n; i++)
            kill(tids[i], SIGKILL);
        if (round > 0)
            usleep(500);
    }
}

void zygote_reap_job(struct zygote *z, const struct cg_job *cg, int sigfd)
{
    for (;;) {
        int status;
        pid_t p = waitpid(-1, &status, WNOHANG);
        if (p > 0) {
            zygote_reaped(z, p);
            continue;
        }
        if (p < 0 && errno == EINTR)
            continue;
        if (p < 0 || cg_job_nprocs(cg) <= 0)
            return; /* no children left, or only the zygote and what the job is done with */
        struct pollfd pf = {.fd = sigfd, .events = POLLIN};
        poll(&pf, 1, 10);
        struct signalfd_siginfo si;
        while (read(sigfd, &si, sizeof(si)) > 0)
            ;
    }
}
