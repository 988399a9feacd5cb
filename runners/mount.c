/*
 * mount: mount-namespace mechanics.
 *
 * The probe replays, in miniature, what a cell does at start: unshare(CLONE_NEWNS), make every
 * mount private (MS_REC|MS_PRIVATE) before touching anything, mount a tmpfs as the new root,
 * bind-mount host directories into it and remount them read-only (a bind mount ignores
 * MS_RDONLY on the first call; it takes a second MS_REMOUNT|MS_BIND call), then pivot_root(2)
 * and detach the old root. The tmpfs is mounted over /tmp *inside the private namespace*, so
 * the host never sees it and nothing needs cleaning up when the child exits.
 */
#include "runners/mount.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "runners/child.h"
#include "runners/job.h"

#define PROBE_TIMEOUT_MS 5000
#define ROOT             "/tmp"

static int bind_ro(const char *src, const char *dst, char err[ERR_LEN])
{
    if (mkdir(dst, 0755) < 0 && errno != EEXIST)
        return err_set(err, -errno, "mkdir %s: %m", dst);
    if (mount(src, dst, NULL, MS_BIND | MS_REC, NULL) < 0)
        return err_set(err, -errno, "bind %s: %m", src);
    unsigned long fl = MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV;
    if (mount(NULL, dst, NULL, fl, NULL) < 0)
        return err_set(err, -errno, "remount %s read-only: %m", dst);
    return 0;
}

static int enter_new_root(char err[ERR_LEN])
{
    if (mkdir(ROOT "/.old", 0700) < 0)
        return err_set(err, -errno, "mkdir old root: %m");
    if (chdir(ROOT) < 0)
        return err_set(err, -errno, "chdir new root: %m");
    if (syscall(SYS_pivot_root, ".", ".old") < 0)
        return err_set(err, -errno, "pivot_root: %m");
    if (chdir("/") < 0)
        return err_set(err, -errno, "chdir /: %m");
    if (umount2("/.old", MNT_DETACH) < 0)
        return err_set(err, -errno, "detach old root: %m");
    if (rmdir("/.old") < 0)
        return err_set(err, -errno, "rmdir old root: %m");
    return 0;
}

static int verify_root(char err[ERR_LEN])
{
    if (access("/usr/bin", X_OK) < 0)
        return err_set(err, -errno, "/usr/bin not visible in new root: %m");
    int fd = open("/usr/.verdict-probe", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        close(fd);
        unlink("/usr/.verdict-probe");
        return err_set(err, -EPERM, "read-only bind of /usr is writable");
    }
    if (errno != EROFS)
        return err_set(err, -errno, "write into /usr failed, but not with EROFS: %m");
    if (access("/etc", F_OK) == 0)
        return err_set(err, -EPERM, "old root still reachable after pivot_root");
    return 0;
}

