/* Unit tests for server/judge/lang: every shipped template loads; bad templates are refused with
 * the file and the field named; names and aliases resolve case-insensitively. */
#include "server/judge/lang.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>
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
    TEST_RUN(test_errors);
    TEST_RUN(test_valid);
    return TEST_EXIT();
}
