/*
 * toolchain: locate, then ask each toolchain for its version.
 *
 * Version commands are started together with posix_spawn (stdout and stderr into one pipe:
 * java prints its version on stderr) and read with one poll loop, so the report costs as long
 * as the slowest toolchain (java, about half a second), not the sum. Output is capped at 8 KiB
 * per command; anything still running at the deadline is killed and reaped. Filters (a
 * template's bytecode step) run the same way with their input on a memfd as stdin.
 */
#include "server/judge/toolchain.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runners/file.h"

#define OUT_CAP 8192

extern char **environ;

typedef bool (*resolve_fn)(char *path, size_t cap);

struct toolchain {
    const char *name;
    const char *candidates[4]; /* absolute paths, or names searched in PATH */
    resolve_fn resolve;        /* tried before the candidates, may be NULL */
    const char *version_arg;
    const char *pick; /* substring that marks the version line, NULL = first line */
};

static bool resolve_rustup(char *path, size_t cap);

static const struct toolchain table[] = {
    {"gcc", {"/usr/bin/gcc", "gcc"}, NULL, "--version", NULL},
    {"g++", {"/usr/bin/g++", "g++"}, NULL, "--version", NULL},
    {"python3", {"/usr/bin/python3"}, NULL, "--version", "Python"},
    {"go", {"/usr/lib/go/bin/go", "/usr/local/go/bin/go", "go"}, NULL, "version", "go"},
    {"rustc", {"/usr/bin/rustc"}, resolve_rustup, "--version", "rustc"},
    {"nvcc", {"/usr/local/cuda/bin/nvcc", "nvcc"}, NULL, "--version", "release"},
    {"node", {"/usr/bin/node", "node"}, NULL, "--version", NULL},
    {"java", {"/usr/bin/java", "java"}, NULL, "-version", "version"},
};
#define NTOOLS (sizeof(table) / sizeof(table[0]))

size_t toolchain_count(void)
{
    return NTOOLS;
}

char *toolchain_pick_line(const char *output, const char *pick, char *buf, size_t cap)
{
    for (const char *line = output; *line;) {
        size_t len = strcspn(line, "\r\n");
        while (len > 0 && (*line == ' ' || *line == '\t'))
            line++, len--;
        size_t end = len;
        while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t'))
            end--;
        bool match = end > 0 && (!pick || memmem(line, end, pick, strlen(pick)));
        if (match && cap > 0) {
            snprintf(buf, cap, "%.*s", (int)end, line);
            return buf;
        }
        line += len;
        line += strspn(line, "\r\n");
    }
    return NULL;
}

int toolchain_rustup_default(const char *settings, char *buf, size_t cap)
{
    for (const char *line = settings; *line;) {
        size_t len = strcspn(line, "\n");
        const char *p = line + strspn(line, " \t");
        if (strncmp(p, "default_toolchain", 17) == 0) {
            p += 17 + strspn(p + 17, " \t");
            if (*p == '=') {
                p++;
                p += strspn(p, " \t");
                const char *q = *p == '"' ? strchr(p + 1, '"') : NULL;
                if (q && q < line + len && q > p + 1 && cap > 0) {
                    snprintf(buf, cap, "%.*s", (int)(q - p - 1), p + 1);
                    return 0;
                }
            }
        }
        line += len + (line[len] == '\n');
    }
    return -ENOENT;
}

int toolchain_rustup_dir(char *dir, size_t cap)
{
    char home[256], settings[4096], name[128], file[512];
    const char *rh = getenv("RUSTUP_HOME"), *h = getenv("HOME");
    if (rh && *rh)
        snprintf(home, sizeof(home), "%s", rh);
    else if (h && *h)
        snprintf(home, sizeof(home), "%s/.rustup", h);
    else
        return -ENOENT;
    snprintf(file, sizeof(file), "%s/settings.toml", home);
    if (file_read(file, settings, sizeof(settings)) < 0 ||
        toolchain_rustup_default(settings, name, sizeof(name)) < 0)
        return -ENOENT;
    int n = snprintf(dir, cap, "%s/toolchains/%s", home, name);
    if (n <= 0 || (size_t)n >= cap)
        return -ENAMETOOLONG;
    return access(dir, X_OK) == 0 ? 0 : -errno;
}

/* The rustup default toolchain's own rustc (never the rustup proxy). */
static bool resolve_rustup(char *path, size_t cap)
{
    char dir[512];
    if (toolchain_rustup_dir(dir, sizeof(dir)) < 0)
        return false;
    int n = snprintf(path, cap, "%s/bin/rustc", dir);
    return n > 0 && (size_t)n < cap && access(path, X_OK) == 0;
}

