/*
 * judge: verdict's native judging: one program against a list of tests, compiled once, each
 * test a verdict (OK, WA, TLE, MLE, OLE, RE, CE, SE), and a reward.
 *
 * Tests are stdin/expected pairs compared by server/compare, or a harness: test code joined to
 * the program by the language's template, which passes only if the program exits 0 *and*
 * prints a secret marker, generated per run, after the last check (an early exit(0) is not a
 * pass).
 */
#ifndef VERDICT_JUDGE_H
#define VERDICT_JUDGE_H

#include "server/judge/lang.h"
#include "server/judge/program.h"
#include "server/util/json.h"

struct judge_request;

/* Where a request is wrong: the field path (e.g. "tests", "3", "expected") and what. */
struct judge_error {
    char loc[3][48];
    int nloc;
    char type[32];
    char msg[160];
};

/* Validates a /v1/judge body. Returns 0 with *out, or -EINVAL with e filled. */
int judge_parse(const struct lang_set *langs, const struct json *body, struct judge_request **out,
                struct judge_error *e);

/* Judges (in a worker: it runs programs) and returns the response document. */
struct json *judge_run(const struct program_env *env, struct judge_request *r);

/* The language of a parsed request (borrowed). */
const struct lang *judge_language(const struct judge_request *r);

void judge_request_free(struct judge_request *r);

#endif
