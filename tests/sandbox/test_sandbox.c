/*
 * The sandbox, for real (label sandbox): exact verdicts and measurements through warm cells,
 * then the hostile-probe suite (probe_table.h), each probe followed by a canary job in the
 * same cell and checks of the host: the cell is the same process, no process of a job uid
 * survives on the host, nothing connected to the host's loopback listener.
 *
 * usage: test_sandbox VERDICT_EXE PROBE_BIN_DIR PROBE_SRC_DIR
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runners/cell.h"
#include "runners/pool.h"
#include "test.h"

/* The top of the host-wide range (uidlock.h), which servers started by other tests beside
 * this one (each takes two uids a cell from 60000 up) do not reach: the processes of these
 * uids on the host are this test's own. */
#define UID_BASE  61100
#define UID_COUNT 84
#define CELLS     2

struct probe_case {
    const char *name;
    const char *file;
    const char *expect;
    const char *stdout_has;
    const char *args[4];
    int time_ms, wall_ms; /* 0: 1 s and 3 s where TLE is expected, else 10 s and 20 s */
    int mem_mb;
    int pids;
    int output_kb;
    int stdin_mb;
    const char *fetch;
    int fetch_must_fail;
};

static const struct probe_case probes[] = {
#include "probe_table.h"
};

static struct pool *pool;
static const char *bin_dir, *src_dir;
static int listen_fd = -1, listen_port;

/* ---- helpers --------------------------------------------------------------------------- */

static uint8_t *slurp(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    uint8_t *buf = malloc((size_t)st.st_size + 1);
    ssize_t n = buf ? read(fd, buf, (size_t)st.st_size) : -1;
    close(fd);
    if (n != st.st_size) {
        free(buf);
        return NULL;
    }
    *len = (size_t)n;
    return buf;
}

struct outcome {
    struct job_result res;
    uint8_t *payload;
    char out[4096]; /* stdout as text, for substring checks */
};

static void run(const struct job *j, struct outcome *o)
{
    pool_run(pool, j, &o->res, &o->payload);
    size_t n = o->res.out_len < sizeof(o->out) - 1 ? o->res.out_len : sizeof(o->out) - 1;
    if (n) /* an SE result has no output at all (out is NULL) */
        memcpy(o->out, o->res.out, n);
    o->out[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (o->out[i] == '\0')
            o->out[i] = ' ';
}

static void done(struct outcome *o)
{
    job_result_fini(&o->res);
    free(o->payload);
    o->payload = NULL;
}

/* Runs `sh -c script` with the given limits. */
static void sh(const char *script, struct job_limits lim, struct outcome *o)
{
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    struct job j = {.argc = 3, .argv = argv, .limits = lim};
    run(&j, o);
}

static char verdict_exe[4096];

/* Number of host processes owned by a job uid of this test's cells (a program's or a grader's),
 * other than the cells' spares (the next job's process, confined but not yet exec'd: still the
 * verdict binary). None may outlive its job. */
/* Whether this process holds uid's lock file (uidlock.h): a uid of one of its cells. Another
 * verdict on the host (a test of another checkout) holds others of the range. */
static bool uid_held(unsigned uid)
{
    DIR *d = opendir("/proc/self/fd");
    bool held = false;
    char want[32];
    snprintf(want, sizeof(want), "/uid-%u.lock", uid);
    for (struct dirent *e; !held && d && (e = readdir(d));) {
        char link[300], target[4096];
        snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
        ssize_t len = readlink(link, target, sizeof(target) - 1);
        target[len > 0 ? len : 0] = '\0';
        size_t tl = strlen(target), wl = strlen(want);
        held = tl > wl && strcmp(target + tl - wl, want) == 0;
    }
    if (d)
        closedir(d);
    return held;
}

static int host_job_processes(void)
{
    DIR *d = opendir("/proc");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[300];
        struct stat st;
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof(path), "/proc/%s", e->d_name);
        if (stat(path, &st) < 0 || st.st_uid < UID_BASE || st.st_uid >= UID_BASE + UID_COUNT ||
            !uid_held(st.st_uid))
            continue;
        char exe[4096], link[320];
        snprintf(link, sizeof(link), "/proc/%s/exe", e->d_name);
        ssize_t len = readlink(link, exe, sizeof(exe) - 1);
        exe[len > 0 ? len : 0] = '\0';
        if (strcmp(exe, verdict_exe) != 0) {
            fprintf(stderr, "job process on the host: pid %s exe %s\n", e->d_name, exe);
            n++;
        }
    }
    if (d)
        closedir(d);
    return n;
}

/* ---- exact verdicts and measurements ---------------------------------------------------- */

