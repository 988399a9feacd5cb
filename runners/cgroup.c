/*
 * cgroup: finding our cgroups and proving they can be delegated to jobs.
 *
 * Detection. /proc/self/cgroup lists, per hierarchy, "id:controllers:path" ("0::path" is v2).
 * /proc/self/mountinfo lists each mount's root within its hierarchy and its mount point. Our
 * directory for a controller is mountpoint + (path - root); a mount whose root is not a prefix
 * of our path cannot reach our cgroup (a container's view of a foreign subtree) and is skipped.
 *
 * Probing. Each probe creates "verdict-probe-<pid>-<controller>" beneath our directory, writes
 * one limit, reads it back, attaches a forked child (which writes "0" to cgroup.procs, i.e.
 * itself, then confirms through /proc/self/cgroup), and rmdirs the cgroup once the child has
 * been reaped. Every exit path after mkdir goes through the rmdir.
 */
#include "runners/cgroup.h"
#include "runners/cgroup_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runners/child.h"
#include "runners/file.h"

#define PROBE_TIMEOUT_MS 5000
#define TEXT_MAX         (64 * 1024)

static const char *const ctrl_names[CG_NCTRL] = {"memory", "pids", "cpu", "cpuacct"};

const char *cg_ctrl_name(enum cg_ctrl c)
{
    return c < CG_NCTRL ? ctrl_names[c] : "?";
}

/* True if the comma-separated list contains item exactly. */
static bool list_has(const char *list, size_t len, const char *item)
{
    size_t n = strlen(item);
    const char *p = list, *end = list + len;
    while (p < end) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        size_t l = (size_t)((comma ? comma : end) - p);
        if (l == n && memcmp(p, item, n) == 0)
            return true;
        p += l + 1;
    }
    return false;
}

/* mountinfo escapes space, tab, newline and backslash as \ooo octal; decode in place. */
static void unescape_octal(char *s)
{
    char *w = s;
    for (char *r = s; *r; r++) {
        if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
            r[3] >= '0' && r[3] <= '7') {
            *w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
            r += 3;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
}

/* Joins mountpoint with the part of path below root; false if root is not a prefix of path
 * or the result does not fit. */
static bool join_below(const char *mnt, const char *root, const char *path, char out[CG_PATH])
{
    size_t rl = strlen(root);
    if (strcmp(root, "/") == 0)
        rl = 0;
    else if (strncmp(path, root, rl) != 0 || (path[rl] != '\0' && path[rl] != '/'))
        return false;
    const char *rest = path + rl;
    if (strcmp(rest, "/") == 0)
        rest = "";
    int n = snprintf(out, CG_PATH, "%s%s", mnt, rest);
    return n > 0 && n < CG_PATH;
}

/* dir/name into out; -ENAMETOOLONG rather than a silently truncated path. */
static int join(char out[CG_PATH], const char *dir, const char *name)
{
    size_t d = strlen(dir), n = strlen(name);
    if (d + 1 + n >= CG_PATH)
        return -ENAMETOOLONG;
    memcpy(out, dir, d);
    out[d] = '/';
    memcpy(out + d + 1, name, n + 1);
    return 0;
}

/* Our cgroup path for a v1 controller (or for v2 when ctrl is NULL), from /proc/self/cgroup. */
static bool self_path(const char *self, const char *ctrl, char out[CG_PATH])
{
    for (const char *line = self; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        const char *c1 = memchr(line, ':', len);
        const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - line)) : NULL;
        if (c2) {
            size_t clen = (size_t)(c2 - c1 - 1);
            bool match = ctrl ? list_has(c1 + 1, clen, ctrl)
                              : (clen == 0 && c1 - line == 1 && line[0] == '0');
            size_t plen = len - (size_t)(c2 + 1 - line);
            if (match && plen > 0 && plen < CG_PATH) {
                memcpy(out, c2 + 1, plen);
                out[plen] = '\0';
                return true;
            }
        }
        line = nl ? nl + 1 : line + len;
    }
    return false;
}

struct mount_line {
    char root[CG_PATH];
    char point[CG_PATH];
    char fstype[32];
    char super[256];
};

/* Splits one mountinfo line; false if it has no " - " separator or too few fields. */
static bool parse_mount_line(const char *line, size_t len, struct mount_line *m)
{
    char buf[2048];
    if (len >= sizeof(buf))
        return false;
    memcpy(buf, line, len);
    buf[len] = '\0';
    char *sep = strstr(buf, " - ");
    if (!sep)
        return false;
    *sep = '\0';
    char root[CG_PATH], point[CG_PATH];
    if (sscanf(buf, "%*s %*s %*s %511s %511s", root, point) != 2)
        return false;
    if (sscanf(sep + 3, "%31s %*s %255s", m->fstype, m->super) != 2)
        return false;
    unescape_octal(root);
    unescape_octal(point);
    snprintf(m->root, sizeof(m->root), "%s", root);
    snprintf(m->point, sizeof(m->point), "%s", point);
    return true;
}

