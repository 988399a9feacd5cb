/*
 * lang: loading and checking language templates.
 *
 * Parsing is strict: every field is checked for its type, unknown fields are errors (a typo in
 * a limit must not silently fall back to a default), and the first problem is reported as
 * "file: field.path: what is wrong". A template is parsed into heap strings owned by its
 * struct lang; a set owns its languages.
 */
#include "server/judge/lang.h"
#include "server/judge/lang_internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "runners/buf.h"
#include "server/judge/packages.h"
#include "server/judge/toolchain.h"
#include "server/util/json.h"
#include "server/util/slurp.h"

#define MAX_TEMPLATE    (256 * 1024)
#define MAX_BINDS       64
#define VERSION_MS      10000
#define VERSION_RETRIES 2 /* a version command that timed out: asked again, twice the time */
#define MAX_BYTECODE    (4 << 20) /* bytes a grader program or host may build to */

struct lang_set {
    int n;
    struct lang *langs[LANG_MAX];
    int nbinds;
    const char *binds[MAX_BINDS];
};

/* Parsing context: the file, the rustup directory (NO_RUSTUP when there is none), whether
 * the template used it, and the first error. */
struct ctx {
    const char *path;
    char rustup[512];
    bool used_rustup;
    char *err;
    int rc;
};

/* {rustup} on a host without a rustup toolchain: the template still loads (its paths stay
 * absolute, so it validates), and lang_probe marks it unavailable. */
#define NO_RUSTUP "/nonexistent/rustup-toolchain"

static int fail(struct ctx *c, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(struct ctx *c, const char *field, const char *fmt, ...)
{
    if (c->rc == 0) {
        char what[160];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof(what), fmt, ap);
        va_end(ap);
        snprintf(c->err, ERR_LEN, "%.100s: %.40s: %.100s", c->path, field, what);
        c->rc = -EINVAL;
    }
    return -EINVAL;
}

/* Replaces {rustup} (resolved at load time); other placeholders stay for lang users. */
static char *expand(struct ctx *c, const char *s)
{
    const char *p = strstr(s, "{rustup}");
    if (!p)
        return strdup(s);
    c->used_rustup = true;
    size_t n = strlen(s) - 8 + strlen(c->rustup) + 1;
    char *out = malloc(n);
    if (out)
        snprintf(out, n, "%.*s%s%s", (int)(p - s), s, c->rustup, p + 8);
    return out;
}

/* Only the fields named in `allowed` (NULL-terminated) may appear in obj. */
static int check_fields(struct ctx *c, const char *where, const struct json *obj,
                        const char *const *allowed)
{
    for (const struct json *m = json_first(obj); m; m = json_next(m)) { /* O(1) a step */
        const char *key = json_key(m);
        bool ok = false;
        for (const char *const *a = allowed; *a && !ok; a++)
            ok = strcmp(*a, key) == 0;
        if (!ok) {
            char field[96];
            snprintf(field, sizeof(field), "%s%s%s", where, where[0] ? "." : "", key);
            return fail(c, field, "unknown field");
        }
    }
    return 0;
}

/* A required (or, with optional, possibly absent) array of strings. */
static int get_strings(struct ctx *c, const struct json *obj, const char *key, const char *where,
                       bool optional, bool nonempty, char ***out, int *n)
{
    char field[96];
    snprintf(field, sizeof(field), "%s%s%s", where, where[0] ? "." : "", key);
    const struct json *a = json_get(obj, key);
    *out = NULL;
    *n = 0;
    if (!a)
        return optional ? 0 : fail(c, field, "missing (an array of strings)");
    if (!json_is_array(a))
        return fail(c, field, "must be an array of strings");
    int len = json_len(a);
    if (nonempty && len == 0)
        return fail(c, field, "must not be empty");
    char **v = calloc((size_t)len + 1, sizeof(*v));
    if (!v)
        return fail(c, field, "out of memory");
    *out = v;
    int i = 0;
    for (const struct json *e = json_first(a); e; e = json_next(e), i++) { /* O(1) a step */
        const char *s;
        if (!json_str(e, &s))
            return fail(c, field, "element %d is not a string", i);
        if (!(v[i] = expand(c, s)))
            return fail(c, field, "out of memory");
        *n = i + 1;
    }
    return 0;
}

