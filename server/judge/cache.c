/*
 * cache: the artifact store.
 *
 * Index. An array of records (key, bytes, last use, pins, building) under one mutex; lookups
 * are linear, which is fine for the thousands of entries a node keeps. A record that is being
 * built makes other callers for the same key wait on a condition variable, so a burst of
 * identical submissions (veRL sends one request per test case) compiles once.
 *
 * Disk. Builders write into "<key>.tmp.<pid>" and commit renames it to "<key>", so a reader
 * never sees a half-written entry (when two processes sharing the directory build the same key,
 * the second rename fails and its copy is dropped). At open, the ".tmp.<pid>" leftovers of
 * processes that are gone are removed and complete
 * entries re-indexed with their sizes. Eviction removes least-recently-used unpinned entries
 * until the total is under the cap; a pinned entry (a run is about to use it) stays.
 */
#include "server/judge/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct record {
    char key[65];
    uint64_t bytes;
    uint64_t used; /* logical clock of the last use */
    int pins;
    bool building;
};

struct cache {
    pthread_mutex_t lock;
    pthread_cond_t built;
    char dir[CACHE_PATH];
    uint64_t max_bytes, bytes, clock;
    struct cache_stats st;
    int n, cap;
    struct record *recs;
};

static bool key_ok(const char *key)
{
    return strlen(key) == 64 && strspn(key, "0123456789abcdef") == 64;
}

/* Removes a directory and everything in it (entries hold plain files only). */
static void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char p[CACHE_PATH * 2];
        snprintf(p, sizeof(p), "%s/%s", path, e->d_name);
        if (unlink(p) < 0 && errno == EISDIR)
            remove_tree(p);
    }
    if (d)
        closedir(d);
    rmdir(path);
}

static uint64_t tree_bytes(const char *path)
{
    uint64_t total = 0;
    DIR *d = opendir(path);
    for (struct dirent *e; d && (e = readdir(d));) {
        char p[CACHE_PATH * 2];
        struct stat st;
        snprintf(p, sizeof(p), "%s/%s", path, e->d_name);
        if (e->d_name[0] != '.' && lstat(p, &st) == 0 && S_ISREG(st.st_mode))
            total += (uint64_t)st.st_blocks * 512;
    }
    if (d)
        closedir(d);
    return total;
}

static struct record *find(struct cache *c, const char *key)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->recs[i].key, key) == 0)
            return &c->recs[i];
    return NULL;
}

static struct record *add(struct cache *c, const char *key)
{
    if (c->n == c->cap) {
        int cap = c->cap ? c->cap * 2 : 64;
        struct record *r = realloc(c->recs, (size_t)cap * sizeof(*r));
        if (!r)
            return NULL;
        c->recs = r;
        c->cap = cap;
    }
    struct record *r = &c->recs[c->n++];
    memset(r, 0, sizeof(*r));
    snprintf(r->key, sizeof(r->key), "%s", key);
    return r;
}

static void drop(struct cache *c, struct record *r)
{
    *r = c->recs[--c->n];
}

static void entry_path(const struct cache *c, const char *key, const char *suffix, char *out)
{
    snprintf(out, CACHE_PATH, "%.420s/%.64s%.24s", c->dir, key, suffix);
}

/* A builder's directory: "<key>.tmp.<pid>", so that processes sharing the cache (a server
 * and `verdict bench`) never take each other's half-built entries for a crash's. */
static void tmp_path(const struct cache *c, const char *key, char *out)
{
    char suffix[24];
    snprintf(suffix, sizeof(suffix), ".tmp.%d", (int)getpid());
    entry_path(c, key, suffix, out);
}

/* The builder pid of a "<key>.tmp.<pid>" name, or 0 for any other name. */
static pid_t tmp_owner(const char *name)
{
    size_t len = strlen(name);
    if (len < 70 || strncmp(name + 64, ".tmp.", 5) != 0)
        return 0;
    char *end;
    long pid = strtol(name + 69, &end, 10);
    return *end || pid <= 0 ? 0 : (pid_t)pid;
}

static void scan(struct cache *c)
{
    DIR *d = opendir(c->dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char p[CACHE_PATH];
        size_t len = strlen(e->d_name);
        pid_t owner = tmp_owner(e->d_name);
        if (owner > 0 && kill(owner, 0) < 0 && errno == ESRCH) {
            snprintf(p, sizeof(p), "%.420s/%.90s", c->dir, e->d_name);
            remove_tree(p); /* a build cut short by a crash */
        } else if (len == 64 && key_ok(e->d_name)) {
            struct record *r = add(c, e->d_name);
            entry_path(c, e->d_name, "", p);
            if (r) {
                r->bytes = tree_bytes(p);
                c->bytes += r->bytes;
            }
        }
    }
    if (d)
        closedir(d);
}

