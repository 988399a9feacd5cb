/*
 * strset: open addressing with linear probing over a power-of-two table of slots, each a
 * copied key, its hash and its value. The table doubles when it would be more than half full,
 * so a probe sequence stays short and an add is O(1) amortised; a key is never removed, so no
 * tombstones are needed.
 */
#include "server/util/strset.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct slot {
    char *key; /* NULL: empty */
    uint64_t hash;
    long value;
};

struct strset {
    struct slot *slots;
    size_t cap; /* a power of two */
    size_t count;
};

#define INITIAL_CAP 64

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        h = (h ^ *p) * 0x100000001b3ull;
    return h;
}

struct strset *strset_new(void)
{
    struct strset *s = calloc(1, sizeof(*s));
    if (s && !(s->slots = calloc(INITIAL_CAP, sizeof(*s->slots)))) {
        free(s);
        return NULL;
    }
    if (s)
        s->cap = INITIAL_CAP;
    return s;
}

/* The slot holding key, or the empty slot where it belongs. */
static struct slot *probe(const struct strset *s, const char *key, uint64_t h)
{
    for (size_t i = h & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
        struct slot *sl = &s->slots[i];
        if (!sl->key || (sl->hash == h && strcmp(sl->key, key) == 0))
            return sl;
    }
}

static int grow(struct strset *s)
{
    struct strset bigger = {.cap = s->cap * 2, .count = s->count};
    if (bigger.cap < s->cap || !(bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots))))
        return -ENOMEM;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slots[i].key)
            *probe(&bigger, s->slots[i].key, s->slots[i].hash) = s->slots[i];
    free(s->slots);
    *s = bigger;
    return 0;
}

int strset_add(struct strset *s, const char *key, long value, long *first)
{
    uint64_t h = fnv1a(key);
    struct slot *sl = probe(s, key, h);
    if (sl->key) {
        if (first)
            *first = sl->value;
        return 0;
    }
    if ((s->count + 1) * 2 > s->cap) {
        if (grow(s) < 0)
            return -ENOMEM;
        sl = probe(s, key, h);
    }
    if (!(sl->key = strdup(key)))
        return -ENOMEM;
    sl->hash = h;
    sl->value = value;
    s->count++;
    return 1;
}

int strset_find(const struct strset *s, const char *key, long *value)
{
    const struct slot *sl = probe(s, key, fnv1a(key));
    if (!sl->key)
        return 0;
    if (value)
        *value = sl->value;
    return 1;
}

size_t strset_count(const struct strset *s)
{
    return s->count;
}

void strset_free(struct strset *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->cap; i++)
        free(s->slots[i].key);
    free(s->slots);
    free(s);
}