int cg_parse(const char *self, const char *mountinfo, struct cg_host *h, char err[ERR_LEN])
{
    memset(h, 0, sizeof(*h));
    char mine[CG_PATH];
    for (const char *line = mountinfo; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        struct mount_line m;
        if (len > 0 && !parse_mount_line(line, len, &m))
            return err_set(err, -EINVAL, "mountinfo: malformed line: %.*s", (int)len, line);
        if (len > 0 && strcmp(m.fstype, "cgroup2") == 0) {
            h->v2_mounted = true;
            if (!h->v2_dir[0] && self_path(self, NULL, mine))
                join_below(m.point, m.root, mine, h->v2_dir);
        } else if (len > 0 && strcmp(m.fstype, "cgroup") == 0) {
            for (int c = 0; c < CG_NCTRL; c++) {
                if (h->v1_dir[c][0] || !list_has(m.super, strlen(m.super), ctrl_names[c]))
                    continue;
                if (self_path(self, ctrl_names[c], mine))
                    join_below(m.point, m.root, mine, h->v1_dir[c]);
            }
        }
        line = nl ? nl + 1 : line + len;
    }
    return 0;
}

unsigned cg_parse_controllers(const char *text)
{
    unsigned mask = 0;
    for (const char *p = text; *p;) {
        size_t skip = strspn(p, " \t\n"), len = strcspn(p + skip, " \t\n");
        for (int c = 0; c < CG_NCTRL && len > 0; c++)
            if (strlen(ctrl_names[c]) == len && memcmp(p + skip, ctrl_names[c], len) == 0)
                mask |= 1u << c;
        p += skip + len;
    }
    return mask;
}

void cg_decide(struct cg_host *h)
{
    unsigned need = (1u << CG_MEMORY) | (1u << CG_PIDS);
    if (h->v2_dir[0] && (h->v2_controllers & need) == need)
        h->version = CG_V2;
    else if (h->v1_dir[CG_MEMORY][0])
        h->version = CG_V1;
    else
        h->version = CG_NONE;
}

int cg_detect(struct cg_host *h, char err[ERR_LEN])
{
    int rc = 0;
    char *self = malloc(TEXT_MAX), *mounts = malloc(TEXT_MAX);
    if (!self || !mounts) {
        rc = err_set(err, -ENOMEM, "out of memory");
        goto out;
    }
    ssize_t n = file_read("/proc/self/cgroup", self, TEXT_MAX);
    if (n < 0) {
        rc = err_set(err, (int)n, "read /proc/self/cgroup: %s", strerror((int)-n));
        goto out;
    }
    n = file_read("/proc/self/mountinfo", mounts, TEXT_MAX);
    if (n < 0) {
        rc = err_set(err, (int)n, "read /proc/self/mountinfo: %s", strerror((int)-n));
        goto out;
    }
    rc = cg_parse(self, mounts, h, err);
    if (rc == 0 && h->v2_dir[0]) {
        char path[CG_PATH], text[256];
        if (join(path, h->v2_dir, "cgroup.controllers") == 0 &&
            file_read(path, text, sizeof(text)) >= 0)
            h->v2_controllers = cg_parse_controllers(text);
    }
    if (rc == 0)
        cg_decide(h);
out:
    free(self);
    free(mounts);
    return rc;
}

const char *cg_dir(const struct cg_host *h, enum cg_ctrl c)
{
    if (c >= CG_NCTRL)
        return NULL;
    if (h->version == CG_V2) /* cpu.stat: in every cgroup, with or without the cpu controller */
        return c == CG_CPUACCT || (h->v2_controllers & (1u << c)) ? h->v2_dir : NULL;
    if (h->version == CG_V1)
        return h->v1_dir[c][0] ? h->v1_dir[c] : NULL;
    return NULL;
}

/* What each probe writes and expects back: file, value written, value read back. A NULL
 * value means read-only: the file must exist and be readable. */
struct limit_probe {
    const char *file, *value, *expect;
};

static const struct limit_probe v1_limits[CG_NCTRL] = {
    [CG_MEMORY] = {"memory.limit_in_bytes", "67108864", "67108864"},
    [CG_PIDS] = {"pids.max", "64", "64"},
    [CG_CPU] = {"cpu.cfs_quota_us", "50000", "50000"},
    [CG_CPUACCT] = {"cpuacct.usage", NULL, NULL},
};

static const struct limit_probe v2_limits[CG_NCTRL] = {
    [CG_MEMORY] = {"memory.max", "67108864", "67108864"},
    [CG_PIDS] = {"pids.max", "64", "64"},
    [CG_CPU] = {"cpu.max", "50000 100000", "50000 100000"},
    [CG_CPUACCT] = {"cpu.stat", NULL, NULL},
};

static int write_and_check(const char *dir, const struct limit_probe *lp, char err[ERR_LEN])
{
    char path[CG_PATH], got[256];
    int rc = join(path, dir, lp->file);
    if (rc < 0)
        return err_set(err, rc, "path too long: %.160s", dir);
    rc = lp->value ? file_write(path, lp->value) : 0;
    if (rc < 0)
        return err_set(err, rc, "write %s=%s: %s", lp->file, lp->value, strerror(-rc));
    ssize_t n = file_read(path, got, sizeof(got));
    if (n < 0)
        return err_set(err, (int)n, "read %s: %s", lp->file, strerror((int)-n));
    got[strcspn(got, "\n")] = '\0';
    if (lp->expect && strcmp(got, lp->expect) != 0)
        return err_set(err, -EIO, "%s reads back \"%s\", wrote \"%s\"", lp->file, got, lp->value);
    return 0;
}