int cache_open(const char *dir, uint64_t max_bytes, struct cache **out, char err[ERR_LEN])
{
    *out = NULL;
    if (strlen(dir) > CACHE_PATH - 80 || dir[0] != '/')
        return err_set(err, -EINVAL, "cache directory must be an absolute path: %.200s", dir);
    char parent[CACHE_PATH];
    snprintf(parent, sizeof(parent), "%s", dir);
    for (char *p = strchr(parent + 1, '/'); p; p = strchr(p + 1, '/')) {
        *p = '\0'; /* the parents first (/var/cache/verdict on a fresh host) */
        if (mkdir(parent, 0755) < 0 && errno != EEXIST)
            return err_set(err, -errno, "create %.200s: %m", parent);
        *p = '/';
    }
    if (mkdir(dir, 0711) < 0 && errno != EEXIST)
        return err_set(err, -errno, "create cache directory %.200s: %m", dir);
    /* Jobs may open what they know the key of, but not list the directory. */
    if (chmod(dir, 0711) < 0)
        return err_set(err, -errno, "chmod cache directory %.200s: %m", dir);
    struct cache *c = calloc(1, sizeof(*c));
    if (!c)
        return err_set(err, -ENOMEM, "out of memory");
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->built, NULL);
    snprintf(c->dir, sizeof(c->dir), "%s", dir);
    c->max_bytes = max_bytes;
    scan(c);
    *out = c;
    return 0;
}

int cache_acquire(struct cache *c, const char *key, struct cache_entry *e, char err[ERR_LEN])
{
    if (!key_ok(key))
        return err_set(err, -EINVAL, "bad cache key");
    memset(e, 0, sizeof(*e));
    snprintf(e->key, sizeof(e->key), "%s", key);
    pthread_mutex_lock(&c->lock);
    struct record *r;
    while ((r = find(c, key)) && r->building)
        pthread_cond_wait(&c->built, &c->lock);
    int state;
    if (r) {
        r->pins++;
        r->used = ++c->clock;
        c->st.hits++;
        entry_path(c, key, "", e->dir);
        state = CACHE_HIT;
    } else if ((r = add(c, key))) {
        r->building = true;
        r->pins = 1;
        c->st.misses++;
        tmp_path(c, key, e->tmp);
        entry_path(c, key, "", e->dir);
        state = CACHE_BUILD;
    } else {
        state = err_set(err, -ENOMEM, "out of memory");
    }
    pthread_mutex_unlock(&c->lock);
    if (state == CACHE_BUILD) {
        remove_tree(e->tmp);
        if (mkdir(e->tmp, 0755) < 0) {
            int rc = err_set(err, -errno, "create %.200s: %m", e->tmp);
            cache_abort(c, e);
            return rc;
        }
    }
    return state;
}

/* Evicts LRU unpinned entries while over the cap. Called with the lock held; the directories
 * are removed after it is released (into victims). */
static int evict(struct cache *c, char victims[][65], int max)
{
    int n = 0;
    while (c->bytes > c->max_bytes && n < max) {
        struct record *old = NULL;
        for (int i = 0; i < c->n; i++) {
            struct record *r = &c->recs[i];
            if (!r->pins && !r->building && (!old || r->used < old->used))
                old = r;
        }
        if (!old)
            break;
        snprintf(victims[n++], 65, "%s", old->key);
        c->bytes -= old->bytes;
        c->st.evictions++;
        drop(c, old);
    }
    return n;
}

int cache_commit(struct cache *c, struct cache_entry *e, char err[ERR_LEN])
{
    uint64_t bytes = tree_bytes(e->tmp);
    if (rename(e->tmp, e->dir) < 0) {
        if (errno == ENOTEMPTY || errno == EEXIST) {
            /* Another process sharing the cache published this key first: the same bytes. */
            remove_tree(e->tmp);
        } else {
            int rc = err_set(err, -errno, "publish %.200s: %m", e->dir);
            cache_abort(c, e);
            return rc;
        }
    }
    char victims[16][65];
    pthread_mutex_lock(&c->lock);
    struct record *r = find(c, e->key);
    if (r) {
        r->building = false;
        r->bytes = bytes;
        r->used = ++c->clock;
        c->bytes += bytes;
    }
    int nv = evict(c, victims, 16);
    pthread_cond_broadcast(&c->built);
    pthread_mutex_unlock(&c->lock);
    for (int i = 0; i < nv; i++) {
        char p[CACHE_PATH];
        entry_path(c, victims[i], "", p);
        remove_tree(p);
    }
    return 0;
}

void cache_abort(struct cache *c, struct cache_entry *e)
{
    remove_tree(e->tmp);
    pthread_mutex_lock(&c->lock);
    struct record *r = find(c, e->key);
    if (r && r->building)
        drop(c, r);
    pthread_cond_broadcast(&c->built);
    pthread_mutex_unlock(&c->lock);
}

void cache_release(struct cache *c, const struct cache_entry *e)
{
    pthread_mutex_lock(&c->lock);
    struct record *r = find(c, e->key);
    if (r && r->pins > 0)
        r->pins--;
    pthread_mutex_unlock(&c->lock);
}

void cache_get_stats(struct cache *c, struct cache_stats *s)
{
    pthread_mutex_lock(&c->lock);
    *s = c->st;
    s->entries = (uint64_t)c->n;
    s->bytes = c->bytes;
    pthread_mutex_unlock(&c->lock);
}

const char *cache_dir(const struct cache *c)
{
    return c->dir;
}

void cache_close(struct cache *c)
{
    if (!c)
        return;
    pthread_cond_destroy(&c->built);
    pthread_mutex_destroy(&c->lock);
    free(c->recs);
    free(c);
}
