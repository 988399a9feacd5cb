/*
 * mount: building a cell's root file system (bind mounts, tmpfs, pivot_root), prefix mnt_.
 *
 * A cell's root is described first as a plan (a list of operations, built from the host's
 * layout and the configuration, testable without privileges) and then applied in the cell's
 * own mount namespace. The job directories (/w, /tmp, /dev/shm) are size-capped tmpfs mounts
 * made once; mnt_empty_job_dirs empties them between jobs. (Once the cell is running it has
 * installed the job seccomp filter on itself, which refuses mount(2).)
 */
#ifndef VERDICT_MOUNT_H
#define VERDICT_MOUNT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "runners/err.h"

#define MNT_PATH    256
#define MNT_MAX_OPS 96
#define MNT_WORKDIR "/w"

enum mnt_kind {
    MNT_DIR,     /* mkdir -p path (mode) */
    MNT_BIND,    /* read-only, nosuid, nodev bind of host src at path */
    MNT_SYMLINK, /* symlink path -> src */
    MNT_FILE,    /* regular file at path with content (mode) */
    MNT_TMPFS,   /* tmpfs at path with options src and mount flags */
    MNT_PROC,    /* proc of the cell's pid namespace at path, with /proc/sys read-only */
    MNT_DEVNODE, /* character device at path (mode, dev) */
    MNT_RDONLY,  /* remount path read-only */
    MNT_OVERLAY, /* read-only overlay of host directory src at path: the same files, but inodes
                  * of this cell's own, so flock/fcntl locks (per inode) and inotify on them
                  * are not shared with other cells or the host */
};

struct mnt_op {
    enum mnt_kind kind;
    char path[MNT_PATH]; /* absolute, inside the new root */
    char src[MNT_PATH];  /* BIND: host path; SYMLINK: target; TMPFS: mount options */
    const char *content; /* FILE: contents (points into the plan) */
    unsigned mode;
    unsigned long flags; /* TMPFS: MS_NOSUID, MS_NODEV, MS_NOEXEC */
    dev_t dev;
};

struct mnt_plan {
    int n;
    struct mnt_op ops[MNT_MAX_OPS];
    char passwd[512], group[256]; /* contents of the generated /etc files */
};

struct mnt_config {
    const char *host_prefix;  /* where the host's / is read from: "" (tests: a fixture tree) */
    const char *const *binds; /* extra read-only binds: absolute host paths, same path inside */
    int nbinds;
    unsigned uid, gid;     /* the unprivileged job user */
    uint64_t tmpfs_bytes;  /* size of each of /w, /tmp, /dev/shm */
    uint32_t tmpfs_inodes; /* inodes of each */
    bool gpu_cell;         /* the cell serves an NVIDIA GPU: */
    int gpu;               /* which one (its /dev/nvidiaN) */
};

/* Builds the plan for a cell's root: /usr as a read-only overlay and the /bin, /lib* entries
 * as on the host (symlinks into /usr on merged-/usr systems, else read-only overlays); a minimal
 * /etc (generated passwd, group, hosts, nsswitch.conf; ld.so.cache and alternatives bound); the
 * extra binds; size-capped tmpfs mounts for the work dir (owned by the job user), /tmp and
 * /dev/shm (noexec); a proc with hidepid=invisible (a job sees only its own uid's processes,
 * not the cell's /proc/1); a read-only /dev with null, zero, full, random, urandom and the
 * fd links, and for a GPU cell the NVIDIA control, uvm and that one GPU's device nodes (copied
 * from the host's, so no other GPU is reachable). Returns 0, or -EINVAL / -ENOENT / -E2BIG with
 * the offending entry in err. Reads the host layout only (lstat, readlink). */
int mnt_plan_build(const struct mnt_config *c, struct mnt_plan *p, char err[ERR_LEN]);

/* In a fresh mount namespace (the cell, as root): makes all mounts private, stages the new
 * root on a tmpfs, applies the plan, pivot_roots into it, detaches the host's tree and
 * remounts / read-only. Returns 0 or a negative errno with the failing step in err. */
int mnt_plan_apply(const struct mnt_plan *p, char err[ERR_LEN]);

/* Inside the cell: deletes everything in /w, /tmp and /dev/shm (without following any link)
 * and checks that each holds nothing but its root. Returns 0, or a negative errno with err
 * when something could not be removed (the cell is then unfit for another job). */
int mnt_empty_job_dirs(char err[ERR_LEN]);

/* In a throw-away child with its own mount namespace (made private first, so nothing
 * propagates to the host): mounts a tmpfs root, binds /usr into it read-only, nosuid, nodev,
 * pivot_roots into it, detaches the old root, and checks that /usr is visible but not
 * writable and that the old root is gone. Returns 0 with what was verified in detail, or a
 * negative errno with the failing step in err. */
int mnt_probe_pivot_root(char detail[ERR_LEN], char err[ERR_LEN]);

#endif
