/* Attacks: leaving its cgroup via cgroup.procs or /proc/self/cgroup. Contained: no write lands. */
#include "probe.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static void try_write(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY);
    int e = errno;
    if (fd >= 0) {
        ssize_t w = write(fd, text, strlen(text));
        e = errno;
        if (w > 0) {
            printf("ESCAPED: wrote our pid to %s\n", path);
            exit(1);
        }
    }
    char why[64];
    snprintf(why, sizeof(why), "%s%s", fd >= 0 ? "opened, write failed " : "", strerrorname_np(e));
    note(path, why);
}

int main(void)
{
    char pid[32], own[512] = "", path[700];
    snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
    FILE *f = fopen("/proc/self/cgroup", "r"); /* "0::/path" on cgroup v2 */
    if (f && fgets(own, sizeof(own), f))
        own[strcspn(own, "\n")] = '\0';
    if (f)
        fclose(f);
    const char *rel = strstr(own, "::") ? strstr(own, "::") + 2 : "/";
    try_write("/sys/fs/cgroup/cgroup.procs", pid);
    snprintf(path, sizeof(path), "/sys/fs/cgroup%s/../cgroup.procs", rel);
    try_write(path, pid);
    try_write("/sys/fs/cgroup/unified/cgroup.procs", pid);
    try_write("/proc/self/cgroup", "0::/\n");
    mkdir("/w/cg", 0755);
    if (mount("none", "/w/cg", "cgroup2", 0, NULL) == 0) {
        printf("ESCAPED: mounted cgroup2 on /w/cg\n");
        return 1;
    }
    note_errno("mount cgroup2", errno);
    return contained();
}
