/*
 * lang: the languages verdict offers, each a JSON template in languages/ (see
 * languages/README.md for the schema), loaded and validated at start.
 *
 * Adding a language needs no C change. A template names its source file, an optional compile
 * step (argv, env, limits, the artifacts it leaves), a run step, default limits, toolchain
 * directories to bind into cells, and a version command. A language whose toolchain is
 * missing is loaded but marked unavailable, with the reason.
 */
#ifndef VERDICT_LANG_H
#define VERDICT_LANG_H

#include <stdbool.h>

#include "runners/err.h"
#include "runners/job.h"

#define LANG_NAME    32
#define LANG_MAX     64
#define LANG_VERSION 160

struct lang_step {
    int argc;
    char **argv; /* may hold placeholders: {dir}, {memory_bytes}, {cuda_arch} */
    int nenv;
    char **env; /* "NAME=value" */
    struct job_limits limits;
};

/* A grader for harness tests (runners/job.h): the tests run in a process of their own, out of
 * the program's reach, and call the program's functions over a channel. */
#define LANG_MAX_BYTECODE_ARGS 16 /* a grader bytecode filter's argv entries, at most */

struct lang_grader {
    int argc;
    char **argv;     /* the grader process; its stdin: program, then NUL-separated arguments */
    char *program;   /* the grader's code: the template's files, joined (heap) */
    char *host;      /* the code that serves the grader's calls inside the program (heap) */
    char *host_file; /* the work-dir file the host is written to */
    char *join;      /* how the program's code starts the host: {code} and a trailer, or,
                        with code_file, the whole source file that starts the host first */
    char *code_file; /* NULL, or the work-dir file the program's code is written to as is */
    int nbytecode;
    char **bytecode; /* a filter (argv + the code's name) that turns program and host into what
                        argv and join load instead of source (Python: marshal, in hex), run once
                        by lang_probe; NULL: they load the source */
    /* What a job is given: program and host themselves, or their bytecode (lang_probe). */
    const char *program_load, *host_load;
    char *program_built, *host_built; /* heap, owned */
    /* A compiled grader (languages/README.md): the tests compiled with program into an
     * executable of their own per problem, run from memory (runners/job.h); NULL: none. */
    struct lang *compiled; /* its compile step, as a language of its own: name "<lang>-grader",
                              source, compile, artifacts (the first is the executable) */
    char *layout;          /* its source: {program} {setup} {signature} {entry} {tests} */
    char *program_file;    /* NULL, or the work-dir file program is written to beside the
                              source (the layout includes it by name: a precompiled header) */
    char *default_setup;   /* the setup of a request that brings none */
    /* A host compiled apart ("host_unit": C's, C++'s): where the declaration is the problem's
     * (or the unit's layout has no {setup}), the host is a unit of its own per problem, its source
     * host_layout (the layout's placeholders; host_file beside it), compiled once through the cache
     * as a grader is; the program is the code joined by unit_join, linked with the unit's object
     * (its compile's first artifact, in the program's work dir). NULL: the host is joined to the
     * code. */
    struct lang *host_unit;
    char *host_layout;
    char *unit_join;
    bool member;     /* the entry point is a class's member (Java): declared at brace depth 1 */
    bool go_imports; /* "imports": "go": the grader's source and the program's code each get one
                        import block of what they use (server/judge/goimports.h) */
};

struct lang_package;

struct lang {
    char name[LANG_NAME];
    int naliases;
    char **aliases;
    char *source;  /* file the code is written to, e.g. "main.cpp" */
    bool compiled; /* has a compile step */
    struct lang_step compile;
    int nartifacts;
    char **artifacts;     /* what the compile step leaves for the run step */
    struct lang_step run; /* its limits are the language's defaults */
    int nbinds;
    char **binds; /* host directories cells must see read-only */
    int nversion;
    char **version;     /* the version command */
    char *version_pick; /* substring of the version line, or NULL: first line */
    char *install;      /* how to get the toolchain (said when unavailable), or NULL */
    int npackages_cmd;
    char **packages_cmd;        /* the packages command (server/judge/packages.h), or NULL */
    bool needs_gpu;             /* runs need a GPU */
    bool private_entry;         /* its cache entries are the server's alone (a compiled grader) */
    uint32_t warm;              /* enum job_warm: runs may start from a warm interpreter */
    struct lang_grader *grader; /* harness tests out of process, or NULL: joined to the code */
    char path[256];             /* the template file, for messages */
    bool no_rustup;             /* uses {rustup}, and this host has no rustup toolchain */
    /* Filled by lang_probe: */
    bool available;
    char version_line[LANG_VERSION];
    char why[ERR_LEN]; /* why it is unavailable */
    int npackages;
    struct lang_package *packages; /* what packages_cmd reported (heap), or NULL */
};

struct lang_set;

/* Loads every *.json in dir. Returns 0 with *out, or -EINVAL with "FILE: FIELD: problem" in
 * err (the first problem found; nothing is loaded then). `{rustup}` in binds and argv is
 * replaced by the rustup default toolchain's directory; on a host without one the template
 * loads all the same, and lang_probe says it is unavailable. */
int lang_load_dir(const char *dir, struct lang_set **out, char err[ERR_LEN]);

/* Parses one template from text (path names it in messages). Returns 0 with the language in
 * *out (free with lang_free), or -EINVAL with "PATH: FIELD: problem" in err. */
int lang_parse(const char *path, const char *text, struct lang **out, char err[ERR_LEN]);

/* Checks each language's toolchain (its executables exist; the version command answers), or
 * only those `only` names (a comma-separated list of names or aliases) when it is not NULL;
 * the others keep what an earlier call found (unavailable before any). The version commands
 * run all at once. Never fails: an unavailable language gets its reason. */
void lang_probe(struct lang_set *set, const char *only);

/* The language with this name or alias (case-insensitive), or NULL. Borrowed. */
const struct lang *lang_find(const struct lang_set *set, const char *name);

/* Languages in name order. */
int lang_count(const struct lang_set *set);
const struct lang *lang_at(const struct lang_set *set, int i);

/* Every bind the available languages need (as the last lang_probe found them; none before
 * one), deduplicated, for the cells' configuration. Borrowed; *n receives the count. */
const char *const *lang_binds(const struct lang_set *set, int *n);

void lang_free(struct lang *l);
void lang_set_free(struct lang_set *set);

#endif
