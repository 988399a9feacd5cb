/*
 * seccomp: system-call filters for sandboxed programs (prefix sc_, since libseccomp owns the
 * seccomp_ names). The only module that includes <seccomp.h>.
 *
 * This issue provides version reporting and the host probe; the job filter (a denylist after
 * isolate's, compiled once to BPF) arrives with the sandbox engine.
 */
#ifndef VERDICT_SECCOMP_H
#define VERDICT_SECCOMP_H

#include <stddef.h>

#include "runners/err.h"

/* The libseccomp version linked at run time and its API level, e.g. "2.5.4 (API level 6)".
 * Writes into buf (cap bytes) and returns buf. */
char *sc_version(char *buf, size_t cap);

/* In a throw-away child: builds a filter that makes getppid(2) fail with EDOM, loads it (with
 * no_new_privs), and checks that the kernel applies it and reports the task as filtered
 * (Seccomp: 2 in /proc/self/status). Returns 0 with what was verified in detail, or a negative
 * errno with the failing step in err. */
int sc_probe(char detail[ERR_LEN], char err[ERR_LEN]);

#endif
