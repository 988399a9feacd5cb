/*
 * verdict: the one verdict taxonomy of the server, and its names.
 *
 * OK WA TLE MLE OLE RE CE are the program's; SE (a sandbox or system fault) is ours and never
 * the program's; SKIP is a test that was not run (stop_on_failure, or a compile that failed).
 * A run's job_status (runners/job.h) maps into it one to one; WA and CE come from comparing
 * and compiling. JSON names are made only at the API edge, from verdict_name.
 */
#ifndef VERDICT_VERDICT_H
#define VERDICT_VERDICT_H

#include <stdbool.h>

#include "runners/job.h"

enum verdict {
    VERDICT_OK,
    VERDICT_WA,
    VERDICT_TLE,
    VERDICT_MLE,
    VERDICT_OLE,
    VERDICT_RE,
    VERDICT_CE,
    VERDICT_SE,
    VERDICT_SKIP,
    VERDICT_COUNT
};

/* "OK", "WA", ... ("?" for a value out of range; never NULL). */
const char *verdict_name(enum verdict v);

/* The verdict named s (exact, upper case). Returns 0, or -EINVAL for an unknown name. */
int verdict_parse(const char *s, enum verdict *v);

/* The verdict of a finished run (OK RE TLE MLE OLE SE). */
enum verdict verdict_of_job(enum job_status s);

#endif
