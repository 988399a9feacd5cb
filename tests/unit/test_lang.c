/* Unit tests for server/judge/lang: every shipped template loads; bad templates are refused with
 * the file and the field named; names and aliases resolve case-insensitively. */
#include "server/judge/lang.h"
#include "server/judge/packages.h"
#include "test.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *languages_dir;

/* The shipped templates, or NULL (with the reason printed). */
static struct lang_set *load_shipped(void)
{
    struct lang_set *set = NULL;
    char err[ERR_LEN] = "";
    if (lang_load_dir(languages_dir, &set, err) < 0)
        fprintf(stderr, "%s\n", err);
    return set;
}

/* Writes dir/name with printf's fmt (a test's template or runtime file). */
static void __attribute__((format(printf, 3, 4)))
put(const char *dir, const char *name, const char *fmt, ...)
{
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fclose(f);
}

static void test_shipped(void)
{
    struct lang_set *set = load_shipped();
    ASSERT_NOT_NULL(set);
    static const char *const want[][2] = {
        {"python3", "python"}, {"py", "python"}, {"C++", "cpp"}, {"cpp", "cpp"},
        {"rs", "rust"},        {"golang", "go"}, {"c", "c"},     {"node", "nodejs"},
        {"java", "java"},      {"bash", "bash"}, {"cu", "cuda"}, {"JavaScript", "nodejs"}};
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        const struct lang *l = lang_find(set, want[i][0]);
        if (!l)
            fprintf(stderr, "no language for %s\n", want[i][0]);
        ASSERT_NOT_NULL(l);
        ASSERT_STR_EQ(l->name, want[i][1]);
    }
    ASSERT_NULL(lang_find(set, "cobol"));
    const struct lang *c = lang_find(set, "c");
    ASSERT_TRUE(c->compiled);
    ASSERT_STR_EQ(c->source, "main.c");
    ASSERT_STR_EQ(c->artifacts[0], "main");
    ASSERT_UINT_EQ(c->run.limits.memory_bytes, 256u << 20);
    ASSERT_FALSE(lang_find(set, "python")->compiled);
    ASSERT_TRUE(lang_find(set, "cuda")->needs_gpu);
    /* the compiled graders: C++'s, Go's and Rust's entry point is free, Java's and C#'s a class's
     * member; Go's imports are merged (goimports.h) */
    static const char *const graded[][2] = {{"cpp", "0"},     {"java", "1"}, {"csharp", "1"},
                                            {"go_test", "0"}, {"rust", "0"}, {"rust_test", "0"}};
    for (size_t i = 0; i < sizeof(graded) / sizeof(graded[0]); i++) {
        const struct lang *l = lang_find(set, graded[i][0]);
        ASSERT_TRUE(l && l->grader && l->grader->compiled);
        ASSERT_TRUE(l->grader->member == (graded[i][1][0] == '1'));
        ASSERT_TRUE(l->grader->go_imports == (strcmp(graded[i][0], "go_test") == 0));
    }
    /* C's and C++'s grader runtime is a file of the work dir, included before the setup (where
     * a precompiled header can stand for it) and after it (the prompt's containers' codecs) */
    for (int i = 0; i < 2; i++) {
        const struct lang_grader *g = lang_find(set, i ? "cpp" : "c")->grader;
        ASSERT_STR_EQ(g->program_file, "verdict_grader.hpp");
        ASSERT_NULL(strstr(g->layout, "{program}"));
        const char *first = strstr(g->layout, "#include \"verdict_grader.hpp\"");
        ASSERT_TRUE(first == g->layout && strstr(first + 1, "#include \"verdict_grader.hpp\"") >
                                              strstr(g->layout, "{setup}"));
    }
    ASSERT_NULL(lang_find(set, "java")->grader->program_file);
    /* their host apart: an object the program's compile links, the code joined to a thunk */
    for (int i = 0; i < 2; i++) {
        const struct lang_grader *g = lang_find(set, i ? "cpp" : "c")->grader;
        ASSERT_NOT_NULL(g->host_unit);
        ASSERT_STR_EQ(g->host_unit->artifacts[0], "verdict_host.o");
        ASSERT_NOT_NULL(strstr(g->unit_join, "verdict_entry_"));
        ASSERT_TRUE(strstr(g->host_layout, "{setup}") == NULL || i == 1);
    }
    ASSERT_NULL(lang_find(set, "java")->grader->host_unit);
    for (int i = 1; i < lang_count(set); i++) /* sorted by name */
        ASSERT_TRUE(strcmp(lang_at(set, i - 1)->name, lang_at(set, i)->name) < 0);
    lang_set_free(set);
}

