/*
 * spawn_rate: the rate at which this machine can posix_spawn + waitpid a program, J at a time
 * (J worker processes, each spawning and waiting N / J times): the floor any server running
 * that program per request is measured against. Prints one line, runs/s; asserts nothing.
 *
 * usage: spawn_rate N J PROGRAM [ARG...]   (J 0: one per CPU)
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int worker(char **argv, long n)
{
    const char *path = argv[0];
    for (long i = 0; i < n; i++) {
        pid_t pid;
        int st;
        if (posix_spawn(&pid, path, NULL, NULL, argv, environ) != 0 ||
            waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: spawn_rate N J PROGRAM [ARG...]\n");
        return 2;
    }
    long n = atol(argv[1]);
    long j = atol(argv[2]);
    if (j == 0)
        j = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1 || j < 0 || j > 4096) {
        fprintf(stderr, "spawn_rate: N and J must be positive (J at most 4096)\n");
        return 2;
    }
    if (j > n)
        j = n;
    double t0 = now_s();
    for (long w = 0; w < j; w++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("spawn_rate: fork");
            return 1;
        }
        if (pid == 0)
            _exit(worker(argv + 3, n / j + (w < n % j)));
    }
    int failed = 0, st;
    while (wait(&st) > 0)
        failed |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    double t = now_s() - t0;
    if (failed) {
        fprintf(stderr, "spawn_rate: %s did not exit 0\n", argv[3]);
        return 1;
    }
    printf("spawn_rate %s runs %ld at_once %ld seconds %.4f per_s %.1f\n", argv[3], n, j, t, n / t);
    return 0;
}
