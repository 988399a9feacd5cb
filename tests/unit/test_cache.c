/* Unit tests for server/sha256 (FIPS 180-4 vectors) and server/judge/cache: hits and misses, one
 * build per key under concurrency, LRU eviction that spares pinned entries, recovery of a
 * store left by a crash; and two processes sharing one store (fork(), so that the flock()s
 * are really another process's): a pin held by one survives the other's eviction, an entry
 * removed under an index is rebuilt, a key published by both is used once. */
#include "server/judge/cache.h"
#include "server/util/sha256.h"
#include "test.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char root[64];

static void hex_of(const char *s, size_t n, char out[65])
{
    struct sha256 h;
    sha256_init(&h);
    sha256_update(&h, s, n);
    sha256_hex(&h, out);
}

static void test_sha256(void)
{
    char hex[65];
    hex_of("", 0, hex);
    ASSERT_STR_EQ(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    hex_of("abc", 3, hex);
    ASSERT_STR_EQ(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    hex_of(two, strlen(two), hex);
    ASSERT_STR_EQ(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* A million 'a's, fed in uneven pieces. */
    struct sha256 h;
    char a[997];
    memset(a, 'a', sizeof(a));
    sha256_init(&h);
    size_t left = 1000000;
    while (left > 0) {
        size_t n = left < sizeof(a) ? left : sizeof(a);
        sha256_update(&h, a, n);
        left -= n;
    }
    sha256_hex(&h, hex);
    ASSERT_STR_EQ(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void key(int i, char out[65])
{
    char s[16];
    snprintf(s, sizeof(s), "k%d", i);
    hex_of(s, strlen(s), out);
}

static void fill(const struct cache_entry *e, size_t bytes)
{
    char path[CACHE_PATH + 16];
    snprintf(path, sizeof(path), "%s/main", e->tmp);
    FILE *f = fopen(path, "w");
    for (size_t i = 0; f && i < bytes; i++)
        fputc('x', f);
    if (f)
        fclose(f);
}

static void fresh_root(void)
{
    snprintf(root, sizeof(root), "/tmp/verdict-cache-XXXXXX");
    if (!mkdtemp(root))
        abort();
}

static void rm_root(void)
{
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", root);
}

static void test_hit_miss(void)
{
    fresh_root();
    struct cache *c;
    char err[ERR_LEN], k[65], dir[128];
    snprintf(dir, sizeof(dir), "%s/store", root);
    ASSERT_INT_EQ(cache_open(dir, 1 << 20, &c, err), 0);
    struct stat st;
    ASSERT_INT_EQ(stat(dir, &st), 0);
    ASSERT_UINT_EQ(st.st_mode & 0777, 0711); /* jobs cannot list it */
    struct cache_entry e;
    key(1, k);
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_BUILD);
    fill(&e, 100);
    ASSERT_INT_EQ(cache_commit(c, &e, err), 0);
    cache_release(c, &e);
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_HIT);
    char path[CACHE_PATH + 16];
    snprintf(path, sizeof(path), "%s/main", e.dir);
    ASSERT_INT_EQ(stat(path, &st), 0);
    ASSERT_INT_EQ(st.st_size, 100);
    cache_release(c, &e);
    ASSERT_INT_EQ(cache_acquire(c, "not-a-key", &e, err), -EINVAL);
    /* An aborted build leaves nothing, and the next caller builds. */
    key(2, k);
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_BUILD);
    cache_abort(c, &e);
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_BUILD);
    cache_abort(c, &e);
    struct cache_stats s;
    cache_get_stats(c, &s);
    ASSERT_UINT_EQ(s.hits, 1);
    ASSERT_UINT_EQ(s.misses, 3);
    ASSERT_UINT_EQ(s.entries, 1);
    cache_close(c);
    /* Reopened: the entry is still there, a half-built one of a process that is gone is
     * removed, and one a live process (this one, standing for a second server sharing the
     * directory) is writing is left alone. */
    char tmp[CACHE_PATH], live[CACHE_PATH];
    key(3, k);
    pid_t gone = fork();
    if (gone == 0)
        _exit(0);
    waitpid(gone, NULL, 0);
    snprintf(tmp, sizeof(tmp), "%s/%s.tmp.%d", dir, k, (int)gone);
    mkdir(tmp, 0755);
    snprintf(live, sizeof(live), "%s/%s.tmp.%d", dir, k, (int)getpid());
    mkdir(live, 0755);
    ASSERT_INT_EQ(cache_open(dir, 1 << 20, &c, err), 0);
    ASSERT_INT_EQ(stat(tmp, &st), -1);
    ASSERT_INT_EQ(stat(live, &st), 0);
    rmdir(live);
    key(1, k);
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_HIT);
    cache_release(c, &e);
    cache_close(c);
    rm_root();
}

