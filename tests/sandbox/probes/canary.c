/* Health check after every probe: prints "clean" iff no earlier job left files, processes or
 * SysV IPC objects behind. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int dirty;

static void expect_empty(const char *dir, const char *allowed)
{
    DIR *d = opendir(dir);
    if (!d) {
        printf("dirty: opendir %s: %s\n", dir, strerror(errno));
        dirty = 1;
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            (allowed && strcmp(e->d_name, allowed) == 0))
            continue;
        printf("dirty: %s contains %s\n", dir, e->d_name);
        dirty = 1;
    }
    closedir(d);
}

static void expect_no_processes(void)
{
    pid_t self = getpid();
    DIR *d = opendir("/proc");
    if (!d) {
        printf("dirty: opendir /proc: %s\n", strerror(errno));
        dirty = 1;
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        long pid = strtol(e->d_name, NULL, 10);
        if (pid == 1 || pid == self)
            continue;
        char path[64], comm[64] = "?";
        snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
        FILE *f = fopen(path, "r");
        if (f) {
            if (fgets(comm, sizeof(comm), f))
                comm[strcspn(comm, "\n")] = '\0';
            fclose(f);
        }
        printf("dirty: process %ld (%s) is still there\n", pid, comm);
        dirty = 1;
    }
    closedir(d);
}

/* SysV IPC objects live in the cell's IPC namespace, not in a file system: none may remain. */
static void expect_no_ipc(void)
{
    static const char *const tables[] = {"/proc/sysvipc/shm", "/proc/sysvipc/sem",
                                         "/proc/sysvipc/msg"};
    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
        FILE *f = fopen(tables[i], "r");
        char line[512];
        int rows = 0;
        if (!f) {
            printf("dirty: open %s: %s\n", tables[i], strerror(errno));
            dirty = 1;
            continue;
        }
        while (fgets(line, sizeof(line), f))
            rows++;
        fclose(f);
        if (rows > 1) { /* the first line is the header */
            printf("dirty: %s lists %d objects\n", tables[i], rows - 1);
            dirty = 1;
        }
    }
}

static void expect_fork(void)
{
    pid_t pid = fork();
    if (pid == 0)
        _exit(42);
    int st = 0;
    if (pid < 0) {
        printf("dirty: fork: %s\n", strerror(errno));
        dirty = 1;
    } else if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 42) {
        printf("dirty: forked child did not exit 42 (status 0x%x)\n", st);
        dirty = 1;
    }
}

int main(void)
{
    expect_empty("/w", "canary");
    expect_empty("/tmp", NULL);
    expect_empty("/dev/shm", NULL);
    expect_no_processes();
    expect_no_ipc();
    expect_fork();
    if (!dirty)
        printf("clean\n");
    return dirty;
}