static void expect_error(const char *text, const char *msg)
{
    struct lang *l = NULL;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(lang_parse("languages/x.json", text, &l, err), -EINVAL);
    ASSERT_NULL(l);
    ASSERT_STR_CONTAINS(err, msg);
}

#define RUN "\"run\": {\"argv\": [\"/bin/true\"]}"

/* A host without some toolchains (the cgroup v2 guest has no rustup, no JDK, no Go): the
 * shipped templates still load, the missing ones are unavailable with the reason, and their
 * directories are not among the binds the cells are given (a bind of a missing path fails
 * every cell, and with it every language). */
static void test_missing_toolchains(void)
{
    char *old_rustup = getenv("RUSTUP_HOME") ? strdup(getenv("RUSTUP_HOME")) : NULL;
    setenv("RUSTUP_HOME", "/nonexistent/rustup-home", 1);
    struct lang_set *set = load_shipped();
    ASSERT_NOT_NULL(set);
    int nb = -1;
    lang_binds(set, &nb);
    ASSERT_INT_EQ(nb, 0); /* nothing probed yet */
    lang_probe(set, NULL);
    const struct lang *rust = lang_find(set, "rust");
    ASSERT_NOT_NULL(rust);
    ASSERT_FALSE(rust->available);
    ASSERT_STR_CONTAINS(rust->why, "no rustup toolchain");
    const char *const *binds = lang_binds(set, &nb);
    for (int i = 0; i < nb; i++) {
        ASSERT_TRUE(access(binds[i], R_OK) == 0);
        ASSERT_NULL(strstr(binds[i], "rustup"));
    }
    const struct lang *c = lang_find(set, "c");
    ASSERT_TRUE(c->available); /* the rest is unaffected */
    lang_set_free(set);
    if (old_rustup)
        setenv("RUSTUP_HOME", old_rustup, 1);
    else
        unsetenv("RUSTUP_HOME");
    free(old_rustup);
}

/* Probing some languages by name or alias leaves the others as they were; a second call
 * keeps what the first found. Python's grader is sent as bytecode once probed. */
static void test_probe_some(void)
{
    struct lang_set *set = load_shipped();
    ASSERT_NOT_NULL(set);
    lang_probe(set, "py3,C++");
    const struct lang *py = lang_find(set, "python"), *c = lang_find(set, "c");
    ASSERT_TRUE(py->available);
    ASSERT_TRUE(lang_find(set, "cpp")->available);
    ASSERT_FALSE(c->available); /* not asked for */
    ASSERT_STR_EQ(c->why, "");
    const struct lang_grader *g = py->grader;
    ASSERT_NOT_NULL(g);
    ASSERT_TRUE(g->program_load != g->program && g->host_load != g->host);
    ASSERT_TRUE(strlen(g->program_load) > 1000);
    ASSERT_UINT_EQ(strspn(g->program_load, "0123456789abcdef"), strlen(g->program_load));
    ASSERT_UINT_EQ(strspn(g->host_load, "0123456789abcdef"), strlen(g->host_load));
    ASSERT_STR_EQ(g->code_file, "program.py"); /* the code apart: the host runs it, first */
    ASSERT_TRUE(strstr(g->join, "{code}") == NULL && strstr(g->join, "'program.py'") != NULL);
    lang_probe(set, "c");
    ASSERT_TRUE(c->available);
    ASSERT_TRUE(py->available); /* kept */
    lang_set_free(set);
}

