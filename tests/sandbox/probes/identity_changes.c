/* Attacks: becoming root or a neighbour uid, raising caps, renaming. Contained: EPERM. */
#include "probe.h"

#include <grp.h>
#include <linux/capability.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
    uid_t uid = getuid();
    gid_t root = 0;
    must_fail("sethostname", sethostname("pwned", 5));
    must_fail("setdomainname", setdomainname("pwned", 5));
    must_fail("setuid(0)", setuid(0));
    must_fail("setgid(0)", setgid(0));
    must_fail("setresuid(0)", setresuid(0, 0, 0));
    must_fail("setresgid(0)", setresgid(0, 0, 0));
    must_fail("setgroups([0])", setgroups(1, &root));
    must_fail("setuid(uid+1)", setuid(uid + 1)); /* a neighbour cell's uid */
    must_fail("setreuid(uid-1)", setreuid(uid - 1, uid - 1));
    setfsuid(0);
    if (setfsuid((uid_t)-1) == 0) { /* setfsuid reports the current fsuid, never an error */
        printf("ESCAPED: fsuid became 0\n");
        return 1;
    }
    struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct caps[2];
    memset(caps, 0xff, sizeof(caps));
    must_fail("capset all", syscall(SYS_capset, &hdr, caps));
    must_fail("ambient CAP_SYS_ADMIN",
              prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_SYS_ADMIN, 0, 0));
    if (getuid() == 0 || geteuid() == 0 || getegid() == 0) {
        printf("ESCAPED: running as root\n");
        return 1;
    }
    printf("contained: uid %d; %s\n", (int)uid, msg);
    return 0;
}