struct racer {
    struct cache *c;
    const char *key;
    int state;
};

static void *race(void *arg)
{
    struct racer *r = arg;
    struct cache_entry e;
    char err[ERR_LEN];
    r->state = cache_acquire(r->c, r->key, &e, err);
    if (r->state == CACHE_BUILD) {
        usleep(50000); /* a slow compile: the others must wait, not build */
        fill(&e, 10);
        cache_commit(r->c, &e, err);
    }
    cache_release(r->c, &e);
    return NULL;
}

static void test_creates_parents(void)
{
    /* A fresh host has no /var/cache/verdict: the default directory's parents are made. */
    fresh_root();
    struct cache *c;
    char err[ERR_LEN], dir[128];
    snprintf(dir, sizeof(dir), "%s/var/cache/verdict/artifacts", root);
    ASSERT_INT_EQ(cache_open(dir, 1 << 20, &c, err), 0);
    struct stat st;
    ASSERT_INT_EQ(stat(dir, &st), 0);
    ASSERT_UINT_EQ(st.st_mode & 0777, 0711);
    cache_close(c);
    rm_root();
}

static void test_one_build_per_key(void)
{
    fresh_root();
    struct cache *c;
    char err[ERR_LEN], k[65], dir[128];
    snprintf(dir, sizeof(dir), "%s/store", root);
    ASSERT_INT_EQ(cache_open(dir, 1 << 20, &c, err), 0);
    key(7, k);
    pthread_t t[8];
    struct racer r[8];
    for (int i = 0; i < 8; i++) {
        r[i] = (struct racer){c, k, 0};
        pthread_create(&t[i], NULL, race, &r[i]);
    }
    int builds = 0, hits = 0;
    for (int i = 0; i < 8; i++) {
        pthread_join(t[i], NULL);
        builds += r[i].state == CACHE_BUILD;
        hits += r[i].state == CACHE_HIT;
    }
    ASSERT_INT_EQ(builds, 1);
    ASSERT_INT_EQ(hits, 7);
    cache_close(c);
    rm_root();
}

static void test_lru(void)
{
    fresh_root();
    struct cache *c;
    char err[ERR_LEN], k[65], dir[128];
    snprintf(dir, sizeof(dir), "%s/store", root);
    ASSERT_INT_EQ(cache_open(dir, 3 * 8192, &c, err), 0); /* room for three 8 KiB entries */
    struct cache_entry e, pinned;
    for (int i = 0; i < 3; i++) {
        key(i, k);
        ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_BUILD);
        fill(&e, 8000);
        ASSERT_INT_EQ(cache_commit(c, &e, err), 0);
        if (i == 0)
            pinned = e; /* entry 0 stays pinned: in use by a run */
        else
            cache_release(c, &e);
    }
    key(1, k); /* touch entry 1: entry 2 becomes the least recently used unpinned one */
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_HIT);
    cache_release(c, &e);
    key(3, k);
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_BUILD);
    fill(&e, 8000);
    ASSERT_INT_EQ(cache_commit(c, &e, err), 0);
    cache_release(c, &e);
    struct cache_stats s;
    cache_get_stats(c, &s);
    ASSERT_UINT_EQ(s.evictions, 1);
    ASSERT_TRUE(s.bytes <= 3 * 8192);
    key(2, k);
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_BUILD); /* it was the one evicted */
    cache_abort(c, &e);
    key(0, k);
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_HIT); /* pinned: kept */
    cache_release(c, &e);
    cache_release(c, &pinned);
    cache_close(c);
    rm_root();
}

static bool exists(const char *dir, const char *name)
{
    char path[CACHE_PATH + 16];
    struct stat st;
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return stat(path, &st) == 0;
}

/* In a child process: opens the store with a cap of one 8 KiB entry and builds n entries
 * (keys 100..), each commit evicting what its index holds beyond the cap. Exits 0 on success. */
static void child_fills(const char *dir, int n)
{
    struct cache *c;
    char err[ERR_LEN], k[65];
    struct cache_entry e;
    if (cache_open(dir, 8192, &c, err) < 0)
        _exit(2);
    for (int i = 0; i < n; i++) {
        key(100 + i, k);
        if (cache_acquire(c, k, &e, err) != CACHE_BUILD)
            _exit(3);
        fill(&e, 8000);
        if (cache_commit(c, &e, err) < 0)
            _exit(4);
        cache_release(c, &e);
    }
    cache_close(c);
    _exit(0);
}