static int probe_fn(void *arg, char err[ERR_LEN])
{
    (void)arg;
    if (unshare(CLONE_NEWNS) < 0)
        return err_set(err, -errno, "unshare(CLONE_NEWNS): %m");
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
        return err_set(err, -errno, "make mounts private: %m");
    if (mount("verdict", ROOT, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755") < 0)
        return err_set(err, -errno, "mount tmpfs root: %m");
    int rc = bind_ro("/usr", ROOT "/usr", err);
    if (rc == 0)
        rc = enter_new_root(err);
    if (rc == 0)
        rc = verify_root(err);
    return rc;
}

int mnt_probe_pivot_root(char detail[ERR_LEN], char err[ERR_LEN])
{
    int rc = child_run(probe_fn, NULL, PROBE_TIMEOUT_MS, err);
    if (rc == 0 && detail)
        snprintf(detail, ERR_LEN,
                 "private mount namespace, tmpfs root, read-only nosuid nodev bind of /usr "
                 "(EROFS on write), pivot_root, old root detached");
    return rc;
}

/* ---- the cell's root ------------------------------------------------------------------- */

static struct mnt_op *add_op(struct mnt_plan *p, enum mnt_kind kind, const char *path,
                             const char *src, unsigned mode)
{
    if (p->n >= MNT_MAX_OPS)
        return NULL;
    struct mnt_op *op = &p->ops[p->n++];
    memset(op, 0, sizeof(*op));
    op->kind = kind;
    op->mode = mode;
    snprintf(op->path, sizeof(op->path), "%s", path);
    snprintf(op->src, sizeof(op->src), "%s", src ? src : "");
    return op;
}

/* Mirrors a top-level host entry: a symlink stays a symlink, a directory becomes a bind. */
static int mirror_entry(const struct mnt_config *c, struct mnt_plan *p, const char *name,
                        bool required, char err[ERR_LEN])
{
    char host[MNT_PATH * 2], target[MNT_PATH], path[MNT_PATH];
    struct stat st;
    snprintf(host, sizeof(host), "%s/%s", c->host_prefix, name);
    snprintf(path, sizeof(path), "/%s", name);
    if (lstat(host, &st) < 0) {
        if (!required && errno == ENOENT)
            return 0;
        return err_set(err, -errno, "host %s: %m", path);
    }
    if (S_ISLNK(st.st_mode)) {
        ssize_t n = readlink(host, target, sizeof(target) - 1);
        if (n < 0)
            return err_set(err, -errno, "readlink %s: %m", path);
        target[n] = '\0';
        return add_op(p, MNT_SYMLINK, path, target, 0) ? 0 : -E2BIG;
    }
    if (!S_ISDIR(st.st_mode))
        return err_set(err, -EINVAL, "host %s is neither a directory nor a symlink", path);
    return add_op(p, MNT_OVERLAY, path, path, 0) ? 0 : -E2BIG;
}

/* mountinfo's mount point field: octal escapes (\040 space, \011 tab, \012 newline, \134
 * backslash) decoded in place. */
static void unescape_mountinfo(char *s)
{
    char *w = s;
    for (const char *r = s; *r; w++) {
        if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
            r[3] >= '0' && r[3] <= '7') {
            *w = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
            r += 4;
        } else {
            *w = *r++;
        }
    }
    *w = '\0';
}

/* The host's mounts beneath the overlaid directories (/usr, and /bin, /lib... where they are
 * directories), each as a read-only bind at the same path. An overlay shows only its lower
 * directory's own file system, not what is mounted inside it, and drivers live there: a GPU
 * host's /usr/local/nvidia (the driver's libcuda) or the driver files a container runtime
 * binds one by one into /usr/lib. Read from the host's /proc/self/mountinfo (absent in a
 * fixture tree without one: nothing to add). */
static int add_submounts(const struct mnt_config *c, struct mnt_plan *p, char err[ERR_LEN])
{
    char host[MNT_PATH * 2], line[4096];
    snprintf(host, sizeof(host), "%s/proc/self/mountinfo", c->host_prefix);
    FILE *f = fopen(host, "re");
    if (!f)
        return 0;
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof(line), f)) {
        /* id parent major:minor root MOUNT_POINT options ... */
        char *save = NULL, *mp = NULL, *tok = strtok_r(line, " ", &save);
        for (int i = 1; tok && i < 5; i++)
            tok = strtok_r(NULL, " ", &save);
        if (!(mp = tok))
            continue;
        unescape_mountinfo(mp);
        bool beneath = false;
        for (int i = 0; i < p->n && !beneath; i++) {
            size_t n = strlen(p->ops[i].path);
            beneath = p->ops[i].kind == MNT_OVERLAY && strncmp(mp, p->ops[i].path, n) == 0 &&
                      mp[n] == '/' && mp[n + 1] != '\0';
        }
        bool seen = false;
        for (int i = 0; i < p->n && !seen; i++)
            seen = p->ops[i].kind == MNT_BIND && strcmp(p->ops[i].path, mp) == 0;
        if (!beneath || seen)
            continue;
        struct stat st;
        snprintf(host, sizeof(host), "%s%s", c->host_prefix, mp);
        if (strlen(mp) >= MNT_PATH || !job_path_ok(mp + 1) || stat(host, &st) < 0)
            continue; /* a path a plan cannot hold, or a mount gone since */
        if (!add_op(p, MNT_BIND, mp, mp, 0))
            rc = err_set(err, -E2BIG, "too many mounts beneath /usr (at %.200s)", mp);
    }
    fclose(f);
    return rc;
}

