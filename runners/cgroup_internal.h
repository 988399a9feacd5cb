/*
 * cgroup_internal: cgroup's pure parsing helpers, which the unit tests reach directly. Not a
 * contract for other modules.
 */
#ifndef VERDICT_CGROUP_INTERNAL_H
#define VERDICT_CGROUP_INTERNAL_H

#include <stdint.h>

/* The value of `key` in a flat-keyed file such as memory.events, cpu.stat or
 * memory.oom_control ("key value" lines). Returns 0, or -ENOENT if absent. */
int cg_parse_keyed(const char *text, const char *key, uint64_t *value);

#endif
