/*
 * program: a submission in a language, compiled once (through the cache) and run many times.
 *
 * program_build turns source files into a runnable program: for a compiled language it looks
 * the compile up in the cache by a key over (language, toolchain version, compile command,
 * environment and limits, GPU architecture, every file) and compiles in a sandbox cell only on
 * a miss. Its outcome is a verdict: OK, CE when the compiler itself refused the source (cached
 * with the compiler's message), TLE or MLE when a compile limit stopped it (reported, never
 * cached: the next identical request compiles again), and SE (a negative return) when the
 * sandbox or the store failed. The CPU limit decides a compile's TLE; its wall clock is only a
 * backstop sized for the load the server admits, and a compile killed by the wall clock with
 * CPU to spare (starved by load, not slow by its source) is retried once. program_run runs it
 * with the language's run step; the artifacts are used in place, from the cache directory
 * bound read-only into cells. When the cache cannot keep a compile's outcome (its disk full or
 * read-only: cache.h counts and logs it), the program is uncached: it holds its artifacts in
 * memory and each run places them in its work dir, so the verdicts stay those of a cached
 * build and only the compile is repeated for the next identical source.
 */
#ifndef VERDICT_PROGRAM_H
#define VERDICT_PROGRAM_H

#include <stdbool.h>

#include "runners/pool.h"
#include "server/judge/cache.h"
#include "server/judge/lang.h"
#include "server/judge/verdict.h"

struct program_env {
    struct pool *pool;
    struct cache *cache;
    char cuda_arch[96]; /* nvcc's architecture flag for this server's GPU */
    int gpus;           /* GPUs on this server; 0: GPU languages compile but do not run */
    int cells;          /* CPU cells that may compile at once (0: unknown, taken as 1 per core):
                           sizes the compile's wall-clock backstop */
    bool cold;          /* never start a run warm, whatever its template says */
};

#define PROGRAM_PATCHES 2

/* Bytes the server writes into a compile's artifacts after the compile ended, before the cache
 * keeps them (server/judge/seal's slots: what the program must hold that no file its compile
 * reads may hold). Each of the n find strings (len bytes) found once across the artifacts is
 * overwritten by the put string of the same index; one found more than once makes the outcome
 * CE with the reason (an honest compile of seal's program holds each once); one not found is
 * left alone (the compiler dropped it as unreachable: nothing can print it). The put bytes are
 * part of the cache key. */
struct program_patch {
    int n;
    size_t len;
    const uint8_t *find[PROGRAM_PATCHES], *put[PROGRAM_PATCHES];
};

struct program {
    const struct lang *lang;
    bool ok;                      /* runnable: compiled (or needs no compiling) */
    enum verdict compile_verdict; /* OK, CE (cached), TLE or MLE (never cached); OK when the
                                     language has no compile step */
    bool cached;                  /* the compile was served from the cache */
    bool pinned;                  /* entry is pinned in the cache */
    bool uncached;                /* compiled, but the cache could not keep the outcome */
    int nheld;                    /* then: its artifacts, placed in each run's work dir */
    struct job_file *held;        /* heap; paths and bytes in held_bytes */
    uint8_t *held_bytes;          /* heap */
    int attempts;                 /* compiles run: 0 (cached, or no compile step), 1, or 2 (the
                                     first was killed by the wall clock with CPU to spare) */
    struct cache_entry entry;
    char *message; /* the compiler's output, with the limit or reason that stopped it; heap */
    int nfiles;    /* the program's files: the source and any others (data) */
    const struct job_file *files;
    struct job_result compile;         /* the last compile run's measurements (when one ran) */
    struct job_limits compile_limits;  /* as run: the wall clock is the backstop, not asked */
    const struct program_patch *patch; /* borrowed while program_build_patched runs */
};

/* Builds a program from its files (borrowed; they must outlive it): the source, named as the
 * template says, and any others. compile (may be NULL) overrides the template's compile
 * limits where its fields are non-zero; they are part of the cache key. Returns 0 with
 * p->compile_verdict (p->ok only for OK; p->message says why for CE, TLE and MLE), or a
 * negative errno with err for SE: the sandbox failed, an artifact could not come back (too
 * large for the fetch cap, JOB_FETCH_TOTAL in all), memory ran out, or a cached entry could
 * not be read even after rebuilding it. An outcome the cache could not keep is no error
 * (p->uncached). program_free is needed after either. */
int program_build(const struct program_env *env, const struct lang *l, const struct job_file *files,
                  int nfiles, const struct job_limits *compile, struct program *p,
                  char err[ERR_LEN]);

/* program_build with the artifacts patched (patch may be NULL: program_build). */
int program_build_patched(const struct program_env *env, const struct lang *l,
                          const struct job_file *files, int nfiles,
                          const struct job_limits *compile, const struct program_patch *patch,
                          struct program *p, char err[ERR_LEN]);

#define PROGRAM_MAX_ARGS 8

/* What one run gets and gives back besides the program. */
struct program_io {
    const uint8_t *in; /* stdin */
    size_t in_len;
    int nargs; /* arguments appended to the run step's argv (at most 8) */
    const char *const *args;
    int nfiles; /* files for this run's work dir, besides the program's own */
    const struct job_file *files;
    const struct job_limits *limits; /* zero fields: the language's defaults; NULL: all */
    int nfetch;
    const char *const *fetch; /* work-dir files to return */
    bool graded; /* run with the language's grader (runners/job.h): in is the grader's stdin */
    const uint8_t *grader_exe; /* graded by a compiled grader: its executable (job.h) */
    size_t grader_exe_len;
};

/* Runs a built program once. The work dir holds the program's files (for a compiled
 * language, all but the source: data files the program reads). Fills res like pool_run (free
 * *payload after job_result_fini); SE with the reason when the program is not runnable, its
 * argv does not fit (an expanded entry past 511 bytes) or memory runs out, or graded is asked
 * of a language without a grader. */
void program_run(const struct program_env *env, const struct program *p,
                 const struct program_io *io, struct job_result *res, uint8_t **payload);

/* A step of language l as a session runs it, in its own work dir and without the cache: the
 * compile step (compile true; the language must have one) or the run step, its argv expanded
 * ({dir} is the work dir itself, {memory_bytes} memory_bytes), its env and its template's
 * limits (defaults filled; a compile's wall clock sized as program_build's). Fills j's argc,
 * argv, nenv, env and limits, pointing into *owned (heap; the caller frees it after the job).
 * Returns 0, or -E2BIG / -ENOMEM with err. */
int program_step_job(const struct program_env *env, const struct lang *l, bool compile,
                     uint64_t memory_bytes, struct job *j, void **owned, char err[ERR_LEN]);

/* What one compile run says about the source: OK (the compiler exited 0; its artifacts are
 * still to be checked), CE (it refused the source: a non-zero exit, a crash, more output than
 * its limit), TLE, MLE, or SE (the sandbox failed). *starved: TLE by the wall clock with CPU
 * under lim->cpu_ms (load, not the source: worth one retry). */
enum verdict program_compile_outcome(const struct job_result *r, const struct job_limits *lim,
                                     bool *starved);

/* Releases the program's cache pin, message and held artifacts. */
void program_free(const struct program_env *env, struct program *p);

#endif