static bool search_path(const char *name, char *out, size_t cap)
{
    const char *p = getenv("PATH");
    while (p && *p) {
        size_t len = strcspn(p, ":");
        int n = snprintf(out, cap, "%.*s/%s", (int)len, p, name);
        if (len > 0 && n > 0 && (size_t)n < cap && access(out, X_OK) == 0)
            return true;
        p += len + (p[len] == ':');
    }
    return false;
}

static bool locate(const struct toolchain *t, char *path, size_t cap)
{
    if (t->resolve && t->resolve(path, cap))
        return true;
    for (int i = 0; i < 4 && t->candidates[i]; i++) {
        const char *c = t->candidates[i];
        if (c[0] == '/' ? (snprintf(path, cap, "%s", c), access(c, X_OK) == 0)
                        : search_path(c, path, cap))
            return true;
    }
    return false;
}

struct running {
    pid_t pid;
    int fd;
    size_t len, cap; /* out holds len bytes (NUL after them); at most cap - 1 are kept */
    char *out;       /* heap, cap bytes */
};

/* Starts argv with stdin from in_fd (-1: /dev/null) and stdout, and stderr too when merge
 * (java prints its version there; else /dev/null), into a pipe r->fd reads. */
static int spawn_cmd(const char *const *argv, int in_fd, bool merge, struct running *r,
                     char err[ERR_LEN])
{
    if (!r->out && !(r->out = calloc(1, r->cap)))
        return err_set(err, -ENOMEM, "out of memory");
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0)
        return err_set(err, -errno, "pipe: %m");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (in_fd >= 0)
        posix_spawn_file_actions_adddup2(&fa, in_fd, 0);
    else
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    if (merge)
        posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    else
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    /* posix_spawn's argv is not const-qualified, but it does not write to it. */
    int rc = posix_spawn(&r->pid, argv[0], &fa, NULL, (char *const *)(uintptr_t)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return err_set(err, -rc, "spawn %s: %s", argv[0], strerror(rc));
    }
    r->fd = fds[0];
    fcntl(r->fd, F_SETFL, O_NONBLOCK);
    return 0;
}