/* An extra bind must be an absolute, existing host path without "." or ".." parts. */
static int add_extra_bind(const struct mnt_config *c, struct mnt_plan *p, const char *path,
                          char err[ERR_LEN])
{
    char host[MNT_PATH * 2];
    struct stat st;
    if (!path || path[0] != '/' || strlen(path) >= MNT_PATH || !job_path_ok(path + 1))
        return err_set(err, -EINVAL, "bind path must be absolute and normal: %.200s",
                       path ? path : "(null)");
    if (strncmp(path, "/usr/", 5) == 0 || strcmp(path, "/usr") == 0)
        return 0; /* already visible through /usr */
    static const char *const taken[] = {MNT_WORKDIR, "/tmp",        "/dev",
                                        "/proc",     "/etc/passwd", "/etc/group"};
    for (size_t i = 0; i < sizeof(taken) / sizeof(taken[0]); i++) {
        size_t n = strlen(taken[i]);
        if (strncmp(path, taken[i], n) == 0 && (path[n] == '\0' || path[n] == '/'))
            return err_set(err, -EINVAL, "bind %.200s: the cell mounts its own %s there", path,
                           taken[i]);
    }
    snprintf(host, sizeof(host), "%s%s", c->host_prefix, path);
    if (stat(host, &st) < 0)
        return err_set(err, -errno, "bind %s: %m", path);
    return add_op(p, MNT_BIND, path, path, 0) ? 0 : err_set(err, -E2BIG, "too many mounts");
}

static void add_file(struct mnt_plan *p, const char *path, const char *content)
{
    struct mnt_op *op = add_op(p, MNT_FILE, path, NULL, 0644);
    if (op)
        op->content = content;
}

static void add_etc(const struct mnt_config *c, struct mnt_plan *p)
{
    char host[MNT_PATH * 2];
    snprintf(p->passwd, sizeof(p->passwd),
             "root:x:0:0:root:/root:/usr/sbin/nologin\n"
             "sandbox:x:%u:%u:sandbox:" MNT_WORKDIR ":/bin/sh\n"
             "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n",
             c->uid, c->gid);
    snprintf(p->group, sizeof(p->group), "root:x:0:\nsandbox:x:%u:\nnogroup:x:65534:\n", c->gid);
    add_op(p, MNT_DIR, "/etc", NULL, 0755);
    add_file(p, "/etc/passwd", p->passwd);
    add_file(p, "/etc/group", p->group);
    add_file(p, "/etc/hosts", "127.0.0.1\tlocalhost\n::1\tlocalhost\n");
    add_file(p, "/etc/nsswitch.conf", "passwd: files\ngroup: files\nhosts: files\n");
    static const char *const etc_binds[] = {"/etc/ld.so.cache", "/etc/alternatives"};
    for (size_t i = 0; i < sizeof(etc_binds) / sizeof(etc_binds[0]); i++) {
        snprintf(host, sizeof(host), "%s%s", c->host_prefix, etc_binds[i]);
        if (access(host, F_OK) == 0)
            add_op(p, MNT_BIND, etc_binds[i], etc_binds[i], 0);
    }
}

static void add_tmpfs(struct mnt_plan *p, const char *path, const char *opts, unsigned long flags)
{
    struct mnt_op *op = add_op(p, MNT_TMPFS, path, opts, 0);
    if (op)
        op->flags = flags;
}

/* A GPU cell's NVIDIA device nodes, as the host has them: the control and uvm nodes every
 * CUDA program opens, and the one GPU the cell serves. */
static int add_gpu_nodes(const struct mnt_config *c, struct mnt_plan *p, char err[ERR_LEN])
{
    char gpu[32];
    snprintf(gpu, sizeof(gpu), "nvidia%d", c->gpu);
    const char *const names[] = {"nvidiactl", gpu, "nvidia-uvm", "nvidia-uvm-tools",
                                 "nvidia-modeset"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char host[MNT_PATH * 2], path[64];
        struct stat st;
        snprintf(host, sizeof(host), "%s/dev/%s", c->host_prefix, names[i]);
        snprintf(path, sizeof(path), "/dev/%s", names[i]);
        bool required = i < 3;
        if (stat(host, &st) < 0 || !S_ISCHR(st.st_mode)) {
            if (required)
                return err_set(err, -ENODEV, "GPU %d: %s is not a character device on the host",
                               c->gpu, path);
            continue;
        }
        struct mnt_op *op = add_op(p, MNT_DEVNODE, path, NULL, 0666);
        if (!op)
            return err_set(err, -E2BIG, "too many mounts");
        op->dev = st.st_rdev;
    }
    return 0;
}