static int get_string(struct ctx *c, const struct json *obj, const char *key, bool optional,
                      char **out)
{
    const struct json *v = json_get(obj, key);
    const char *s;
    *out = NULL;
    if (!v)
        return optional ? 0 : fail(c, key, "missing (a string)");
    if (!json_str(v, &s) || !*s)
        return fail(c, key, "must be a non-empty string");
    *out = strdup(s);
    return *out ? 0 : fail(c, key, "out of memory");
}

/* Limits in the units templates use: ms, MiB, KiB. */
static int get_limits(struct ctx *c, const struct json *obj, const char *where,
                      struct job_limits *l)
{
    static const char *const fields[] = {"cpu_ms", "wall_ms",  "memory_mb", "output_kb", "pids",
                                         "nofile", "stack_mb", "file_mb",   NULL};
    if (!obj)
        return 0;
    char field[96];
    if (!json_is_object(obj))
        return fail(c, where, "must be an object");
    if (check_fields(c, where, obj, fields) < 0)
        return -EINVAL;
    for (int i = 0; fields[i]; i++) {
        double v;
        const struct json *j = json_get(obj, fields[i]);
        snprintf(field, sizeof(field), "%s.%s", where, fields[i]);
        if (!j)
            continue;
        if (!json_num(j, &v) || v < 1 || v > 1e9 || v != (double)(long long)v)
            return fail(c, field, "must be a whole number from 1 to 1e9");
        uint64_t n = (uint64_t)v;
        switch (i) {
        case 0:
            l->cpu_ms = (int64_t)n;
            break;
        case 1:
            l->wall_ms = (int64_t)n;
            break;
        case 2:
            l->memory_bytes = n << 20;
            break;
        case 3:
            l->stdout_bytes = l->stderr_bytes = n << 10;
            break;
        case 4:
            l->pids = (uint32_t)n;
            break;
        case 5:
            l->nofile = (uint32_t)n;
            break;
        case 6:
            l->stack_bytes = n << 20;
            break;
        default:
            l->file_bytes = n << 20;
            break;
        }
    }
    return 0;
}

static int get_step(struct ctx *c, const struct json *obj, const char *where, struct lang_step *st)
{
    static const char *const fields[] = {"argv", "env", "limits", "artifacts", NULL};
    if (!json_is_object(obj))
        return fail(c, where, "must be an object");
    if (check_fields(c, where, obj, fields) < 0 ||
        get_strings(c, obj, "argv", where, false, true, &st->argv, &st->argc) < 0 ||
        get_strings(c, obj, "env", where, true, false, &st->env, &st->nenv) < 0)
        return -EINVAL;
    for (int i = 0; i < st->nenv; i++)
        if (!strchr(st->env[i], '=') || st->env[i][0] == '=')
            return fail(c, where, "env entry \"%.40s\" is not NAME=value", st->env[i]);
    char field[64];
    snprintf(field, sizeof(field), "%s.limits", where);
    return get_limits(c, json_get(obj, "limits"), field, &st->limits);
}

/* The files named by key in obj (paths relative to the template's directory), joined. */
static int read_joined(struct ctx *c, const struct json *obj, const char *key, char **out)
{
    char **files = NULL, field[64];
    int n = 0, rc = 0;
    snprintf(field, sizeof(field), "grader.%s", key);
    *out = NULL;
    if (get_strings(c, obj, key, "grader", false, true, &files, &n) < 0)
        rc = -EINVAL;
    const char *slash = strrchr(c->path, '/');
    int dirlen = slash ? (int)(slash - c->path) + 1 : 0; /* with its slash */
    struct buf joined;
    buf_init(&joined, 0);
    for (int i = 0; rc == 0 && i < n; i++) {
        char path[768], *text = NULL, e[ERR_LEN];
        size_t tlen = 0;
        if (files[i][0] == '/' || strstr(files[i], ".."))
            rc =
                fail(c, field, "\"%.60s\" is not a path inside the templates' directory", files[i]);
        else if (snprintf(path, sizeof(path), "%.*s%s", dirlen, c->path, files[i]) >=
                 (int)sizeof(path))
            rc = fail(c, field, "path too long");
        else if (slurp(path, MAX_TEMPLATE, &text, &tlen, e) < 0 || strlen(text) != tlen)
            rc = fail(c, field, "%.60s: %.80s", files[i], text ? "holds a NUL byte" : e);
        else
            buf_append(&joined, text, tlen);
        free(text);
    }
    if (rc == 0 && !(*out = buf_take(&joined, NULL)))
        rc = fail(c, field, "out of memory");
    buf_fini(&joined);
    for (int i = 0; i < n; i++)
        free(files[i]);
    free(files);
    return rc;
}

