/*
 * run: `verdict run`, one program through one warm cell, from the command line.
 */
#ifndef VERDICT_RUN_H
#define VERDICT_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "server/util/opts.h"

struct run_opts {
    int64_t cpu_ms, wall_ms; /* 0 = default */
    uint64_t memory_bytes;   /* 0 = default */
    uint64_t output_bytes;   /* stdout and stderr caps; 0 = default */
    long pids;               /* 0 = default */
    const char *stdin_path;  /* NULL: empty stdin */
    bool json;
    const char *lang;      /* --lang: argv[0] is then the source file */
    const char *languages; /* --languages DIR (default: VERDICT_LANGUAGES, then built-in) */
    const char *cache;     /* --cache DIR for compiled artifacts */
    struct opt_list files; /* host files copied into the work dir (by base name) */
    struct opt_list env;   /* NAME=value */
    struct opt_list fetch; /* work-dir files to print back (JSON only) */
    int argc;
    char **argv; /* the program and its arguments */
};

/* Runs the program and prints its output and a result block (text on stderr after the
 * program's own output, or one JSON document on stdout). argv[0] that names a host file
 * outside /usr is copied into the work dir and run from there. With lang, argv[0] is a source
 * file in that language: compiled through the cache (a CE prints the compiler's message),
 * then run. Returns the process exit code: 0 for OK, 1 for any other verdict of the program
 * (CE included), 2 for an unknown language, 3 when the sandbox could not run it (SE, no
 * root, no cgroups, toolchain unavailable). */
int run_main(const struct run_opts *o);

#endif
