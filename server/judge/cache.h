/*
 * cache: a bounded, content-addressed store of compiled artifacts on the host.
 *
 * An entry is a directory named by its key (a SHA-256 of everything that determines the
 * compile's output) holding the artifacts, or the compiler's message for a program that did
 * not compile. The cache directory is bound read-only into every cell, so a run executes the
 * artifact in place. It is mode 0711: a job can open an entry whose key it knows, but cannot
 * list the others'. Thread-safe; one compile per key at a time in a process (the other
 * callers wait). Safe across processes sharing the directory (a server and `verdict bench`
 * or `verdict run`, each with its own cap): an entry one process has pinned is never evicted
 * by another, and an entry another process removed is rebuilt, never served (cache.c gives
 * the entry's states and who holds which lock in each). A build the store cannot keep (its
 * disk full, read-only) is given up and counted (write_errors); its program runs uncached
 * (program.h).
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
    uint64_t write_errors; /* builds the store could not keep (its disk full, read-only) */
    uint64_t entries, bytes;
};

enum cache_state { CACHE_HIT = 1, CACHE_BUILD = 2 };

/* Opens (creating) the store at dir, capped at max_bytes; entries already there are kept,
 * unfinished builds removed. Returns 0 or a negative errno with err. */
int cache_open(const char *dir, uint64_t max_bytes, struct cache **out, char err[ERR_LEN]);

/* Looks key up (O(n) in the entries this process indexes) and pins the entry. CACHE_HIT:
 * e->dir is complete and stays until cache_release. CACHE_BUILD: the entry is absent (or was
 * removed by another process); the caller must fill e->tmp and call cache_commit or
 * cache_abort (concurrent callers of this process for the same key wait meanwhile). Negative
 * errno with err on failure. */
int cache_acquire(struct cache *c, const char *key, struct cache_entry *e, char err[ERR_LEN]);

/* Publishes what the builder wrote in e->tmp as the entry (e->dir is then valid, still
 * pinned), and evicts least-recently-used entries no process has pinned beyond the cap. When
 * another process published the key first, its entry is pinned and used instead. Returns 0,
 * or a negative errno with err (the build is then aborted). */
int cache_commit(struct cache *c, struct cache_entry *e, char err[ERR_LEN]);

/* Gives up a build: removes e->tmp; a waiting caller builds instead. */
void cache_abort(struct cache *c, struct cache_entry *e);

/* Gives up a build whose files could not be written into e->tmp (error, a negative errno:
 * the disk full, read-only), as cache_abort, and counts it in write_errors. cache_acquire
 * and cache_commit count their own failures to write likewise. Each is logged on stderr the
 * first time and then at every power of two, so that a full disk shows in the log without a
 * line per request. */
void cache_fail(struct cache *c, struct cache_entry *e, int error);

/* Unpins an entry after its last use. */
void cache_release(struct cache *c, const struct cache_entry *e);

/* For a hit whose contents the caller found damaged (a file missing or unreadable): unpins it
 * and removes it from the store, so that the next cache_acquire builds. Returns 0, or -EBUSY
 * with err when another user (a thread, or another process) still holds it; it is unpinned
 * either way. */
int cache_discard(struct cache *c, const struct cache_entry *e, char err[ERR_LEN]);

void cache_get_stats(struct cache *c, struct cache_stats *s);
const char *cache_dir(const struct cache *c);

/* Closes the store (entries stay on disk). NULL is a no-op. */
void cache_close(struct cache *c);

#endif
