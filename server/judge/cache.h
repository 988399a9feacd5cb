/*
 * cache: a bounded, content-addressed store of compiled artifacts on the host.
 *
 * An entry is a directory named by its key (a SHA-256 of everything that determines the
 * compile's output) holding the artifacts, or the compiler's message for a program that did
 * not compile. The cache directory is bound read-only into every cell, so a run executes the
 * artifact in place. It is mode 0711: a job can open an entry whose key it knows, but cannot
 * list the others'. Thread-safe; one compile per key at a time (the other callers wait).
 */
#ifndef VERDICT_CACHE_H
#define VERDICT_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "runners/err.h"

#define CACHE_PATH 512

struct cache;

struct cache_entry {
    char key[65];
    char dir[CACHE_PATH]; /* where the entry lives (valid after a hit or commit) */
    char tmp[CACHE_PATH]; /* where a builder writes (valid for CACHE_BUILD) */
};

struct cache_stats {
    uint64_t hits, misses; /* lookups served from the store / that had to build */
    uint64_t evictions;    /* entries removed to stay under the size cap */
    uint64_t entries, bytes;
};

enum cache_state { CACHE_HIT = 1, CACHE_BUILD = 2 };

/* Opens (creating) the store at dir, capped at max_bytes; entries already there are kept,
 * unfinished builds removed. Returns 0 or a negative errno with err. */
int cache_open(const char *dir, uint64_t max_bytes, struct cache **out, char err[ERR_LEN]);

/* Looks key up and pins the entry. CACHE_HIT: e->dir is ready. CACHE_BUILD: the caller must
 * fill e->tmp and call cache_commit or cache_abort (concurrent callers for the same key wait
 * meanwhile). Negative errno on failure. */
int cache_acquire(struct cache *c, const char *key, struct cache_entry *e, char err[ERR_LEN]);

/* Publishes what the builder wrote in e->tmp as the entry (e->dir is then valid, still
 * pinned), and evicts least-recently-used unpinned entries beyond the cap. */
int cache_commit(struct cache *c, struct cache_entry *e, char err[ERR_LEN]);

/* Gives up a build: removes e->tmp; a waiting caller builds instead. */
void cache_abort(struct cache *c, struct cache_entry *e);

/* Unpins an entry after its last use. */
void cache_release(struct cache *c, const struct cache_entry *e);

void cache_get_stats(struct cache *c, struct cache_stats *s);
const char *cache_dir(const struct cache *c);

/* Closes the store (entries stay on disk). NULL is a no-op. */
void cache_close(struct cache *c);

#endif