/* /dev: a small tmpfs with five device nodes, the fd links and a /dev/shm tmpfs (shm_opts),
 * made read-only once filled. */
static void add_dev(struct mnt_plan *p, const char *shm_opts)
{
    static const struct {
        const char *name;
        unsigned major, minor;
    } nodes[] = {
        {"null", 1, 3}, {"zero", 1, 5}, {"full", 1, 7}, {"random", 1, 8}, {"urandom", 1, 9}};
    static const char *const links[][2] = {{"/dev/fd", "/proc/self/fd"},
                                           {"/dev/stdin", "/proc/self/fd/0"},
                                           {"/dev/stdout", "/proc/self/fd/1"},
                                           {"/dev/stderr", "/proc/self/fd/2"}};
    add_tmpfs(p, "/dev", "size=64k,nr_inodes=64,mode=0755", MS_NOSUID | MS_NOEXEC);
    for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
        char path[32];
        snprintf(path, sizeof(path), "/dev/%s", nodes[i].name);
        struct mnt_op *op = add_op(p, MNT_DEVNODE, path, NULL, 0666);
        if (op)
            op->dev = makedev(nodes[i].major, nodes[i].minor);
    }
    for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
        add_op(p, MNT_SYMLINK, links[i][0], links[i][1], 0);
    add_tmpfs(p, "/dev/shm", shm_opts, MS_NOSUID | MS_NODEV | MS_NOEXEC);
}

int mnt_plan_build(const struct mnt_config *c, struct mnt_plan *p, char err[ERR_LEN])
{
    static const char *const top[] = {"bin", "sbin", "lib", "lib32", "lib64", "libx32"};
    memset(p, 0, sizeof(*p));
    int rc = mirror_entry(c, p, "usr", true, err);
    for (size_t i = 0; rc == 0 && i < sizeof(top) / sizeof(top[0]); i++)
        rc = mirror_entry(c, p, top[i], false, err);
    if (rc == 0)
        rc = add_submounts(c, p, err);
    if (rc < 0)
        return rc;
    add_etc(c, p);
    for (int i = 0; rc == 0 && i < c->nbinds; i++)
        rc = add_extra_bind(c, p, c->binds[i], err);
    if (rc < 0)
        return rc;
    char opts[160];
    snprintf(opts, sizeof(opts), "size=%llu,nr_inodes=%u,mode=0755,uid=%u,gid=%u",
             (unsigned long long)c->tmpfs_bytes, c->tmpfs_inodes, c->uid, c->gid);
    add_tmpfs(p, MNT_WORKDIR, opts, MS_NOSUID | MS_NODEV);
    snprintf(opts, sizeof(opts), "size=%llu,nr_inodes=%u,mode=1777",
             (unsigned long long)c->tmpfs_bytes, c->tmpfs_inodes);
    add_tmpfs(p, "/tmp", opts, MS_NOSUID | MS_NODEV);
    add_op(p, MNT_PROC, "/proc", NULL, 0555);
    add_dev(p, opts);
    if (c->gpu_cell && (rc = add_gpu_nodes(c, p, err)) < 0)
        return rc;
    add_op(p, MNT_RDONLY, "/dev", NULL, 0);
    if (p->n >= MNT_MAX_OPS)
        return err_set(err, -E2BIG, "mount plan has more than %d entries", MNT_MAX_OPS - 1);
    return 0;
}

#define STAGE   "/tmp"
#define OLDROOT "/oldroot"
#define NEWROOT "/newroot"
#define EMPTY   "/empty" /* the overlays' second, empty lower layer (one alone is refused) */

static int mkdir_p(const char *path, unsigned mode)
{
    char buf[MNT_PATH * 2];
    snprintf(buf, sizeof(buf), "%s", path);
    for (char *s = buf + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(buf, 0755) < 0 && errno != EEXIST)
            return -errno;
        *s = '/';
    }
    if (mkdir(buf, mode) < 0 && errno != EEXIST)
        return -errno;
    return chmod(buf, mode) < 0 ? -errno : 0; /* mkdir's mode is filtered by the umask */
}