static void test_true(void)
{
    struct outcome o;
    const char *argv[] = {"/bin/true", NULL};
    struct job j = {.argc = 1, .argv = argv};
    run(&j, &o);
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    ASSERT_INT_EQ(o.res.exit_code, 0);
    ASSERT_TRUE(o.res.memory_kib > 0);
    done(&o);
}

static void test_exact_output(void)
{
    struct outcome o;
    /* Bytes, including NUL and invalid UTF-8, come back exactly; stderr separately. */
    sh("printf 'a\\000b\\377\\n'; printf err >&2", (struct job_limits){0}, &o);
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    ASSERT_UINT_EQ(o.res.out_len, 5);
    ASSERT_TRUE(memcmp(o.res.out, "a\0b\377\n", 5) == 0);
    ASSERT_UINT_EQ(o.res.err_len, 3);
    ASSERT_TRUE(memcmp(o.res.err, "err", 3) == 0);
    done(&o);
}

static void test_stdin_env_files(void)
{
    struct outcome o;
    const char *argv[] = {"/bin/sh", "-c",
                          "cat; cat sub/dir/data.txt; ls -l run.sh | cut -c1-10; id -u", NULL};
    const char *env[] = {"VERDICT_X=42", NULL};
    struct job_file files[] = {{"sub/dir/data.txt", 0644, (const uint8_t *)"file!\n", 6},
                               {"run.sh", 0755, (const uint8_t *)"#!/bin/sh\n", 10}};
    struct job j = {.argc = 3,
                    .argv = argv,
                    .nenv = 1,
                    .env = env,
                    .nfiles = 2,
                    .files = files,
                    .stdin_data = (const uint8_t *)"in!\n",
                    .stdin_len = 4};
    run(&j, &o);
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    char want[128];
    /* the cell's own uid (uidlock.h: the first free one at or above UID_BASE) */
    snprintf(want, sizeof(want), "in!\nfile!\n-rwxr-xr-x\n%u\n", pool_cell_uid(pool, 0));
    ASSERT_STR_EQ(o.out, want);
    done(&o);
    /* The environment holds exactly what the job set, nothing of the cell's or the host's. */
    const char *env_argv[] = {"/usr/bin/env", NULL};
    struct job e = {.argc = 1, .argv = env_argv, .nenv = 1, .env = env};
    run(&e, &o);
    ASSERT_STR_EQ(o.out, "VERDICT_X=42\n");
    done(&o);
}

/* The standard streams reopened by name, as programs do (open("/dev/stdin") in Python,
 * freopen in C): the pipes are the job's own, not root's. */
static void test_streams_by_name(void)
{
    struct outcome o;
    const char *argv[] = {"/bin/sh", "-c",
                          "cat /dev/stdin; echo out >/dev/stdout; echo err >/dev/stderr", NULL};
    struct job j = {
        .argc = 3, .argv = argv, .stdin_data = (const uint8_t *)"in!\n", .stdin_len = 4};
    run(&j, &o);
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    ASSERT_STR_EQ(o.out, "in!\nout\n");
    ASSERT_TRUE(o.res.err_len == 4 && memcmp(o.res.err, "err\n", 4) == 0);
    done(&o);
}

static void test_exit_and_signal(void)
{
    struct outcome o;
    sh("exit 3", (struct job_limits){0}, &o);
    ASSERT_INT_EQ(o.res.status, JOB_RE);
    ASSERT_INT_EQ(o.res.exit_code, 3);
    ASSERT_INT_EQ(o.res.signal, 0);
    done(&o);
    sh("kill -SEGV $$", (struct job_limits){0}, &o);
    ASSERT_INT_EQ(o.res.status, JOB_RE);
    ASSERT_INT_EQ(o.res.signal, 11);
    ASSERT_INT_EQ(o.res.exit_code, -1);
    done(&o);
    const char *argv[] = {"/nonexistent/program", NULL};
    struct job j = {.argc = 1, .argv = argv};
    run(&j, &o);
    ASSERT_INT_EQ(o.res.status, JOB_RE);
    ASSERT_STR_CONTAINS(o.res.message, "No such file");
    done(&o);
}

/* A grader job (runners/job.h): the grader runs as another uid, holds stdin, talks to the
 * program over fds 3 and 4, is invisible to it in /proc and survives its kill(-1); its exit
 * status is the job's, and its exit ends the job even while the program still runs. */