/* A memfd holding in[0..len), at offset 0, for a child's stdin; -1 with errno on failure. */
static int stdin_of(const char *in, size_t len)
{
    int fd = memfd_create("verdict-stdin", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    for (size_t off = 0; off < len;) {
        ssize_t w = write(fd, in + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            close(fd);
            errno = e;
            return -1;
        }
        off += (size_t)w;
    }
    if (lseek(fd, 0, SEEK_SET) < 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reads every pipe until EOF or the deadline; returns the number still open. */
static int drain(struct running *run, size_t n, long long deadline)
{
    struct pollfd *pfd = calloc(n ? n : 1, sizeof(*pfd));
    int open = 0;
    for (;;) {
        open = 0;
        for (size_t i = 0; i < n; i++)
            if (run[i].fd >= 0 && pfd)
                pfd[open++] = (struct pollfd){.fd = run[i].fd, .events = POLLIN};
        long long left = deadline - now_ms();
        if (open == 0 || left <= 0)
            break; /* without pfd (no memory) nothing is read: finish kills them */
        if (poll(pfd, (nfds_t)open, (int)left) < 0 && errno != EINTR)
            break;
        for (size_t i = 0; i < n; i++) {
            struct running *r = &run[i];
            if (r->fd < 0)
                continue;
            char tmp[1024];
            ssize_t got = read(r->fd, tmp, sizeof(tmp));
            if (got < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            if (got <= 0) {
                close(r->fd);
                r->fd = -1;
                continue;
            }
            size_t take = (size_t)got < r->cap - 1 - r->len ? (size_t)got : r->cap - 1 - r->len;
            memcpy(r->out + r->len, tmp, take);
            r->len += take;
            r->out[r->len] = '\0';
        }
    }
    free(pfd);
    return open;
}

/* Reaps a command (killing it if it is still running). Returns 0 when it exited 0 in time,
 * or a negative errno with the reason in err. */
static int reap(struct running *r, const char *what, char err[ERR_LEN])
{
    bool late = r->fd >= 0;
    if (late) {
        kill(r->pid, SIGKILL);
        close(r->fd);
        r->fd = -1;
    }
    int status = 0;
    while (waitpid(r->pid, &status, 0) < 0 && errno == EINTR)
        ;
    r->pid = -1;
    if (late)
        return err_set(err, -ETIMEDOUT, "%s did not answer in time", what);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return err_set(err, -EIO, "%s failed (status %d)", what, status);
    return 0;
}

/* Reaps a version command and picks its version line. Returns 0, or a negative errno with
 * the reason in err. */
static int finish(struct running *r, const char *what, const char *pick, char *version, size_t cap,
                  char err[ERR_LEN])
{
    int rc = reap(r, what, err);
    if (rc < 0)
        return rc;
    if (!toolchain_pick_line(r->out, pick, version, cap))
        return err_set(err, -EIO, "%s printed no version line", what);
    return 0;
}

int toolchain_versions(struct toolchain_ask *asks, size_t n, int timeout_ms)
{
    struct running *run = calloc(n ? n : 1, sizeof(*run));
    if (!run)
        return -ENOMEM;
    for (size_t i = 0; i < n; i++) {
        run[i] = (struct running){.fd = -1, .pid = -1, .cap = OUT_CAP};
        asks[i].rc = spawn_cmd(asks[i].argv, -1, true, &run[i], asks[i].err);
        if (asks[i].rc < 0)
            run[i].pid = -1;
    }
    drain(run, n, now_ms() + timeout_ms);
    int ok = 0;
    for (size_t i = 0; i < n; i++) {
        struct toolchain_ask *a = &asks[i];
        if (run[i].pid > 0)
            a->rc = finish(&run[i], a->argv[0], a->pick, a->out, a->cap, a->err);
        ok += a->rc == 0;
        free(run[i].out);
    }
    free(run);
    return ok;
}

int toolchain_filter(struct toolchain_filter *f, size_t n, int timeout_ms)
{
    struct running *run = calloc(n ? n : 1, sizeof(*run));
    if (!run)
        return -ENOMEM;
    for (size_t i = 0; i < n; i++) {
        run[i] = (struct running){.fd = -1, .pid = -1, .cap = f[i].max + 2}; /* max + 1 kept */
        f[i].out = NULL;
        f[i].out_len = 0;
        int in = stdin_of(f[i].in, f[i].in_len);
        f[i].rc = in < 0 ? err_set(f[i].err, -errno, "stdin for %s: %m", f[i].argv[0])
                         : spawn_cmd(f[i].argv, in, false, &run[i], f[i].err);
        if (in >= 0)
            close(in);
        if (f[i].rc < 0)
            run[i].pid = -1;
    }
    drain(run, n, now_ms() + timeout_ms);
    int ok = 0;
    for (size_t i = 0; i < n; i++) {
        if (run[i].pid > 0)
            f[i].rc = reap(&run[i], f[i].argv[0], f[i].err);
        if (f[i].rc == 0 && run[i].len > f[i].max)
            f[i].rc =
                err_set(f[i].err, -EFBIG, "%s wrote more than %zu bytes", f[i].argv[0], f[i].max);
        if (f[i].rc == 0) {
            f[i].out = run[i].out;
            f[i].out_len = run[i].len;
            ok++;
        } else {
            free(run[i].out);
        }
    }
    free(run);
    return ok;
}

int toolchain_probe_all(struct toolchain_found *out, int timeout_ms)
{
    struct running *run = calloc(NTOOLS, sizeof(*run));
    if (!run)
        return -ENOMEM;
    for (size_t i = 0; i < NTOOLS; i++) {
        struct toolchain_found *f = &out[i];
        memset(f, 0, sizeof(*f));
        f->name = table[i].name;
        run[i] = (struct running){.fd = -1, .pid = -1, .cap = OUT_CAP};
        f->found = locate(&table[i], f->path, sizeof(f->path));
        const char *argv[] = {f->path, table[i].version_arg, NULL};
        if (!f->found) {
            f->path[0] = '\0';
            err_set(f->err, -ENOENT, "not installed");
        } else if (spawn_cmd(argv, -1, true, &run[i], f->err) < 0) {
            run[i].pid = -1;
        }
    }
    drain(run, NTOOLS, now_ms() + timeout_ms);
    int ok = 0;
    for (size_t i = 0; i < NTOOLS; i++) {
        char what[TOOLCHAIN_PATH + 16];
        snprintf(what, sizeof(what), "%s %s", out[i].path, table[i].version_arg);
        if (run[i].pid > 0)
            out[i].ok = finish(&run[i], what, table[i].pick, out[i].version, sizeof(out[i].version),
                               out[i].err) == 0;
        ok += out[i].ok;
        free(run[i].out);
    }
    free(run);
    return ok;
}