static int do_bind(const char *src, const char *dst, char err[ERR_LEN])
{
    struct stat st, here;
    if (stat(src, &st) < 0)
        return err_set(err, -errno, "bind source %s: %m", src);
    /* A mount point already there is used as it is: beneath a read-only overlay (a host
     * submount, add_submounts) it cannot be made. */
    bool there = stat(dst, &here) == 0 && S_ISDIR(here.st_mode) == S_ISDIR(st.st_mode);
    int rc = 0;
    if (!there && S_ISDIR(st.st_mode))
        rc = mkdir_p(dst, 0755);
    else if (!there) {
        char parent[MNT_PATH * 2];
        snprintf(parent, sizeof(parent), "%s", dst);
        *strrchr(parent, '/') = '\0';
        int fd;
        if ((rc = mkdir_p(parent, 0755)) == 0 &&
            (fd = open(dst, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) >= 0)
            close(fd);
    }
    if (rc < 0)
        return err_set(err, rc, "mount point %s: %s", dst, strerror(-rc));
    if (mount(src, dst, NULL, MS_BIND, NULL) < 0)
        return err_set(err, -errno, "bind %s: %m", src);
    if (mount(NULL, dst, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) < 0)
        return err_set(err, -errno, "remount %s read-only: %m", dst);
    return 0;
}

/* A read-only overlay of src: lower layers src and an empty directory, no upper. Its files
 * are src's (and share its page cache), its inodes the overlay's own. */
static int do_overlay(const char *src, const char *dst, char err[ERR_LEN])
{
    char opts[MNT_PATH * 2 + 32];
    if (strpbrk(src, ",:\\"))
        return err_set(err, -EINVAL, "overlay of %s: path has a ',' ':' or '\\'", src);
    int rc = mkdir_p(dst, 0755);
    if (rc < 0)
        return err_set(err, rc, "mount point %s: %s", dst, strerror(-rc));
    snprintf(opts, sizeof(opts), "lowerdir=%s:" EMPTY, src);
    if (mount("verdict-ro", dst, "overlay", MS_RDONLY | MS_NOSUID | MS_NODEV, opts) < 0)
        return err_set(err, -errno, "overlay %s: %m", src);
    return 0;
}

static int do_proc(const char *dst, char err[ERR_LEN])
{
    char sys[MNT_PATH * 2 + 8];
    int rc = mkdir_p(dst, 0555);
    if (rc < 0)
        return err_set(err, rc, "mkdir %s: %s", dst, strerror(-rc));
    /* hidepid=invisible: a job sees the processes of its own uid only; the cell (pid 1, root:
     * its cmdline, status, mountinfo with host paths) is absent from the job's /proc. */
    if (mount("proc", dst, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=invisible") < 0)
        return err_set(err, -errno, "mount proc: %m");
    snprintf(sys, sizeof(sys), "%s/sys", dst);
    if (mount(sys, sys, NULL, MS_BIND | MS_REC, NULL) < 0 ||
        mount(NULL, sys, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) < 0)
        return err_set(err, -errno, "make /proc/sys read-only: %m");
    return 0;
}

static int apply_op(const struct mnt_op *op, char err[ERR_LEN])
{
    char dst[MNT_PATH * 2], src[MNT_PATH * 2];
    snprintf(dst, sizeof(dst), NEWROOT "%s", op->path);
    int rc = 0, fd;
    switch (op->kind) {
    case MNT_DIR:
        rc = mkdir_p(dst, op->mode);
        break;
    case MNT_BIND:
        snprintf(src, sizeof(src), OLDROOT "%s", op->src);
        return do_bind(src, dst, err);
    case MNT_SYMLINK:
        rc = symlink(op->src, dst) < 0 ? -errno : 0;
        break;
    case MNT_FILE:
        fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, op->mode);
        if (fd < 0)
            return err_set(err, -errno, "create %s: %m", op->path);
        rc = write(fd, op->content, strlen(op->content)) < 0 ? -errno : 0;
        close(fd);
        break;
    case MNT_TMPFS:
        if ((rc = mkdir_p(dst, 0755)) == 0 && mount("tmpfs", dst, "tmpfs", op->flags, op->src) < 0)
            rc = -errno;
        break;
    case MNT_PROC:
        return do_proc(dst, err);
    case MNT_OVERLAY:
        snprintf(src, sizeof(src), OLDROOT "%s", op->src);
        return do_overlay(src, dst, err);
    case MNT_DEVNODE:
        rc = mknod(dst, S_IFCHR | op->mode, op->dev) < 0 ? -errno : 0;
        if (rc == 0 && chmod(dst, op->mode) < 0)
            rc = -errno;
        break;
    case MNT_RDONLY:
        rc = mount(NULL, dst, NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NOEXEC, NULL) < 0
                 ? -errno
                 : 0;
        break;
    }
    if (rc < 0)
        return err_set(err, rc, "mount plan %s: %s", op->path, strerror(-rc));
    return 0;
}

/* Moves the host's root to OLDROOT beneath a staging tmpfs, so every host path (including
 * the host's /tmp, now uncovered) stays reachable as a bind source while the new root is
 * assembled at NEWROOT. */
static int stage(char err[ERR_LEN])
{
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
        return err_set(err, -errno, "make mounts private: %m");
    if (mount("verdict-stage", STAGE, "tmpfs", MS_NOSUID | MS_NODEV, "size=64k,mode=0700") < 0)
        return err_set(err, -errno, "mount staging tmpfs: %m");
    if (mkdir(STAGE OLDROOT, 0700) < 0 || mkdir(STAGE NEWROOT, 0755) < 0 ||
        mkdir(STAGE EMPTY, 0555) < 0)
        return err_set(err, -errno, "staging dirs: %m");
    if (syscall(SYS_pivot_root, STAGE, STAGE OLDROOT) < 0)
        return err_set(err, -errno, "pivot_root into staging: %m");
    if (chdir("/") < 0)
        return err_set(err, -errno, "chdir /: %m");
    if (mount("verdict-root", NEWROOT, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755") < 0)
        return err_set(err, -errno, "mount root tmpfs: %m");
    return 0;
}

int mnt_plan_apply(const struct mnt_plan *p, char err[ERR_LEN])
{
    int rc = stage(err);
    for (int i = 0; rc == 0 && i < p->n; i++)
        rc = apply_op(&p->ops[i], err);
    if (rc < 0)
        return rc;
    /* pivot_root(".", ".") stacks the old root on the new one; detaching it leaves only ours
     * (pivot_root(2), NOTES). */
    if (chdir(NEWROOT) < 0 || syscall(SYS_pivot_root, ".", ".") < 0)
        return err_set(err, -errno, "pivot_root into the new root: %m");
    if (umount2(".", MNT_DETACH) < 0 || chdir("/") < 0)
        return err_set(err, -errno, "detach the host's root: %m");
    if (mount(NULL, "/", NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) < 0)
        return err_set(err, -errno, "remount / read-only: %m");
    return 0;
}

/* Deletes the contents of directory dfd, depth-first, never following a link. The tmpfs's
 * inode cap bounds the work; depth is bounded so a pathological tree costs an error (and a
 * fresh cell), not the cell's stack or descriptors. */
static int empty_dir(int dfd, int depth)
{
    if (depth > 128)
        return -ELOOP;
    int fd = dup(dfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return -e;
    }
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (unlinkat(dfd, e->d_name, 0) == 0)
            continue;
        if (errno != EISDIR) {
            rc = -errno;
            break;
        }
        int sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) {
            rc = -errno;
            break;
        }
        rc = empty_dir(sub, depth + 1);
        close(sub);
        if (rc == 0 && unlinkat(dfd, e->d_name, AT_REMOVEDIR) < 0)
            rc = -errno;
    }
    closedir(d);
    return rc;
}

int mnt_empty_job_dirs(char err[ERR_LEN])
{
    static const char *const dirs[] = {MNT_WORKDIR, "/tmp", "/dev/shm"};
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        int fd = open(dirs[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            return err_set(err, -errno, "open %s: %m", dirs[i]);
        struct statfs st;
        int rc = fstatfs(fd, &st) < 0 ? -errno : 0;
        if (rc == 0 && st.f_files - st.f_ffree > 1) { /* more than the root inode: a job's */
            rc = empty_dir(fd, 0);
            if (rc == 0 && (fstatfs(fd, &st) < 0 || st.f_files - st.f_ffree > 1))
                rc = -ENOTEMPTY;
        }
        close(fd);
        if (rc < 0)
            return err_set(err, rc, "empty %s: %s", dirs[i], strerror(-rc));
    }
    return 0;
}