static void test_grader(void)
{
    struct outcome o;
    const char *prog[] = {"/bin/sh", "-c",
                          "read x <&3; echo \"got $x\" >&4; kill -9 -1; echo killed >&4; "
                          "echo \"stdin:$(cat)\"; stat -c 'visible uid %u' /proc/[0-9]* >&2; "
                          "id -u >&2",
                          NULL};
    const char *grader[] = {"/bin/sh", "-c",
                            "echo ping >&4; read y <&3; read z <&3; echo \"$y $z\"; cat; "
                            "read u <&3; exit 5",
                            NULL};
    struct job j = {.argc = 3,
                    .argv = prog,
                    .grader_argc = 3,
                    .grader_argv = grader,
                    .stdin_data = (const uint8_t *)"secret\n",
                    .stdin_len = 7};
    run(&j, &o);
    ASSERT_INT_EQ(o.res.status, JOB_RE);
    ASSERT_INT_EQ(o.res.exit_code, 5);
    ASSERT_STR_CONTAINS(o.out, "got ping killed\n");
    ASSERT_STR_CONTAINS(o.out, "secret\n");
    ASSERT_STR_CONTAINS(o.out, "stdin:\n"); /* the program's stdin is empty */
    char err[4096], uid[32];
    size_t n = o.res.err_len < sizeof(err) - 1 ? o.res.err_len : sizeof(err) - 1;
    memcpy(err, o.res.err, n);
    err[n] = '\0';
    unsigned prog_uid = pool_cell_uid(pool, 0);
    snprintf(uid, sizeof(uid), "%u\n", prog_uid);
    ASSERT_STR_CONTAINS(err, uid);
    /* every process the program can see in /proc is its own */
    for (const char *p = strstr(err, "visible uid "); p; p = strstr(p + 1, "visible uid "))
        ASSERT_UINT_EQ(strtoul(p + 12, NULL, 10), prog_uid);
    done(&o);
    /* The grader's exit ends the job: the program's sleep does not hold it. */
    const char *sleeper[] = {"/bin/sleep", "100", NULL};
    const char *quick[] = {"/bin/sh", "-c", "id -u", NULL};
    struct job k = {.argc = 2, .argv = sleeper, .grader_argc = 3, .grader_argv = quick};
    run(&k, &o);
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    ASSERT_TRUE(o.res.wall_ms < 5000);
    ASSERT_TRUE(strtoul(o.out, NULL, 10) != prog_uid && strtoul(o.out, NULL, 10) >= UID_BASE);
    done(&o);
    ASSERT_INT_EQ(host_job_processes(), 0);
}

/* A compiled grader's archive (runners/job.h): where grader_argv[0] is an absolute path, that
 * file runs and reads the archive at fd 5, sealed; the program holds no fd 5, and the grader
 * no fd past it. */
static void test_grader_archive(void)
{
    struct outcome o;
    const char *prog[] = {"/bin/sh", "-c",
                          "cat /dev/fd/5 >&2 && echo 'program read it' >&2; "
                          "[ -e /proc/$$/fd/5 ] && echo 'program fd 5' >&2; echo x >&4",
                          NULL};
    const char *grader[] = {"/bin/sh", "-c",
                            "read x <&3; echo \"archive: $(cat /dev/fd/5)\"; "
                            "echo more >>/dev/fd/5 || echo sealed; for i in 3 4 5 6 7 8 9; do "
                            "[ -e /proc/$$/fd/$i ] && echo \"fd $i\"; done; exit 0",
                            NULL};
    static const char archive[] = "the tests' jar";
    struct job j = {.argc = 3,
                    .argv = prog,
                    .grader_argc = 3,
                    .grader_argv = grader,
                    .grader_exe = (const uint8_t *)archive,
                    .grader_exe_len = sizeof(archive) - 1};
    run(&j, &o);
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    ASSERT_STR_CONTAINS(o.out, "archive: the tests' jar\n");
    ASSERT_STR_CONTAINS(o.out, "sealed\n");
    ASSERT_STR_CONTAINS(o.out, "fd 3\nfd 4\nfd 5\n");
    ASSERT_TRUE(strstr(o.out, "fd 6") == NULL && strstr(o.out, "fd 7") == NULL);
    char err[4096];
    size_t n = o.res.err_len < sizeof(err) - 1 ? o.res.err_len : sizeof(err) - 1;
    memcpy(err, o.res.err, n);
    err[n] = '\0';
    ASSERT_TRUE(strstr(err, "program read it") == NULL && strstr(err, "program fd 5") == NULL);
    ASSERT_TRUE(strstr(err, "tests' jar") == NULL);
    done(&o);
}

static void test_cpu_limit(void)
{
    struct outcome o;
    sh("while :; do :; done", (struct job_limits){.cpu_ms = 300, .wall_ms = 5000}, &o);
    ASSERT_INT_EQ(o.res.status, JOB_TLE);
    ASSERT_INT_EQ(o.res.tle_clock, JOB_CLOCK_CPU);
    ASSERT_TRUE(o.res.cpu_ms >= 300 + 50); /* only past the limit and its grace */
    ASSERT_TRUE(o.res.cpu_ms < 300 + 250); /* killed within a few polls */
    ASSERT_STR_EQ(o.res.message, "CPU time limit exceeded");
    done(&o);
}

