/*
 * Every language, for real (label sandbox): hello world, stdin echoed, a compile error (CE
 * with the compiler's message), a runtime error (RE, exit code 3), TLE, MLE, threads (or a
 * process where the language has no threads; not Lua or sql; verilog's are processes of one
 * simulation); Go and Rust allocating 200 MB under 512 MB; the libraries harnesses need
 * (Boost, Go's testify, Rust crates, Node modules, org.javatuples), Java's assertions on,
 * TypeScript's types stripped unchecked and D's unittest blocks run; JUnit and Jest test files
 * passing and failing (JUnit's tests also from a file besides an empty program); python_gpu
 * refused without a GPU; the compile cache
 * compiling a C++ and a Rust program once for 20 runs; compile bombs stopped within their
 * limits; CUDA compiling without a GPU (its runs need one: test_cuda).
 *
 * usage: test_languages VERDICT_EXE LANGUAGES_DIR PROGRAMS_DIR
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runners/cell.h"
#include "server/judge/program.h"
#include "test.h"

#define UID_BASE 60200

static struct lang_set *langs;
static struct program_env env;
static const char *programs;
static char cache_root[64];

struct source {
    struct job_file file;
    uint8_t *data;
};

static const char *suffix; /* appended to every source when set: a fresh cache key */

/* Reads PROGRAMS/DIR/NAME into a job file named as the language wants its source. */
static bool load(const struct lang *l, const char *dir, const char *name, struct source *s)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s/%s", programs, dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    s->data = NULL;
    size_t extra = suffix ? strlen(suffix) : 0;
    if (fd < 0 || fstat(fd, &st) < 0 || !(s->data = malloc((size_t)st.st_size + extra + 1)) ||
        read(fd, s->data, (size_t)st.st_size) != st.st_size) {
        fprintf(stderr, "cannot read %s\n", path);
        if (fd >= 0)
            close(fd);
        return false;
    }
    close(fd);
    if (extra)
        memcpy(s->data + st.st_size, suffix, extra);
    s->file = (struct job_file){l->source, 0644, s->data, (size_t)st.st_size + extra};
    return true;
}

struct outcome {
    struct program prog;
    struct job_result res;
    uint8_t *payload;
    char out[1024];
};

/* Builds and (if it compiled) runs lang/dir/name with stdin and limits. */
static bool run(const char *lang, const char *dir, const char *name, const char *in,
                struct job_limits lim, struct outcome *o)
{
    const struct lang *l = lang_find(langs, lang);
    struct source src;
    char err[ERR_LEN] = "";
    memset(o, 0, sizeof(*o));
    if (!l || !load(l, dir, name, &src))
        return false;
    if (program_build(&env, l, &src.file, 1, NULL, &o->prog, err) < 0) {
        fprintf(stderr, "%s/%s: %s\n", dir, name, err);
        free(src.data);
        return false;
    }
    if (o->prog.ok) {
        struct program_io io = {
            .in = (const uint8_t *)in, .in_len = in ? strlen(in) : 0, .limits = &lim};
        program_run(&env, &o->prog, &io, &o->res, &o->payload);
        size_t n = o->res.out_len < sizeof(o->out) - 1 ? o->res.out_len : sizeof(o->out) - 1;
        if (n > 0) /* a result without output may have no buffer at all */
            memcpy(o->out, o->res.out, n);
        o->out[n] = '\0';
    }
    free(src.data);
    return true;
}

static void done(struct outcome *o)
{
    job_result_fini(&o->res);
    free(o->payload);
    program_free(&env, &o->prog);
}

/* $VERDICT_TEST_LANGUAGES ("c,cpp,python"), when set, names the only languages tested: a host
 * with fewer toolchains (the cgroup v2 guest of scripts/vm) tests those it has. */
static bool wanted(const char *lang)
{
    const char *list = getenv("VERDICT_TEST_LANGUAGES");
    if (!list)
        return true;
    size_t n = strlen(lang);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, lang, n) == 0)
            return true;
        p += len + (p[len] == ',');
    }
    return false;
}

struct case_ {
    const char *lang, *dir, *ext;
    bool compiled_ce; /* a syntax error is a CE (else found at run time: RE) */
    bool threads;     /* has threads (or processes) to start: Lua and sql have neither */
};

