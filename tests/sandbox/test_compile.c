/*
 * Compile outcomes through real cells and the compile cache (label sandbox; needs root), with
 * stand-in compilers written as shell templates, so each outcome is exact and quick:
 *   - a compile starved by load (its wall clock fires with CPU to spare; here, a compiler
 *     that sleeps until a deadline) is retried once, then TLE, never CE and never cached: the
 *     identical request after it compiles again, and once the "load" is gone it succeeds;
 *   - a compiler that spins past its CPU limit is TLE at once (no retry), not cached;
 *   - one that runs out of memory is MLE, not cached;
 *   - one that refuses the source (exit 1) is CE with its message, cached;
 *   - an artifact over the fetch cap is SE naming the cap, not cached as CE.
 *
 * usage: test_compile VERDICT_EXE
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runners/cell.h"
#include "server/judge/program.h"
#include "test.h"

static struct program_env env;
static char cache_root[64];

/* A template named name whose compiler is `sh -c script`, leaving "main" (a shell script). */
static struct lang *stand_in(const char *name, const char *script, const char *limits)
{
    char text[2048], err[ERR_LEN];
    snprintf(text, sizeof(text),
             "{\"name\": \"%s\", \"source\": \"prog.sh\", \"version\": [\"/bin/sh\", \"-c\", "
             "\"echo 1\"],"
             " \"compile\": {\"argv\": [\"/bin/sh\", \"-c\", \"%s\"],"
             " \"env\": [\"PATH=/usr/bin:/bin\"], \"limits\": {%s}, \"artifacts\": [\"main\"]},"
             " \"run\": {\"argv\": [\"/bin/sh\", \"{dir}/main\"]}}",
             name, script, limits);
    struct lang *l = NULL;
    if (lang_parse("test_compile.json", text, &l, err) < 0) {
        fprintf(stderr, "%s\n", err);
        abort();
    }
    snprintf(l->version_line, sizeof(l->version_line), "stand-in %d", (int)getpid());
    l->available = true;
    return l;
}

struct build {
    struct program p;
    int rc;
    char err[ERR_LEN];
};

static void build(const struct lang *l, const struct job_file *files, int n, struct build *b)
{
    b->err[0] = '\0';
    b->rc = program_build(&env, l, files, n, NULL, &b->p, b->err);
    printf("  %-8s rc %d verdict %s ok %d cached %d attempts %d wall %lld ms: %s\n", l->name, b->rc,
           verdict_name(b->p.compile_verdict), b->p.ok, b->p.cached, b->p.attempts,
           (long long)b->p.compile.wall_ms, b->rc < 0 ? b->err : "");
}

static void done(struct build *b)
{
    program_free(&env, &b->p);
}

/* Busy until a deadline, then fine: the compile is starved (sleeping, no CPU) before it. Its
 * CPU limit leaves room for starting sh, date, cat and sleep on a slow machine (0.3 s was
 * not enough in the emulated v2 guest), and the deadline for two builds of two attempts. */
static void test_starved_then_fine(void)
{
    struct lang *l = stand_in("slow",
                              "if [ $(date +%s) -lt $(cat deadline) ]; then sleep 60; fi; "
                              "cp prog.sh main",
                              "\"cpu_ms\": 700, \"wall_ms\": 700");
    char deadline[32], src[] = "echo built\n";
    time_t until = time(NULL) + 18;
    snprintf(deadline, sizeof(deadline), "%lld\n", (long long)until);
    struct job_file files[] = {{"prog.sh", 0644, (const uint8_t *)src, strlen(src)},
                               {"deadline", 0644, (const uint8_t *)deadline, strlen(deadline)}};
    struct build b;
    for (int i = 0; i < 2; i++) { /* the second identical request is no cache hit */
        build(l, files, 2, &b);
        ASSERT_INT_EQ(b.rc, 0);
        ASSERT_FALSE(b.p.ok);
        ASSERT_FALSE(b.p.cached);
        ASSERT_INT_EQ(b.p.compile_verdict, VERDICT_TLE);
        ASSERT_INT_EQ(b.p.attempts, 2); /* the wall clock fired with CPU to spare: retried */
        ASSERT_STR_CONTAINS(b.p.message, "with CPU time to spare");
        /* The wall clock is the backstop, not the 700 ms asked: 3 x CPU + 1 s. */
        ASSERT_INT_EQ(b.p.compile_limits.wall_ms, 3100);
        done(&b);
    }
    ASSERT_TRUE(time(NULL) < until); /* else the test machine itself is too slow to tell */
    while (time(NULL) <= until)
        usleep(200000);
    build(l, files, 2, &b); /* the load has gone: the same request compiles */
    ASSERT_INT_EQ(b.rc, 0);
    ASSERT_TRUE(b.p.ok);
    ASSERT_INT_EQ(b.p.compile_verdict, VERDICT_OK);
    ASSERT_INT_EQ(b.p.attempts, 1);
    struct job_result res;
    uint8_t *payload;
    program_run(&env, &b.p, NULL, &res, &payload);
    ASSERT_INT_EQ(res.status, JOB_OK);
    ASSERT_TRUE(res.out_len == 6 && memcmp(res.out, "built\n", 6) == 0);
    job_result_fini(&res);
    free(payload);
    done(&b);
    build(l, files, 2, &b); /* and now it is cached */
    ASSERT_TRUE(b.p.cached && b.p.ok);
    done(&b);
    lang_free(l);
}