static void test_wall_limit(void)
{
    /* What starting the shell and sleep costs on this machine (an emulated guest's exec is
     * many times a native one): the sleeping job may cost that, and little more. On an
     * emulated guest the time its host takes from the virtual CPU is charged to whatever was
     * running, so a try whose CPU time is off by that is measured again (at most three
     * times); a job charged for its sleep fails every try. */
    struct outcome o;
    bool cheap = false;
    for (int tries = 1;; tries++) {
        sh("sleep 0", (struct job_limits){.cpu_ms = 10000}, &o);
        ASSERT_INT_EQ(o.res.status, JOB_OK);
        int64_t start_ms = o.res.cpu_ms;
        done(&o);
        sh("sleep 10", (struct job_limits){.cpu_ms = 1000, .wall_ms = 400}, &o);
        cheap = o.res.cpu_ms < start_ms + 50;
        if (cheap || tries == 3)
            break;
        fprintf(stderr, "try %d: slept for %lld ms of CPU; starting costs %lld\n", tries,
                (long long)o.res.cpu_ms, (long long)start_ms);
        done(&o);
    }
    ASSERT_INT_EQ(o.res.status, JOB_TLE);
    ASSERT_INT_EQ(o.res.tle_clock, JOB_CLOCK_WALL);
    ASSERT_TRUE(o.res.wall_ms >= 400);
    ASSERT_TRUE(o.res.wall_ms < 400 + 500);
    ASSERT_TRUE(cheap);
    ASSERT_STR_EQ(o.res.message, "wall time limit exceeded");
    /* counted where the host has a PMU, else not at all (never a made-up 0) */
    ASSERT_TRUE(o.res.instructions == -1 || o.res.instructions > 0);
    done(&o);
}

static void test_memory_limit(void)
{
    struct outcome o;
    /* 64 MiB limit; the shell builds an ever-growing string until the OOM killer ends it. */
    sh("x=aaaaaaaaaaaaaaaa; while :; do x=$x$x; done",
       (struct job_limits){.memory_bytes = 64 << 20, .cpu_ms = 10000}, &o);
    ASSERT_INT_EQ(o.res.status, JOB_MLE);
    ASSERT_TRUE(o.res.memory_kib >= 60 * 1024);
    ASSERT_TRUE(o.res.memory_kib <= 64 * 1024 + 64);
    done(&o);
}

/* Cgroups serve several jobs in turn: what one job used must not show in the next. */
static void test_counters_restart(void)
{
    struct outcome o;
    /* 32 MiB of string and some CPU: about 0.25 s here, 3 s in an emulated guest */
    sh("x=aaaaaaaaaaaaaaaa; i=0; while [ $i -lt 21 ]; do x=$x$x; i=$((i+1)); done; "
       "t=0; while [ $t -lt 30000 ]; do t=$((t+1)); done",
       (struct job_limits){.cpu_ms = 60000}, &o);
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    ASSERT_TRUE(o.res.memory_kib > 32 * 1024);
    ASSERT_TRUE(o.res.cpu_ms > 50);
    int64_t first_ms = o.res.cpu_ms;
    done(&o);
    const char *argv[] = {"/bin/true", NULL};
    struct job j = {.argc = 1, .argv = argv};
    run(&j, &o);
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    ASSERT_TRUE(o.res.memory_kib < 2048);
    ASSERT_TRUE(o.res.cpu_ms < first_ms / 4); /* the counters carried over would be more */
    done(&o);
}

static void test_output_limit(void)
{
    struct outcome o;
    sh("while :; do echo 0123456789abcdef; done",
       (struct job_limits){.stdout_bytes = 100000, .cpu_ms = 5000}, &o);
    ASSERT_INT_EQ(o.res.status, JOB_OLE);
    ASSERT_TRUE(o.res.stdout_truncated);
    ASSERT_UINT_EQ(o.res.out_len, 100000); /* exactly the cap, and no more */
    done(&o);
}

static void test_large_output_drained(void)
{
    /* 8 MiB through a pipe while the program is still writing: never a deadlock, exact. */
    struct outcome o;
    sh("head -c 8388608 /dev/zero", (struct job_limits){0}, &o);
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    ASSERT_UINT_EQ(o.res.out_len, 8388608);
    done(&o);
}

