/*
 * replay: a fuzz target without libFuzzer. main() calls the target's LLVMFuzzerInitialize (when
 * it defines one: a weak reference here) and then LLVMFuzzerTestOneInput on every file of the
 * directories (or files) named on the command line, in name order, each its own heap copy so
 * that AddressSanitizer sees a read past its end. Any compiler builds it, so the corpora and the
 * regression inputs run as ctests in every build (tests/fuzz/CMakeLists.txt).
 *
 * Exit status: 0 when at least one input ran and none failed (a failed invariant aborts); 1 when
 * no input was found, or a directory or file could not be read. A missing directory counts as
 * empty (a target with no regression inputs yet).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

/* Defined by the targets that need set-up; NULL for the others. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

#define REPLAY_MAX_INPUT (16u << 20) /* bytes of one input, at most */

/* Runs one input file; returns 0, or -1 when it could not be read. */
static int run_file(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0 || (size_t)st.st_size > REPLAY_MAX_INPUT) {
        fprintf(stderr, "replay: %s: %s\n", path,
                fd < 0 ? strerror(errno) : "unreadable or too big");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    size_t n = (size_t)st.st_size, got = 0;
    uint8_t *data = malloc(n ? n : 1);
    while (data && got < n) {
        ssize_t r = read(fd, data + got, n - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    if (!data || got != n) {
        fprintf(stderr, "replay: %s: short read\n", path);
        free(data);
        return -1;
    }
    LLVMFuzzerTestOneInput(data, n);
    free(data);
    return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int visible(const struct dirent *d)
{
    return d->d_name[0] != '.';
}

/* Runs every regular file of dir; returns how many, or -1 on a read error. */
static int run_dir(const char *dir)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, visible, by_name), ran = 0, rc = 0;
    if (n < 0)
        return errno == ENOENT ? 0 : -1;
    for (int i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
        if (rc == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(path) < 0)
                rc = -1;
            else
                ran++;
        }
        free(ents[i]);
    }
    free(ents);
    return rc < 0 ? rc : ran;
}

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    int total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        int n = stat(argv[i], &st) == 0 && S_ISREG(st.st_mode) ? (run_file(argv[i]) == 0 ? 1 : -1)
                                                               : run_dir(argv[i]);
        if (n < 0) {
            fprintf(stderr, "replay: %s: cannot be read\n", argv[i]);
            return 1;
        }
        printf("replay: %s: %d inputs\n", argv[i], n);
        total += n;
    }
    if (total == 0) {
        fprintf(stderr, "replay: no inputs found\n");
        return 1;
    }
    printf("replay: %d inputs, no failure\n", total);
    return 0;
}
