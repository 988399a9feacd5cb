/*
 * faulty_verdict: verdict itself (server/cli/main.c, built here with its main() renamed
 * verdict_main) whose cells make their job cgroups through cgroup's fault-injection seam
 * (runners/cgroup_internal.h): creating a leaf fails with EAGAIN, as past v2's
 * cgroup.max.descendants, while the file "cgroup-mkdir" exists in the control directory
 * "<this executable>.faults/". The faults tests (test_cgroup.py) serve with this binary and
 * create and remove that file. The control directory is opened before the cell builds its
 * root (the cell never sees the host's file system again); a cell that cannot open it runs
 * without faults.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runners/cgroup_internal.h"

int verdict_main(int argc, char **argv);

static int control = -1; /* the control directory (O_PATH), or -1 */

static int faulty_mkdirat(int dirfd, const char *name, mode_t mode)
{
    if (control >= 0 && faccessat(control, "cgroup-mkdir", F_OK, 0) == 0) {
        errno = EAGAIN;
        return -1;
    }
    return mkdirat(dirfd, name, mode);
}

static void arm(void)
{
    static const char suffix[] = ".faults";
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - sizeof(suffix));
    if (n <= 0)
        return;
    memcpy(path + n, suffix, sizeof(suffix));
    control = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
    cg_set_mkdirat(faulty_mkdirat);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "__cell") == 0)
        arm();
    return verdict_main(argc, argv);
}
