/*
 * cgroup_internal: cgroup's pure parsing helpers, which the unit tests reach directly, and
 * its fault-injection seam. Not a contract for other modules.
 */
#ifndef VERDICT_CGROUP_INTERNAL_H
#define VERDICT_CGROUP_INTERNAL_H

#include <stdint.h>
#include <sys/types.h>

/* The value of `key` in a flat-keyed file such as memory.events, cpu.stat or
 * memory.oom_control ("key value" lines). Returns 0, or -ENOENT if absent. */
int cg_parse_keyed(const char *text, const char *key, uint64_t *value);

/* Fault injection, as SQLite's test VFS does it: the call that creates a job's leaf cgroup
 * (cg_job_create) is mkdirat(2) unless a test program that links the library sets another,
 * one that fails as a host can (EAGAIN past v2's cgroup.max.descendants, ENOSPC when the
 * kernel's cgroup ids run out, EROFS). NULL restores mkdirat. verdict itself never calls it;
 * tests/faults/faulty_verdict.c does, in its cells, before any leaf is made (a cell is
 * single-threaded). */
void cg_set_mkdirat(int (*fn)(int dirfd, const char *name, mode_t mode));

#endif
