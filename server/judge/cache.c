/*
 * cache: the artifact store, shared safely by every process that opens the same directory.
 *
 * Index. Each process keeps an array of records (key, bytes, last use, pins, building) under
 * one mutex; lookups are linear (O(n) in the entries indexed), which is fine for the
 * thousands of entries a node keeps. A record that is being built makes other callers of this
 * process for the same key wait on a condition variable, so a burst of identical submissions
 * (veRL sends one request per test case) compiles once.
 *
 * Disk. Builders write into "<key>.tmp.<pid>" and commit renames it to "<key>", so a reader
 * never sees a half-written entry. Every entry holds ".lock" (mode 0600: jobs, which see the
 * store read-only in their cells, cannot open it); flock() on it is the contract between
 * processes, since another process's index is invisible to this one:
 *
 *   state     on disk                      locks on .lock                   made by
 *   absent    nothing named <key>          -                                start; evict
 *   building  <key>.tmp.<pid>/ and .lock   builder: shared, from creation    cache_acquire
 *   present   <key>/ (.lock renamed in)    none                             cache_commit
 *   pinned    <key>/                       each process using it: shared    cache_acquire
 *   evicted   <key>.del.<pid>.<n>/         evictor: exclusive until removed  evict, discard
 *
 * Transitions. A pin is a shared flock taken without blocking, then checked: the lock file
 * must still be the one at <key>/.lock (an evictor may have renamed it away between open and
 * flock). A pin that fails means the entry is gone or going: the record is dropped and the
 * caller builds. Eviction takes an exclusive flock without blocking, so it skips every entry
 * some process has pinned; holding it, it renames <key> away atomically (a reader either pins
 * the whole entry or finds none) and removes the renamed tree. A builder holds its shared lock
 * from the moment the tmp directory has a lock file to its last release, through the rename,
 * so there is no instant at which a fresh entry is unpinned. When two processes build the
 * same key the second rename fails and the second process pins and uses the first's entry;
 * a directory that holds the name but cannot be pinned (no .lock: damaged or older) is
 * evicted and replaced. Each process counts only what it indexed against its own cap, so the
 * store can exceed the larger cap by what the other process alone holds.
 *
 * Open. Complete entries are indexed with their sizes. A "<key>.tmp.<pid>" or ".del." left by
 * a process that died is removed: its lock file can be taken exclusively (no lock is held by
 * a dead process) or, lacking one, its pid is gone. Builders retry once if such a scan took
 * their directory in the instant between mkdir and the lock file's creation.
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
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LOCK_NAME   ".lock"
#define MAX_VICTIMS 16

struct record {
    char key[65];
    uint64_t bytes;
    uint64_t used;  /* logical clock of the last use */
    int pins;       /* this process's users */
    int lock_fd;    /* <key>/.lock, flocked shared while pins > 0; else -1 */
    uint64_t tried; /* the eviction pass that found it pinned by another process */
    bool building;
};

struct cache {
    pthread_mutex_t lock;
    pthread_cond_t built;
    char dir[CACHE_PATH];
    uint64_t max_bytes, bytes, clock;
    uint64_t pass;      /* eviction passes so far */
    unsigned trash_seq; /* numbers this process's ".del." names */
    struct cache_stats st;
    int n, cap;
    struct record *recs;
};