static const struct case_ cases[] = {
    {"c", "c", "c", true, true},
    {"cpp", "cpp", "cpp", true, true},
    {"python", "python", "py", false, true},
    {"go", "go", "go", true, true},
    {"rust", "rust", "rs", true, true},
    {"nodejs", "nodejs", "js", false, true},
    {"java", "java", "java", true, true},
    {"bash", "bash", "sh", false, true},
    {"php", "php", "php", false, true},
    {"lua", "lua", "lua", false, false},
    {"perl", "perl", "pl", false, true},
    {"ruby", "ruby", "rb", false, true},
    {"typescript", "typescript", "ts", false, true},
    {"d", "d", "d", true, true},
    {"d_ut", "d", "d", true, true}, /* d's programs, compiled with -unittest */
    {"r", "r", "R", false, true},
    {"racket", "racket", "rkt", false, true},
    {"sql", "sql", "sql", false, false},
    {"verilog", "verilog", "sv", true, true}, /* threads: processes of one fork...join */
    {"scala", "scala", "scala", true, true},
    {"kotlin_script", "kotlin_script", "kts", true, true}, /* compiled to a class: a CE */
    {"csharp", "csharp", "cs", true, true},
};

/* The JVM's languages: the heap is sized from the memory limit. */
static bool on_jvm(const char *lang)
{
    return strcmp(lang, "java") == 0 || strcmp(lang, "scala") == 0 ||
           strcmp(lang, "kotlin_script") == 0;
}

static void check_language(const struct case_ *c)
{
    const struct lang *l = lang_find(langs, c->lang);
    ASSERT_NOT_NULL(l);
    if (!l->available) {
        fprintf(stderr, "%s unavailable here: %s\n", c->lang, l->why);
        ASSERT_TRUE(l->available);
    }
    char name[32];
    struct outcome o;
    printf("  %s (%s)\n", c->lang, l->version_line);

    snprintf(name, sizeof(name), "hello.%s", c->ext);
    ASSERT_TRUE(run(c->lang, c->dir, name, NULL, (struct job_limits){0}, &o));
    ASSERT_TRUE(o.prog.ok);
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    ASSERT_STR_EQ(o.out, "hello\n");
    done(&o);

    snprintf(name, sizeof(name), "echo.%s", c->ext);
    ASSERT_TRUE(run(c->lang, c->dir, name, "line one\nline two\n", (struct job_limits){0}, &o));
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    ASSERT_STR_EQ(o.out, "line one\nline two\n");
    done(&o);

    snprintf(name, sizeof(name), "ce.%s", c->ext);
    ASSERT_TRUE(run(c->lang, c->dir, name, NULL, (struct job_limits){0}, &o));
    if (c->compiled_ce) {
        ASSERT_FALSE(o.prog.ok);
        ASSERT_NOT_NULL(o.prog.message);
        ASSERT_TRUE(strlen(o.prog.message) > 10); /* the compiler's own words */
    } else {
        ASSERT_TRUE(o.prog.ok);
        ASSERT_INT_EQ(o.res.status, JOB_RE);
    }
    done(&o);

    snprintf(name, sizeof(name), "re.%s", c->ext);
    ASSERT_TRUE(run(c->lang, c->dir, name, NULL, (struct job_limits){0}, &o));
    ASSERT_INT_EQ(o.res.status, JOB_RE);
    ASSERT_INT_EQ(o.res.exit_code, 3);
    done(&o);

    snprintf(name, sizeof(name), "tle.%s", c->ext);
    ASSERT_TRUE(
        run(c->lang, c->dir, name, NULL, (struct job_limits){.cpu_ms = 700, .wall_ms = 5000}, &o));
    ASSERT_INT_EQ(o.res.status, JOB_TLE);
    ASSERT_INT_EQ(o.res.tle_clock, JOB_CLOCK_CPU);
    done(&o);

    snprintf(name, sizeof(name), "mle.%s", c->ext);
    /* CPU to spare: bash's doubling string takes seconds of it on an emulated guest */
    ASSERT_TRUE(run(c->lang, c->dir, name, NULL,
                    (struct job_limits){.memory_bytes = 256 << 20, .cpu_ms = 60000}, &o));
    /* The JVM sizes its heap from the limit and stops with OutOfMemoryError before the
     * kernel must: that is still the program running out of memory. */
    bool java_oom = on_jvm(c->lang) && o.res.status == JOB_RE && o.res.err_len > 0 &&
                    memmem(o.res.err, o.res.err_len, "OutOfMemoryError", 16);
    if (o.res.status != JOB_MLE && !java_oom)
        fprintf(stderr, "%s mle: %s %s\n", c->lang, job_status_name(o.res.status), o.res.message);
    ASSERT_TRUE(o.res.status == JOB_MLE || java_oom);
    done(&o);

    if (!c->threads) {
        printf("  %s has no threads: not tested\n", c->lang);
        return;
    }
    snprintf(name, sizeof(name), "threads.%s", c->ext);
    ASSERT_TRUE(run(c->lang, c->dir, name, NULL, (struct job_limits){0}, &o));
    ASSERT_INT_EQ(o.res.status, JOB_OK);
    ASSERT_STR_EQ(o.out, "42\n");
    done(&o);
}

