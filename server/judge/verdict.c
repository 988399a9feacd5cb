/*
 * verdict: names of the verdict taxonomy, in enum order, and the map from a run's status.
 */
#include "server/judge/verdict.h"

#include <errno.h>
#include <string.h>

static const char *const names[VERDICT_COUNT] = {"OK", "WA", "TLE", "MLE", "OLE",
                                                 "RE", "CE", "SE",  "SKIP"};

const char *verdict_name(enum verdict v)
{
    return (unsigned)v < VERDICT_COUNT ? names[v] : "?";
}

int verdict_parse(const char *s, enum verdict *v)
{
    for (int i = 0; s && i < VERDICT_COUNT; i++) {
        if (strcmp(s, names[i]) == 0) {
            *v = (enum verdict)i;
            return 0;
        }
    }
    return -EINVAL;
}

enum verdict verdict_of_job(enum job_status s)
{
    switch (s) {
    case JOB_OK:
        return VERDICT_OK;
    case JOB_RE:
        return VERDICT_RE;
    case JOB_TLE:
        return VERDICT_TLE;
    case JOB_MLE:
        return VERDICT_MLE;
    case JOB_OLE:
        return VERDICT_OLE;
    case JOB_SE:
        break;
    }
    return VERDICT_SE;
}
