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

/* What a rule does to a matching call. */
enum sc_action {
    SC_EPERM,  /* fail with EPERM: the program learns it is not allowed */
    SC_ENOSYS, /* fail with ENOSYS: libraries fall back as on an older kernel */
    SC_KILL,   /* kill the whole process: no legitimate program makes this call */
};

struct sc_rule {
    const char *syscall; /* name as libseccomp resolves it */
    enum sc_action action;
    const char *why; /* what it blocks and why */
};

/* The job filter's table of whole-syscall rules (socket families, clone namespace flags and
 * non-native ABIs are handled separately; see seccomp.c). Static; *n receives the count. */
const struct sc_rule *sc_rules(size_t *n);

/* A job filter compiled once to classic BPF, installed per job without libseccomp. */
struct sc_filter;

/* Builds the job filter from the table and exports it to BPF. Returns 0 with *out (free
 * with sc_filter_free), or a negative errno with the failing step in err. */
int sc_filter_build(struct sc_filter **out, char err[ERR_LEN]);

/* Installs f on the calling thread. Makes only system calls (safe after fork, before exec).
 * Requires no_new_privs (or CAP_SYS_ADMIN). Returns 0 or -errno. */
int sc_filter_install(const struct sc_filter *f);

/* Number of BPF instructions (for reports and tests). */
size_t sc_filter_len(const struct sc_filter *f);

void sc_filter_free(struct sc_filter *f);

/* In a throw-away child: builds a filter that makes getppid(2) fail with EDOM, loads it (with
 * no_new_privs), and checks that the kernel applies it and reports the task as filtered
 * (Seccomp: 2 in /proc/self/status). Returns 0 with what was verified in detail, or a negative
 * errno with the failing step in err. */
int sc_probe(char detail[ERR_LEN], char err[ERR_LEN]);

#endif