static void test_languages(void)
{
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        if (!wanted(cases[i].lang)) {
            printf("  %s not tested (VERDICT_TEST_LANGUAGES)\n", cases[i].lang);
            continue;
        }
        int before = test_failed_;
        check_language(&cases[i]);
        if (test_failed_ != before)
            fprintf(stderr, "language %s failed\n", cases[i].lang);
    }
}

/* 200 MB under 512 MB: fine with a cgroup limit (RLIMIT_AS would break Go and Rust). */
static void test_big_allocations(void)
{
    const char *big[][3] = {{"go", "go", "big.go"}, {"rust", "rust", "big.rs"}};
    for (int i = 0; i < 2; i++) {
        if (!wanted(big[i][0]))
            continue;
        struct outcome o;
        ASSERT_TRUE(run(big[i][0], big[i][1], big[i][2], NULL,
                        (struct job_limits){.memory_bytes = 512 << 20}, &o));
        if (o.res.status != JOB_OK)
            fprintf(stderr, "%s: %s %s\n", big[i][2], job_status_name(o.res.status), o.res.message);
        ASSERT_INT_EQ(o.res.status, JOB_OK);
        ASSERT_STR_EQ(o.out, "200\n");
        ASSERT_TRUE(o.res.memory_kib > 200 * 1024);
        done(&o);
    }
}

/* What benchmark harnesses need beyond the language: Boost and OpenSSL for C++ (HumanEval-X),
 * `go test` with testify for Go, crates and test suites for Rust, common modules for Node. */