/* A name of the work dir's top level: no directory, no "..". */
static bool plain_name(const char *s)
{
    return job_path_ok(s) && !strchr(s, '/');
}

/* A unit that a grader's build compiles (the grader itself, a host apart): a language of its
 * own named after l and suffix, obj's "source" (a plain name) and the compile step comp, its
 * artifacts work-dir paths; where names obj in messages. */
static int get_unit(struct ctx *c, const struct json *obj, const struct json *comp,
                    const struct lang *l, const char *suffix, const char *where, struct lang **out)
{
    char field[64];
    struct lang *u = *out = calloc(1, sizeof(*u));
    if (!u)
        return fail(c, where, "out of memory");
    snprintf(u->name, sizeof(u->name), "%.24s-%s", l->name, suffix);
    u->compiled = true;
    snprintf(field, sizeof(field), "%s.compile", where);
    if (get_string(c, obj, "source", false, &u->source) < 0 ||
        get_step(c, comp, field, &u->compile) < 0 ||
        get_strings(c, comp, "artifacts", field, false, true, &u->artifacts, &u->nartifacts) < 0)
        return -EINVAL;
    snprintf(field, sizeof(field), "%s.source", where);
    if (!plain_name(u->source))
        return fail(c, field, "must be a plain file name");
    snprintf(field, sizeof(field), "%s.compile.artifacts", where);
    for (int i = 0; i < u->nartifacts; i++)
        if (!job_path_ok(u->artifacts[i]))
            return fail(c, field, "\"%.40s\" is not a work-dir path", u->artifacts[i]);
    return 0;
}

/* A compiled grader's "source", "compile" and "layout", if it has them: its compile step as a
 * language of its own (g->compiled). */
static int get_compiled_grader(struct ctx *c, const struct json *obj, struct lang *l)
{
    struct lang_grader *g = l->grader;
    const struct json *comp = json_get(obj, "compile");
    if (!comp && !json_get(obj, "source") && !json_get(obj, "layout"))
        return 0;
    if (!comp)
        return fail(c, "grader.compile",
                    "missing (a compiled grader needs source, compile and "
                    "layout)");
    if (get_unit(c, obj, comp, l, "grader", "grader", &g->compiled) < 0 ||
        get_string(c, obj, "layout", false, &g->layout) < 0 ||
        get_string(c, obj, "default_setup", true, &g->default_setup) < 0 ||
        get_string(c, obj, "program_file", true, &g->program_file) < 0)
        return -EINVAL;
    g->compiled->private_entry = true;
    if (g->program_file &&
        (!plain_name(g->program_file) || strcmp(g->program_file, g->compiled->source) == 0))
        return fail(c, "grader.program_file", "must be a plain file name other than the source");
    if (!strstr(g->layout, "{tests}"))
        return fail(c, "grader.layout", "must contain {tests}");
    const struct json *member = json_get(obj, "member");
    if (member && !json_bool(member, &g->member))
        return fail(c, "grader.member", "must be true or false");
    const char *imports = NULL;
    if (json_get(obj, "imports") &&
        (!json_str(json_get(obj, "imports"), &imports) || strcmp(imports, "go") != 0))
        return fail(c, "grader.imports", "must be \"go\" (the only merge there is)");
    g->go_imports = imports != NULL;
    return 0;
}

/* A compiled grader's "host_unit": source, layout, join and compile (lang.h). */
static int get_host_unit(struct ctx *c, const struct json *obj, struct lang *l)
{
    static const char *const fields[] = {"source", "layout", "join", "compile", NULL};
    struct lang_grader *g = l->grader;
    if (!obj)
        return 0;
    if (!json_is_object(obj) || !g->compiled)
        return fail(c, "grader.host_unit", "must be an object, beside a compiled grader");
    const struct json *comp = json_get(obj, "compile");
    if (!comp)
        return fail(c, "grader.host_unit.compile", "missing");
    if (check_fields(c, "grader.host_unit", obj, fields) < 0 ||
        get_unit(c, obj, comp, l, "host", "grader.host_unit", &g->host_unit) < 0 ||
        get_string(c, obj, "layout", false, &g->host_layout) < 0 ||
        get_string(c, obj, "join", false, &g->unit_join) < 0)
        return -EINVAL;
    const struct lang *hu = g->host_unit;
    if (strcmp(hu->source, g->host_file) == 0)
        return fail(c, "grader.host_unit.source", "must be other than the host_file");
    if (!plain_name(hu->artifacts[0]) || (l->source && strcmp(hu->artifacts[0], l->source) == 0))
        return fail(c, "grader.host_unit.compile.artifacts",
                    "the first must be a plain file name other than the program's source");
    return 0;
}

