/*
 * seal: a compiled harness program that cannot pass by exiting early.
 *
 * A compiled harness (HumanEval-X, MultiPL-E, McEval: C, C++, Go, Rust) is the candidate's code
 * followed by our test code, whose own entry (C/C++ `main`, Go `main` or the testing package's
 * runner, Rust `main` or the libtest runner) runs the checks. Judged by exit status alone, a
 * candidate that exits 0 before the checks (exit(0) in the function, _exit from a constructor,
 * std::process::exit, os.Exit, syscall.Exit) passes. seal rewrites our test code so that the
 * tests' entry is called by a wrapper of ours that prints a completion marker on its own line
 * of stdout only once every check has returned; the judge passes the run only when it exits 0
 * and that line is there. The marker is secret to the server (server-side key), derived from
 * the key and the sources so that the compile cache still serves identical submissions, and
 * never in any file the compile reads: the source holds two keyed placeholders, which the
 * server overwrites in the compiled artifact (after the compile has ended) with two byte
 * arrays whose XOR is the marker line. seal also undoes what the candidate's text can do to the
 * tests' text in the same translation unit (C/C++: its #define'd macros are #undef'd and assert.h
 * is included again after its code).
 *
 * What remains possible in-process (reading the process's own binary or memory at run time)
 * is listed in docs/integrity.md. seal_lint (lint.h) refuses the shadowing classes.
 */
#ifndef VERDICT_SEAL_H
#define VERDICT_SEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runners/err.h"

#define SEAL_MARKER_LEN 40                    /* bytes of a marker, with its NUL */
#define SEAL_LINE_MAX   (SEAL_MARKER_LEN + 1) /* "\n" marker "\n", at most */

/* What the compiled program must hold and its source must not: two slots of len bytes each,
 * written in the source as find[i] (keyed placeholders: no part of the marker) and overwritten
 * in the compiled artifact by put[i] (program.h's program_patch) once the compile has ended.
 * The program XORs put[0] and put[1] into the marker line. */
struct seal_slots {
    size_t len;
    uint8_t find[2][SEAL_LINE_MAX];
    uint8_t put[2][SEAL_LINE_MAX];
};

/* Whether seal has a rule for the language (its template's name: c, cpp, go, go_test, rust,
 * rust_test). */
bool seal_supports(const char *language);

/* The marker for these sources: "VS" and 32 hex digits of a keyed hash (the key is 32 random
 * bytes drawn once per process from getrandom) over language, code and tests. Returns 0, or
 * -EIO without randomness (the caller answers SE). */
int seal_marker(const char *language, const char *code, const char *tests,
                char marker[SEAL_MARKER_LEN]);

/* The whole program: code, then tests rewritten so that their entry is wrapped and the marker
 * printed after it returns successfully, and the slots the compiled program must be patched
 * with (the source holds their placeholders, never the marker). Returns 0 with *out (heap)
 * and *slots, -ENOTSUP for a language without a rule, or -EINVAL with err when the tests have
 * no entry seal can find (our test code is malformed: the caller answers SE, never the
 * candidate's fault), -EIO without randomness for the key, -ENOMEM. */
int seal_program(const char *language, const char *code, const char *tests, const char *marker,
                 struct seal_slots *slots, char **out, char err[ERR_LEN]);

#endif