static void test_libraries(void)
{
    struct outcome o;
    if (wanted("cpp")) {
        ASSERT_TRUE(run("cpp", "cpp", "boost.cpp", NULL, (struct job_limits){0}, &o));
        ASSERT_INT_EQ(o.res.status, JOB_OK);
        ASSERT_STR_EQ(o.out, "42 ba\n"); /* sha256("abc") starts with 0xba */
        done(&o);
    }
    if (wanted("go")) {
        ASSERT_TRUE(run("go_test", "go_test", "pass_test.go", NULL, (struct job_limits){0}, &o));
        ASSERT_INT_EQ(o.res.status, JOB_OK);
        ASSERT_STR_CONTAINS(o.out, "--- PASS: TestAdd");
        /* `go test`'s summary line after the binary's own output, from its exit status */
        ASSERT_STR_CONTAINS(o.out, "PASS\nok  \tcommand-line-arguments\t");
        ASSERT_TRUE(strstr(o.out, "FAIL") == NULL);
        done(&o);
        ASSERT_TRUE(run("go_test", "go_test", "fail_test.go", NULL, (struct job_limits){0}, &o));
        ASSERT_INT_EQ(o.res.status, JOB_RE);
        ASSERT_INT_EQ(o.res.exit_code, 1);
        ASSERT_STR_CONTAINS(o.out, "--- FAIL: TestAdd");
        ASSERT_STR_CONTAINS(o.out, "\nFAIL\nFAIL\tcommand-line-arguments\t");
        ASSERT_TRUE(strstr(o.out, "ok  \t") == NULL);
        done(&o);
    }
    if (wanted("rust")) {
        /* Rust with the crates rand, regex and md5 (HumanEval-X, McEval), and #[cfg(test)]. */
        ASSERT_TRUE(run("rust", "rust", "crates.rs", NULL, (struct job_limits){0}, &o));
        ASSERT_INT_EQ(o.res.status, JOB_OK);
        ASSERT_STR_EQ(o.out, "true true 900150983cd24fb0d6963f7d28e17f72\n");
        done(&o);
        ASSERT_TRUE(run("rust_test", "rust_test", "pass.rs", NULL, (struct job_limits){0}, &o));
        ASSERT_INT_EQ(o.res.status, JOB_OK);
        ASSERT_STR_CONTAINS(o.out, "test tests::adds ... ok");
        done(&o);
        ASSERT_TRUE(run("rust_test", "rust_test", "fail.rs", NULL, (struct job_limits){0}, &o));
        ASSERT_INT_EQ(o.res.status, JOB_RE);
        ASSERT_STR_CONTAINS(o.out, "test tests::adds ... FAILED");
        done(&o);
    }
    if (wanted("nodejs")) {
        /* lodash and jsdom found through NODE_PATH (FullStackBench), and read-only there. */
        ASSERT_TRUE(run("nodejs", "nodejs", "modules.js", NULL, (struct job_limits){0}, &o));
        if (o.res.status != JOB_OK)
            fprintf(stderr, "modules.js: %s %s\n", job_status_name(o.res.status), o.out);
        ASSERT_INT_EQ(o.res.status, JOB_OK);
        ASSERT_STR_EQ(o.out, "3 fooBar a,b EROFS\n");
        done(&o);
    }
    if (wanted("pytest")) {
        /* SandboxFusion's pytest: every test passes (OK) or pytest exits 1 (RE). */
        ASSERT_TRUE(run("pytest", "pytest", "pass.py", NULL, (struct job_limits){0}, &o));
        ASSERT_INT_EQ(o.res.status, JOB_OK);
        ASSERT_STR_CONTAINS(o.out, "2 passed");
        done(&o);
        ASSERT_TRUE(run("pytest", "pytest", "fail.py", NULL, (struct job_limits){0}, &o));
        ASSERT_INT_EQ(o.res.status, JOB_RE);
        ASSERT_INT_EQ(o.res.exit_code, 1);
        ASSERT_STR_CONTAINS(o.out, "1 failed");
        done(&o);
    }
    if (wanted("scala")) {
        /* scala <Object>: of the objects the code declares, the one with a main method runs;
         * code without an object does not compile (SandboxFusion: "Object name not found."). */
        ASSERT_TRUE(run("scala", "scala", "objects.scala", NULL, (struct job_limits){0}, &o));
        ASSERT_TRUE(o.prog.ok);
        ASSERT_INT_EQ(o.res.status, JOB_OK);
        ASSERT_STR_EQ(o.out, "42 Circle\n");
        done(&o);
        ASSERT_TRUE(run("scala", "scala", "noobject.scala", NULL, (struct job_limits){0}, &o));
        ASSERT_FALSE(o.prog.ok);
        ASSERT_STR_CONTAINS(o.prog.message, "Object name not found.");
        done(&o);
    }
    if (wanted("csharp")) {
        /* Debug.Assert is on (DEBUG, as dotnet run's Debug build) and a failing one ends the
         * program as .NET does, not only logged as Mono's default listener would. */
        ASSERT_TRUE(run("csharp", "csharp", "assert.cs", NULL, (struct job_limits){0}, &o));
        ASSERT_TRUE(o.prog.ok);
        ASSERT_INT_EQ(o.res.status, JOB_RE);
        ASSERT_INT_EQ(o.res.exit_code, 134);
        ASSERT_STR_EQ(o.out, "");
        ASSERT_TRUE(o.res.err_len > 0 &&
                    memmem(o.res.err, o.res.err_len, "Assertion failed.\none and two", 29));
        done(&o);
    }
    if (wanted("junit")) {
        /* SandboxFusion's junit: the file is named by its public class, the console launcher
         * finds the tests; every one passes (OK) or it exits 1 (RE). */
        ASSERT_TRUE(run("junit", "junit", "pass.java", NULL, (struct job_limits){0}, &o));
        if (!o.prog.ok)
            fprintf(stderr, "junit pass.java: %s\n", o.prog.message);
        ASSERT_INT_EQ(o.res.status, JOB_OK);
        ASSERT_TRUE(o.res.out_len > 0 &&
                    memmem(o.res.out, o.res.out_len, "2 tests successful", 18));
        done(&o);
        ASSERT_TRUE(run("junit", "junit", "fail.java", NULL, (struct job_limits){0}, &o));
        ASSERT_INT_EQ(o.res.status, JOB_RE);
        ASSERT_INT_EQ(o.res.exit_code, 1);
        ASSERT_STR_CONTAINS(o.out, "two and two");
        /* the summary comes after the stack trace, past o.out's first KiB */
        ASSERT_TRUE(o.res.out_len > 0 && memmem(o.res.out, o.res.out_len, "1 tests failed", 14));
        done(&o);
        ASSERT_TRUE(run("junit", "junit", "ce.java", NULL, (struct job_limits){0}, &o));
        ASSERT_FALSE(o.prog.ok);
        ASSERT_STR_CONTAINS(o.prog.message, "incompatible types");
        done(&o);
        /* The code empty, the tests in another file (SandboxFusion's files). */
        struct source t;
        const struct lang *l = lang_find(langs, "junit");
        if (l && load(l, "junit", "pass.java", &t)) {
            struct job_file files[2] = {{"Main.java", 0644, (const uint8_t *)"", 0},
                                        {"SolutionTest.java", 0644, t.data, t.file.len}};
            char err[ERR_LEN] = "";
            memset(&o, 0, sizeof(o));
            ASSERT_INT_EQ(program_build(&env, l, files, 2, NULL, &o.prog, err), 0);
            ASSERT_TRUE(o.prog.ok);
            struct program_io io = {0};
            program_run(&env, &o.prog, &io, &o.res, &o.payload);
            ASSERT_INT_EQ(o.res.status, JOB_OK);
            ASSERT_TRUE(o.res.out_len > 0 &&
                        memmem(o.res.out, o.res.out_len, "2 tests successful", 18));
            done(&o);
            free(t.data);
        }
    }
    if (wanted("jest")) {
        /* Jest on a TypeScript test file: types stripped, ES imports work; every test passes
         * (OK) or jest exits 1 (RE). */
        ASSERT_TRUE(run("jest", "jest", "pass.test.ts", NULL, (struct job_limits){0}, &o));
        if (o.res.status != JOB_OK)
            fprintf(stderr, "jest pass.test.ts: %s %.*s\n", job_status_name(o.res.status),
                    (int)(o.res.err_len < 600 ? o.res.err_len : 600), o.res.err);
        ASSERT_INT_EQ(o.res.status, JOB_OK);
        ASSERT_TRUE(o.res.err_len > 0 && memmem(o.res.err, o.res.err_len, "2 passed", 8));
        done(&o);
        ASSERT_TRUE(run("jest", "jest", "fail.test.ts", NULL, (struct job_limits){0}, &o));
        ASSERT_INT_EQ(o.res.status, JOB_RE);
        ASSERT_INT_EQ(o.res.exit_code, 1);
        ASSERT_TRUE(o.res.err_len > 0 && memmem(o.res.err, o.res.err_len, "1 failed", 8));
        done(&o);
    }
    if (wanted("python_gpu")) {
        /* Its runs need a GPU; here (no GPU cells) one is refused with the reason. */
        ASSERT_TRUE(run("python_gpu", "python_gpu", "hello.py", NULL, (struct job_limits){0}, &o));
        ASSERT_TRUE(o.prog.ok);
        ASSERT_INT_EQ(o.res.status, JOB_SE);
        ASSERT_STR_CONTAINS(o.res.message, "no GPU on this server");
        done(&o);
    }
    if (wanted("java")) {
        /* org.javatuples on both classpaths (MultiPL-E's prompts import it), and assertions
         * on (java -ea, as SandboxFusion runs it): a failing assert is an RE. */
        ASSERT_TRUE(run("java", "java", "tuples.java", NULL, (struct job_limits){0}, &o));
        if (!o.prog.ok)
            fprintf(stderr, "tuples.java: %s\n", o.prog.message);
        ASSERT_TRUE(o.prog.ok);
        ASSERT_INT_EQ(o.res.status, JOB_OK);
        ASSERT_STR_EQ(o.out, "42 ba true [1, 2, 3]\n");
        done(&o);
        ASSERT_TRUE(run("java", "java", "assert.java", NULL, (struct job_limits){0}, &o));
        ASSERT_TRUE(o.prog.ok);
        ASSERT_INT_EQ(o.res.status, JOB_RE);
        ASSERT_TRUE(o.res.exit_code != 0);
        ASSERT_STR_EQ(o.out, "");
        ASSERT_TRUE(o.res.err_len > 0 &&
                    memmem(o.res.err, o.res.err_len, "AssertionError: one is not two", 30));
        done(&o);
        /* Every class the source declares is there at run time: a nested class, an
         * anonymous Comparator (Main$1.class) and a second top-level class. */
        ASSERT_TRUE(run("java", "java", "classes.java", NULL, (struct job_limits){0}, &o));
        ASSERT_TRUE(o.prog.ok);
        if (o.res.status != JOB_OK)
            fprintf(stderr, "classes.java: %s %.*s\n", job_status_name(o.res.status),
                    (int)(o.res.err_len < 300 ? o.res.err_len : 300), o.res.err);
        ASSERT_INT_EQ(o.res.status, JOB_OK);
        ASSERT_STR_EQ(o.out, "[3, 2, 1] 42\n");
        done(&o);
    }
    if (wanted("kotlin_script")) {
        /* Kotlin's assert is the JVM's: on only with -ea, which the template passes (a harness
         * of asserts would otherwise pass any answer). */
        ASSERT_TRUE(
            run("kotlin_script", "kotlin_script", "assert.kts", NULL, (struct job_limits){0}, &o));
        ASSERT_TRUE(o.prog.ok);
        ASSERT_INT_EQ(o.res.status, JOB_RE);
        ASSERT_STR_EQ(o.out, "");
        ASSERT_TRUE(o.res.err_len > 0 &&
                    memmem(o.res.err, o.res.err_len, "AssertionError: one is not two", 30));
        done(&o);
    }
    if (wanted("typescript")) {
        /* tsx strips the types without checking them, as SandboxFusion runs TypeScript. */
        ASSERT_TRUE(run("typescript", "typescript", "types.ts", NULL, (struct job_limits){0}, &o));
        ASSERT_INT_EQ(o.res.status, JOB_OK);
        ASSERT_STR_EQ(o.out, "3 42 Green\n");
        done(&o);
    }
    if (wanted("d_ut")) {
        /* As dmd -unittest: the unittest blocks run and main does not; a failing one is an RE
         * naming the assertion. */
        ASSERT_TRUE(run("d_ut", "d_ut", "pass.d", NULL, (struct job_limits){0}, &o));
        ASSERT_INT_EQ(o.res.status, JOB_OK);
        ASSERT_STR_EQ(o.out, "unittest ran\n");
        done(&o);
        ASSERT_TRUE(run("d_ut", "d_ut", "fail.d", NULL, (struct job_limits){0}, &o));
        ASSERT_INT_EQ(o.res.status, JOB_RE);
        ASSERT_INT_EQ(o.res.exit_code, 1);
        ASSERT_STR_CONTAINS(o.out, "[unittest] two and two is not five");
        ASSERT_TRUE(strstr(o.out, "main ran") == NULL);
        done(&o);
    }
}

