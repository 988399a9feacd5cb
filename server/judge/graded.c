/*
 * graded: a compiled grader's source, build and executable (graded.h).
 */
#include "server/judge/graded.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runners/buf.h"
#include "server/judge/goimports.h"
#include "server/judge/lex.h"
#include "server/judge/signature.h"

#define MAX_EXE (64u << 20) /* a grader's executable, at most (the job carries it) */

/* tmpl with every {name} of names filled with its value (heap), or NULL. */
static char *fill(const char *tmpl, size_t n, const char *const names[], const char *const vals[])
{
    struct buf b;
    buf_init(&b, 0);
    for (const char *p = tmpl; *p;) {
        size_t k = 0;
        for (; k < n; k++)
            if (strncmp(p, names[k], strlen(names[k])) == 0)
                break;
        if (k < n) {
            buf_append(&b, vals[k], strlen(vals[k]));
            p += strlen(names[k]);
        } else {
            buf_append(&b, p++, 1);
        }
    }
    return buf_take(&b, NULL);
}

/* The tests less a leading `}` (MultiPL-E's close the prompt's open function; the grader
 * declares the entry point instead of opening it). */
static const char *tests_of(const char *t)
{
    const char *p = t;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    return *p == '}' ? p + 1 : t;
}

/* The placeholders of a layout (the grader's source) and of a join (the program's): the same
 * values, but {code} for {program} (languages/README.md, "A compiled grader"). */
static const char *const fields[] = {"{program}", "{setup}",  "{signature}", "{entry}", "{tests}",
                                     "{args}",    "{return}", "{cast}",      "{class}", "{type}"};
static const char *const joins[] = {"{code}", "{setup}",  "{signature}", "{entry}", "{tests}",
                                    "{args}", "{return}", "{cast}",      "{class}", "{type}"};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))
_Static_assert(NFIELDS == sizeof(joins) / sizeof(joins[0]), "a join's placeholders are a layout's");

/* code with each brace it leaves open closed (heap), at least one when the tests closed one
 * (closing): a continuation of the prompt's open function, a whole answer of Java's whose
 * class the tests would have closed. */
static char *close_open(const char *code, bool closing)
{
    struct lexer l;
    lex_init(&l, code, LEX_C);
    int depth = 0;
    for (struct lex_tok t = lex_next(&l); t.kind != TOK_END; t = lex_next(&l))
        depth += t.kind == '{' ? 1 : t.kind == '}' ? -1 : 0;
    if (closing && depth < 1)
        depth = 1;
    if (depth < 0 || depth > 64)
        depth = 0;
    size_t n = strlen(code);
    char *out = malloc(n + 2 * (size_t)depth + 2);
    if (!out)
        return NULL;
    memcpy(out, code, n);
    for (int i = 0; i < depth; i++) {
        out[n++] = '\n';
        out[n++] = '}';
    }
    out[n++] = '\n';
    out[n] = '\0';
    return out;
}

/* Whether the host is a unit apart (lang.h): where the template has one, and it needs no
 * more than the declaration, or the setup is the problem's. */
static bool host_apart(const struct lang_grader *lg, bool trusted)
{
    return lg->host_unit && (trusted || !strstr(lg->host_layout, "{setup}"));
}

/* *src with its Go imports made one block of what it uses (goimports.h); NULL when out of
 * memory. */
static void merge_imports(char **src)
{
    char *merged = goimports_fix(*src);
    free(*src);
    *src = merged;
}

int graded_plan(const struct lang *l, const struct judge_request *r, struct graded *g,
                char why[ERR_LEN])
{
    const struct lang_grader *lg = l->grader;
    memset(g, 0, sizeof(*g));
    if (!r->entry_point || !*r->entry_point || !r->harness)
        return -ENOENT;
    struct signature sig;
    const char *from = r->harness_setup ? r->harness_setup : r->code;
    int rc = signature_find(from, r->entry_point, r->harness_setup != NULL, lg->member, &sig);
    if (rc == -ENOENT && !r->harness_setup)
        return err_set(why, -EINVAL, "the code declares no function %.128s", r->entry_point);
    if (rc < 0)
        return rc;
    g->trusted = r->harness_setup != NULL;
    if (!g->trusted && !sig.plain) {
        signature_fini(&sig);
        return err_set(why, -EINVAL,
                       "the code's declaration of %.128s is not a plain signature (types, names "
                       "and one parameter list): %.200s",
                       r->entry_point, sig.text);
    }
    /* a default setup may name the declaring class (junit's: the tests call the code's own) */
    static const char *const owner[] = {"{class}"};
    const char *owner_of[] = {sig.owner};
    char *setup = g->trusted ? strndup(r->harness_setup, sig.start)
                             : fill(lg->default_setup ? lg->default_setup : "", 1, owner, owner_of);
    if (setup) {
        const char *tests = tests_of(r->harness);
        char *cast = NULL;
        if (asprintf(&cast, "(%s)", sig.type) < 0)
            cast = NULL;
        const char *vals[NFIELDS] = {lg->program,
                                     setup,
                                     sig.text,
                                     r->entry_point,
                                     tests,
                                     sig.args,
                                     sig.returns ? "return " : "",
                                     sig.returns && cast ? cast : "",
                                     sig.owner,
                                     sig.type};
        g->grader_source = cast ? fill(lg->layout, NFIELDS, fields, vals) : NULL;
        if (lg->go_imports && g->grader_source) /* the runtime's imports with the tests' */
            merge_imports(&g->grader_source);
        /* the code's open braces closed: tests that close the prompt's open function close
         * the program's, and a member's class is closed by the tests too (Java's) */
        char *code = close_open(r->code, tests != r->harness);
        if (lg->go_imports && code) /* the prompt's imports the tests alone used dropped */
            merge_imports(&code);
        if (code) {
            vals[0] = code;
            g->program_source = fill(lg->join, NFIELDS, joins, vals);
            if (host_apart(lg, g->trusted)) {
                g->unit_source = fill(lg->unit_join, NFIELDS, joins, vals);
                vals[0] = lg->host;
                g->host_source = fill(lg->host_layout, NFIELDS, fields, vals);
            }
        }
        free(code);
        free(cast);
    }
    free(setup);
    signature_fini(&sig);
    if (!g->grader_source || !g->program_source ||
        (host_apart(lg, g->trusted) && (!g->unit_source || !g->host_source))) {
        graded_fini(NULL, g);
        return -ENOMEM;
    }
    g->files[g->nfiles++] = (struct job_file){
        lg->compiled->source, 0644, (const uint8_t *)g->grader_source, strlen(g->grader_source)};
    if (lg->program_file)
        g->files[g->nfiles++] = (struct job_file){
            lg->program_file, 0644, (const uint8_t *)lg->program, strlen(lg->program)};
    return 0;
}

