/* Attacks: rebuilding the box (mount, remount rw, umount, chroot, pivot_root, new mount API). */
#include "probe.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
    mkdir("/w/m", 0755);
    must_fail("mount tmpfs", mount("none", "/w/m", "tmpfs", 0, "size=1m"));
    must_fail("mount proc", mount("proc", "/w/m", "proc", 0, NULL));
    must_fail("bind /usr", mount("/usr", "/w/m", NULL, MS_BIND, NULL));
    must_fail("remount / rw", mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND, NULL));
    must_fail("remount /usr rw", mount(NULL, "/usr", NULL, MS_REMOUNT | MS_BIND, NULL));
    must_fail("remount /usr suid", mount(NULL, "/usr", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY,
                                         NULL)); /* drops nosuid/nodev if it goes through */
    must_fail("make / shared", mount(NULL, "/", NULL, MS_SHARED | MS_REC, NULL));
    must_fail("umount /usr", umount2("/usr", MNT_DETACH));
    must_fail("umount /w", umount2("/w", MNT_DETACH));
    must_fail("chroot /w", chroot("/w"));
    must_fail("pivot_root", syscall(SYS_pivot_root, "/w", "/w/m"));
    must_fail("fsopen tmpfs", syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC));
    must_fail("open_tree clone /usr", syscall(SYS_open_tree, AT_FDCWD, "/usr", OPEN_TREE_CLONE));
    must_fail("fspick /", syscall(SYS_fspick, AT_FDCWD, "/", 0));
    must_fail("move_mount", syscall(SYS_move_mount, AT_FDCWD, "/w", AT_FDCWD, "/w/m", 0));
    struct mount_attr attr = {.attr_clr = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID};
    must_fail("mount_setattr /usr rw",
              syscall(SYS_mount_setattr, AT_FDCWD, "/usr", 0, &attr, sizeof(attr)));
    return contained();
}