static void test_fetch(void)
{
    struct outcome o;
    const char *argv[] = {"/bin/sh", "-c",
                          "printf result > out.txt; ln -s /etc/passwd link; mkfifo fifo; "
                          "head -c 2000 /dev/zero > big",
                          NULL};
    const char *fetch[] = {"out.txt", "link", "fifo", "big", "missing", "../etc/passwd", NULL};
    struct job j = {
        .argc = 3, .argv = argv, .nfetch = 6, .fetch = fetch, .limits = {.fetch_bytes = 1000}};
    run(&j, &o);
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    ASSERT_INT_EQ(o.res.nfetched, 6);
    ASSERT_INT_EQ(o.res.fetched[0].error, 0);
    ASSERT_UINT_EQ(o.res.fetched[0].len, 6);
    ASSERT_TRUE(memcmp(o.res.fetched[0].data, "result", 6) == 0);
    ASSERT_INT_EQ(o.res.fetched[1].error, -ELOOP);  /* symlink refused */
    ASSERT_INT_EQ(o.res.fetched[2].error, -EINVAL); /* FIFO refused, without blocking */
    ASSERT_INT_EQ(o.res.fetched[3].error, -EFBIG);
    ASSERT_INT_EQ(o.res.fetched[4].error, -ENOENT);
    ASSERT_INT_EQ(o.res.fetched[5].error, -EINVAL);
    done(&o);
}

/* A path listed many times is read once, and the total fetched is capped (fetch_total, at
 * most JOB_FETCH_TOTAL): the cell never allocates count x size. By default the total is the
 * one file's cap: a run's files are what its answer carries. */
static void test_fetch_dedupe_and_total(void)
{
    struct outcome o;
    const char *argv[] = {"/bin/sh", "-c",
                          "head -c 12582912 /dev/zero > a && for f in b c d e f; do ln a $f; done",
                          NULL};
    const char *fetch[] = {"a", "a", "a", "b", "c", "d", "e", "f", NULL};
    struct job j = {.argc = 3,
                    .argv = argv,
                    .nfetch = 8,
                    .fetch = fetch,
                    .limits = {.memory_bytes = 256 << 20,
                               .fetch_bytes = 16 << 20,
                               .fetch_total = UINT64_MAX}}; /* asked past it: JOB_FETCH_TOTAL */
    run(&j, &o);
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    ASSERT_INT_EQ(o.res.nfetched, 8);
    ASSERT_INT_EQ(o.res.fetched[0].error, 0);
    ASSERT_UINT_EQ(o.res.fetched[0].len, 12582912);
    ASSERT_INT_EQ(o.res.fetched[1].error, -EEXIST); /* repeats are not read again */
    ASSERT_INT_EQ(o.res.fetched[2].error, -EEXIST);
    uint64_t total = 0;
    int refused = 0;
    for (int i = 0; i < o.res.nfetched; i++) {
        total += o.res.fetched[i].len;
        refused += o.res.fetched[i].error == -EFBIG;
    }
    ASSERT_TRUE(total <= JOB_FETCH_TOTAL);
    ASSERT_INT_EQ(refused, 1); /* 6 links x 12 MiB: the sixth would pass 64 MiB */
    ASSERT_INT_EQ(o.res.fetched[7].error, -EFBIG);
    done(&o);
    j.limits.fetch_total = 0; /* the default: fetch_bytes in all */
    run(&j, &o);
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    ASSERT_INT_EQ(o.res.fetched[0].error, 0);
    for (int i = 3; i < 8; i++)
        ASSERT_INT_EQ(o.res.fetched[i].error, -EFBIG); /* 12 + 12 MiB would pass 16 MiB */
    done(&o);
}

/* A job that cannot be encoded is SE with the reason, and the cell lives. */
static void test_unsendable_job_is_se(void)
{
    struct outcome o;
    int cell = pool_cell_pid(pool, 0);
    const char *argv[] = {"/bin/true", NULL, NULL};
    struct job j = {.argc = 2, .argv = argv}; /* argc says 2, argv[1] is missing */
    run(&j, &o);
    ASSERT_INT_EQ(o.res.status, JOB_SE);
    ASSERT_STR_CONTAINS(o.res.message, "argv entry 1 is missing");
    done(&o);
    ASSERT_INT_EQ(pool_cell_pid(pool, 0), cell);
}

/* More binds than a cell holds is a start failure with the reason. */
static void test_too_many_binds(void)
{
    const char *binds[CELL_MAX_BINDS + 1];
    for (int i = 0; i <= CELL_MAX_BINDS; i++)
        binds[i] = "/opt";
    struct cell_config cfg = {.exe = verdict_exe,
                              .uid = UID_BASE + 2 * CELLS,
                              .gid = UID_BASE + 2 * CELLS,
                              .nbinds = CELL_MAX_BINDS + 1,
                              .binds = binds};
    struct cell *c = NULL;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(cell_start(&cfg, &c, err), -E2BIG);
    ASSERT_STR_CONTAINS(err, "binds");
    ASSERT_TRUE(c == NULL);
}

/* A lock on a shared read-only file (/usr/bin/env) held by a job in one
 * cell is not seen by a job in another (each cell's /usr is its own overlay). */
struct locker {
    struct outcome o;
    const char *script;
};

static void *locker_main(void *arg)
{
    struct locker *l = arg;
    sh(l->script, (struct job_limits){.wall_ms = 10000}, &l->o);
    return NULL;
}