/* The same program judged 20 times with different stdin compiles once. */
static void test_compile_once(void)
{
    const char *which[][3] = {{"cpp", "cpp", "echo.cpp"}, {"rust", "rust", "echo.rs"}};
    char unique[64];
    snprintf(unique, sizeof(unique), "\n// compiled once for test %d\n", (int)getpid());
    suffix = unique; /* not compiled by the tests before */
    for (int k = 0; k < 2; k++) {
        if (!wanted(which[k][0]))
            continue;
        struct cache_stats before, after;
        cache_get_stats(env.cache, &before);
        for (int i = 0; i < 20; i++) {
            char in[32];
            snprintf(in, sizeof(in), "test %d\n", i);
            struct outcome o;
            ASSERT_TRUE(run(which[k][0], which[k][1], which[k][2], in, (struct job_limits){0}, &o));
            ASSERT_INT_EQ(o.res.status, JOB_OK);
            ASSERT_STR_EQ(o.out, in);
            ASSERT_TRUE(o.prog.cached == (i > 0));
            done(&o);
        }
        cache_get_stats(env.cache, &after);
        ASSERT_UINT_EQ(after.misses - before.misses, 1);
        ASSERT_UINT_EQ(after.hits - before.hits, 19);
    }
    suffix = NULL;
}

