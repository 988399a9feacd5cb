/* Attacks: writing outside /w (/, /etc, /usr, /dev, /proc). Contained: all refused. */
#include "probe.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static void create(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
        unlink(path);
        escaped("created", path);
    }
    note_errno(path, errno);
}

static void open_for_write(const char *path) /* an existing file: no write is needed to tell */
{
    if (open(path, O_WRONLY | O_APPEND) >= 0) {
        printf("ESCAPED: opened %s for writing\n", path);
        exit(1);
    }
    note_errno(path, errno);
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
    if (mkdir("/etc/verdict_dir", 0755) == 0)
        escaped("created", "/etc/verdict_dir");
    note_errno("mkdir /etc/verdict_dir", errno);
    if (symlink("/w", "/usr/verdict_link") == 0)
        escaped("created", "/usr/verdict_link");
    note_errno("symlink /usr/verdict_link", errno);
    return contained();
}
