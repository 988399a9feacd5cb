/*
 * judge_internal: judge's steps that the unit tests reach directly. Not a contract for other
 * modules (they use judge.h).
 */
#ifndef VERDICT_JUDGE_INTERNAL_H
#define VERDICT_JUDGE_INTERNAL_H

#include <stdbool.h>

#include "server/judge/judge.h"

/* tmpl with every {code} and {tests} filled, as often as each appears (heap), or NULL when
 * out of memory. */
char *judge_join_harness(const char *tmpl, const char *code, const char *tests);

struct job_result;

/* Whether a run is discarded and run again, after `done` runs of its test (judge.c). */
enum judge_rerun judge_rerun_reason(const struct job_result *res, int done, bool run_only);

#endif