/* Compile bombs never compile: CE when the compiler gives up, TLE or MLE when the compile
 * step's own limits stop them (not cached then), within those limits either way. */
static void test_compile_bombs(void)
{
    const char *bombs[][2] = {
        {"cpp", "templates.cpp"}, {"c", "devzero.c"}, {"cpp", "constexpr.cpp"}, {"c", "errors.c"}};
    for (size_t i = 0; i < sizeof(bombs) / sizeof(bombs[0]); i++) {
        if (!wanted(bombs[i][0]))
            continue;
        struct outcome o;
        ASSERT_TRUE(run(bombs[i][0], "bombs", bombs[i][1], NULL, (struct job_limits){0}, &o));
        const struct lang *l = lang_find(langs, bombs[i][0]);
        printf("  bomb %-14s -> %s after %lld ms wall, %llu KiB (%s)\n", bombs[i][1],
               o.prog.ok ? "compiled!" : verdict_name(o.prog.compile_verdict),
               (long long)o.prog.compile.wall_ms, (unsigned long long)o.prog.compile.memory_kib,
               job_status_name(o.prog.compile.status));
        ASSERT_FALSE(o.prog.ok);
        ASSERT_TRUE(o.prog.compile.wall_ms <= o.prog.compile_limits.wall_ms + 1000);
        ASSERT_TRUE(o.prog.compile.memory_kib <= (l->compile.limits.memory_bytes >> 10) + 1024);
        done(&o);
    }
}

