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

#include <errno.h>
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
    if (mask & (1u << CG_CPU))
        mask |= 1u << CG_CPUACCT;
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
    if (h->version == CG_V2)
        return (h->v2_controllers & (1u << c)) ? h->v2_dir : NULL;
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
    if (h->version == CG_V2) {
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
