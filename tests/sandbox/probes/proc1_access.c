/* Attacks: the root-owned cell via /proc/1 (environ, mem, root, fd). Contained: EACCES. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char msg[2048];

static void note(const char *what, const char *why)
{
    size_t n = strlen(msg);
    snprintf(msg + n, sizeof(msg) - n, "%s%s: %s", n ? ", " : "", what + 8, why);
}

static void escaped(const char *what, const char *path)
{
    printf("ESCAPED: %s %s\n", what, path);
    exit(1);
}

int main(void)
{
    static const char *const reads[] = {"/proc/1/environ", "/proc/1/maps", "/proc/1/auxv",
                                        "/proc/1/root/etc/passwd", "/proc/1/syscall"};
    static const char *const links[] = {"/proc/1/root", "/proc/1/cwd", "/proc/1/exe",
                                        "/proc/1/fd/0", "/proc/1/ns/mnt"};
    static const char *const lists[] = {"/proc/1/root/", "/proc/1/fd", "/proc/1/map_files"};
    char buf[256];
    for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
        int fd = open(reads[i], O_RDONLY);
        int e = errno;
        if (fd >= 0 && read(fd, buf, sizeof(buf)) > 0)
            escaped("read", reads[i]);
        note(reads[i], fd >= 0 ? "opened, unreadable" : strerrorname_np(e));
    }
    /* Opening /proc/1/mem at all needs ptrace rights over the cell: that is the breach. */
    if (open("/proc/1/mem", O_RDONLY) >= 0)
        escaped("opened", "/proc/1/mem");
    note("/proc/1/mem", strerrorname_np(errno));
    if (open("/proc/1/mem", O_RDWR) >= 0)
        escaped("opened read-write", "/proc/1/mem");
    note("/proc/1/mem rw", strerrorname_np(errno));
    for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
        if (readlink(links[i], buf, sizeof(buf)) >= 0)
            escaped("resolved", links[i]);
        note(links[i], strerrorname_np(errno));
    }
    for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
        DIR *d = opendir(lists[i]);
        int e = errno;
        struct dirent *de;
        while (d && (de = readdir(d)))
            if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
                escaped("listed", lists[i]);
        note(lists[i], d ? "empty" : strerrorname_np(e));
        if (d)
            closedir(d);
    }
    printf("contained: %s\n", msg);
    return 0;
}
