/*
 * graded: a harness judged by a compiled grader (languages/README.md, "A compiled grader";
 * C++'s is languages/cpp/).
 *
 * The tests never enter the program. The grader's source is the template's layout filled
 * with its runtime ({program}; or, with program_file, the runtime written beside the source
 * as that file, which the layout includes by name), the setup the tests see ({setup}: the
 * request's harness_setup up to the entry point's declaration, or the template's
 * default_setup), that declaration ({signature}: its tokens, signature.h), the entry point's
 * name ({entry}) and the tests
 * ({tests}, less a leading `}` that closed the prompt's open function). It is compiled like a
 * program, through the compile cache (keyed on exactly that source, so a problem's grader
 * compiles once), into a private entry (the server's alone: its executable holds the expected
 * values), at the same time as the program, and its executable travels in the job to be run
 * from memory as the second uid (runners/job.h). The program is the code joined to the
 * template's host ({code} and the layout's other placeholders), which serves the grader's
 * calls; or, where the template has a host_unit (C's, C++'s), the code with the unit's join,
 * linked with the host compiled apart, once per problem (graded_host_build).
 *
 * Where the declaration comes from decides who answers for a grader that does not compile:
 * - from harness_setup (a problem's prompt, which the candidate cannot change): every input of
 *   the grader is the problem's, so a grader that does not compile is ours (a signature the
 *   codecs cannot carry, tests that use more than the entry point): the caller judges the
 *   request in-process instead (server/judge/seal), as deterministically as the grader's
 *   source (the cache keeps the CE), or, in a language without a seal (Java, C#), answers CE
 *   for the problem: its tests joined to the code would let the code exit before them;
 * - from the code (a bare /v1/judge harness without setup: the program's first declaration of
 *   the entry point, which must be plain, signature.h): CE, the program's.
 */
#ifndef VERDICT_GRADED_H
#define VERDICT_GRADED_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "server/judge/judge.h"

struct graded {
    char *grader_source;  /* heap */
    char *program_source; /* heap: the code joined to the host */
    char *unit_source;    /* heap, or NULL: the code joined for a host apart (lang.h) */
    char *host_source;    /* heap, or NULL: that host's unit */
    struct program hp;    /* its build */
    bool have_hp;
    uint8_t *host_obj; /* its object (heap), once built */
    size_t host_obj_len;
    bool trusted;             /* the declaration is the setup's, not the code's */
    struct job_file files[2]; /* the grader's source, and its program_file where it has one */
    int nfiles;
    struct program gp; /* the grader's build */
    bool have_gp;
    int build_rc;
    char build_err[ERR_LEN];
    pthread_t thread;
    bool threaded;
    uint8_t *exe; /* the grader's executable (heap) */
    size_t exe_len;
};

enum graded_outcome { GRADED_OK, GRADED_IN_PROCESS, GRADED_CE };

/* Plans r's grader and program (l->grader->compiled must be set). Returns 0; -ENOENT when
 * the request cannot be graded so (no entry point, no declaration of it in the setup): the
 * caller judges it in-process; -EINVAL with why when the code's own declaration is missing or
 * not plain (CE); -ENOMEM. */
int graded_plan(const struct lang *l, const struct judge_request *r, struct graded *g,
                char why[ERR_LEN]);

/* Starts building the grader (on a thread of its own where one can start). */
void graded_build_start(const struct program_env *env, const struct lang *l, struct graded *g);

/* Waits for the grader's build: GRADED_OK with g->exe loaded; GRADED_IN_PROCESS (a trusted
 * grader that does not compile); GRADED_CE with why; or a negative errno with why (SE: the
 * sandbox, a compile stopped by its limits, the executable unreadable). */
int graded_build_wait(const struct program_env *env, struct graded *g, char why[ERR_LEN]);

/* Builds the host apart where it was planned (a problem's own declaration, a template with a
 * host_unit): 0 with g->host_obj loaded, the program to be g->unit_source linked with it;
 * -ENOENT when not planned; another negative errno when it did not build (the program is
 * then the code joined to the host, as without a host_unit). */
int graded_host_build(const struct program_env *env, const struct lang *l, struct graded *g);

void graded_fini(const struct program_env *env, struct graded *g);

#endif
