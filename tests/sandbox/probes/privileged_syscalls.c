/* Attacks: host-level syscalls (kexec, modules, reboot, swap, ports, clock, file handles, klog). */
#include "probe.h"

#include <fcntl.h>
#include <linux/reboot.h>
#include <sys/io.h>
#include <sys/klog.h>
#include <sys/swap.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
    /* Each call would be harmless should it go through: it unloads nothing loaded, sets the
     * clock to its current value, reads rather than clears the kernel log. */
    must_fail("kexec_load", syscall(SYS_kexec_load, 0UL, 0UL, NULL, 0UL));
    must_fail("init_module", syscall(SYS_init_module, NULL, 0UL, ""));
    must_fail("finit_module", syscall(SYS_finit_module, -1, "", 0));
    must_fail("delete_module", syscall(SYS_delete_module, "verdict_none", O_NONBLOCK));
    must_fail("reboot cad_off", syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
                                        LINUX_REBOOT_CMD_CAD_OFF, NULL));
    must_fail("swapon", swapon("/w/swapfile", 0));
    must_fail("swapoff", swapoff("/w/swapfile"));
    must_fail("acct", acct(NULL));
    must_fail("ioperm", ioperm(0x80, 1, 1));
    must_fail("iopl", iopl(3));
    must_fail("vhangup", vhangup());
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    must_fail("clock_settime", clock_settime(CLOCK_REALTIME, &now));
    char log[256];
    must_fail("syslog read", klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log)));
    struct file_handle *fh = calloc(1, sizeof(*fh) + 8);
    int mnt = open("/", O_RDONLY | O_DIRECTORY);
    if (!fh || mnt < 0)
        return 2;
    fh->handle_bytes = 8;
    fh->handle_type = 1; /* FILEID_INO32_GEN: inode 2 is a file system's root ("shocker") */
    fh->f_handle[0] = 2;
    must_fail("open_by_handle_at", open_by_handle_at(mnt, fh, O_RDONLY));
    return contained();
}
