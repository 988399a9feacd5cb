/*
 * strset: a set of strings, each with a number (where it was first seen, e.g. a line), in a
 * hash table: adding and finding are O(1) on average, so checking n keys for repeats is
 * linear. Keys are copied. The hash is seeded per set at random, so keys an HTTP client
 * chooses cannot be made to collide ahead of time.
 */
#ifndef VERDICT_STRSET_H
#define VERDICT_STRSET_H

#include <stddef.h>

struct strset;

/* An empty set (heap; free with strset_free), or NULL when out of memory. */
struct strset *strset_new(void);

/* Adds key with value. Returns 1 when added, 0 when key was already there (its first value
 * is kept and written to *first, which may be NULL), or -ENOMEM. */
int strset_add(struct strset *s, const char *key, long value, long *first);

/* Returns 1 with the value of key in *value (may be NULL), or 0 when key is absent. */
int strset_find(const struct strset *s, const char *key, long *value);

/* Keys in the set. */
size_t strset_count(const struct strset *s);

void strset_free(struct strset *s); /* NULL: no-op */

#endif