static void test_flock_between_cells(void)
{
    struct locker hold = {.script = "exec flock -x /usr/bin/env sleep 3"};
    struct locker probe = {.script = "sleep 1; flock -n -x /usr/bin/env true && echo free || "
                                     "echo 'ESCAPED: lock seen from another cell'"};
    pthread_t a, b;
    ASSERT_INT_EQ(pthread_create(&a, NULL, locker_main, &hold), 0);
    ASSERT_INT_EQ(pthread_create(&b, NULL, locker_main, &probe), 0);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    ASSERT_INT_EQ(hold.o.res.status, JOB_OK);
    ASSERT_INT_EQ(probe.o.res.status, JOB_OK);
    ASSERT_STR_CONTAINS(probe.o.out, "free");
    done(&hold.o);
    done(&probe.o);
}

/* Jobs that find every cell busy are served in the order they came: a cell that comes free
 * goes to the first in line. Both cells are held (the first for 1 s, the second for 4 s); five
 * jobs join the line one at a time (each once the pool has counted the one before it in line),
 * and each prints when it started. The first cell serves them all, in order, before the
 * second comes free. */
static void test_waiters_served_in_order(void)
{
    enum { WAITERS = 5 };
    struct locker hold[CELLS], line[WAITERS]; /* sh with a 10 s wall limit */
    pthread_t th[CELLS + WAITERS];
    memset(hold, 0, sizeof(hold));
    memset(line, 0, sizeof(line));
    for (int i = 0; i < CELLS; i++) {
        hold[i].script = i == 0 ? "sleep 1" : "sleep 4";
        ASSERT_INT_EQ(pthread_create(&th[i], NULL, locker_main, &hold[i]), 0);
    }
    struct pool_stats st;
    for (int tries = 0; tries < 1000; tries++, usleep(2000)) /* both cells taken */
        if (pool_get_stats(pool, &st), st.busy == CELLS)
            break;
    ASSERT_INT_EQ(st.busy, CELLS);
    unsigned waited = st.waited;
    for (int k = 0; k < WAITERS; k++) {
        line[k].script = "date +%s%N; sleep 0.1";
        ASSERT_INT_EQ(pthread_create(&th[CELLS + k], NULL, locker_main, &line[k]), 0);
        for (int tries = 0; tries < 2500; tries++, usleep(2000)) /* it joined the line */
            if (pool_get_stats(pool, &st), st.waited == waited + (unsigned)k + 1)
                break;
        ASSERT_INT_EQ(st.waited, waited + (unsigned)k + 1);
    }
    for (int i = 0; i < CELLS + WAITERS; i++)
        pthread_join(th[i], NULL);
    long long last = 0;
    for (int k = 0; k < WAITERS; k++) {
        ASSERT_INT_EQ(line[k].o.res.status, JOB_OK);
        long long started = atoll(line[k].o.out);
        ASSERT_TRUE(started > 0);
        ASSERT_TRUE(started > last); /* first come, first served */
        last = started;
        done(&line[k].o);
    }
    for (int i = 0; i < CELLS; i++) {
        ASSERT_INT_EQ(hold[i].o.res.status, JOB_OK);
        done(&hold[i].o);
    }
    pool_get_stats(pool, &st);
    ASSERT_INT_EQ(st.waiting, 0);
}

static void test_bad_job_is_se(void)
{
    struct outcome o;
    const char *argv[] = {"/bin/true", NULL};
    struct job_file files[] = {{"../escape", 0644, (const uint8_t *)"x", 1}};
    struct job j = {.argc = 1, .argv = argv, .nfiles = 1, .files = files};
    run(&j, &o);
    ASSERT_INT_EQ(o.res.status, JOB_SE);
    ASSERT_STR_CONTAINS(o.res.message, "bad file path");
    done(&o);
}

/* ---- hostile probes -------------------------------------------------------------------- */

static bool status_in(enum job_status s, const char *expect)
{
    const char *name = job_status_name(s);
    size_t n = strlen(name);
    for (const char *p = expect; *p;) {
        size_t len = strcspn(p, "|");
        if (len == n && strncmp(p, name, n) == 0)
            return true;
        p += len + (p[len] == '|');
    }
    return false;
}