/* An entry taken out of the store, still locked, to be removed after the mutex is released. */
struct victim {
    char path[CACHE_PATH];
    int fd;
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

/* ---- the lock file --------------------------------------------------------------------- */

static void lock_path(const char *dir, char *out)
{
    snprintf(out, CACHE_PATH + 8, "%s/" LOCK_NAME, dir);
}

/* True if fd is still the lock file at dir/.lock (not renamed away or unlinked meanwhile). */
static bool lock_current(int fd, const char *dir)
{
    char path[CACHE_PATH + 8];
    struct stat held, now;
    lock_path(dir, path);
    return fstat(fd, &held) == 0 && held.st_nlink > 0 && stat(path, &now) == 0 &&
           held.st_dev == now.st_dev && held.st_ino == now.st_ino;
}

/* Locks dir/.lock (LOCK_SH: a pin; LOCK_EX: to evict) without blocking. Returns the fd, or
 * -ENOENT (no entry, or one without a lock file), -ESTALE (the file was renamed away between
 * open and flock), -EWOULDBLOCK (another holds a conflicting lock), another negative errno. */
static int lock_take(const char *dir, int how)
{
    char path[CACHE_PATH + 8];
    lock_path(dir, path);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    int rc = flock(fd, how | LOCK_NB) < 0 ? -errno : 0;
    if (rc == 0 && !lock_current(fd, dir))
        rc = -ESTALE;
    if (rc < 0)
        close(fd);
    return rc < 0 ? rc : fd;
}

/* Creates dir/.lock for a new build and holds it shared. Returns the fd or a negative errno
 * (-ENOENT: a scan took the directory before the file existed). */
static int lock_create(const char *dir)
{
    char path[CACHE_PATH + 8];
    lock_path(dir, path);
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return -errno;
    int rc = flock(fd, LOCK_SH | LOCK_NB) < 0 ? -errno : 0;
    if (rc == 0 && !lock_current(fd, dir))
        rc = -ENOENT;
    if (rc < 0)
        close(fd);
    return rc < 0 ? rc : fd;
}

/* ---- the index ------------------------------------------------------------------------- */

/* O(n) in the entries indexed. */
static struct record *find(struct cache *c, const char *key)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->recs[i].key, key) == 0)
            return &c->recs[i];
    return NULL;
}

/* The caller's own building record. It exists from cache_acquire's CACHE_BUILD (or the wait
 * that precedes an adopt) until commit or abort, and nothing else drops a record that is
 * building: a miss is a bug in this module, not a state an input can reach. */
static struct record *building(struct cache *c, const char *key)
{
    struct record *r = find(c, key);
    if (!r)
        abort();
    return r;
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
    r->lock_fd = -1;
    snprintf(r->key, sizeof(r->key), "%s", key);
    return r;
}

