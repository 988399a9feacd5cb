/* Attacks: fills the tmpfs named in argv[1] (16 MiB files). Contained: ENOSPC at its 64 MiB cap. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MiB (1L << 20)
#define CAP (64 * MiB)

static char buf[MiB];

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "/tmp";
    long total = 0;
    int fd = -1, files = 0;
    signal(SIGXFSZ, SIG_IGN); /* RLIMIT_FSIZE then means EFBIG: carry on in a new file */
    memset(buf, 'x', sizeof(buf));
    for (;;) {
        if (fd < 0) {
            char path[256];
            snprintf(path, sizeof(path), "%s/fill%d", dir, files++);
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (fd < 0 && (errno == ENOSPC || errno == EDQUOT))
                break; /* out of inodes */
            if (fd < 0) {
                printf("unexpected: open %s: %s\n", path, strerror(errno));
                return 2;
            }
        }
        ssize_t w = write(fd, buf, sizeof(buf));
        if (w > 0) {
            total += w;
            if (total > CAP + MiB) {
                printf("ESCAPED: wrote %ld MiB to %s, past its 64 MiB cap\n", total / MiB, dir);
                return 1;
            }
        } else if (w < 0 && errno == EFBIG) {
            close(fd);
            fd = -1;
        } else if (w < 0 && (errno == ENOSPC || errno == EDQUOT)) {
            break;
        } else {
            printf("unexpected: write: %s\n", w < 0 ? strerror(errno) : "returned 0");
            return 2;
        }
    }
    printf("contained: %s full after %ld MiB in %d files: %s\n", dir, total / MiB, files,
           strerror(errno));
    return 0;
}