static int get_grader(struct ctx *c, const struct json *obj, struct lang *l)
{
    static const char *const fields[] = {"argv",    "program",      "host",          "host_file",
                                         "join",    "bytecode",     "code_file",     "source",
                                         "compile", "layout",       "default_setup", "member",
                                         "imports", "program_file", "host_unit",     NULL};
    if (!obj)
        return 0;
    if (!json_is_object(obj))
        return fail(c, "grader", "must be an object");
    struct lang_grader *g = l->grader = calloc(1, sizeof(*g));
    if (!g)
        return fail(c, "grader", "out of memory");
    if (check_fields(c, "grader", obj, fields) < 0 ||
        get_strings(c, obj, "argv", "grader", false, true, &g->argv, &g->argc) < 0 ||
        read_joined(c, obj, "program", &g->program) < 0 ||
        read_joined(c, obj, "host", &g->host) < 0 ||
        get_string(c, obj, "host_file", false, &g->host_file) < 0 ||
        get_string(c, obj, "join", false, &g->join) < 0 ||
        get_string(c, obj, "code_file", true, &g->code_file) < 0 ||
        get_strings(c, obj, "bytecode", "grader", true, true, &g->bytecode, &g->nbytecode) < 0)
        return -EINVAL;
    if (g->bytecode && (g->bytecode[0][0] != '/' || g->nbytecode > LANG_MAX_BYTECODE_ARGS))
        return fail(c, "grader.bytecode",
                    "argv[0] must be an absolute path, with at most %d arguments in all",
                    LANG_MAX_BYTECODE_ARGS);
    g->program_load = g->program;
    g->host_load = g->host;
    if (!plain_name(g->host_file) || (l->source && strcmp(g->host_file, l->source) == 0))
        return fail(c, "grader.host_file", "must be a plain file name other than the source");
    if (g->code_file &&
        (!plain_name(g->code_file) || (l->source && strcmp(g->code_file, l->source) == 0) ||
         strcmp(g->code_file, g->host_file) == 0))
        return fail(c, "grader.code_file",
                    "must be a plain file name other than the source and host_file");
    if (!g->code_file && !strstr(g->join, "{code}"))
        return fail(c, "grader.join", "must contain {code} (or the grader names a code_file)");
    if (g->bytecode && (json_get(obj, "compile") || json_get(obj, "layout")))
        return fail(c, "grader.bytecode", "a compiled grader has no bytecode filter");
    if (get_compiled_grader(c, obj, l) < 0)
        return -EINVAL;
    return get_host_unit(c, json_get(obj, "host_unit"), l);
}

static bool name_ok(const char *s)
{
    size_t n = strlen(s);
    return n > 0 && n < LANG_NAME && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_+-") == n;
}