/* Each stand-in twice: whether the second build is a hit says whether the first was cached. */
static void twice(struct lang *l, int want_rc, enum verdict want, bool cached_after,
                  const char *says)
{
    char src[32];
    snprintf(src, sizeof(src), "echo %d\n", (int)getpid());
    struct job_file f = {"prog.sh", 0644, (const uint8_t *)src, strlen(src)};
    struct build b;
    for (int i = 0; i < 2; i++) {
        build(l, &f, 1, &b);
        ASSERT_INT_EQ(b.rc, want_rc);
        ASSERT_FALSE(b.p.ok);
        if (want_rc == 0)
            ASSERT_INT_EQ(b.p.compile_verdict, want);
        ASSERT_TRUE(b.p.cached == (i == 1 && cached_after));
        ASSERT_STR_CONTAINS(want_rc == 0 ? b.p.message : b.err, says);
        done(&b);
    }
    lang_free(l);
}

static void test_outcomes(void)
{
    /* Out of CPU: TLE at once, one attempt, not cached. */
    struct lang *spin = stand_in("spin", "while :; do :; done", "\"cpu_ms\": 300");
    twice(spin, 0, VERDICT_TLE, false, "compilation stopped: TLE");
    /* Out of memory: MLE, not cached. */
    twice(stand_in("hog", "head -c 300000000 /dev/zero | sort > /dev/null",
                   "\"cpu_ms\": 5000, \"memory_mb\": 32"),
          0, VERDICT_MLE, false, "compilation stopped: MLE");
    /* The compiler's own refusal: CE with its words, cached. */
    twice(stand_in("refuse", "echo 'prog.sh:1: this is not a program' >&2; exit 1",
                   "\"cpu_ms\": 2000"),
          0, VERDICT_CE, true, "this is not a program");
    /* An artifact past the fetch cap (16 MiB): SE with the cap, not a cached CE. */
    twice(
        stand_in("huge", "head -c 20000000 /dev/zero > main", "\"cpu_ms\": 5000, \"file_mb\": 64"),
        -EIO, VERDICT_SE, false, "artifact main too large (over the 16777216-byte cap");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_compile VERDICT_EXE\n");
        return 2;
    }
    if (geteuid() != 0)
        TEST_SKIP("the sandbox needs root");
    char err[ERR_LEN];
    /* Not under /tmp: cells mount their own /tmp over it. */
    snprintf(cache_root, sizeof(cache_root), "/var/tmp/verdict-test-compile-XXXXXX");
    if (!mkdtemp(cache_root) || chmod(cache_root, 0711) < 0) {
        fprintf(stderr, "%s: %s\n", cache_root, strerror(errno));
        return 1;
    }
    char cache_dir[128];
    snprintf(cache_dir, sizeof(cache_dir), "%s/artifacts", cache_root);
    if (cache_open(cache_dir, 1ull << 30, &env.cache, err) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    const char *binds[] = {cache_dir};
    struct pool_config pc = {.cells = 2, .exe = argv[1], .nbinds = 1, .binds = binds};
    if (pool_new(&pc, &env.pool, err) < 0) {
        fprintf(stderr, "pool: %s\n", err);
        return 1;
    }
    env.cells = 0; /* unknown: the backstop is 3 x CPU + 1 s on any machine */
    TEST_RUN(test_starved_then_fine);
    TEST_RUN(test_outcomes);
    pool_free(env.pool);
    cache_close(env.cache);
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", cache_root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", cache_root);
    return TEST_EXIT();
}
