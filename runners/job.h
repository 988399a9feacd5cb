/*
 * job: what a cell is asked to run, and what it answers (the data model of the sandbox).
 *
 * A job is files to place in the work directory, argv, env (the environment is cleared, then
 * only these), stdin bytes, files to fetch back, and limits; optionally a grader.
 *
 * A job with a grader has two processes. The grader (grader_argv, the same env, cwd "/") runs
 * as the cell's second uid, so the program can neither read, trace nor signal it, nor see it
 * in /proc; its stdin is the job's stdin bytes (typically the grader's own code and the tests,
 * which thus never exist in any file). The program (argv, cwd the work dir, the cell's uid)
 * gets an empty stdin and a channel to the grader: it reads on fd 3 what the grader writes on
 * its fd 4, and writes on fd 4 what the grader reads on its fd 3. Both write to the captured
 * stdout and stderr. A compiled grader (grader_exe) is an executable the cell writes to a
 * sealed memory file of its own and executes from there (execveat), grader_argv being its
 * argv: no file of any directory holds it, so the program cannot read the tests' expected
 * values out of it. Where grader_argv[0] is an absolute path, that file is executed instead,
 * and the memory file is an archive it reads at fd JOB_GRADER_EXE_FD (/dev/fd/5: Java's jar
 * on the class path); the program never holds it either. The job ends when the grader exits, and
 * the grader's exit status is the job's: the program's own exit decides nothing. A result is a
 * status with the numbers that justify it. Both travel over the cell's socket
 * (job_encode/job_decode and result_encode/result_decode); decoded strings and buffers are borrowed
 * from the received payload, which must outlive the decoded struct.
 */
#ifndef VERDICT_JOB_H
#define VERDICT_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runners/err.h"
#include "runners/wire.h"

#define JOB_MAX_ARGS  4096
#define JOB_MAX_FILES 1024
#define JOB_MSG_LEN   256
/* Bytes fetched back per job, all files together, at most: a file past it is answered -EFBIG
 * and never read, so a job listing one big file many times cannot make the cell (outside every
 * job cgroup) allocate more than this. Each file is also capped by job_limits.fetch_bytes, all
 * of them by job_limits.fetch_total (by default the one file's cap: a run's files are what its
 * answer carries, and the server holds them), and a path listed twice is read once (the
 * repeats are answered -EEXIST). */
#define JOB_FETCH_TOTAL (64ull << 20)

/* Every field has a unit; 0 means "use the default" (job_limits_defaults). */
struct job_limits {
    int64_t cpu_ms;        /* CPU time, all threads and processes, ms -> TLE (cpu) past it
                              and its grace (runners/clock.h) */
    int64_t wall_ms;       /* wall-clock time from exec to exit, not counting time spent
                              waiting for a CPU, ms -> TLE (wall) past it and its grace */
    int64_t backstop_ms;   /* elapsed wall time, waiting included, ms -> SE (starved by
                              load) for a job still within wall_ms (runners/clock.h) */
    uint64_t instructions; /* user-mode instructions retired, all processes; 0 = no limit
                              -> TLE (instructions), where the host can count them */
    uint64_t memory_bytes; /* cgroup memory limit, bytes, swap off -> MLE */
    uint64_t stack_bytes;  /* RLIMIT_STACK, bytes (default: the memory limit) */
    uint64_t stdout_bytes; /* captured stdout cap, bytes -> OLE, truncated */
    uint64_t stderr_bytes; /* captured stderr cap, bytes -> OLE, truncated */
    uint64_t file_bytes;   /* RLIMIT_FSIZE: largest file the program may write, bytes */
    uint64_t fetch_bytes;  /* largest file fetched back, bytes */
    uint64_t fetch_total;  /* all files fetched back together, bytes (default: fetch_bytes;
                              never more than JOB_FETCH_TOTAL): what a run's answer can carry */
    uint32_t pids;         /* cgroup pids.max: processes + threads */
    uint32_t nofile;       /* RLIMIT_NOFILE */
    bool starved_tle;      /* at the backstop the job is TLE (wall), not SE: wall_ms is
                              elapsed time by contract, waiting forgiven only up to the
                              backstop (SandboxFusion's run_timeout, /run_code) */
};

struct job_file {
    const char *path;    /* relative to the work dir; no "..", not absolute */
    uint32_t mode;       /* permission bits, e.g. 0755 */
    const uint8_t *data; /* contents (borrowed) */
    size_t len;          /* bytes */
};

/* How the job's first process may start: always by execve (cold), or forked from the cell's
 * warm Python interpreter when the job has its shape (runners/zygote.h). */
enum job_warm { JOB_COLD, JOB_WARM_PYTHON };