static int parse_doc(struct ctx *c, const struct json *doc, struct lang *l)
{
    static const char *const fields[] = {"name",      "aliases",     "source",  "compile",
                                         "run",       "binds",       "version", "version_pick",
                                         "needs_gpu", "description", "grader",  "install",
                                         "warm",      "packages",    NULL};
    const char *name;
    bool gpu = false;
    if (!json_is_object(doc))
        return fail(c, "(document)", "must be a JSON object");
    if (check_fields(c, "", doc, fields) < 0)
        return -EINVAL;
    if (!json_str(json_get(doc, "name"), &name) || !name_ok(name))
        return fail(c, "name", "must be 1-31 characters of a-z, 0-9, _, + or -");
    snprintf(l->name, sizeof(l->name), "%s", name);
    if (get_strings(c, doc, "aliases", "", true, false, &l->aliases, &l->naliases) < 0 ||
        get_string(c, doc, "source", false, &l->source) < 0 ||
        get_strings(c, doc, "binds", "", true, false, &l->binds, &l->nbinds) < 0 ||
        get_strings(c, doc, "version", "", false, true, &l->version, &l->nversion) < 0 ||
        get_string(c, doc, "version_pick", true, &l->version_pick) < 0 ||
        get_string(c, doc, "install", true, &l->install) < 0 ||
        get_strings(c, doc, "packages", "", true, true, &l->packages_cmd, &l->npackages_cmd) < 0 ||
        get_grader(c, json_get(doc, "grader"), l) < 0)
        return -EINVAL;
    if (!plain_name(l->source))
        return fail(c, "source", "must be a plain file name");
    for (int i = 0; i < l->naliases; i++)
        if (!name_ok(l->aliases[i]))
            return fail(c, "aliases", "\"%.40s\" is not a valid name", l->aliases[i]);
    for (int i = 0; i < l->nbinds; i++)
        if (l->binds[i][0] != '/')
            return fail(c, "binds", "\"%.60s\" is not an absolute path", l->binds[i]);
    if (l->npackages_cmd > 0 && l->packages_cmd[0][0] != '/')
        return fail(c, "packages", "argv[0] must be an absolute path");
    const struct json *g = json_get(doc, "needs_gpu");
    if (g && !json_bool(g, &gpu))
        return fail(c, "needs_gpu", "must be true or false");
    l->needs_gpu = gpu;
    char *warm = NULL;
    if (get_string(c, doc, "warm", true, &warm) < 0)
        return -EINVAL;
    bool python = warm && strcmp(warm, "python") == 0, bad = warm && !python;
    free(warm);
    if (bad)
        return fail(c, "warm", "must be \"python\" (the only warm interpreter)");
    l->warm = python ? JOB_WARM_PYTHON : JOB_COLD;
    const struct json *comp = json_get(doc, "compile"), *run = json_get(doc, "run");
    if (!run)
        return fail(c, "run", "missing (an object with argv)");
    if (get_step(c, run, "run", &l->run) < 0)
        return -EINVAL;
    if (json_get(run, "artifacts"))
        return fail(c, "run.artifacts", "only a compile step leaves artifacts");
    if (comp) {
        l->compiled = true;
        if (get_step(c, comp, "compile", &l->compile) < 0 ||
            get_strings(c, comp, "artifacts", "compile", false, true, &l->artifacts,
                        &l->nartifacts) < 0)
            return -EINVAL;
        for (int i = 0; i < l->nartifacts; i++)
            if (!job_path_ok(l->artifacts[i]))
                return fail(c, "compile.artifacts", "\"%.40s\" is not a work-dir path",
                            l->artifacts[i]);
    }
    return 0;
}

int lang_parse(const char *path, const char *text, struct lang **out, char err[ERR_LEN])
{
    struct ctx c = {.path = path, .err = err};
    if (toolchain_rustup_dir(c.rustup, sizeof(c.rustup)) < 0)
        snprintf(c.rustup, sizeof(c.rustup), "%s", NO_RUSTUP);
    *out = NULL;
    struct json *doc = json_parse(text);
    if (!doc)
        return fail(&c, "(document)", "not valid JSON");
    struct lang *l = calloc(1, sizeof(*l));
    if (!l) {
        json_free(doc);
        return err_set(err, -ENOMEM, "out of memory");
    }
    snprintf(l->path, sizeof(l->path), "%s", path);
    parse_doc(&c, doc, l);
    l->no_rustup = c.used_rustup && strcmp(c.rustup, NO_RUSTUP) == 0;
    json_free(doc);
    if (c.rc < 0) {
        lang_free(l);
        return c.rc;
    }
    *out = l;
    return 0;
}

