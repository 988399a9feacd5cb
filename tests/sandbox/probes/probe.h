/* Helpers shared by the hostile probes; each probe stays a single program uploaded into the
 * sandbox, this header is compiled into each. A probe includes it first (it defines _GNU_SOURCE
 * and brings <errno.h>, <stdio.h>, <stdlib.h> and <string.h>), collects one "what: why" entry per
 * refused attack in msg, and ends with `return contained();`, or prints "ESCAPED: ..." and exits 1
 * as soon as an attack goes through. */
#ifndef PROBE_H
#define PROBE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The report: "what: why" entries separated by ", ". */
static char msg[2048];

/* Appends the free-form entry "what: why" to msg. */
static inline void note(const char *what, const char *why)
{
    size_t n = strlen(msg);
    snprintf(msg + n, sizeof(msg) - n, "%s%s: %s", n ? ", " : "", what, why);
}

/* Appends "what: ENAME", the errno e by name. */
static inline void note_errno(const char *what, int e)
{
    note(what, strerrorname_np(e));
}

/* r is a syscall's result: >= 0 means the attack went through (ESCAPED, exit 1); otherwise the
 * errno it left is noted. */
static inline void must_fail(const char *what, long r)
{
    int e = errno;
    if (r >= 0) {
        printf("ESCAPED: %s succeeded\n", what);
        exit(1);
    }
    note_errno(what, e);
}

/* Reports "ESCAPED: what path" and exits 1. */
static inline void escaped(const char *what, const char *path)
{
    printf("ESCAPED: %s %s\n", what, path);
    exit(1);
}

/* Prints the final "contained: msg" line; returns main's exit status, 0. */
static inline int contained(void)
{
    printf("contained: %s\n", msg);
    return 0;
}

#endif