/* A packages command's lines: name, version and import name by tabs; a line with a field
 * missing, empty, extra or too long is skipped; at most max kept. Python's own command lists
 * what importlib.metadata finds (at least nothing where none is installed). */
static void test_packages(void)
{
    struct lang_package k[4];
    const char *text =
        "numpy\t1.24.2\tnumpy\n"
        "scikit-learn\t1.2.1\tsklearn\n"
        "two\tfields\n"
        "\t1\tempty\n"
        "extra\t1\tx\ty\n"
        "long\t1\txxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
        "last\t2\tlast";
    ASSERT_INT_EQ(packages_parse(text, k, 4), 3);
    ASSERT_STR_EQ(k[1].name, "scikit-learn");
    ASSERT_STR_EQ(k[1].import, "sklearn");
    ASSERT_STR_EQ(k[2].version, "2");
    ASSERT_INT_EQ(packages_parse(text, k, 1), 1);
    ASSERT_INT_EQ(packages_parse("", k, 4), 0);
    struct lang_set *set = load_shipped();
    ASSERT_NOT_NULL(set);
    lang_probe(set, "python,bash");
    const struct lang *py = lang_find(set, "python");
    ASSERT_TRUE(py->npackages_cmd > 0);
    for (int i = 0; i < py->npackages; i++)
        ASSERT_TRUE(py->packages[i].version[0] != '\0');
    ASSERT_INT_EQ(lang_find(set, "bash")->npackages, 0);
    lang_set_free(set);
}

/* A version command that does not answer in time (a loaded host's slow JVM start) is asked
 * again with more time: the language is available once it answers (here the second time). */
static void test_slow_version_asked_again(void)
{
    char dir[] = "/tmp/verdict-test-lang-XXXXXX";
    ASSERT_NOT_NULL(mkdtemp(dir));
    put(dir, "slow.json",
        "{\"name\": \"slow\", \"source\": \"m.sh\", \"version\": [\"/bin/sh\", \"-c\", "
        "\"if [ -e %s/asked ]; then echo slow 2; else : >%s/asked; exec sleep 100; fi\"], "
        "\"run\": {\"argv\": [\"/bin/true\"]}}\n",
        dir, dir);
    char path[256];
    snprintf(path, sizeof(path), "%s/slow.json", dir);
    struct lang_set *set = NULL;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(lang_load_dir(dir, &set, err), 0);
    lang_probe(set, NULL);
    const struct lang *slow = lang_find(set, "slow");
    ASSERT_TRUE(slow->available);
    ASSERT_STR_EQ(slow->why, "");
    ASSERT_STR_CONTAINS(slow->version_line, "slow 2");
    lang_set_free(set);
    unlink(path);
    snprintf(path, sizeof(path), "%s/asked", dir);
    unlink(path);
    rmdir(dir);
}

/* A template's grader bytecode filter: what it writes is what jobs get (the code's name is
 * its last argument); a filter that fails makes the language unavailable, with the reason. */
