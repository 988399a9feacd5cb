/*
 * fuzz_lang: the language template loader (lang_parse, server/judge/lang.c) on arbitrary text,
 * named as a template in the repository's languages directory, so that a grader's program and
 * host files resolve as the real templates' do (languages/python/...).
 *
 * Invariants: a refused template leaves no language and an error in "PATH: FIELD: problem" form;
 * an accepted one has a name and aliases of 1..31 characters of [a-z0-9_+-], a plain source file
 * name, a run step (argv of at least one string, env entries NAME=value), a compile step exactly
 * when it has artifacts (safe work-dir paths), limits each unset or within the template's range
 * (1..1e9 in its unit), absolute binds, a version command, a grader whose host file is a plain
 * name other than the source and whose join holds {code} (or whose code_file is a third name),
 * a known warm mode, and no toolchain probed (unavailable).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static char path[512];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(path, sizeof(path), "%s/fuzz.json", fuzz_languages_dir());
    return 0;
}

static bool name_ok(const char *s)
{
    size_t n = strlen(s);
    return n >= 1 && n <= 31 && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_+-") == n;
}

static void check_strings(char **v, int n, bool nonempty)
{
    FUZZ_CHECK(n >= (nonempty ? 1 : 0) && (n == 0 || v));
    for (int i = 0; i < n; i++)
        FUZZ_CHECK(v[i] != NULL);
}

static void check_limits(const struct job_limits *l)
{
    const uint64_t top = 1000000000ull;
    FUZZ_CHECK(l->cpu_ms >= 0 && l->cpu_ms <= (int64_t)top);
    FUZZ_CHECK(l->wall_ms >= 0 && l->wall_ms <= (int64_t)top);
    FUZZ_CHECK(l->memory_bytes <= top << 20 && l->memory_bytes % (1u << 20) == 0);
    FUZZ_CHECK(l->stack_bytes <= top << 20 && l->file_bytes <= top << 20);
    FUZZ_CHECK(l->stdout_bytes == l->stderr_bytes && l->stdout_bytes <= top << 10);
    FUZZ_CHECK(l->pids <= top && l->nofile <= top);
    FUZZ_CHECK(l->backstop_ms == 0 && l->instructions == 0 && l->fetch_bytes == 0);
}

static void check_step(const struct lang_step *st)
{
    check_strings(st->argv, st->argc, true);
    check_strings(st->env, st->nenv, false);
    for (int i = 0; i < st->nenv; i++)
        FUZZ_CHECK(st->env[i][0] != '=' && strchr(st->env[i], '=') != NULL);
    check_limits(&st->limits);
}

static void check_grader(const struct lang *l)
{
    const struct lang_grader *g = l->grader;
    check_strings(g->argv, g->argc, true);
    FUZZ_CHECK(g->program && g->host && g->host_file && g->join);
    FUZZ_CHECK(job_path_ok(g->host_file) && !strchr(g->host_file, '/'));
    FUZZ_CHECK(strcmp(g->host_file, l->source) != 0 && (g->code_file || strstr(g->join, "{code}")));
    FUZZ_CHECK(!g->code_file ||
               (strcmp(g->code_file, l->source) != 0 && strcmp(g->code_file, g->host_file) != 0));
    FUZZ_CHECK(g->program_load == g->program && g->host_load == g->host);
    FUZZ_CHECK(g->nbytecode <= LANG_MAX_BYTECODE_ARGS);
    if (g->bytecode)
        FUZZ_CHECK(g->nbytecode >= 1 && g->bytecode[0][0] == '/');
}

static void check_lang(const struct lang *l)
{
    FUZZ_CHECK(name_ok(l->name) && strcmp(l->path, path) == 0);
    check_strings(l->aliases, l->naliases, false);
    for (int i = 0; i < l->naliases; i++)
        FUZZ_CHECK(name_ok(l->aliases[i]));
    FUZZ_CHECK(l->source && job_path_ok(l->source) && !strchr(l->source, '/'));
    check_step(&l->run);
    FUZZ_CHECK(l->compiled == (l->nartifacts > 0));
    if (l->compiled)
        check_step(&l->compile);
    else
        FUZZ_CHECK(l->compile.argc == 0 && l->compile.argv == NULL);
    for (int i = 0; i < l->nartifacts; i++)
        FUZZ_CHECK(job_path_ok(l->artifacts[i]));
    check_strings(l->binds, l->nbinds, false);
    for (int i = 0; i < l->nbinds; i++)
        FUZZ_CHECK(l->binds[i][0] == '/');
    check_strings(l->version, l->nversion, true);
    FUZZ_CHECK(l->warm == JOB_COLD || l->warm == JOB_WARM_PYTHON);
    FUZZ_CHECK(!l->available);
    if (l->grader)
        check_grader(l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), err[ERR_LEN];
    static struct lang unset;
    struct lang *l = &unset; /* overwritten: NULL on a refusal */
    memset(err, 0, sizeof(err));
    if (lang_parse(path, text, &l, err) == 0) {
        check_lang(l);
        lang_free(l);
    } else {
        FUZZ_CHECK(l == NULL && err[0] && memchr(err, '\0', sizeof(err)));
        FUZZ_CHECK(strncmp(err, path, strlen(path) < 100 ? strlen(path) : 100) == 0);
    }
    free(text);
    return 0;
}