struct build_args {
    const struct program_env *env;
    const struct lang *gl;
    struct graded *g;
};

static void build(const struct program_env *env, const struct lang *gl, struct graded *g)
{
    g->build_rc = program_build(env, gl, g->files, g->nfiles, NULL, &g->gp, g->build_err);
    g->have_gp = true;
}

static void *build_thread(void *arg)
{
    struct build_args *a = arg;
    build(a->env, a->gl, a->g);
    free(a);
    return NULL;
}

void graded_build_start(const struct program_env *env, const struct lang *l, struct graded *g)
{
    const struct lang *gl = l->grader->compiled;
    struct build_args *a = malloc(sizeof(*a));
    if (a) {
        *a = (struct build_args){env, gl, g};
        if (pthread_create(&g->thread, NULL, build_thread, a) == 0) {
            g->threaded = true;
            return;
        }
        free(a);
    }
    build(env, gl, g); /* no thread: one after the other */
}

/* The first artifact's bytes of p (what, for messages): the cache entry's file (the server's
 * alone), or the artifact held in memory when the cache could not keep it. */
static int load_artifact(const struct program *p, const char *what, uint8_t **out, size_t *len,
                         char why[ERR_LEN])
{
    const char *name = p->lang->artifacts[0];
    if (p->uncached) {
        if (p->nheld < 1)
            return err_set(why, -EIO, "the %s was not kept", what);
        *len = p->held[0].len;
        *out = malloc(*len ? *len : 1);
        if (!*out)
            return err_set(why, -ENOMEM, "out of memory for the %s", what);
        memcpy(*out, p->held[0].data, *len);
        return 0;
    }
    char path[CACHE_PATH + 64];
    snprintf(path, sizeof(path), "%s/%s", p->entry.dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
        (uint64_t)st.st_size > MAX_EXE) {
        int e = fd < 0 ? errno : EFBIG;
        if (fd >= 0)
            close(fd);
        return err_set(why, -e, "the %s %.200s is unreadable", what, path);
    }
    *len = (size_t)st.st_size;
    *out = malloc(*len);
    size_t got = 0;
    while (*out && got < *len) {
        ssize_t n = read(fd, *out + got, *len - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (!*out || got != *len)
        return err_set(why, -EIO, "the %s could not be read", what);
    return 0;
}

int graded_build_wait(const struct program_env *env, struct graded *g, char why[ERR_LEN])
{
    (void)env;
    if (g->threaded)
        pthread_join(g->thread, NULL);
    g->threaded = false;
    if (g->build_rc < 0)
        return err_set(why, g->build_rc, "the grader could not be built: %.200s", g->build_err);
    if (g->gp.compile_verdict == VERDICT_CE)
        return g->trusted ? GRADED_IN_PROCESS : GRADED_CE;
    if (g->gp.compile_verdict != VERDICT_OK)
        return err_set(why, -EIO, "the grader's compile stopped: %s",
                       verdict_name(g->gp.compile_verdict));
    int rc = load_artifact(&g->gp, "grader's executable", &g->exe, &g->exe_len, why);
    return rc < 0 ? rc : GRADED_OK;
}

int graded_host_build(const struct program_env *env, const struct lang *l, struct graded *g)
{
    const struct lang_grader *lg = l->grader;
    if (!g->host_source)
        return -ENOENT;
    const struct job_file files[] = {
        {lg->host_unit->source, 0644, (const uint8_t *)g->host_source, strlen(g->host_source)},
        {lg->host_file, 0644, (const uint8_t *)lg->host, strlen(lg->host)}};
    char why[ERR_LEN];
    int rc = program_build(env, lg->host_unit, files, 2, NULL, &g->hp, why);
    g->have_hp = rc == 0;
    if (rc < 0)
        return rc;
    if (g->hp.compile_verdict != VERDICT_OK)
        return -EINVAL;
    return load_artifact(&g->hp, "host's object", &g->host_obj, &g->host_obj_len, why);
}

void graded_fini(const struct program_env *env, struct graded *g)
{
    if (g->threaded)
        pthread_join(g->thread, NULL);
    if (g->have_gp && env)
        program_free(env, &g->gp);
    if (g->have_hp && env)
        program_free(env, &g->hp);
    free(g->grader_source);
    free(g->program_source);
    free(g->unit_source);
    free(g->host_source);
    free(g->host_obj);
    free(g->exe);
    memset(g, 0, sizeof(*g));
}