/* Runs in a forked child: moves itself into the probe cgroup and confirms it arrived. */
static int attach_self(void *arg, char err[ERR_LEN])
{
    const char *dir = arg;
    char path[CG_PATH], self[4096];
    int rc = join(path, dir, "cgroup.procs");
    if (rc == 0)
        rc = file_write(path, "0");
    if (rc < 0)
        return err_set(err, rc, "attach to %s: %s", path, strerror(-rc));
    if (file_read("/proc/self/cgroup", self, sizeof(self)) < 0)
        return err_set(err, -errno, "read /proc/self/cgroup: %m");
    const char *leaf = strrchr(dir, '/');
    if (!leaf || !strstr(self, leaf))
        return err_set(err, -EIO, "attached, but /proc/self/cgroup does not show %s", leaf);
    return 0;
}

/* On v2, a controller must be enabled in our subtree_control before children get it. */
static int v2_delegation(const struct cg_host *h, enum cg_ctrl c, bool *deferred, char err[ERR_LEN])
{
    char path[CG_PATH], text[4096];
    if (join(path, h->v2_dir, "cgroup.subtree_control") < 0)
        return err_set(err, -ENAMETOOLONG, "path too long: %.160s", h->v2_dir);
    ssize_t n = file_read(path, text, sizeof(text));
    if (n < 0)
        return err_set(err, (int)n, "read %s: %s", path, strerror((int)-n));
    *deferred = !(cg_parse_controllers(text) & (1u << c));
    if (!*deferred)
        return 0;
    join(path, h->v2_dir, "cgroup.procs"); /* shorter than the name above */
    n = file_read(path, text, sizeof(text));
    if (n < 0)
        return err_set(err, (int)n, "read %s: %s", path, strerror((int)-n));
    char self[32];
    snprintf(self, sizeof(self), "%d\n", (int)getpid());
    if (strcmp(text, self) != 0)
        return err_set(err, -EBUSY,
                       "%s not enabled in %s/cgroup.subtree_control and other processes share "
                       "that cgroup: give verdict a delegated cgroup of its own",
                       ctrl_names[c], h->v2_dir);
    return 0;
}

int cg_probe(const struct cg_host *h, enum cg_ctrl c, char detail[ERR_LEN], char err[ERR_LEN])
{
    const char *dir = cg_dir(h, c);
    if (!dir)
        return err_set(err, -ENOENT, "controller %s not available", cg_ctrl_name(c));
    bool deferred = false;
    if (h->version == CG_V2 && c != CG_CPUACCT) { /* accounting needs no controller */
        int rc = v2_delegation(h, c, &deferred, err);
        if (rc < 0 || deferred) {
            if (rc == 0 && detail)
                snprintf(detail, ERR_LEN,
                         "offered in %.120s; not yet in cgroup.subtree_control (serve enables it "
                         "after moving itself into a leaf)",
                         h->v2_dir);
            return rc;
        }
    }
    char probe[CG_PATH], leaf[64];
    snprintf(leaf, sizeof(leaf), "verdict-probe-%d-%s", (int)getpid(), ctrl_names[c]);
    if (join(probe, dir, leaf) < 0)
        return err_set(err, -ENAMETOOLONG, "path too long: %.160s", dir);
    if (mkdir(probe, 0755) < 0)
        return err_set(err, -errno, "create child cgroup %s: %m", probe);
    const struct limit_probe *lp = h->version == CG_V2 ? &v2_limits[c] : &v1_limits[c];
    int rc = write_and_check(probe, lp, err);
    if (rc == 0)
        rc = child_run(attach_self, probe, PROBE_TIMEOUT_MS, err);
    if (rmdir(probe) < 0 && rc == 0)
        rc = err_set(err, -errno, "remove child cgroup %s: %m", probe);
    if (rc == 0 && detail)
        snprintf(detail, ERR_LEN,
                 "child cgroup created in %.120s, %s %s, process attached, removed", dir, lp->file,
                 lp->value ? "written and read back" : "readable");
    return rc;
}

/* ---- the job tree ---------------------------------------------------------------------- */

/* The hierarchies a job needs: memory (limit, peak, OOM), pids, and CPU accounting; and, where
 * the host has it, the cpu controller, so that all jobs together weigh as one group against
 * the server's own threads (the server stays responsive under any load of jobs). */
static const enum cg_ctrl job_ctrls[] = {CG_MEMORY, CG_PIDS, CG_CPUACCT, CG_CPU};
#define NJOB_CTRLS (sizeof(job_ctrls) / sizeof(job_ctrls[0]))