/* Forgets a record (its lock, if any, is released). Invalidates record pointers. */
static void drop(struct cache *c, struct record *r)
{
    if (r->lock_fd >= 0)
        close(r->lock_fd);
    c->bytes -= r->bytes < c->bytes ? r->bytes : c->bytes;
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

/* Moves the entry of key out of the store under a fresh ".del." name (into v->path) while
 * holding its exclusive lock (in v->fd; -ENOENT for an entry without a lock file, damaged or
 * older). Called with the mutex held. Returns 0, -EWOULDBLOCK (pinned by some process), or
 * another negative errno (-ENOENT: already gone). */
static int take_out(struct cache *c, const char *key, struct victim *v)
{
    char dir[CACHE_PATH], suffix[24];
    entry_path(c, key, "", dir);
    v->fd = lock_take(dir, LOCK_EX);
    if (v->fd < 0 && v->fd != -ENOENT)
        return v->fd; /* pinned, or changing under us: not ours to remove */
    if (v->fd < 0 && access(dir, F_OK) < 0)
        return -ENOENT; /* no lock file because no entry */
    snprintf(suffix, sizeof(suffix), ".del.%d.%u", (int)getpid(), ++c->trash_seq);
    entry_path(c, key, suffix, v->path);
    if (rename(dir, v->path) < 0) {
        int rc = -errno;
        if (v->fd >= 0)
            close(v->fd);
        return rc;
    }
    return 0;
}

static void finish_victims(struct victim *v, int n)
{
    for (int i = 0; i < n; i++) {
        remove_tree(v[i].path);
        if (v[i].fd >= 0)
            close(v[i].fd);
    }
}

/* ---- open: recovering what crashed processes left --------------------------------------- */

/* The owner pid of a "<key>.tmp.<pid>" or "<key>.del.<pid>.<n>" name, or 0 for any other. */
static pid_t leftover_owner(const char *name)
{
    size_t len = strlen(name);
    if (len < 70 || (strncmp(name + 64, ".tmp.", 5) != 0 && strncmp(name + 64, ".del.", 5) != 0))
        return 0;
    char *end;
    long pid = strtol(name + 69, &end, 10);
    bool tail_ok = *end == '\0' || (name[65] == 'd' && *end == '.');
    return !tail_ok || pid <= 0 ? 0 : (pid_t)pid;
}

/* Removes a leftover whose process is gone: its lock file can be taken exclusively, or it has
 * none and its pid does not exist. A live builder or evictor keeps its directory. */
static void remove_if_stale(const char *path, pid_t owner)
{
    int fd = lock_take(path, LOCK_EX);
    if (fd >= 0 || (fd == -ENOENT && kill(owner, 0) < 0 && errno == ESRCH))
        remove_tree(path);
    if (fd >= 0)
        close(fd);
}

static void scan(struct cache *c)
{
    DIR *d = opendir(c->dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char p[CACHE_PATH];
        pid_t owner = leftover_owner(e->d_name);
        if (owner > 0) {
            snprintf(p, sizeof(p), "%.420s/%.90s", c->dir, e->d_name);
            remove_if_stale(p, owner); /* a build or removal cut short by a crash */
        } else if (key_ok(e->d_name)) {
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

/* ---- acquire: pin or build -------------------------------------------------------------- */

/* Pins r's entry for one more user (the first takes the shared lock). Called with the mutex
 * held. Returns false when the entry is gone or going (the caller drops r and builds). */
static bool pin(struct cache *c, struct record *r)
{
    if (r->pins == 0) {
        char dir[CACHE_PATH];
        entry_path(c, r->key, "", dir);
        int fd = lock_take(dir, LOCK_SH);
        if (fd < 0)
            return false;
        r->lock_fd = fd;
    }
    r->pins++;
    r->used = ++c->clock;
    return true;
}

/* Counts a write the store could not make (why) and logs the first and every power of two
 * after. Called without the mutex. */
static void note_write_error(struct cache *c, const char *why)
{
    pthread_mutex_lock(&c->lock);
    uint64_t n = ++c->st.write_errors;
    pthread_mutex_unlock(&c->lock);
    if ((n & (n - 1)) == 0)
        fprintf(stderr,
                "verdict: compile cache: %s (%llu so far; what it could not keep runs "
                "uncached)\n",
                why, (unsigned long long)n);
}

/* Makes e->tmp with its lock file, held shared from then on (into *fd). Retries once if a
 * scan of another process removed it before the lock file existed. */
static int make_tmp(const struct cache_entry *e, int *fd, char err[ERR_LEN])
{
    int rc = 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        remove_tree(e->tmp); /* our own leftover of a build cut short */
        if (mkdir(e->tmp, 0755) < 0)
            return err_set(err, -errno, "create %.200s: %m", e->tmp);
        if ((rc = lock_create(e->tmp)) >= 0) {
            *fd = rc;
            return 0;
        }
    }
    return err_set(err, rc, "lock %.200s: %s", e->tmp, strerror(-rc));
}

/* An entry another process published since this one indexed: pinned and indexed. Returns
 * true with r (still the caller's building record) turned into a pinned entry. */
static bool adopt(struct cache *c, const struct cache_entry *e)
{
    int fd = lock_take(e->dir, LOCK_SH);
    if (fd < 0)
        return false;
    uint64_t bytes = tree_bytes(e->dir);
    pthread_mutex_lock(&c->lock);
    struct record *r = building(c, e->key);
    r->building = false;
    r->lock_fd = fd;
    r->bytes = bytes;
    c->bytes += bytes;
    c->st.hits++;
    c->st.misses--;
    pthread_cond_broadcast(&c->built);
    pthread_mutex_unlock(&c->lock);
    return true;
}

/* Looks key up in the index and on disk. Returns CACHE_HIT (pinned), CACHE_BUILD (a building
 * record made, the entry absent), or -ENOMEM. */
static int look_up(struct cache *c, const char *key)
{
    pthread_mutex_lock(&c->lock);
    struct record *r;
    while ((r = find(c, key)) && r->building)
        pthread_cond_wait(&c->built, &c->lock);
    int state = CACHE_HIT;
    if (r && pin(c, r)) {
        c->st.hits++;
    } else {
        if (r)
            drop(c, r); /* gone under the index: evicted by another process, or removed */
        if ((r = add(c, key))) {
            r->building = true;
            r->pins = 1;
            c->st.misses++;
            state = CACHE_BUILD;
        } else {
            state = -ENOMEM;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return state;
}

int cache_acquire(struct cache *c, const char *key, struct cache_entry *e, char err[ERR_LEN])
{
    if (!key_ok(key))
        return err_set(err, -EINVAL, "bad cache key");
    memset(e, 0, sizeof(*e));
    snprintf(e->key, sizeof(e->key), "%s", key);
    entry_path(c, key, "", e->dir);
    int state = look_up(c, key);
    if (state == -ENOMEM)
        return err_set(err, -ENOMEM, "out of memory");
    if (state == CACHE_HIT || adopt(c, e))
        return CACHE_HIT;
    tmp_path(c, key, e->tmp);
    int fd = -1, rc = make_tmp(e, &fd, err);
    if (rc < 0) {
        cache_abort(c, e);
        note_write_error(c, err);
        return rc;
    }
    pthread_mutex_lock(&c->lock);
    building(c, key)->lock_fd = fd;
    pthread_mutex_unlock(&c->lock);
    return CACHE_BUILD;
}

/* ---- commit, abort, release, discard ---------------------------------------------------- */

/* Evicts LRU entries no process has pinned while over the cap. Called with the mutex held;
 * the victims' trees are removed after it is released. Entries pinned by another process
 * are skipped (and left where they are in the LRU order). Returns the number of victims. */
static int evict(struct cache *c, struct victim *v, int max)
{
    int n = 0;
    uint64_t pass = ++c->pass;
    while (c->bytes > c->max_bytes && n < max) {
        struct record *old = NULL;
        for (int i = 0; i < c->n; i++) {
            struct record *r = &c->recs[i];
            if (!r->pins && !r->building && r->tried != pass && (!old || r->used < old->used))
                old = r;
        }
        if (!old)
            break;
        int rc = take_out(c, old->key, &v[n]);
        if (rc < 0 && rc != -ENOENT) {
            old->tried = pass; /* pinned by another process: the next oldest instead */
            continue;
        }
        n += rc == 0;
        c->st.evictions += rc == 0;
        drop(c, old);
    }
    return n;
}

/* The name is taken by an entry this process did not build: pins it into r when it is
 * sound (another process published the same key: the same bytes), else takes it out of the
 * store so the caller's rename can succeed. Returns 1 (pinned the published entry), 0 (name
 * freed), or a negative errno. */
static int settle_conflict(struct cache *c, struct cache_entry *e, int *fd)
{
    int theirs = lock_take(e->dir, LOCK_SH);
    if (theirs >= 0) {
        close(*fd);
        *fd = theirs;
        return 1;
    }
    struct victim v;
    pthread_mutex_lock(&c->lock);
    int rc = take_out(c, e->key, &v);
    pthread_mutex_unlock(&c->lock);
    if (rc == 0)
        finish_victims(&v, 1);
    return rc == -ENOENT ? 0 : rc;
}

/* Renames e->tmp into place, or settles on the entry another process published. Returns 0
 * or a negative errno with err. *fd is the lock the entry is pinned by afterwards. */
static int publish(struct cache *c, struct cache_entry *e, int *fd, char err[ERR_LEN])
{
    for (int attempt = 0; attempt < 3; attempt++) {
        if (rename(e->tmp, e->dir) == 0)
            return 0;
        if (errno != ENOTEMPTY && errno != EEXIST)
            return err_set(err, -errno, "publish %.200s: %m", e->dir);
        int rc = settle_conflict(c, e, fd);
        if (rc == 1) {
            remove_tree(e->tmp); /* ours was a copy of the same bytes */
            return 0;
        }
        if (rc < 0 && rc != -EWOULDBLOCK && rc != -ESTALE)
            return err_set(err, rc, "replace %.200s: %s", e->dir, strerror(-rc));
        if (rc < 0)
            usleep(10000); /* another process is removing it: the name frees shortly */
    }
    return err_set(err, -EBUSY, "publish %.200s: the name stays taken by an entry in use", e->dir);
}

int cache_commit(struct cache *c, struct cache_entry *e, char err[ERR_LEN])
{
    pthread_mutex_lock(&c->lock);
    struct record *r = find(c, e->key);
    int fd = r ? r->lock_fd : -1;
    pthread_mutex_unlock(&c->lock);
    if (fd < 0) {
        cache_abort(c, e);
        return err_set(err, -EINVAL, "commit of %.64s: not being built", e->key);
    }
    int rc = publish(c, e, &fd, err);
    if (rc < 0) {
        cache_abort(c, e);
        note_write_error(c, err);
        return rc;
    }
    uint64_t bytes = tree_bytes(e->dir);
    struct victim v[MAX_VICTIMS];
    pthread_mutex_lock(&c->lock);
    r = building(c, e->key);
    r->building = false;
    r->lock_fd = fd;
    r->bytes = bytes;
    r->used = ++c->clock;
    c->bytes += bytes;
    int nv = evict(c, v, MAX_VICTIMS);
    pthread_cond_broadcast(&c->built);
    pthread_mutex_unlock(&c->lock);
    finish_victims(v, nv);
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

void cache_fail(struct cache *c, struct cache_entry *e, int error)
{
    char why[ERR_LEN];
    snprintf(why, sizeof(why), "write %.200s: %s", e->tmp, strerror(-error));
    cache_abort(c, e);
    note_write_error(c, why);
}

/* Gives up one pin of r; the last releases the shared lock. Called with the mutex held. */
static void unpin(struct record *r)
{
    if (r->pins > 0 && --r->pins == 0 && r->lock_fd >= 0) {
        close(r->lock_fd);
        r->lock_fd = -1;
    }
}

void cache_release(struct cache *c, const struct cache_entry *e)
{
    pthread_mutex_lock(&c->lock);
    struct record *r = find(c, e->key);
    if (r && !r->building)
        unpin(r);
    pthread_mutex_unlock(&c->lock);
}

int cache_discard(struct cache *c, const struct cache_entry *e, char err[ERR_LEN])
{
    struct victim v;
    int rc = -ENOENT;
    pthread_mutex_lock(&c->lock);
    struct record *r = find(c, e->key);
    if (r && !r->building && r->pins == 1) {
        unpin(r);
        rc = take_out(c, e->key, &v);
        if (rc == 0 || rc == -ENOENT)
            drop(c, r);
    } else if (r && !r->building) {
        unpin(r);
        rc = -EBUSY; /* another thread of this process is using it */
    }
    pthread_mutex_unlock(&c->lock);
    if (rc == 0)
        finish_victims(&v, 1);
    if (rc == -ENOENT)
        rc = 0; /* already gone: the next acquire builds */
    if (rc < 0)
        err_set(err, rc, "cache entry %.64s is damaged and in use elsewhere", e->key);
    return rc;
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
    for (int i = 0; i < c->n; i++)
        if (c->recs[i].lock_fd >= 0)
            close(c->recs[i].lock_fd);
    pthread_cond_destroy(&c->built);
    pthread_mutex_destroy(&c->lock);
    free(c->recs);
    free(c);
}
