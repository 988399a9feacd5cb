/* Attacks: the next job, by leaving files in /w, /tmp, /dev/shm. Contained: canary sees none. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int fails;

static void check(const char *what, int r)
{
    if (r < 0) {
        printf("unexpected: %s: %s\n", what, strerror(errno));
        fails++;
    }
}

static int touch(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    return write(fd, "left\n", 5) == 5 && close(fd) == 0 ? 0 : -1;
}

int main(void)
{
    check("/w/left.txt", touch("/w/left.txt"));
    check("/w/.hidden", touch("/w/.hidden"));
    check("mkdir /w/sub", mkdir("/w/sub", 0755));
    check("mkdir /w/sub/deeper", mkdir("/w/sub/deeper", 0755));
    check("/w/sub/deeper/file", touch("/w/sub/deeper/file"));
    check("chmod /w/sub 0", chmod("/w/sub", 0)); /* a directory its owner cannot enter */
    check("symlink /w/loop", symlink("/w/loop", "/w/loop"));
    check("/tmp/left", touch("/tmp/left"));
    check("mkdir /tmp/.X11-unix", mkdir("/tmp/.X11-unix", 01777));
    check("mkfifo /tmp/fifo", mkfifo("/tmp/fifo", 0600));
    check("/dev/shm/left", touch("/dev/shm/left"));
    check("shm_open /leftover", shm_open("/leftover", O_RDWR | O_CREAT, 0600));
    if (fails)
        return 2;
    printf("left files in /w, /tmp and /dev/shm\n");
    return 0;
}
