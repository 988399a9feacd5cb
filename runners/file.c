/*
 * file: one open, one read or write, one close. Retries EINTR; never follows a short read with
 * a second read, since /proc and cgroupfs files are produced whole on the first read.
 */
#include "runners/file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

ssize_t file_read(const char *path, char *buf, size_t cap)
{
    if (cap == 0)
        return -EINVAL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    size_t len = 0;
    ssize_t n;
    /* Regular files (fixtures) may need several reads; kernel files answer in one. */
    while (len < cap - 1 && (n = read(fd, buf + len, cap - 1 - len)) != 0) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            close(fd);
            return -e;
        }
        len += (size_t)n;
    }
    close(fd);
    buf[len] = '\0';
    return (ssize_t)len;
}

int file_write(const char *path, const char *s)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    size_t len = strlen(s);
    ssize_t n;
    do {
        n = write(fd, s, len);
    } while (n < 0 && errno == EINTR);
    int e = n < 0 ? errno : (size_t)n != len ? EIO : 0;
    close(fd);
    return -e;
}