static void free_strings(char **v, int n)
{
    for (int i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

void lang_free(struct lang *l)
{
    if (!l)
        return;
    free_strings(l->aliases, l->naliases);
    free(l->source);
    free_strings(l->compile.argv, l->compile.argc);
    free_strings(l->compile.env, l->compile.nenv);
    free_strings(l->artifacts, l->nartifacts);
    free_strings(l->run.argv, l->run.argc);
    free_strings(l->run.env, l->run.nenv);
    free_strings(l->binds, l->nbinds);
    free_strings(l->version, l->nversion);
    free(l->version_pick);
    free_strings(l->packages_cmd, l->npackages_cmd);
    free(l->packages);
    free(l->install);
    if (l->grader) {
        free_strings(l->grader->argv, l->grader->argc);
        free(l->grader->program);
        free(l->grader->host);
        free(l->grader->host_file);
        free(l->grader->join);
        free(l->grader->code_file);
        free_strings(l->grader->bytecode, l->grader->nbytecode);
        free(l->grader->program_built);
        free(l->grader->host_built);
        lang_free(l->grader->compiled);
        free(l->grader->layout);
        free(l->grader->default_setup);
        free(l->grader->program_file);
        lang_free(l->grader->host_unit);
        free(l->grader->host_layout);
        free(l->grader->unit_join);
        free(l->grader);
    }
    free(l);
}

void lang_set_free(struct lang_set *set)
{
    for (int i = 0; set && i < set->n; i++)
        lang_free(set->langs[i]);
    free(set);
}

static int by_name(const void *a, const void *b)
{
    return strcmp((*(struct lang *const *)a)->name, (*(struct lang *const *)b)->name);
}

/* A name or alias claimed twice is an error naming both files. */
static int check_unique(const struct lang_set *set, char err[ERR_LEN])
{
    for (int i = 0; i < set->n; i++) {
        const struct lang *a = set->langs[i];
        for (int k = -1; k < a->naliases; k++) {
            const char *name = k < 0 ? a->name : a->aliases[k];
            const struct lang *other = lang_find(set, name);
            if (other && other != a)
                return err_set(err, -EINVAL, "%.100s: name \"%s\" is also claimed by %.100s",
                               a->path, name, other->path);
        }
    }
    return 0;
}

/* The binds of the languages available now (a missing toolchain's directories must not reach
 * the cells: a bind of a path the host lacks fails the cell). */
static void collect_binds(struct lang_set *set)
{
    set->nbinds = 0;
    for (int i = 0; i < set->n; i++) {
        if (!set->langs[i]->available)
            continue;
        for (int k = 0; k < set->langs[i]->nbinds && set->nbinds < MAX_BINDS; k++) {
            const char *b = set->langs[i]->binds[k];
            bool seen = false;
            for (int m = 0; m < set->nbinds && !seen; m++)
                seen = strcmp(set->binds[m], b) == 0;
            if (!seen)
                set->binds[set->nbinds++] = b;
        }
    }
}

static int load_file(struct lang_set *set, const char *path, char err[ERR_LEN])
{
    char *text = malloc(MAX_TEMPLATE);
    if (!text)
        return err_set(err, -ENOMEM, "out of memory");
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(text, 1, MAX_TEMPLATE - 1, f) : 0;
    int rc = 0;
    if (!f)
        rc = err_set(err, -errno, "%.200s: %m", path);
    else if (n == MAX_TEMPLATE - 1)
        rc = err_set(err, -EFBIG, "%.200s: larger than %d bytes", path, MAX_TEMPLATE);
    if (f)
        fclose(f);
    struct lang *l = NULL;
    if (rc == 0) {
        text[n] = '\0';
        rc = lang_parse(path, text, &l, err);
    }
    free(text);
    if (rc == 0 && set->n >= LANG_MAX) {
        lang_free(l);
        rc = err_set(err, -E2BIG, "more than %d languages", LANG_MAX);
    }
    if (rc == 0)
        set->langs[set->n++] = l;
    return rc;
}

int lang_load_dir(const char *dir, struct lang_set **out, char err[ERR_LEN])
{
    *out = NULL;
    struct lang_set *set = calloc(1, sizeof(*set));
    DIR *d = set ? opendir(dir) : NULL;
    int rc = 0;
    if (!set)
        return err_set(err, -ENOMEM, "out of memory");
    if (!d)
        rc = err_set(err, -errno, "languages directory %.200s: %m", dir);
    for (struct dirent *e; rc == 0 && d && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        char path[768];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        rc = load_file(set, path, err);
    }
    if (d)
        closedir(d);
    if (rc == 0 && set->n == 0)
        rc = err_set(err, -ENOENT, "no language templates (*.json) in %.200s", dir);
    if (rc == 0) {
        qsort(set->langs, (size_t)set->n, sizeof(set->langs[0]), by_name);
        rc = check_unique(set, err);
    }
    if (rc < 0) {
        lang_set_free(set);
        return rc;
    }
    *out = set;
    return 0;
}

/* An absolute argv[0] must be executable; a bare name is left to PATH inside the cell. */
static bool runnable(const char *prog, char why[ERR_LEN])
{
    if (prog[0] != '/' || strchr(prog, '{'))
        return true;
    if (access(prog, X_OK) == 0)
        return true;
    err_set(why, -errno, "%.200s: %m", prog);
    return false;
}

/* Whether l's executables and binds are here, with the reason in l->why when not. */
static bool present(struct lang *l)
{
    if (l->no_rustup) {
        snprintf(l->why, ERR_LEN,
                 "no rustup toolchain ($RUSTUP_HOME or ~/.rustup with a default toolchain)");
        return false;
    }
    if ((l->compiled && !runnable(l->compile.argv[0], l->why)) ||
        !runnable(l->run.argv[0], l->why) || !runnable(l->version[0], l->why))
        return false;
    for (int k = 0; k < l->nbinds; k++)
        if (access(l->binds[k], R_OK) < 0) {
            err_set(l->why, -errno, "bind %.200s: %m", l->binds[k]);
            return false;
        }
    return true;
}

/* Runs each available language's grader bytecode filter over its program and host, all at
 * once. A language whose filter fails is unavailable: its argv and join load bytecode. */
static void build_graders(struct lang **ls, size_t n)
{
    struct toolchain_filter *f = calloc(2 * n + 1, sizeof(*f));
    const char **argvs = calloc(2 * (n + 1) * (LANG_MAX_BYTECODE_ARGS + 2), sizeof(*argvs));
    struct lang **owner = calloc(2 * n + 1, sizeof(*owner));
    size_t nf = 0;
    for (size_t k = 0; f && argvs && owner && k < n; k++) {
        struct lang_grader *g = ls[k]->grader;
        if (!ls[k]->available || !g || !g->bytecode)
            continue;
        free(g->program_built);
        free(g->host_built);
        g->program_built = g->host_built = NULL;
        for (int half = 0; half < 2; half++, nf++) {
            const char **argv = argvs + nf * (LANG_MAX_BYTECODE_ARGS + 2);
            memcpy(argv, g->bytecode, (size_t)g->nbytecode * sizeof(*argv));
            argv[g->nbytecode] = half ? g->host_file : "grader";
            const char *text = half ? g->host : g->program;
            owner[nf] = ls[k];
            f[nf] = (struct toolchain_filter){.argv = argv,
                                              .in = text,
                                              .in_len = strlen(text),
                                              .max = MAX_BYTECODE,
                                              .err = ls[k]->why};
        }
    }
    if (nf > 0 && toolchain_filter(f, nf, VERSION_MS) < 0)
        for (size_t i = 0; i < nf; i++)
            f[i].rc = err_set(owner[i]->why, -ENOMEM, "out of memory");
    for (size_t i = 0; i < nf; i++) {
        struct lang_grader *g = owner[i]->grader;
        bool host = i % 2 == 1;
        if (f[i].rc == 0 && strlen(f[i].out) != f[i].out_len)
            f[i].rc = err_set(owner[i]->why, -EINVAL, "grader bytecode holds a NUL byte");
        if (f[i].rc == 0)
            *(host ? &g->host_built : &g->program_built) = f[i].out;
        else
            free(f[i].out);
        if (f[i].rc < 0)
            owner[i]->available = false;
        g->program_load = g->program_built ? g->program_built : g->program;
        g->host_load = g->host_built ? g->host_built : g->host;
    }
    for (size_t k = 0; (!f || !argvs || !owner) && k < n; k++)
        if (ls[k]->available && ls[k]->grader && ls[k]->grader->bytecode) {
            ls[k]->available = false;
            snprintf(ls[k]->why, ERR_LEN, "out of memory");
        }
    free(owner);
    free(argvs);
    free(f);
}

/* Whether l is one of the comma-separated names (or aliases) in only; NULL names them all. */
static bool wanted(const struct lang_set *set, const char *only, const struct lang *l)
{
    if (!only)
        return true;
    for (const char *p = only; *p;) {
        size_t n = strcspn(p, ",");
        char name[64];
        if (n < sizeof(name)) {
            memcpy(name, p, n);
            name[n] = '\0';
            if (lang_find(set, name) == l)
                return true;
        }
        p += n + (p[n] == ',');
    }
    return false;
}

/* Runs the version commands; those that did not answer in time are asked again, with twice
 * the time each round (VERSION_RETRIES rounds): on a host loaded enough that a JVM's start
 * takes seconds, a slow answer is no missing toolchain, and a language found unavailable
 * stays so for the server's life. Returns 0 or -ENOMEM. */
static int versions_patiently(struct toolchain_ask *asks, size_t n)
{
    struct toolchain_ask *again = calloc(n, sizeof(*again));
    size_t *at = calloc(n, sizeof(*at));
    int rc = again && at && toolchain_versions(asks, n, VERSION_MS) >= 0 ? 0 : -ENOMEM;
    for (int round = 1; rc == 0 && round <= VERSION_RETRIES; round++) {
        size_t m = 0;
        for (size_t k = 0; k < n; k++)
            if (asks[k].rc == -ETIMEDOUT) {
                at[m] = k;
                again[m++] = asks[k];
            }
        if (m == 0)
            break;
        rc = toolchain_versions(again, m, VERSION_MS << round) < 0 ? -ENOMEM : 0;
        for (size_t i = 0; rc == 0 && i < m; i++)
            asks[at[i]].rc = again[i].rc;
    }
    free(again);
    free(at);
    return rc;
}

/* The languages' version commands run all at once: a server's start waits for the slowest
 * (a JVM or node, a few hundred ms), not for the sum of them all. */
void lang_probe(struct lang_set *set, const char *only)
{
    struct toolchain_ask *asks = calloc((size_t)set->n + 1, sizeof(*asks));
    struct lang **asked = calloc((size_t)set->n + 1, sizeof(*asked));
    size_t n = 0;
    for (int i = 0; i < set->n; i++) {
        struct lang *l = set->langs[i];
        if (!wanted(set, only, l))
            continue;
        l->why[0] = '\0';
        l->available = false;
        if (!present(l))
            continue;
        if (!asks || !asked) {
            snprintf(l->why, ERR_LEN, "out of memory");
            continue;
        }
        asks[n] = (struct toolchain_ask){.argv = (const char *const *)l->version,
                                         .pick = l->version_pick,
                                         .out = l->version_line,
                                         .cap = sizeof(l->version_line),
                                         .err = l->why};
        asked[n++] = l;
    }
    if (n > 0 && versions_patiently(asks, n) < 0)
        for (size_t k = 0; k < n; k++)
            asks[k].rc = err_set(asked[k]->why, -ENOMEM, "out of memory");
    for (size_t k = 0; k < n; k++) {
        asked[k]->available = asks[k].rc == 0;
        if (asked[k]->available)
            asked[k]->why[0] = '\0';
        const struct lang_grader *g = asked[k]->grader;
        struct lang *built[] = {g ? g->compiled : NULL, g ? g->host_unit : NULL};
        for (size_t b = 0; b < sizeof(built) / sizeof(built[0]); b++)
            if (built[b]) { /* the compile cache keys its builds on the toolchain's version */
                memcpy(built[b]->version_line, asked[k]->version_line,
                       sizeof(built[b]->version_line));
                built[b]->available = asked[k]->available;
            }
    }
    build_graders(asked, n);
    packages_probe(asked, n);
    free(asks);
    free(asked);
    for (int i = 0; i < set->n; i++) {
        struct lang *l = set->langs[i];
        size_t len = strlen(l->why);
        if (!l->available && l->install && len + 3 < ERR_LEN && wanted(set, only, l))
            snprintf(l->why + len, ERR_LEN - len, "; %s", l->install);
    }
    collect_binds(set);
}

const struct lang *lang_find(const struct lang_set *set, const char *name)
{
    for (int i = 0; set && name && i < set->n; i++) {
        const struct lang *l = set->langs[i];
        if (strcasecmp(l->name, name) == 0)
            return l;
        for (int k = 0; k < l->naliases; k++)
            if (strcasecmp(l->aliases[k], name) == 0)
                return l;
    }
    return NULL;
}

int lang_count(const struct lang_set *set)
{
    return set ? set->n : 0;
}

void lang_set_available(struct lang_set *set)
{
    for (int i = 0; i < set->n; i++)
        set->langs[i]->available = true;
}

const struct lang *lang_at(const struct lang_set *set, int i)
{
    return set && i >= 0 && i < set->n ? set->langs[i] : NULL;
}

const char *const *lang_binds(const struct lang_set *set, int *n)
{
    *n = set->nbinds;
    return set->binds;
}