int cg_parse_keyed(const char *text, const char *key, uint64_t *value)
{
    size_t klen = strlen(key);
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        if (len > klen && strncmp(line, key, klen) == 0 && line[klen] == ' ') {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(line + klen + 1, &end, 10);
            if (errno == 0 && end != line + klen + 1) {
                *value = v;
                return 0;
            }
        }
        line += len + (line[len] == '\n');
    }
    return -ENOENT;
}

/* Removes a tree directory and its job leaves (one level: leaves hold no children). A
 * cgroup that still has processes refuses, and stays. */
static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char leaf[CG_PATH];
        if (e->d_type == DT_DIR && e->d_name[0] != '.' && join(leaf, dir, e->d_name) == 0)
            rmdir(leaf);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* Trees of verdict servers that are gone (killed before they could clean up) are removed:
 * "verdict-<pid>" and v2's "verdict-server-<pid>" beneath base, for pids not running. */
static void sweep_stale(const char *base)
{
    DIR *d = opendir(base);
    for (struct dirent *e; d && (e = readdir(d));) {
        int pid = 0, n = 0;
        if (e->d_type != DT_DIR ||
            (sscanf(e->d_name, "verdict-%d%n", &pid, &n) != 1 &&
             sscanf(e->d_name, "verdict-server-%d%n", &pid, &n) != 1) ||
            e->d_name[n] != '\0' || pid <= 0 || pid == getpid() ||
            !(kill(pid, 0) < 0 && errno == ESRCH))
            continue;
        char dir[CG_PATH];
        if (join(dir, base, e->d_name) == 0)
            remove_tree(dir);
    }
    if (d)
        closedir(d);
}

static int add_tree_dir(struct cg_tree *t, const char *base, enum cg_ctrl c, char err[ERR_LEN])
{
    char dir[CG_PATH], leaf[48];
    snprintf(leaf, sizeof(leaf), "verdict-%d", (int)getpid());
    if (join(dir, base, leaf) < 0)
        return err_set(err, -ENAMETOOLONG, "path too long: %.160s", base);
    for (int i = 0; i < t->ndirs; i++) {
        if (strcmp(t->dir[i], dir) == 0) { /* co-mounted hierarchies (cpu,cpuacct) */
            t->ctrls[i] |= 1u << c;
            return 0;
        }
    }
    sweep_stale(base);
    if (mkdir(dir, 0755) < 0 && errno != EEXIST)
        return err_set(err, -errno, "create %s: %m", dir);
    memcpy(t->dir[t->ndirs], dir, CG_PATH);
    t->ctrls[t->ndirs++] = 1u << c;
    return 0;
}

/* v2: the controllers job leaves get. memory and pids (cg_decide demands both), and cpu where
 * our cgroup offers it (a host may not delegate it: jobs then go without the common weight). */
static unsigned v2_job_ctrls(const struct cg_host *h)
{
    return (1u << CG_MEMORY) | (1u << CG_PIDS) | (h->v2_controllers & (1u << CG_CPU));
}

/* Enables the controllers in mask for the children of the cgroup whose subtree_control file
 * is path. One write: the kernel takes all of it or none. */
static int v2_enable(const char *path, unsigned mask, char err[ERR_LEN])
{
    char line[64] = "";
    for (int c = 0; c < CG_NCTRL; c++)
        if (mask & (1u << c))
            snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s+%s", line[0] ? " " : "",
                     ctrl_names[c]);
    int rc = file_write(path, line);
    if (rc < 0)
        return err_set(err, rc, "write \"%s\" to %.160s: %s", line, path, strerror(-rc));
    return 0;
}

/* v2: controllers reach our children only through our cgroup.subtree_control, and only a
 * cgroup without processes of its own may have one; so move into a leaf first. */
static int v2_delegate(const struct cg_host *h, char err[ERR_LEN])
{
    char path[CG_PATH], text[4096], leaf[48];
    unsigned need = v2_job_ctrls(h);
    if (join(path, h->v2_dir, "cgroup.subtree_control") < 0)
        return err_set(err, -ENAMETOOLONG, "path too long");
    if (file_read(path, text, sizeof(text)) >= 0 && (cg_parse_controllers(text) & need) == need)
        return 0;
    bool deferred;
    int rc = v2_delegation(h, CG_MEMORY, &deferred, err);
    if (rc < 0)
        return rc;
    snprintf(leaf, sizeof(leaf), "verdict-server-%d", (int)getpid());
    if (join(path, h->v2_dir, leaf) < 0)
        return err_set(err, -ENAMETOOLONG, "path too long");
    if (mkdir(path, 0755) < 0 && errno != EEXIST)
        return err_set(err, -errno, "create %s: %m", path);
    if (join(path, path, "cgroup.procs") < 0 || (rc = file_write(path, "0")) < 0)
        return err_set(err, rc ? rc : -ENAMETOOLONG, "move into %s: %s", leaf, strerror(-rc));
    join(path, h->v2_dir, "cgroup.subtree_control");
    return v2_enable(path, need, err);
}

