/*
 * bench_spawn: what a warm cell costs per run, against plain posix_spawn + waitpid of the same
 * program in the same process, interleaved in rounds so that machine noise hits both alike.
 * Prints a ratio (verdict / plain) per program, of wall time and of CPU time (this process,
 * plus its reaped children for the plain runs, plus the cell and the jobs it reaped for the
 * cell's runs: on a loaded machine the CPU ratio is the steadier one); it asserts nothing.
 *
 * usage: bench_spawn VERDICT_EXE NOOP_STATIC [RUNS]   (root: cells need namespaces, cgroups)
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runners/pool.h"

#define ROUNDS 10

extern char **environ;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv_s(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* CPU seconds of this process (every thread) and of the children it has reaped. */
static double own_cpu_s(void)
{
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    return tv_s(self.ru_utime) + tv_s(self.ru_stime) + tv_s(kids.ru_utime) + tv_s(kids.ru_stime);
}

/* CPU seconds of a process and of the children it has reaped (/proc/pid/stat, in ticks). */
static double proc_cpu_s(int pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    unsigned long long v[4] = {0};
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
                     &v[0], &v[1], &v[2], &v[3]) != 4)
        return 0;
    return (double)(v[0] + v[1] + v[2] + v[3]) / (double)sysconf(_SC_CLK_TCK);
}

static int plain(const char *path, int n)
{
    char arg0[256];
    snprintf(arg0, sizeof(arg0), "%s", path);
    char *argv[] = {arg0, NULL};
    for (int i = 0; i < n; i++) {
        pid_t pid;
        int st;
        if (posix_spawn(&pid, path, NULL, NULL, argv, environ) != 0 ||
            waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            return -1;
    }
    return 0;
}

static int boxed(struct pool *p, const char *path, int n)
{
    const char *argv[] = {path, NULL};
    struct job j = {.argc = 1, .argv = argv};
    for (int i = 0; i < n; i++) {
        struct job_result res;
        uint8_t *payload;
        pool_run(p, &j, &res, &payload);
        int ok = res.status == JOB_OK;
        if (!ok)
            fprintf(stderr, "run %d: %s %s\n", i, job_status_name(res.status), res.message);
        job_result_fini(&res);
        free(payload);
        if (!ok)
            return -1;
    }
    return 0;
}

static int bench(struct pool *p, const char *label, const char *path, int runs)
{
    double t_plain = 0, t_box = 0, c_plain = 0, c_box = 0;
    int per = runs / ROUNDS, cell = pool_cell_pid(p, 0);
    if (boxed(p, path, 20) < 0 || plain(path, 20) < 0) /* warm caches */
        return -1;
    for (int r = 0; r < ROUNDS; r++) {
        double c0 = own_cpu_s(), t0 = now_s();
        if (plain(path, per) < 0)
            return -1;
        double c1 = own_cpu_s(), k1 = proc_cpu_s(cell), t1 = now_s();
        if (boxed(p, path, per) < 0)
            return -1;
        double t2 = now_s(), c2 = own_cpu_s(), k2 = proc_cpu_s(cell);
        t_plain += t1 - t0;
        t_box += t2 - t1;
        c_plain += c1 - c0;
        c_box += (c2 - c1) + (k2 - k1);
    }
    int n = per * ROUNDS;
    printf("%-12s runs %5d  plain %7.1f us/run  warm cell %7.1f us/run  ratio %.2fx  "
           "CPU: plain %7.1f us/run  warm cell %7.1f us/run  ratio %.2fx\n",
           label, n, t_plain / n * 1e6, t_box / n * 1e6, t_box / t_plain, c_plain / n * 1e6,
           c_box / n * 1e6, c_plain > 0 ? c_box / c_plain : 0.0);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_spawn VERDICT_EXE NOOP_STATIC [RUNS]\n");
        return 2;
    }
    int runs = argc > 3 ? atoi(argv[3]) : 1000;
    if (runs < ROUNDS)
        runs = ROUNDS;
    /* The static no-op lives in the build tree: bind its directory into the cell. */
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s", argv[2]);
    char *slash = strrchr(dir, '/');
    if (!slash || argv[2][0] != '/') {
        fprintf(stderr, "NOOP_STATIC must be an absolute path\n");
        return 2;
    }
    *slash = '\0';
    const char *binds[] = {dir};
    struct pool_config pc = {
        .cells = 1, .exe = argv[1], .uid_base = 62000, .nbinds = 1, .binds = binds};
    struct pool *p;
    char err[ERR_LEN];
    if (pool_new(&pc, &p, err) < 0) {
        fprintf(stderr, "bench_spawn: %s\n", err);
        return 1;
    }
    int rc = bench(p, "/bin/true", "/bin/true", runs);
    if (rc == 0)
        rc = bench(p, "static no-op", argv[2], runs);
    pool_free(p);
    return rc < 0 ? 1 : 0;
}
