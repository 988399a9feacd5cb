/*
 * program_internal: the pure steps of program.c, for its unit tests (tests/unit/
 * test_program.c) and nothing else. Not part of the contract in program.h.
 */
#ifndef VERDICT_PROGRAM_INTERNAL_H
#define VERDICT_PROGRAM_INTERNAL_H

#include "server/judge/program.h"

/* The cache key of a compile (64 hex digits) under the limits asked for (before the wall-clock
 * backstop, which depends on the server, not on the source). */
void program_key(const struct program_env *env, const struct lang *l,
                 const struct job_limits *compile, const struct job_file *files, int nfiles,
                 char key[65]);

/* The wall-clock limit a compile runs under: what was asked, raised to at least
 * cpu_ms x max(3, ceil(cells / cpus) + 1) + 1 s, so that `cells` compiles sharing `cpus`
 * cores each get their CPU limit before the wall clock fires (cells or cpus <= 0: 1 cell per
 * core). */
int64_t program_compile_wall_ms(int64_t cpu_ms, int64_t wall_ms, int cells, long cpus);

#endif
