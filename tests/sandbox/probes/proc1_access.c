/* Attacks: the root-owned cell via /proc/1 (environ, mem, root, fd; cmdline, status and
 * mountinfo, which name host paths). Contained: /proc/1 absent (hidepid=invisible: ENOENT), or
 * EACCES. */
#include "probe.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
    static const char *const reads[] = {
        "/proc/1/environ", "/proc/1/maps",    "/proc/1/auxv",   "/proc/1/root/etc/passwd",
        "/proc/1/syscall", "/proc/1/cmdline", "/proc/1/status", "/proc/1/mountinfo",
        "/proc/1/stat",    "/proc/1/cgroup"};
    static const char *const links[] = {"/proc/1/root", "/proc/1/cwd", "/proc/1/exe",
                                        "/proc/1/fd/0", "/proc/1/ns/mnt"};
    static const char *const lists[] = {"/proc/1/root/", "/proc/1/fd", "/proc/1/map_files"};
    char buf[256];
    for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
        int fd = open(reads[i], O_RDONLY);
        int e = errno;
        if (fd >= 0 && read(fd, buf, sizeof(buf)) > 0)
            escaped("read", reads[i]);
        note(reads[i] + 8, fd >= 0 ? "opened, unreadable" : strerrorname_np(e));
    }
    /* Opening /proc/1/mem at all needs ptrace rights over the cell: that is the breach. */
    if (open("/proc/1/mem", O_RDONLY) >= 0)
        escaped("opened", "/proc/1/mem");
    note_errno("mem", errno);
    if (open("/proc/1/mem", O_RDWR) >= 0)
        escaped("opened read-write", "/proc/1/mem");
    note_errno("mem rw", errno);
    for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
        if (readlink(links[i], buf, sizeof(buf)) >= 0)
            escaped("resolved", links[i]);
        note_errno(links[i] + 8, errno);
    }
    for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
        DIR *d = opendir(lists[i]);
        int e = errno;
        struct dirent *de;
        while (d && (de = readdir(d)))
            if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
                escaped("listed", lists[i]);
        note(lists[i] + 8, d ? "empty" : strerrorname_np(e));
        if (d)
            closedir(d);
    }
    /* The cell must not even be listed. */
    DIR *proc = opendir("/proc");
    struct dirent *de;
    while (proc && (de = readdir(proc)))
        if (strcmp(de->d_name, "1") == 0)
            escaped("listed", "/proc/1");
    if (proc)
        closedir(proc);
    return contained();
}