static void canary(int cell_pid_before, const char *after)
{
    char path[512];
    size_t len = 0;
    snprintf(path, sizeof(path), "%s/canary", bin_dir);
    uint8_t *data = slurp(path, &len);
    ASSERT_NOT_NULL(data);
    const char *argv[] = {"./canary", NULL};
    struct job_file f = {"canary", 0755, data, len};
    struct job j = {.argc = 1, .argv = argv, .nfiles = 1, .files = &f};
    struct outcome o;
    run(&j, &o);
    free(data);
    if (o.res.status != JOB_OK || !strstr(o.out, "clean"))
        fprintf(stderr, "canary after %s: %s %s\n%s\n", after, job_status_name(o.res.status),
                o.res.message, o.out);
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    ASSERT_STR_CONTAINS(o.out, "clean");
    done(&o);
    ASSERT_INT_EQ(pool_cell_pid(pool, 0), cell_pid_before); /* the cell survived */
    ASSERT_INT_EQ(pool_replaced(pool), 0);
    ASSERT_INT_EQ(host_job_processes(), 0); /* nothing escaped into the host */
    int c = accept(listen_fd, NULL, NULL);  /* non-blocking: nobody reached the host */
    if (c >= 0)
        close(c);
    ASSERT_TRUE(c < 0);
}

/* VERDICT_PYTHON_WARM=on: every probe runs in a cell whose warm interpreter lives
 * (runners/zygote.h: jobs then end by cgroup, not kill(-1)), and the Python probes start from
 * it. */
static bool warm_mode;

static bool python_warm_now(void)
{
    static const char code[] = "import sys\nprint('WARM' if 'statistics' in sys.modules else "
                               "'COLD')\n";
    const char *argv[] = {"/usr/bin/python3", "-I", "main.py", NULL};
    struct job_file f = {"main.py", 0644, (const uint8_t *)code, sizeof(code) - 1};
    struct job j = {.argc = 3, .argv = argv, .nfiles = 1, .files = &f, .warm = JOB_WARM_PYTHON};
    struct outcome o;
    run(&j, &o);
    bool warm = o.res.status == JOB_OK && strcmp(o.out, "WARM\n") == 0;
    done(&o);
    return warm;
}

static void ensure_zygote(void)
{
    for (int i = 0; i < 200 && !python_warm_now(); i++)
        usleep(20000);
}

static bool run_probe(const struct probe_case *pc)
{
    char path[512], port[16], exe[80];
    const char *dot = strrchr(pc->file, '.');
    bool is_c = dot && strcmp(dot, ".c") == 0;
    if (is_c)
        snprintf(path, sizeof(path), "%s/%.*s", bin_dir, (int)(dot - pc->file), pc->file);
    else
        snprintf(path, sizeof(path), "%s/%s", src_dir, pc->file);
    size_t len = 0;
    uint8_t *data = slurp(path, &len);
    if (!data) {
        fprintf(stderr, "probe %s: cannot read %s\n", pc->name, path);
        return false;
    }
    const char *argv[8] = {0};
    int argc = 0;
    snprintf(exe, sizeof(exe), "./%s", is_c ? "probe" : pc->file);
    bool py = !is_c && strcmp(dot, ".py") == 0;
    if (!is_c)
        argv[argc++] = py ? "/usr/bin/python3" : "/bin/sh";
    if (py && warm_mode)
        argv[argc++] = "-I";
    argv[argc++] = py && warm_mode ? pc->file : exe;
    snprintf(port, sizeof(port), "%d", listen_port);
    for (int i = 0; i < 4 && pc->args[i]; i++)
        argv[argc++] = strcmp(pc->args[i], "@PORT") == 0 ? port : pc->args[i];
    if (warm_mode && strcmp(pc->name, "proc_scan") == 0)
        argv[argc++] = "warm"; /* the cell's zygote is one more (unsignalable) process */
    struct job_file f = {is_c ? "probe" : pc->file, 0755, data, len};
    size_t in_len = (size_t)pc->stdin_mb << 20;
    uint8_t *in = in_len ? malloc(in_len) : NULL;
    if (in)
        memset(in, 'x', in_len);
    const char *fetch[] = {pc->fetch, NULL};
    /* A probe that must not time out gets time to spare: on a slow machine (an emulated
     * guest starts Python in half a second) a tight limit would be the verdict. */
    bool may_tle = strstr(pc->expect, "TLE") != NULL;
    struct job j = {
        .argc = argc,
        .argv = argv,
        .nfiles = 1,
        .files = &f,
        .stdin_data = in,
        .stdin_len = in_len,
        .nfetch = pc->fetch ? 1 : 0,
        .fetch = fetch,
        .limits = {.cpu_ms = pc->time_ms ? pc->time_ms
                             : may_tle   ? 1000
                                         : 10000,
                   .wall_ms = pc->wall_ms ? pc->wall_ms
                              : may_tle   ? 3000
                                          : 20000,
                   .memory_bytes = (uint64_t)(pc->mem_mb ? pc->mem_mb : 128) << 20,
                   .pids = (uint32_t)(pc->pids ? pc->pids : 32),
                   .stdout_bytes = (uint64_t)(pc->output_kb ? pc->output_kb : 1024) << 10,
                   .stderr_bytes = (uint64_t)(pc->output_kb ? pc->output_kb : 1024) << 10,
                   .file_bytes = 16 << 20},
        .warm = py && warm_mode ? JOB_WARM_PYTHON : JOB_COLD};
    if (warm_mode)
        ensure_zygote();
    struct outcome o;
    run(&j, &o);
    free(data);
    free(in);
    bool ok = status_in(o.res.status, pc->expect) && !strstr(o.out, "ESCAPED") &&
              (!pc->stdout_has || strstr(o.out, pc->stdout_has));
    if (pc->fetch && o.res.nfetched == 1)
        ok = ok && (pc->fetch_must_fail ? o.res.fetched[0].error != 0 : true);
    printf("%s probe %-28s %-4s cpu %5lld ms wall %5lld ms mem %7llu KiB  %.60s\n",
           ok ? "ok  " : "FAIL", pc->name, job_status_name(o.res.status), (long long)o.res.cpu_ms,
           (long long)o.res.wall_ms, (unsigned long long)o.res.memory_kib,
           strtok(o.out, "\n") ? o.out : "");
    if (!ok)
        fprintf(stderr, "  want %s%s%s; message: %s\n", pc->expect,
                pc->stdout_has ? " with stdout containing " : "",
                pc->stdout_has ? pc->stdout_has : "", o.res.message);
    done(&o);
    return ok;
}

