/*
 * mount: building a cell's root file system (bind mounts, tmpfs, pivot_root).
 *
 * This issue provides the host probe; the cell's root assembly arrives with the sandbox engine.
 */
#ifndef VERDICT_MOUNT_H
#define VERDICT_MOUNT_H

#include "runners/err.h"

/* In a throw-away child with its own mount namespace (made private first, so nothing
 * propagates to the host): mounts a tmpfs root, binds /usr into it read-only, nosuid, nodev,
 * pivot_roots into it, detaches the old root, and checks that /usr is visible but not
 * writable and that the old root is gone. Returns 0 with what was verified in detail, or a
 * negative errno with the failing step in err. */
int mnt_probe_pivot_root(char detail[ERR_LEN], char err[ERR_LEN]);

#endif