static void test_bytecode_filter(void)
{
    char dir[] = "/tmp/verdict-test-lang-XXXXXX";
    ASSERT_NOT_NULL(mkdtemp(dir));
    static const char *const names[] = {"up", "broken"};
    static const char *const filters[] = {"[\"/bin/sh\", \"-c\", \"tr a-z A-Z; echo \\\"-$0\\\"\"]",
                                          "[\"/bin/false\"]"};
    put(dir, "g.py", "grader code\n");
    put(dir, "h.py", "host code\n");
    for (int i = 0; i < 2; i++) {
        char name[32];
        snprintf(name, sizeof(name), "%s.json", names[i]);
        put(dir, name,
            "{\"name\": \"%s\", \"source\": \"m.py\", \"version\": [\"/bin/echo\", \"v 1\"], "
            "\"run\": {\"argv\": [\"/bin/true\"]}, \"grader\": {\"argv\": [\"/bin/true\"], "
            "\"program\": [\"g.py\"], \"host\": [\"h.py\"], \"host_file\": \"h.hex\", "
            "\"join\": \"{code}\", \"bytecode\": %s}}\n",
            names[i], filters[i]);
    }
    char path[256];
    struct lang_set *set = NULL;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(lang_load_dir(dir, &set, err), 0);
    const struct lang *up = lang_find(set, "up"), *broken = lang_find(set, "broken");
    ASSERT_STR_EQ(up->grader->program_load, "grader code\n"); /* before the probe: source */
    lang_probe(set, NULL);
    ASSERT_TRUE(up->available);
    ASSERT_STR_EQ(up->grader->program_load, "GRADER CODE\n-grader\n");
    ASSERT_STR_EQ(up->grader->host_load, "HOST CODE\n-h.hex\n");
    ASSERT_FALSE(broken->available);
    ASSERT_STR_CONTAINS(broken->why, "/bin/false failed");
    lang_set_free(set);
    static const char *const files[] = {"g.py", "h.py", "up.json", "broken.json"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* A compiled grader's program_file is a plain file name other than its source. */
static void test_program_file_checked(void)
{
    char dir[] = "/tmp/verdict-test-lang-XXXXXX";
    ASSERT_NOT_NULL(mkdtemp(dir));
    put(dir, "g.hpp", "// the runtime\n");
    static const char *const names[] = {"g.cpp", "../g.hpp", "d/g.hpp", "rt.hpp"};
    char path[256];
    snprintf(path, sizeof(path), "%s/x.json", dir);
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        put(dir, "x.json",
            "{\"name\": \"x\", \"source\": \"a\", \"version\": [\"v\"], " RUN
            ", \"grader\": {\"argv\": [\"grader\"], \"program\": [\"g.hpp\"], "
            "\"host\": [\"g.hpp\"], \"host_file\": \"h.hpp\", \"join\": \"{code}\", "
            "\"source\": \"g.cpp\", \"program_file\": \"%s\", \"layout\": \"{tests}\", "
            "\"compile\": {\"argv\": [\"/bin/true\"], \"artifacts\": [\"grader\"]}}}\n",
            names[i]);
        struct lang_set *set = NULL;
        char err[ERR_LEN] = "";
        int rc = lang_load_dir(dir, &set, err);
        if (i < 3) {
            ASSERT_INT_EQ(rc, -EINVAL);
            ASSERT_STR_CONTAINS(err, "grader.program_file: must be a plain file name other than");
        } else {
            ASSERT_INT_EQ(rc, 0);
            ASSERT_STR_EQ(lang_find(set, "x")->grader->program_file, "rt.hpp");
            ASSERT_STR_EQ(lang_find(set, "x")->grader->program, "// the runtime\n");
        }
        lang_set_free(set);
    }
    unlink(path);
    snprintf(path, sizeof(path), "%s/g.hpp", dir);
    unlink(path);
    rmdir(dir);
}

static void test_errors(void)
{
    expect_error("{", "languages/x.json: (document): not valid JSON");
    expect_error("[]", "(document): must be a JSON object");
    expect_error("{\"source\": \"a\", \"version\": [\"v\"], " RUN "}", "name: must be");
    expect_error("{\"name\": \"Bad Name\", \"source\": \"a\", \"version\": [\"v\"], " RUN "}",
                 "name: must be");
    expect_error("{\"name\": \"x\", \"version\": [\"v\"], " RUN "}", "source: missing");
    expect_error("{\"name\": \"x\", \"source\": \"../a\", \"version\": [\"v\"], " RUN "}",
                 "source: must be a plain file name");
    expect_error("{\"name\": \"x\", \"source\": \"a\", \"version\": [\"v\"]}", "run: missing");
    expect_error("{\"name\": \"x\", \"source\": \"a\", \"version\": [], " RUN "}",
                 "version: must not be empty");
    expect_error("{\"name\": \"x\", \"source\": \"a\", \"version\": [\"v\"], \"colour\": 1, " RUN
                 "}",
                 "x.json: colour: unknown field");
    expect_error("{\"name\": \"x\", \"source\": \"a\", \"version\": [\"v\"], \"run\": {\"argv\": "
                 "[\"/bin/true\"], \"limits\": {\"memry_mb\": 5}}}",
                 "run.limits.memry_mb: unknown field");
    expect_error("{\"name\": \"x\", \"source\": \"a\", \"version\": [\"v\"], \"run\": {\"argv\": "
                 "[\"/bin/true\"], \"limits\": {\"cpu_ms\": -5}}}",
                 "run.limits.cpu_ms: must be a whole number");
    expect_error("{\"name\": \"x\", \"source\": \"a\", \"version\": [\"v\"], \"run\": {\"argv\": "
                 "[\"/bin/true\"], \"env\": [\"NOEQUALS\"]}}",
                 "run: env entry \"NOEQUALS\" is not NAME=value");
    expect_error("{\"name\": \"x\", \"source\": \"a\", \"version\": [\"v\"], \"run\": {\"argv\": "
                 "[1]}}",
                 "run.argv: element 0 is not a string");
    expect_error("{\"name\": \"x\", \"source\": \"a\", \"version\": [\"v\"], \"compile\": "
                 "{\"argv\": [\"cc\"]}, " RUN "}",
                 "compile.artifacts: missing");
    expect_error("{\"name\": \"x\", \"source\": \"a\", \"version\": [\"v\"], \"compile\": "
                 "{\"argv\": [\"cc\"], \"artifacts\": [\"/etc/x\"]}, " RUN "}",
                 "compile.artifacts: \"/etc/x\" is not a work-dir path");
    expect_error("{\"name\": \"x\", \"source\": \"a\", \"version\": [\"v\"], \"binds\": "
                 "[\"relative\"], " RUN "}",
                 "binds: \"relative\" is not an absolute path");
    expect_error("{\"name\": \"x\", \"source\": \"a\", \"version\": [\"v\"], \"needs_gpu\": "
                 "\"yes\", " RUN "}",
                 "needs_gpu: must be true or false");
}

static void test_valid(void)
{
    struct lang *l = NULL;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(lang_parse("t.json",
                             "{\"name\": \"t\", \"aliases\": [\"tt\"], \"source\": \"m.t\", "
                             "\"version\": [\"/bin/echo\", \"t 1.0\"], \"compile\": {\"argv\": "
                             "[\"/bin/cp\", \"m.t\", \"out\"], \"artifacts\": [\"out\"], "
                             "\"limits\": {\"cpu_ms\": 100, \"memory_mb\": 64, \"output_kb\": "
                             "8}}, \"run\": {\"argv\": [\"{dir}/out\"], \"env\": [\"A=1\"]}}",
                             &l, err),
                  0);
    ASSERT_STR_EQ(l->aliases[0], "tt");
    ASSERT_INT_EQ(l->compile.limits.cpu_ms, 100);
    ASSERT_UINT_EQ(l->compile.limits.memory_bytes, 64u << 20);
    ASSERT_UINT_EQ(l->compile.limits.stdout_bytes, 8u << 10);
    ASSERT_STR_EQ(l->run.argv[0], "{dir}/out"); /* placeholders stay for run time */
    ASSERT_STR_EQ(l->run.env[0], "A=1");
    ASSERT_NULL(l->run.argv[1]);
    lang_free(l);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_lang LANGUAGES_DIR\n");
        return 2;
    }
    languages_dir = argv[1];
    TEST_RUN(test_shipped);
    TEST_RUN(test_missing_toolchains);
    TEST_RUN(test_probe_some);
    TEST_RUN(test_packages);
    TEST_RUN(test_slow_version_asked_again);
    TEST_RUN(test_bytecode_filter);
    TEST_RUN(test_program_file_checked);
    TEST_RUN(test_errors);
    TEST_RUN(test_valid);
    return TEST_EXIT();
}