static int run_child(const char *dir, int n)
{
    pid_t pid = fork();
    if (pid == 0)
        child_fills(dir, n);
    int status = -1;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A second process (verdict run's 1 GiB cap against the server's 4 GiB, here 8 KiB against
 * 1 MiB) indexes this process's entries at open and evicts them to meet its cap: the one
 * this process has pinned (a run is using it) must survive; the unpinned one may go, and is
 * then rebuilt here, never served as a hit on a missing directory. */
static void test_two_processes_evict(void)
{
    fresh_root();
    struct cache *c;
    char err[ERR_LEN], k0[65], k1[65], dir[128];
    snprintf(dir, sizeof(dir), "%s/store", root);
    ASSERT_INT_EQ(cache_open(dir, 1 << 20, &c, err), 0);
    struct cache_entry pinned, e;
    key(0, k0);
    ASSERT_INT_EQ(cache_acquire(c, k0, &pinned, err), CACHE_BUILD);
    fill(&pinned, 8000);
    ASSERT_INT_EQ(cache_commit(c, &pinned, err), 0); /* stays pinned */
    key(1, k1);
    ASSERT_INT_EQ(cache_acquire(c, k1, &e, err), CACHE_BUILD);
    fill(&e, 8000);
    ASSERT_INT_EQ(cache_commit(c, &e, err), 0);
    cache_release(c, &e); /* unpinned: the other process may evict it */
    ASSERT_INT_EQ(run_child(dir, 3), 0);
    ASSERT_TRUE(exists(pinned.dir, "main"));                   /* the pinned entry survived */
    ASSERT_FALSE(exists(e.dir, "main"));                       /* the other was evicted... */
    ASSERT_INT_EQ(cache_acquire(c, k1, &e, err), CACHE_BUILD); /* ...and is rebuilt */
    fill(&e, 8000);
    ASSERT_INT_EQ(cache_commit(c, &e, err), 0);
    ASSERT_TRUE(exists(e.dir, "main"));
    cache_release(c, &e);
    cache_release(c, &pinned);
    ASSERT_INT_EQ(cache_acquire(c, k0, &e, err), CACHE_HIT);
    cache_release(c, &e);
    char k[65];
    key(102, k); /* the child's last entry, published after this process indexed the store */
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_HIT);
    ASSERT_TRUE(exists(e.dir, "main"));
    cache_release(c, &e);
    cache_close(c);
    rm_root();
}

/* A hit found damaged is discarded and rebuilt; not while another thread holds it. */
static void test_discard(void)
{
    fresh_root();
    struct cache *c;
    char err[ERR_LEN], k[65], dir[128];
    snprintf(dir, sizeof(dir), "%s/store", root);
    ASSERT_INT_EQ(cache_open(dir, 1 << 20, &c, err), 0);
    struct cache_entry e, other;
    key(9, k);
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_BUILD);
    fill(&e, 100);
    ASSERT_INT_EQ(cache_commit(c, &e, err), 0);
    ASSERT_INT_EQ(cache_acquire(c, k, &other, err), CACHE_HIT);
    ASSERT_INT_EQ(cache_discard(c, &e, err), -EBUSY); /* `other` still uses it */
    ASSERT_TRUE(exists(other.dir, "main"));
    ASSERT_INT_EQ(cache_discard(c, &other, err), 0);
    ASSERT_FALSE(exists(other.dir, "main"));
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_BUILD);
    cache_abort(c, &e);
    cache_close(c);
    rm_root();
}

/* At open, a build left by a dead process is removed even when its pid now names a live
 * process (recycled): its lock is free. One whose builder lives (its lock is held) stays. */
