/* Unit tests for server/sha256 (FIPS 180-4 vectors) and server/cache: hits and misses, one
 * build per key under concurrency, LRU eviction that spares pinned entries, recovery of a
 * store left by a crash. */
#include "server/judge/cache.h"
#include "server/util/sha256.h"
#include "test.h"

#include <errno.h>
#include <pthread.h>
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

int main(void)
{
    TEST_RUN(test_sha256);
    TEST_RUN(test_hit_miss);
    TEST_RUN(test_creates_parents);
    TEST_RUN(test_one_build_per_key);
    TEST_RUN(test_lru);
    return TEST_EXIT();
}
