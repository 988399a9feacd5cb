/* Attacks: writing outside /w (/, /etc, /usr, /dev, /proc). Contained: all refused. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char msg[2048];

static void note(const char *what, int e)
{
    size_t n = strlen(msg);
    snprintf(msg + n, sizeof(msg) - n, "%s%s: %s", n ? ", " : "", what, strerrorname_np(e));
}

static void create(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
        unlink(path);
        printf("ESCAPED: created %s\n", path);
        exit(1);
    }
    note(path, errno);
}

static void open_for_write(const char *path) /* an existing file: no write is needed to tell */
{
    if (open(path, O_WRONLY | O_APPEND) >= 0) {
        printf("ESCAPED: opened %s for writing\n", path);
        exit(1);
    }
    note(path, errno);
}

int main(void)
{
    static const char *const fresh[] = {
        "/verdict_probe",         "/etc/verdict_probe", "/usr/bin/verdict_probe",
        "/usr/lib/verdict_probe", "/bin/verdict_probe", "/usr/lib/x86_64-linux-gnu/verdict_probe",
        "/dev/verdict_probe",     "/proc/verdict_probe"};
    static const char *const existing[] = {"/etc/passwd", "/etc/hosts", "/etc/ld.so.cache",
                                           "/usr/bin/env", "/usr/lib/x86_64-linux-gnu/libc.so.6"};
    for (size_t i = 0; i < sizeof(fresh) / sizeof(fresh[0]); i++)
        create(fresh[i]);
    for (size_t i = 0; i < sizeof(existing) / sizeof(existing[0]); i++)
        open_for_write(existing[i]);
    if (mkdir("/etc/verdict_dir", 0755) == 0) {
        printf("ESCAPED: created /etc/verdict_dir\n");
        return 1;
    }
    note("mkdir /etc/verdict_dir", errno);
    if (symlink("/w", "/usr/verdict_link") == 0) {
        printf("ESCAPED: created /usr/verdict_link\n");
        return 1;
    }
    note("symlink /usr/verdict_link", errno);
    printf("contained: %s\n", msg);
    return 0;
}