static void test_leftovers_by_lock(void)
{
    fresh_root();
    struct cache *c, *other;
    char err[ERR_LEN], k[65], dir[128], dead[CACHE_PATH], recycled[CACHE_PATH];
    snprintf(dir, sizeof(dir), "%s/store", root);
    ASSERT_INT_EQ(cache_open(dir, 1 << 20, &c, err), 0);
    struct cache_entry e;
    key(11, k);
    pid_t pid = fork();
    if (pid == 0) { /* starts a build and dies */
        struct cache *cc;
        struct cache_entry ce;
        _exit(cache_open(dir, 1 << 20, &cc, err) == 0 &&
                      cache_acquire(cc, k, &ce, err) == CACHE_BUILD
                  ? 0
                  : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    ASSERT_INT_EQ(WEXITSTATUS(status), 0);
    snprintf(dead, sizeof(dead), "%s/%s.tmp.%d", dir, k, (int)pid);
    ASSERT_TRUE(exists(dead, ".lock"));
    snprintf(recycled, sizeof(recycled), "%s/%s.tmp.%d", dir, k, (int)getppid());
    ASSERT_INT_EQ(rename(dead, recycled), 0); /* as if its pid were now another's */
    key(12, k);
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_BUILD); /* a live build */
    ASSERT_INT_EQ(cache_open(dir, 1 << 20, &other, err), 0);
    struct stat st;
    ASSERT_INT_EQ(stat(recycled, &st), -1);
    ASSERT_TRUE(exists(e.tmp, ".lock"));
    cache_close(other);
    cache_abort(c, &e);
    cache_close(c);
    rm_root();
}

/* An entry removed behind the index's back (another process, a hand-run rm, or one left by
 * an older verdict without its lock file) is rebuilt, never a hit on a missing directory. */
static void test_removed_under_index(void)
{
    fresh_root();
    struct cache *c;
    char err[ERR_LEN], k[65], dir[128], cmd[CACHE_PATH + 16];
    snprintf(dir, sizeof(dir), "%s/store", root);
    ASSERT_INT_EQ(cache_open(dir, 1 << 20, &c, err), 0);
    struct cache_entry e;
    key(5, k);
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_BUILD);
    fill(&e, 100);
    ASSERT_INT_EQ(cache_commit(c, &e, err), 0);
    cache_release(c, &e);
    snprintf(cmd, sizeof(cmd), "rm -rf %s", e.dir);
    ASSERT_INT_EQ(system(cmd), 0);
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_BUILD);
    fill(&e, 100);
    ASSERT_INT_EQ(cache_commit(c, &e, err), 0);
    ASSERT_TRUE(exists(e.dir, "main"));
    cache_release(c, &e);
    /* A directory that holds the key's name but no lock file (an older verdict's entry, or a
     * damaged one) is replaced when rebuilt. */
    snprintf(cmd, sizeof(cmd), "rm -f %s/.lock", e.dir);
    ASSERT_INT_EQ(system(cmd), 0);
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_BUILD);
    fill(&e, 200);
    ASSERT_INT_EQ(cache_commit(c, &e, err), 0);
    struct stat st;
    char path[CACHE_PATH + 16];
    snprintf(path, sizeof(path), "%s/main", e.dir);
    ASSERT_INT_EQ(stat(path, &st), 0);
    ASSERT_INT_EQ(st.st_size, 200);
    cache_release(c, &e);
    cache_close(c);
    rm_root();
}

/* Both processes miss the same key and build it: the second to publish uses the first's
 * entry. A process that opens the store after another published a key hits it. */
static void test_two_processes_same_key(void)
{
    fresh_root();
    struct cache *c;
    char err[ERR_LEN], k[65], dir[128];
    snprintf(dir, sizeof(dir), "%s/store", root);
    ASSERT_INT_EQ(cache_open(dir, 1 << 20, &c, err), 0);
    struct cache_entry e;
    key(100, k); /* the child's first key */
    ASSERT_INT_EQ(cache_acquire(c, k, &e, err), CACHE_BUILD);
    fill(&e, 50);
    ASSERT_INT_EQ(run_child(dir, 1), 0); /* publishes key 100 with 8000 bytes */
    ASSERT_INT_EQ(cache_commit(c, &e, err), 0);
    struct stat st;
    char path[CACHE_PATH + 16];
    snprintf(path, sizeof(path), "%s/main", e.dir);
    ASSERT_INT_EQ(stat(path, &st), 0);
    ASSERT_INT_EQ(st.st_size, 8000); /* the child's copy, ours dropped */
    cache_release(c, &e);
    cache_close(c);
    rm_root();
}

int main(void)
{
    TEST_RUN(test_sha256);
    TEST_RUN(test_hit_miss);
    TEST_RUN(test_creates_parents);
    TEST_RUN(test_one_build_per_key);
    TEST_RUN(test_lru);
    TEST_RUN(test_two_processes_evict);
    TEST_RUN(test_removed_under_index);
    TEST_RUN(test_two_processes_same_key);
    TEST_RUN(test_discard);
    TEST_RUN(test_leftovers_by_lock);
    return TEST_EXIT();
}
