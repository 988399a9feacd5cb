/*
 * strset: open addressing with linear probing over a power-of-two table of slots, each a
 * copied key, its hash and its value. The table doubles when it would be more than half full,
 * so a probe sequence stays short and an add is O(1) amortised; a key is never removed, so no
 * tombstones are needed.
 *
 * The hash is FNV-1a started from a random seed of the set's own, its result mixed (murmur3's
 * finaliser) so that every bit reaches the slot's low bits. Unseeded, keys a client chose to
 * share their low bits (a few thousand tries make thousands of them) fell into one probe
 * sequence, and adding n of them cost O(n^2).
 */
#include "server/util/strset.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

struct slot {
    char *key; /* NULL: empty */
    uint64_t hash;
    long value;
};

struct strset {
    struct slot *slots;
    size_t cap; /* a power of two */
    size_t count;
    uint64_t seed;
};

#define INITIAL_CAP 64

static uint64_t hash_of(const struct strset *s, const char *key)
{
    uint64_t h = 0xcbf29ce484222325ull ^ s->seed;
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 0x100000001b3ull;
    h ^= s->seed;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

static uint64_t new_seed(const void *salt)
{
    uint64_t seed = 0;
    if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != (ssize_t)sizeof(seed)) {
        struct timespec ts; /* no entropy yet (early boot): the clock and an address */
        clock_gettime(CLOCK_MONOTONIC, &ts);
        seed = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)salt ^
               (uint64_t)ts.tv_sec;
    }
    return seed;
}

struct strset *strset_new(void)
{
    struct strset *s = calloc(1, sizeof(*s));
    if (s && !(s->slots = calloc(INITIAL_CAP, sizeof(*s->slots)))) {
        free(s);
        return NULL;
    }
    if (s) {
        s->cap = INITIAL_CAP;
        s->seed = new_seed(s);
    }
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
    struct strset bigger = {.cap = s->cap * 2, .count = s->count, .seed = s->seed};
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
    uint64_t h = hash_of(s, key);
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
    const struct slot *sl = probe(s, key, hash_of(s, key));
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