static void test_probes(void)
{
    int cell = pool_cell_pid(pool, 0);
    size_t n = sizeof(probes) / sizeof(probes[0]);
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        failed += !run_probe(&probes[i]);
        int before = test_failed_;
        canary(cell, probes[i].name);
        if (test_failed_ != before)
            return;
    }
    printf("%zu probes, %d failed\n", n, failed);
    ASSERT_TRUE(n >= 40);
    ASSERT_INT_EQ(failed, 0);
}

/* A cell killed from outside is replaced, and the job still gets a real answer. */
static void test_dead_cell_replaced(void)
{
    int old = pool_cell_pid(pool, 0);
    unsigned replaced = pool_replaced(pool);
    ASSERT_TRUE(old > 0);
    kill(old, SIGKILL);
    struct outcome o;
    sh("echo alive", (struct job_limits){0}, &o);
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    ASSERT_STR_EQ(o.out, "alive\n");
    done(&o);
    ASSERT_INT_EQ(pool_replaced(pool), replaced + 1);
    ASSERT_TRUE(pool_cell_pid(pool, 0) > 0);
    ASSERT_TRUE(pool_cell_pid(pool, 0) != old);
    ASSERT_INT_EQ(host_job_processes(), 0);
}

static int listen_on_host_loopback(void)
{
    listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof(a);
    if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
        listen(listen_fd, 8) < 0 || getsockname(listen_fd, (struct sockaddr *)&a, &al) < 0)
        return -errno;
    listen_port = ntohs(a.sin_port);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_sandbox VERDICT_EXE PROBE_BIN_DIR PROBE_SRC_DIR\n");
        return 2;
    }
    if (geteuid() != 0)
        TEST_SKIP("the sandbox needs root");
    if (!realpath(argv[1], verdict_exe)) {
        fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    bin_dir = argv[2];
    src_dir = argv[3];
    warm_mode = getenv("VERDICT_PYTHON_WARM") && strcmp(getenv("VERDICT_PYTHON_WARM"), "on") == 0;
    char err[ERR_LEN];
    struct pool_config pc = {
        .cells = CELLS, .exe = argv[1], .uid_base = UID_BASE, .uid_count = UID_COUNT};
    if (pool_new(&pc, &pool, err) < 0) {
        fprintf(stderr, "pool: %s\n", err);
        return 1;
    }
    if (listen_on_host_loopback() < 0) {
        fprintf(stderr, "listen: %s\n", strerror(errno));
        return 1;
    }
    TEST_RUN(test_true);
    TEST_RUN(test_exact_output);
    TEST_RUN(test_stdin_env_files);
    TEST_RUN(test_streams_by_name);
    TEST_RUN(test_exit_and_signal);
    TEST_RUN(test_grader);
    TEST_RUN(test_grader_archive);
    TEST_RUN(test_cpu_limit);
    TEST_RUN(test_wall_limit);
    TEST_RUN(test_memory_limit);
    TEST_RUN(test_counters_restart);
    TEST_RUN(test_output_limit);
    TEST_RUN(test_large_output_drained);
    TEST_RUN(test_fetch);
    TEST_RUN(test_fetch_dedupe_and_total);
    TEST_RUN(test_unsendable_job_is_se);
    TEST_RUN(test_too_many_binds);
    TEST_RUN(test_flock_between_cells);
    TEST_RUN(test_waiters_served_in_order);
    TEST_RUN(test_bad_job_is_se);
    TEST_RUN(test_probes);
    TEST_RUN(test_dead_cell_replaced); /* last: the probes check that no cell was replaced */
    pool_free(pool);
    close(listen_fd);
    return TEST_EXIT();
}