struct job {
    int argc;
    const char *const *argv; /* argv[0] is the program: a path, or a name searched in PATH */
    int nenv;
    const char *const *env; /* "NAME=value" */
    int nfiles;
    const struct job_file *files;
    const uint8_t *stdin_data;
    size_t stdin_len;
    int nfetch;
    const char *const *fetch; /* work-dir-relative paths to read back */
    struct job_limits limits;
    int grader_argc; /* 0: no grader */
    const char *const *grader_argv;
    const uint8_t *grader_exe; /* a compiled grader's executable, or NULL (runs grader_argv) */
    size_t grader_exe_len;
    uint32_t warm; /* enum job_warm: the program (and a python grader) may start warm */
};

#define JOB_GRADER_EXE_FD 5 /* a compiled grader's archive, for an interpreter's grader_argv */

enum job_status { JOB_OK, JOB_RE, JOB_TLE, JOB_MLE, JOB_OLE, JOB_SE };
/* JOB_CLOCK_SESSION: a session's CPU, all its calls together (runners/session.h). */
enum job_clock {
    JOB_CLOCK_NONE,
    JOB_CLOCK_CPU,
    JOB_CLOCK_WALL,
    JOB_CLOCK_INSTRUCTIONS,
    JOB_CLOCK_SESSION
};

struct job_fetched {
    const char *path;
    int error;           /* 0, or a negative errno: -ELOOP symlink, -EFBIG too big, ... */
    const uint8_t *data; /* contents when error == 0 */
    size_t len;
};

struct job_result {
    enum job_status status;
    enum job_clock tle_clock; /* which clock fired, for TLE */
    int exit_code;            /* exit status, or -1 when killed by a signal */
    int signal;               /* the killing signal, 0 if it exited */
    int64_t cpu_ms;           /* CPU time from the cgroup counter, ms */
    int64_t wall_ms;          /* wall time, ms */
    uint64_t memory_kib;      /* peak memory from the cgroup, KiB */
    int64_t instructions;     /* user-mode instructions retired (runners/perf.h), -1 where
                                 the host cannot count them */
    int64_t waited_ms;        /* the longest time one of its tasks waited runnable for a CPU
                                 (schedstat run delay, sampled): the load it met, ms */
    bool starved;             /* SE at the backstop: stopped within its limits, waiting for a
                                 CPU (the judge runs it again: server/judge/judge.c) */
    bool stdout_truncated, stderr_truncated;
    const uint8_t *out; /* stdout bytes, exact (borrowed) */
    size_t out_len;
    const uint8_t *err; /* stderr bytes */
    size_t err_len;
    int nfetched;
    struct job_fetched *fetched; /* heap array (job_result_fini frees it), data borrowed */
    char message[JOB_MSG_LEN];   /* why: the SE reason, the exec failure, the limit that fired */
};

/* Fills zero fields of l with the defaults (cpu 2 s, wall 3x cpu + 1 s, backstop 3x wall,
 * memory 256 MiB,
 * stack = memory, stdout/stderr 16 MiB, files 64 MiB, fetch 16 MiB, pids 64, nofile 256).
 * The size of the job's tmpfs mounts is the cell's, not the job's (struct cell_config). */
void job_limits_defaults(struct job_limits *l);

/* "OK", "RE", "TLE", "MLE", "OLE", "SE". */
const char *job_status_name(enum job_status s);

/* The limit a TLE names: "cpu", "wall", "instructions", "session_cpu"; NULL for
 * JOB_CLOCK_NONE. */
const char *job_clock_name(enum job_clock c);

/* Whether j can travel to a cell and be decoded there: 1..JOB_MAX_ARGS argv entries (and at
 * most JOB_MAX_ARGS grader_argv entries), at most JOB_MAX_ARGS env entries, JOB_MAX_FILES files
 * and fetches, no NULL string. Returns 0, or -E2BIG / -EINVAL with the reason in err (the
 * caller answers SE: a job dropped or cut short silently would run something other than what
 * was asked). */
int job_check(const struct job *j, char err[ERR_LEN]);

/* Appends the job to b. Check b->err afterwards. */
void job_encode(const struct job *j, struct buf *b);

/* Decodes a job from r into j; arrays are heap-allocated (job_decoded_fini frees them),
 * strings and contents borrowed from r's buffer. Returns 0 or -EBADMSG / -E2BIG / -ENOMEM. */
int job_decode(struct rbuf *r, struct job *j);
void job_decoded_fini(struct job *j);

void result_encode(const struct job_result *res, struct buf *b);
/* Like job_decode: res->fetched is heap, everything else borrowed. */
int result_decode(struct rbuf *r, struct job_result *res);
void job_result_fini(struct job_result *res);

/* True if path is a safe work-dir-relative path: not empty, not absolute, no "." or ".."
 * component, no empty component, no NUL, at most 255 bytes. */
bool job_path_ok(const char *path);

#endif
