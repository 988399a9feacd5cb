/*
 * uidlock: one lock file per uid, taken with flock.
 *
 * uidlock_take walks the range from its start and keeps the first file it can lock without
 * waiting, so every process packs its cells at the low end and a range stays dense. The
 * directory is created 0700 (root's, like the cgroup tree); lock files are opened with
 * O_NOFOLLOW (a planted symlink is refused, not followed) and O_CLOEXEC (a child the server
 * starts never inherits, and so never prolongs, a slot). The files are never removed:
 * unlinking a lock file another process has open would let a third lock a fresh inode of the
 * same name, and two processes would share the uid.
 */
#include "runners/uidlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

void uidlock_init(struct uid_slot *s)
{
    s->uid = 0;
    s->fd = -1;
}

/* Opens dir, creating it 0700 when it is missing. */
static int open_dir(const char *dir, char err[ERR_LEN])
{
    if (mkdir(dir, 0700) < 0 && errno != EEXIST)
        return err_set(err, -errno, "uid locks: mkdir %s: %m", dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return err_set(err, -errno, "uid locks: open %s: %m", dir);
    return fd;
}

/* 1: uid locked into *fd; 0: held by someone else; <0: the file cannot be opened. */
static int try_uid(int dirfd, unsigned uid, int *fd)
{
    char name[32];
    snprintf(name, sizeof(name), "uid-%u.lock", uid);
    int f = openat(dirfd, name, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (f < 0)
        return -errno;
    if (flock(f, LOCK_EX | LOCK_NB) < 0) {
        int e = errno;
        close(f);
        return e == EWOULDBLOCK ? 0 : -e;
    }
    *fd = f;
    return 1;
}

int uidlock_take(const char *dir, unsigned base, unsigned count, struct uid_slot *out,
                 char err[ERR_LEN])
{
    uidlock_init(out);
    dir = dir ? dir : UIDLOCK_DIR;
    base = base ? base : UIDLOCK_BASE;
    count = count ? count : UIDLOCK_COUNT;
    int dirfd = open_dir(dir, err);
    if (dirfd < 0)
        return dirfd;
    int rc = -EAGAIN;
    for (unsigned i = 0; i < count && rc == -EAGAIN; i++) {
        int got = try_uid(dirfd, base + i, &out->fd);
        if (got < 0)
            rc = err_set(err, got, "uid locks: %s/uid-%u.lock: %s", dir, base + i, err_name(got));
        else if (got == 1) {
            out->uid = base + i;
            rc = 0;
        }
    }
    close(dirfd);
    if (rc == -EAGAIN)
        err_set(err, rc, "uid locks: all %u uids from %u are held (under %s)", count, base, dir);
    return rc;
}

void uidlock_give(struct uid_slot *s)
{
    if (s->fd >= 0)
        close(s->fd);
    uidlock_init(s);
}