/* CUDA compiles without a GPU; running it then answers a clear error. */
static void test_cuda_compile_only(void)
{
    const struct lang *l = lang_find(langs, "cuda");
    ASSERT_NOT_NULL(l);
    if (!wanted("cuda"))
        return;
    if (!l->available) {
        printf("  cuda unavailable: %s\n", l->why);
        return;
    }
    struct outcome o;
    ASSERT_TRUE(run("cuda", "cuda", "ce.cu", NULL, (struct job_limits){0}, &o));
    ASSERT_FALSE(o.prog.ok);
    ASSERT_STR_CONTAINS(o.prog.message, "undeclared");
    done(&o);
    ASSERT_TRUE(run("cuda", "cuda", "hello.cu", NULL, (struct job_limits){0}, &o));
    ASSERT_TRUE(o.prog.ok);
    if (env.gpus == 0) {
        ASSERT_INT_EQ(o.res.status, JOB_SE);
        ASSERT_STR_CONTAINS(o.res.message, "no GPU on this server");
    }
    done(&o);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_languages VERDICT_EXE LANGUAGES_DIR PROGRAMS_DIR\n");
        return 2;
    }
    if (geteuid() != 0)
        TEST_SKIP("the sandbox needs root");
    programs = argv[3];
    char err[ERR_LEN];
    if (lang_load_dir(argv[2], &langs, err) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    lang_probe(langs, NULL);
    /* Not under /tmp: cells mount their own /tmp over it. */
    snprintf(cache_root, sizeof(cache_root), "/var/tmp/verdict-test-cache-XXXXXX");
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
    int nb = 0;
    const char *const *lb = lang_binds(langs, &nb);
    const char *binds[CELL_MAX_BINDS];
    for (int i = 0; i < nb && i < CELL_MAX_BINDS - 1; i++)
        binds[i] = lb[i];
    int n = nb < CELL_MAX_BINDS - 1 ? nb : CELL_MAX_BINDS - 1;
    binds[n++] = cache_dir;
    struct pool_config pc = {
        .cells = 2, .exe = argv[1], .uid_base = UID_BASE, .nbinds = n, .binds = binds};
    if (pool_new(&pc, &env.pool, err) < 0) {
        fprintf(stderr, "pool: %s\n", err);
        return 1;
    }
    snprintf(env.cuda_arch, sizeof(env.cuda_arch),
             "-gencode=arch=compute_75,code=[sm_75,compute_75]");
    TEST_RUN(test_languages);
    TEST_RUN(test_big_allocations);
    TEST_RUN(test_libraries);
    TEST_RUN(test_compile_once);
    TEST_RUN(test_compile_bombs);
    TEST_RUN(test_cuda_compile_only);
    pool_free(env.pool);
    cache_close(env.cache);
    lang_set_free(langs);
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", cache_root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", cache_root);
    return TEST_EXIT();
}