int cg_tree_create(const struct cg_host *h, struct cg_tree *t, char err[ERR_LEN])
{
    memset(t, 0, sizeof(*t));
    t->version = h->version;
    if (h->version == CG_NONE)
        return err_set(err, -ENOTSUP, "no usable cgroup hierarchy");
    int rc = 0;
    if (h->version == CG_V2) {
        if ((rc = v2_delegate(h, err)) < 0)
            return rc;
        if ((rc = add_tree_dir(t, h->v2_dir, CG_MEMORY, err)) < 0)
            return rc;
        t->ctrls[0] = v2_job_ctrls(h) | (1u << CG_CPUACCT);
        char path[CG_PATH];
        join(path, t->dir[0], "cgroup.subtree_control");
        if ((rc = v2_enable(path, v2_job_ctrls(h), err)) < 0)
            cg_tree_remove(t);
        return rc;
    }
    for (size_t i = 0; rc == 0 && i < NJOB_CTRLS; i++) {
        const char *base = cg_dir(h, job_ctrls[i]);
        if (!base && job_ctrls[i] == CG_CPU)
            continue; /* optional: only fairness, not accounting, depends on it */
        if (!base)
            return err_set(err, -ENOTSUP, "cgroup v1 controller %s not mounted",
                           ctrl_names[job_ctrls[i]]);
        rc = add_tree_dir(t, base, job_ctrls[i], err);
    }
    if (rc < 0)
        cg_tree_remove(t);
    return rc;
}

void cg_tree_remove(const struct cg_tree *t)
{
    for (int i = 0; i < t->ndirs; i++)
        remove_tree(t->dir[i]);
}

