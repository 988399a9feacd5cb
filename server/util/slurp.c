/*
 * slurp: read, then inflate when the bytes start with gzip's magic (zlib's gzip+zlib
 * autodetection, windowBits 15+32), concatenated gzip members included.
 */
#include "server/util/slurp.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "runners/buf.h"

static int read_all(const char *path, size_t cap, char **out, size_t *len, char err[ERR_LEN])
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_set(err, -errno, "%.200s: %m", path);
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return err_set(err, -EINVAL, "%.200s: not a regular file", path);
    }
    if ((uint64_t)st.st_size > cap) {
        close(fd);
        return err_set(err, -EFBIG, "%.200s: larger than %zu bytes", path, cap);
    }
    size_t n = (size_t)st.st_size, got = 0;
    char *buf = malloc(n + 1);
    if (!buf) {
        close(fd);
        return err_set(err, -ENOMEM, "out of memory");
    }
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            int e = r < 0 ? -errno : -EIO;
            free(buf);
            close(fd);
            return err_set(err, e, "%.200s: read failed", path);
        }
        got += (size_t)r;
    }
    close(fd);
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

static int inflate_all(const char *path, const char *in, size_t in_len, size_t cap, char **out,
                       size_t *len, char err[ERR_LEN])
{
    z_stream z;
    memset(&z, 0, sizeof(z));
    if (in_len > UINT_MAX)
        return err_set(err, -EFBIG, "%.200s: a gzip file over 4 GiB", path);
    if (inflateInit2(&z, 15 + 32) != Z_OK)
        return err_set(err, -ENOMEM, "%.200s: inflateInit failed", path);
    struct buf b;
    buf_init(&b, cap);
    int rc = 0;
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)in_len;
    while (rc == 0) {
        size_t room = cap - b.len < (1u << 20) ? cap - b.len : (1u << 20);
        if (room == 0 || buf_reserve(&b, room) < 0) {
            rc = room == 0 || b.err == -EFBIG
                     ? err_set(err, -EFBIG, "%.200s: inflates to more than %zu bytes", path, cap)
                     : err_set(err, -ENOMEM, "out of memory");
            break;
        }
        z.next_out = (Bytef *)b.data + b.len;
        z.avail_out = (uInt)room;
        int zr = inflate(&z, Z_NO_FLUSH);
        b.len += room - z.avail_out;
        if (zr == Z_STREAM_END) {
            if (z.avail_in == 0)
                break;
            inflateReset(&z); /* another gzip member follows */
        } else if (zr != Z_OK && !(zr == Z_BUF_ERROR && z.avail_out == 0)) {
            rc = err_set(err, -EINVAL, "%.200s: corrupt gzip data (%s)", path,
                         z.msg ? z.msg : "truncated");
        }
    }
    inflateEnd(&z);
    if (rc == 0 && !(*out = buf_take(&b, len)))
        rc = err_set(err, -ENOMEM, "out of memory");
    buf_fini(&b);
    return rc;
}

int slurp(const char *path, size_t cap, char **out, size_t *len, char err[ERR_LEN])
{
    char *raw = NULL;
    size_t n = 0;
    int rc = read_all(path, cap, &raw, &n, err);
    if (rc < 0)
        return rc;
    if (n < 2 || (uint8_t)raw[0] != 0x1f || (uint8_t)raw[1] != 0x8b) {
        *out = raw;
        *len = n;
        return 0;
    }
    rc = inflate_all(path, raw, n, cap, out, len, err);
    free(raw);
    return rc;
}
