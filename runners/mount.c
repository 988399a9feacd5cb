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

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runners/child.h"

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