int cg_root_open(const struct cg_tree *t, struct cg_root *r, char err[ERR_LEN])
{
    memset(r, 0, sizeof(*r));
    r->version = t->version;
    for (int i = 0; i < t->ndirs; i++) {
        r->dirfd[i] = open(t->dir[i], O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (r->dirfd[i] < 0) {
            int e = errno;
            cg_root_close(r);
            return err_set(err, -e, "open %s: %s", t->dir[i], strerror(e));
        }
        r->ctrls[i] = t->ctrls[i];
        r->ndirs = i + 1;
    }
    return 0;
}

void cg_root_close(struct cg_root *r)
{
    for (int i = 0; i < r->ndirs; i++)
        close(r->dirfd[i]);
    r->ndirs = 0;
}

static int dir_of(const struct cg_job *j, enum cg_ctrl c)
{
    for (int i = 0; i < j->root->ndirs; i++)
        if (j->root->ctrls[i] & (1u << c))
            return j->dirfd[i];
    return -1;
}

static int write_at(int dirfd, const char *file, const char *value)
{
    int fd = openat(dirfd, file, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    size_t n = strlen(value);
    ssize_t w = write(fd, value, n);
    int rc = w < 0 ? -errno : (size_t)w != n ? -EIO : 0;
    close(fd);
    return rc;
}

static ssize_t read_at(int dirfd, const char *file, char *buf, size_t cap)
{
    int fd = openat(dirfd, file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t n = read(fd, buf, cap - 1);
    int e = errno;
    close(fd);
    if (n < 0)
        return -e;
    buf[n] = '\0';
    return n;
}

/* Reads a counter file: through the leaf's open descriptor where it has one, else by name. */
static ssize_t read_stat(const struct cg_job *j, enum cg_stat_file f, int dirfd, const char *file,
                         char *buf, size_t cap)
{
    if (j->stat_fd[f] < 0)
        return read_at(dirfd, file, buf, cap);
    ssize_t n = pread(j->stat_fd[f], buf, cap - 1, 0);
    if (n < 0)
        return -errno;
    buf[n] = '\0';
    return n;
}

static int parse_u64(const char *buf, ssize_t n, uint64_t *v)
{
    if (n < 0)
        return (int)n;
    char *end;
    *v = strtoull(buf, &end, 10);
    return end == buf ? -EINVAL : 0;
}

static int read_u64_stat(const struct cg_job *j, enum cg_stat_file f, int dirfd, const char *file,
                         uint64_t *v)
{
    char buf[64];
    return parse_u64(buf, read_stat(j, f, dirfd, file, buf, sizeof(buf)), v);
}

static int read_keyed_stat(const struct cg_job *j, enum cg_stat_file f, int dirfd, const char *file,
                           const char *key, uint64_t *v)
{
    char buf[2048];
    ssize_t n = read_stat(j, f, dirfd, file, buf, sizeof(buf));
    return n < 0 ? (int)n : cg_parse_keyed(buf, key, v);
}

static const char *stat_name(const struct cg_job *j, enum cg_stat_file f)
{
    bool v2 = j->root->version == CG_V2;
    switch (f) {
    case CG_STAT_CPU:
        return v2 ? "cpu.stat" : "cpuacct.usage";
    case CG_STAT_PEAK:
        return v2 ? NULL : "memory.max_usage_in_bytes"; /* v2: peak_fd, opened read-write */
    case CG_STAT_HITS:
        return v2 ? "memory.events" : "memory.failcnt";
    case CG_STAT_OOM:
        return v2 ? NULL : "memory.oom_control"; /* v2: memory.events, read once for both */
    case CG_STAT_USAGE:
        return v2 ? "memory.current" : "memory.usage_in_bytes";
    case CG_STAT_PIDS_EVENTS:
        return "pids.events";
    case CG_NSTAT:
        break;
    }
    return NULL;
}

static int stat_dir(const struct cg_job *j, enum cg_stat_file f)
{
    return dir_of(j, f == CG_STAT_CPU           ? CG_CPUACCT
                     : f == CG_STAT_PIDS_EVENTS ? CG_PIDS
                                                : CG_MEMORY);
}

/* Opens the counter files once; one that cannot be opened is read by name (and its error
 * reported then). */
static void open_stats(struct cg_job *j)
{
    for (int f = 0; f < CG_NSTAT; f++) {
        const char *name = stat_name(j, (enum cg_stat_file)f);
        int dir = stat_dir(j, (enum cg_stat_file)f);
        if (name && dir >= 0)
            j->stat_fd[f] = openat(dir, name, (f == CG_STAT_PEAK ? O_RDWR : O_RDONLY) | O_CLOEXEC);
    }
}

/* How a job's leaf is made: mkdirat(2), or a test's stand-in (cg_set_mkdirat). */
static int (*leaf_mkdirat)(int dirfd, const char *name, mode_t mode) = mkdirat;

void cg_set_mkdirat(int (*fn)(int dirfd, const char *name, mode_t mode))
{
    leaf_mkdirat = fn ? fn : mkdirat;
}

/* Removes the leaf `name` beneath parent, retrying briefly while the kernel finishes tearing
 * down exited tasks (a killed task leaves its cgroup a moment after it is reaped). Returns 0
 * (also when there was none) or a negative errno. */
static int remove_leaf(int parent, const char *name)
{
    for (int tries = 0; unlinkat(parent, name, AT_REMOVEDIR) < 0; tries++) {
        if (errno == ENOENT)
            return 0;
        if (errno != EBUSY || tries >= 200)
            return -errno;
        usleep(500);
    }
    return 0;
}

/* Makes a fresh leaf `name` beneath parent. One of that name already there was left by a
 * cell of the same slot that died (its jobs died with its pid namespace): its counters (CPU
 * time, peak, limit hits) would be charged to the next job, so it is removed first. */
static int make_leaf(int parent, const char *name)
{
    if (leaf_mkdirat(parent, name, 0755) == 0)
        return 0;
    if (errno != EEXIST)
        return -errno;
    int rc = remove_leaf(parent, name);
    if (rc == 0 && leaf_mkdirat(parent, name, 0755) < 0)
        rc = -errno;
    return rc;
}

int cg_job_create(const struct cg_root *r, const char *name, struct cg_job *j, char err[ERR_LEN])
{
    memset(j, 0, sizeof(*j));
    j->root = r;
    snprintf(j->name, sizeof(j->name), "%s", name);
    for (int i = 0; i < CG_MAX_DIRS; i++)
        j->dirfd[i] = j->procs_fd[i] = -1;
    for (int f = 0; f < CG_NSTAT; f++)
        j->stat_fd[f] = -1;
    j->peak_fd = -1;
    int rc = 0;
    for (int i = 0; rc == 0 && i < r->ndirs; i++) {
        rc = make_leaf(r->dirfd[i], name);
        if (rc == 0 &&
            (j->dirfd[i] = openat(r->dirfd[i], name, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
            rc = -errno;
        if (rc == 0 &&
            (j->procs_fd[i] = openat(j->dirfd[i], r->version == CG_V2 ? "cgroup.procs" : "tasks",
                                     O_WRONLY | O_CLOEXEC)) < 0)
            rc = -errno;
    }
    if (rc < 0) {
        char ignored[ERR_LEN];
        cg_job_destroy(j, ignored);
        return err_set(err, rc, "create job cgroup %s: %s", name, strerror(-rc));
    }
    if (r->version == CG_V2) /* absent before 5.19: peaks then read as 0 */
        j->peak_fd = openat(dir_of(j, CG_MEMORY), "memory.peak", O_RDWR | O_CLOEXEC);
    open_stats(j);
    return 0;
}

/* v2 charges socket buffers to memory.max. v1 charges them nowhere unless the leaf's
 * memory.kmem.tcp.limit_in_bytes is set: then every socket the job creates carries the leaf
 * (sk_memcg), and TCP and UDP buffers are charged to that counter, a send or receive over it
 * waits or drops as under memory pressure. A kernel without the file keeps the per-socket
 * sysctl caps the cell writes in its own net namespace (cell.c). */
static int limit_v1_sockets(int md, uint64_t memory_bytes)
{
    uint64_t cap = memory_bytes / CG_SOCKET_SHARE;
    char v[32];
    snprintf(v, sizeof(v), "%llu", (unsigned long long)(cap > CG_SOCKET_MIN ? cap : CG_SOCKET_MIN));
    int rc = write_at(md, "memory.kmem.tcp.limit_in_bytes", v);
    return rc == -ENOENT || rc == -EOPNOTSUPP ? 0 : rc;
}

int cg_job_limit(struct cg_job *j, uint64_t memory_bytes, uint32_t pids, char err[ERR_LEN])
{
    if (memory_bytes == j->memory_set && pids == j->pids_set)
        return 0;
    j->memory_set = 0; /* until every write below has succeeded */
    j->pids_set = 0;
    char mem[32], np[16];
    snprintf(mem, sizeof(mem), "%llu", (unsigned long long)memory_bytes);
    snprintf(np, sizeof(np), "%u", pids);
    int md = dir_of(j, CG_MEMORY), pd = dir_of(j, CG_PIDS), rc;
    bool v2 = j->root->version == CG_V2;
    /* v1 keeps memory+swap >= memory at every step: lift it before a reused leaf's limit
     * goes up, then set both. */
    if (!v2 && (rc = write_at(md, "memory.memsw.limit_in_bytes", "-1")) < 0 && rc != -ENOENT)
        return err_set(err, rc, "lift memory+swap limit: %s", strerror(-rc));
    if ((rc = write_at(md, v2 ? "memory.max" : "memory.limit_in_bytes", mem)) < 0)
        return err_set(err, rc, "set memory limit %s: %s", mem, strerror(-rc));
    /* Swap off for the job: where swap is accounted, cap memory+swap at the same value. */
    if (v2)
        rc = write_at(md, "memory.swap.max", "0");
    else if ((rc = write_at(md, "memory.memsw.limit_in_bytes", mem)) == -ENOENT)
        rc = write_at(md, "memory.swappiness", "0");
    if (rc < 0 && rc != -ENOENT)
        return err_set(err, rc, "turn swap off: %s", strerror(-rc));
    if (!v2 && (rc = limit_v1_sockets(md, memory_bytes)) < 0)
        return err_set(err, rc, "set socket memory limit: %s", strerror(-rc));
    if ((rc = write_at(pd, "pids.max", np)) < 0)
        return err_set(err, rc, "set pids.max %s: %s", np, strerror(-rc));
    j->memory_set = memory_bytes;
    j->pids_set = pids;
    return 0;
}

int cg_job_attach_self(const struct cg_job *j)
{
    for (int i = 0; i < j->root->ndirs; i++)
        if (write(j->procs_fd[i], "0", 1) != 1)
            return -errno;
    return 0;
}

static uint64_t cpu_raw(const struct cg_job *j, int *rc)
{
    uint64_t v = 0;
    int fd = dir_of(j, CG_CPUACCT);
    if (j->root->version == CG_V2) {
        *rc = read_keyed_stat(j, CG_STAT_CPU, fd, "cpu.stat", "usage_usec", &v);
        v *= 1000;
    } else {
        *rc = read_u64_stat(j, CG_STAT_CPU, fd, "cpuacct.usage", &v);
    }
    return v;
}

/* The kernel's counters as they stand, cumulative over the leaf's whole life. */
static int counters(const struct cg_job *j, struct cg_stats *s, char err[ERR_LEN])
{
    memset(s, 0, sizeof(*s));
    int rc;
    s->cpu_ns = cpu_raw(j, &rc);
    if (rc < 0)
        return err_set(err, rc, "read CPU counter: %s", strerror(-rc));
    int md = dir_of(j, CG_MEMORY), pd = dir_of(j, CG_PIDS);
    if (j->root->version == CG_V2) {
        char buf[64];
        ssize_t n = j->peak_fd >= 0 ? pread(j->peak_fd, buf, sizeof(buf) - 1, 0) : -1;
        buf[n > 0 ? n : 0] = '\0';
        s->memory_peak = strtoull(buf, NULL, 10);
        char ev[2048];
        ssize_t len = read_stat(j, CG_STAT_HITS, md, "memory.events", ev, sizeof(ev));
        rc = len < 0 ? (int)len : cg_parse_keyed(ev, "oom_kill", &s->oom_kills);
        if (rc == 0)
            rc = cg_parse_keyed(ev, "max", &s->memory_hits);
    } else {
        rc = read_u64_stat(j, CG_STAT_PEAK, md, "memory.max_usage_in_bytes", &s->memory_peak);
        if (rc == 0)
            rc = read_u64_stat(j, CG_STAT_HITS, md, "memory.failcnt", &s->memory_hits);
        if (rc == 0)
            rc = read_keyed_stat(j, CG_STAT_OOM, md, "memory.oom_control", "oom_kill",
                                 &s->oom_kills);
    }
    if (rc < 0)
        return err_set(err, rc, "read memory counters: %s", strerror(-rc));
    read_keyed_stat(j, CG_STAT_PIDS_EVENTS, pd, "pids.events", "max", &s->pids_hits);
    return 0;
}

int64_t cg_job_cpu_ns(const struct cg_job *j)
{
    int rc;
    uint64_t v = cpu_raw(j, &rc);
    return rc < 0 ? rc : (int64_t)(v - j->base.cpu_ns);
}

int cg_job_stats(const struct cg_job *j, struct cg_stats *s, char err[ERR_LEN])
{
    int rc = counters(j, s, err);
    if (rc < 0)
        return rc;
    s->cpu_ns -= j->base.cpu_ns; /* the peak was restarted instead: not cumulative */
    s->oom_kills -= j->base.oom_kills;
    s->memory_hits -= j->base.memory_hits;
    s->pids_hits -= j->base.pids_hits;
    return 0;
}

int cg_job_counters(const struct cg_job *j, struct cg_stats *s, char err[ERR_LEN])
{
    return counters(j, s, err);
}

int64_t cg_job_usage(const struct cg_job *j)
{
    uint64_t v = 0;
    bool v2 = j->root->version == CG_V2;
    int rc = read_u64_stat(j, CG_STAT_USAGE, dir_of(j, CG_MEMORY),
                           v2 ? "memory.current" : "memory.usage_in_bytes", &v);
    return rc < 0 ? rc : (int64_t)v;
}

/* Restarts the peak from what is held now (v1: max_usage; v2: per-descriptor, 6.12+), and
 * takes the counters as they stand as the base. -ENOTSUP: a v2 peak that cannot restart. */
static int restart_accounting(struct cg_job *j, char err[ERR_LEN])
{
    bool v2 = j->root->version == CG_V2;
    int md = dir_of(j, CG_MEMORY), rc;
    if (v2)
        rc = j->peak_fd >= 0 && pwrite(j->peak_fd, "reset", 5, 0) == 5 ? 0 : -ENOTSUP;
    else if (j->stat_fd[CG_STAT_PEAK] >= 0) {
        ssize_t w = pwrite(j->stat_fd[CG_STAT_PEAK], "0", 1, 0);
        rc = w == 1 ? 0 : w < 0 ? -errno : -EIO;
    } else
        rc = write_at(md, "memory.max_usage_in_bytes", "0");
    if (rc == -ENOTSUP)
        return rc;
    if (rc < 0)
        return err_set(err, rc, "reset the memory peak: %s", strerror(-rc));
    struct cg_stats now;
    if ((rc = counters(j, &now, err)) < 0)
        return rc;
    now.memory_peak = 0;
    j->base = now;
    return 0;
}

int cg_job_reuse(struct cg_job *j, uint64_t max_leftover, char err[ERR_LEN])
{
    uint64_t left = 0;
    if (cg_job_nprocs(j) != 0)
        return 0;
    int rc = read_u64_stat(j, CG_STAT_USAGE, dir_of(j, CG_MEMORY),
                           j->root->version == CG_V2 ? "memory.current" : "memory.usage_in_bytes",
                           &left);
    if (rc < 0)
        return err_set(err, rc, "read memory usage: %s", strerror(-rc));
    if (left > max_leftover)
        return 0;
    rc = restart_accounting(j, err);
    return rc == -ENOTSUP ? 0 : rc < 0 ? rc : 1;
}

int cg_job_rebase(struct cg_job *j, char err[ERR_LEN])
{
    int rc = restart_accounting(j, err);
    if (rc != -ENOTSUP)
        return rc;
    struct cg_stats now; /* the peak stays the old one: the base still moves */
    if ((rc = counters(j, &now, err)) < 0)
        return rc;
    now.memory_peak = 0;
    j->base = now;
    return 0;
}

int cg_job_nprocs(const struct cg_job *j)
{
    /* One hierarchy suffices: a job's processes join all of them before exec and cannot
     * leave any (no cgroupfs in the cell). The pids hierarchy counts every task. */
    char buf[4096];
    ssize_t n = read_at(dir_of(j, CG_PIDS), "cgroup.procs", buf, sizeof(buf));
    if (n < 0)
        return (int)n;
    int lines = 0;
    for (ssize_t k = 0; k < n; k++)
        lines += buf[k] == '\n';
    return lines;
}

int cg_job_tasks(const struct cg_job *j, pid_t *tids, int cap)
{
    char buf[16384];
    const char *file = j->root->version == CG_V2 ? "cgroup.threads" : "tasks";
    ssize_t n = read_at(dir_of(j, CG_PIDS), file, buf, sizeof(buf));
    if (n < 0)
        return (int)n;
    int count = 0;
    for (const char *p = buf, *end = buf + n; p < end && count < cap;) {
        char *next;
        long tid = strtol(p, &next, 10);
        if (next == p)
            break;
        tids[count++] = (pid_t)tid;
        p = next + (next < end && *next == '\n');
    }
    return count;
}

int cg_job_destroy(struct cg_job *j, char err[ERR_LEN])
{
    int rc = 0;
    if (j->peak_fd >= 0)
        close(j->peak_fd);
    j->peak_fd = -1;
    for (int f = 0; f < CG_NSTAT; f++) {
        if (j->stat_fd[f] >= 0)
            close(j->stat_fd[f]);
        j->stat_fd[f] = -1;
    }
    for (int i = 0; j->root && i < j->root->ndirs; i++) {
        if (j->procs_fd[i] >= 0)
            close(j->procs_fd[i]);
        if (j->dirfd[i] >= 0)
            close(j->dirfd[i]);
        j->procs_fd[i] = j->dirfd[i] = -1;
        int e = remove_leaf(j->root->dirfd[i], j->name);
        if (e < 0 && rc == 0)
            rc = err_set(err, e, "remove job cgroup %s: %s", j->name, strerror(-e));
    }
    return rc;
}
