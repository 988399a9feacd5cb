/*
 * program: a submission in a language, compiled once (through the cache) and run many times.
 *
 * program_build turns source files into a runnable program: for a compiled language it looks
 * the compile up in the cache by a key over (language, toolchain version, compile command,
 * environment and limits, GPU architecture, every file) and compiles in a sandbox cell only on
 * a miss; a program that does not compile is a CE carrying the compiler's message (and is
 * cached as such). program_run runs it with the language's run step; the artifacts are used in
 * place, from the cache directory bound read-only into cells.
 */
#ifndef VERDICT_PROGRAM_H
#define VERDICT_PROGRAM_H

#include <stdbool.h>

#include "runners/pool.h"
#include "server/judge/cache.h"
#include "server/judge/lang.h"

struct program_env {
    struct pool *pool;
    struct cache *cache;
    char cuda_arch[96]; /* nvcc's architecture flag for this server's GPU */
    int gpus;           /* GPUs on this server; 0: GPU languages compile but do not run */
};

struct program {
    const struct lang *lang;
    bool ok;     /* compiled (or needs no compiling); false: CE */
    bool cached; /* the compile was served from the cache */
    bool pinned; /* entry is pinned in the cache */
    struct cache_entry entry;
    char *message; /* the compiler's output (CE) or NULL; heap */
    int nfiles;    /* the program's files: the source and any others (data) */
    const struct job_file *files;
    struct job_result compile; /* the compile step's measurements (when it ran) */
    struct job_limits compile_limits;
};

/* Builds a program from its files (borrowed; they must outlive it): the source, named as the
 * template says, and any others. compile (may be NULL) overrides the template's compile
 * limits where its fields are non-zero; they are part of the cache key. Returns 0 (with p->ok
 * false for a CE), or a negative errno with err when the sandbox failed (SE). */
int program_build(const struct program_env *env, const struct lang *l, const struct job_file *files,
                  int nfiles, const struct job_limits *compile, struct program *p,
                  char err[ERR_LEN]);

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
};

/* Runs a built program once. The work dir holds the program's files (for a compiled
 * language, all but the source: data files the program reads). Fills res like pool_run (free
 * *payload after job_result_fini). */
void program_run(const struct program_env *env, const struct program *p,
                 const struct program_io *io, struct job_result *res, uint8_t **payload);

/* Releases the program's cache pin and message. */
void program_free(const struct program_env *env, struct program *p);

/* The cache key of a compile (64 hex digits), exposed for tests. */
void program_key(const struct program_env *env, const struct lang *l,
                 const struct job_limits *compile, const struct job_file *files, int nfiles,
                 char key[65]);

#endif
