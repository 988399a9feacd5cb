/*
 * judge: compile once, run each test, compare, reward.
 *
 * judge_run's steps, in order (each a function below):
 * 1. assemble_source: the program as compiled. With a harness and a language that has a
 *    grader (python), the tests never enter the program: the grader, a process of its own
 *    under another uid (runners/job.h), runs them and calls the program's functions over a
 *    channel, values crossing as literals, and its exit status is the verdict
 *    (docs/integrity.md). A compiled grader (C++'s) is built from the tests beside the
 *    program and runs from memory (graded.h); where a grader of the problem's own does not
 *    compile, the request is sealed as below. A compiled language seal has a rule for (C, C++,
 *    Go, Rust: their tests hold the entry) is first checked by seal_lint (a shadowing class is CE,
 * lint.h), then rewritten by seal: the tests' entry wrapped by one of ours that prints seal_marker
 *    (keyed on the sources, so the compile cache still hits) on a line of its own once every
 *    check returned, from two slots the server writes into the compiled artifact (the source
 *    holds placeholders: no file the compile reads holds the marker); no randomness for the
 *    key is SE. Another language's harness is joined after the code and judged by exit status
 *    alone. Which of these (or output compared, or none for run_only) is the result's
 *    `grading` (judge_grading_of).
 * 2. program_build through the compile cache (patched with seal's slots when sealed): CE, a
 *    compile TLE / MLE, or SE end here.
 * 3. build_checker: a checker is built once like the program; one that does not build is SE,
 *    never the program's fault.
 * 4. run_test per selected test: the run's status (a grader's exit status: a failed check
 *    is WA, a call the program broke RE; a sealed program's marker line, anywhere in stdout
 *    and removed from what is shown), then the checker (run in its own sandbox job as
 *    `checker input.txt output.txt answer.txt`, the request's checker files beside them; its
 *    exit status by testlib's convention, its reason the first line it wrote), or the
 *    comparison.
 * 5. the reward: passed / total, or all-or-nothing.
 * Output kept per test is an excerpt (JUDGE_EXCERPT bytes) except for run_only, whose one run
 * keeps what the sandbox captured (bounded by the run's stdout/stderr limits).
 */
#include "server/judge/judge.h"
#include "server/judge/graded.h"
#include "server/judge/judge_internal.h"
#include "server/judge/lint.h"
#include "server/judge/seal.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runners/buf.h"

/* ---- requests ----------------------------------------------------------------------------- */

struct judge_request *judge_request_new(void)
{
    struct judge_request *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    r->files = calloc(JUDGE_MAX_FILES, sizeof(*r->files));
    r->fetch = calloc(JUDGE_MAX_FETCH, sizeof(*r->fetch));
    if (!r->files || !r->fetch) {
        judge_request_free(r);
        return NULL;
    }
    return r;
}

int judge_add_file(struct judge_request *r, const char *path, uint8_t *data, size_t len)
{
    if (r->nfiles >= JUDGE_MAX_FILES) {
        free(data);
        return -E2BIG;
    }
    char *p = strdup(path);
    if (!p) {
        free(data);
        return -ENOMEM;
    }
    r->files[r->nfiles++] = (struct job_file){p, 0644, data, len};
    return 0;
}

int judge_add_fetch(struct judge_request *r, const char *path)
{
    for (int i = 0; i < r->nfetch; i++)
        if (strcmp(r->fetch[i], path) == 0)
            return 0;
    if (r->nfetch >= JUDGE_MAX_FETCH)
        return -E2BIG;
    if (!(r->fetch[r->nfetch] = strdup(path)))
        return -ENOMEM;
    r->nfetch++;
    return 0;
}

void judge_request_free(struct judge_request *r)
{
    if (!r)
        return;
    for (int i = 0; r->files && i < r->nfiles; i++) {
        /* the request owns what its job_files point at (const for the sandbox's sake) */
        free((void *)(uintptr_t)r->files[i].path);
        free((void *)(uintptr_t)r->files[i].data);
    }
    for (int i = 0; r->tests && i < r->ntests; i++) {
        free(r->tests[i].in);
        free(r->tests[i].want);
    }
    for (int i = 0; r->fetch && i < r->nfetch; i++)
        free(r->fetch[i]);
    free(r->fetch);
    free(r->files);
    free(r->tests);
    free(r->selected);
    free(r->code);
    free(r->harness);
    free(r->harness_setup);
    free(r->entry_point);
    for (int i = 0; i < r->nchecker_files; i++) {
        free((void *)(uintptr_t)r->checker_files[i].path);
        free((void *)(uintptr_t)r->checker_files[i].data);
    }
    free(r->checker_files);
    free(r->checker_code);
    free(r);
}

/* ---- the harness and the sealed marker --------------------------------------------------- */

/* The placeholder at p, if any: its value and length. */
static const char *placeholder(const char *p, const char *const vals[2], size_t *skip)
{
    static const char *const names[2] = {"{code}", "{tests}"};
    for (int i = 0; i < 2; i++) {
        size_t n = strlen(names[i]);
        if (strncmp(p, names[i], n) == 0) {
            *skip = n;
            return vals[i];
        }
    }
    return NULL;
}

/* The template with {code} and {tests} filled, each as often as it appears (heap), or NULL
 * when out of memory. */
char *judge_join_harness(const char *tmpl, const char *code, const char *tests)
{
    const char *const vals[2] = {code, tests};
    struct buf b;
    buf_init(&b, 0);
    size_t skip;
    for (const char *p = tmpl, *v; *p;) {
        if ((v = placeholder(p, vals, &skip))) {
            buf_append(&b, v, strlen(v));
            p += skip;
        } else {
            buf_append(&b, p++, 1);
        }
    }
    return buf_take(&b, NULL);
}

/* A graded harness's grader exits 0 when every check passed, GRADER_FAILED when one failed
 * (WA), GRADER_BROKE when the program failed a call (RE), GRADER_CANNOT when the tests need
 * what the grader does not provide (SE: the request's harness, never the program's fault;
 * pytest's fixtures); languages/wire.md. */
#define GRADER_FAILED 1
#define GRADER_BROKE  2
#define GRADER_CANNOT 3

/* Removes the line equal to marker (and the blank line seal's "\n" before it may leave), which
 * may be anywhere in out: libtest and the testing package print their summaries after the
 * tests' entry returns. True when it was there. out is the run's payload, ours to edit. */
static bool take_marker_line(uint8_t *out, size_t *len, const char *marker)
{
    size_t n = *len, m = strlen(marker);
    for (size_t at = 0; at + m <= n; at++) {
        const uint8_t *e = out + at + m;
        if ((at > 0 && out[at - 1] != '\n') || memcmp(out + at, marker, m) != 0)
            continue;
        size_t end = at + m + (e < out + n && *e == '\r');
        if (end < n && out[end] != '\n')
            continue;
        end += end < n;
        size_t from = at >= 2 && out[at - 1] == '\n' && out[at - 2] == '\n' ? at - 1 : at;
        memmove(out + from, out + end, n - end);
        *len = n - (end - from);
        return true;
    }
    return false;
}

/* ---- one run's result ---------------------------------------------------------------------- */

static uint8_t *copy_bytes(const uint8_t *p, size_t n, size_t cap, size_t *len)
{
    *len = n < cap ? n : cap;
    uint8_t *c = malloc(*len + 1);
    if (c && *len)
        memcpy(c, p, *len);
    return c;
}

/* Fills t from a finished run; out_len is stdout's length once the marker is gone. Returns 0
 * or -ENOMEM. */
static int keep_run(struct judge_test_result *t, const struct job_result *res, size_t out_len,
                    bool whole)
{
    size_t cap = whole ? SIZE_MAX - 1 : JUDGE_EXCERPT;
    t->exit_code = res->exit_code;
    t->signal = res->signal;
    t->cpu_ms = res->cpu_ms;
    t->wall_ms = res->wall_ms;
    t->memory_kib = res->memory_kib;
    t->instructions = res->instructions;
    t->limit = res->status == JOB_TLE ? res->tle_clock : JOB_CLOCK_NONE;
    t->stdout_truncated = res->stdout_truncated;
    t->stderr_truncated = res->stderr_truncated;
    t->out = copy_bytes(res->out, out_len, cap, &t->out_len);
    t->err = copy_bytes(res->err, res->err_len, cap, &t->err_len);
    if (!t->out || !t->err)
        return -ENOMEM;
    if (res->nfetched && !(t->fetched = calloc((size_t)res->nfetched, sizeof(*t->fetched))))
        return -ENOMEM;
    for (int i = 0; i < res->nfetched; i++) {
        const struct job_fetched *f = &res->fetched[i];
        struct judge_fetched *g = &t->fetched[t->nfetched++];
        g->error = f->error;
        g->path = strdup(f->path);
        if (!g->path ||
            (!f->error && !(g->data = copy_bytes(f->data, f->len, SIZE_MAX - 1, &g->len))))
            return -ENOMEM;
    }
    return 0;
}

static void test_result_fini(struct judge_test_result *t)
{
    free(t->out);
    free(t->err);
    for (int i = 0; i < t->nfetched; i++) {
        free(t->fetched[i].path);
        free(t->fetched[i].data);
    }
    free(t->fetched);
}

void judge_result_fini(struct judge_result *res)
{
    for (int i = 0; res->tests && i < res->ntests; i++)
        test_result_fini(&res->tests[i]);
    free(res->tests);
    free(res->compile.output);
    free(res->checker_output);
    memset(res, 0, sizeof(*res));
}

/* ---- the checker --------------------------------------------------------------------------- */

/* The first line of what a checker said (stderr, else stdout), bounded, printable. */
static void first_line(const struct job_result *cr, char *out, size_t cap)
{
    const uint8_t *t = cr->err_len ? cr->err : cr->out;
    size_t n = cr->err_len ? cr->err_len : cr->out_len, o = 0;
    for (size_t i = 0; i < n && t[i] != '\n' && o + 1 < cap; i++)
        out[o++] = t[i] >= 0x20 && t[i] < 0x7f ? (char)t[i] : '?';
    out[o] = '\0';
}

/* Runs the checker on one test the program finished: OK, WA, or SE when the checker itself
 * failed (why says what it said). Its work dir holds the test's three files and the
 * request's checker files (its context). */
static enum verdict run_checker(const struct program_env *env, const struct judge_request *r,
                                const struct program *ck, const struct judge_test *t,
                                const struct job_result *res, char *why, size_t whylen)
{
    static const char *const args[3] = {"input.txt", "output.txt", "answer.txt"};
    struct job_file files[3 + JUDGE_MAX_CHECKER_FILES] = {
        {args[0], 0644, t->in, t->in_len},
        {args[1], 0644, res->out, res->out_len},
        {args[2], 0644, t->want, t->want_len},
    };
    int n =
        r->nchecker_files < JUDGE_MAX_CHECKER_FILES ? r->nchecker_files : JUDGE_MAX_CHECKER_FILES;
    if (n > 0)
        memcpy(files + 3, r->checker_files, (size_t)n * sizeof(*files));
    struct program_io io = {.nargs = 3, .args = args, .nfiles = 3 + n, .files = files};
    struct job_result cr;
    uint8_t *payload;
    program_run(env, ck, &io, &cr, &payload);
    enum verdict v = VERDICT_SE;
    const char *what = cr.message;
    char said[120] = "";
    if (cr.status == JOB_OK || (cr.status == JOB_RE && cr.signal == 0)) {
        enum cmp_checker c = cmp_checker_status(cr.exit_code, &what);
        v = c == CMP_ACCEPTED ? VERDICT_OK : c == CMP_WRONG ? VERDICT_WA : VERDICT_SE;
        first_line(&cr, said, sizeof(said));
    } else if (cr.status != JOB_SE) {
        what = cr.status == JOB_RE ? "checker crashed" : "checker exceeded its limits";
    }
    snprintf(why, whylen, "%.96s%s%.88s", what, *said ? ": " : "", said);
    job_result_fini(&cr);
    free(payload);
    return v;
}

/* ---- judge_run's steps ---------------------------------------------------------------------- */

struct judging {
    const struct program_env *env;
    const struct judge_request *r;
    struct judge_result *res;
    char marker[SEAL_MARKER_LEN];
    bool sealed;             /* the program is seal's: its marker line must be in stdout */
    struct seal_slots slots; /* sealed: what the artifact is patched with (seal.h) */
    bool graded;             /* the tests run in a grader (runners/job.h) */
    bool compiled;           /* ... a compiled one (graded.h): gr holds it */
    struct graded gr;
    char *source;       /* heap when assembled, else r->code */
    uint8_t *grader_in; /* a graded harness: the grader's stdin (heap) */
    size_t grader_in_len;
    struct job_file *files;
    int nfiles;
    struct job_file checker_source; /* must outlive ck */
    struct program p, ck;
    bool have_p, have_ck;
};

static void fail(struct judge_result *res, enum verdict v, const char *what, const char *detail)
{
    res->status = v;
    snprintf(res->message, sizeof(res->message), "%s%s%s", what, detail && *detail ? ": " : "",
             detail ? detail : "");
}

/* The grader's stdin: its code, then the tests, the setup and the entry point, each after a
 * NUL byte (request texts hold none). */
static uint8_t *grader_input(const struct lang_grader *g, const struct judge_request *r,
                             size_t *len)
{
    const char *parts[4] = {g->program_load, r->harness, r->harness_setup ? r->harness_setup : "",
                            r->entry_point ? r->entry_point : ""};
    struct buf b;
    buf_init(&b, 0);
    for (int i = 0; i < 4; i++) /* each part but the last with its NUL */
        buf_append(&b, parts[i], strlen(parts[i]) + (i < 3));
    return (uint8_t *)buf_take(&b, len);
}

/* ---- how the tests are decided ------------------------------------------------------------ */

static const char *const grading_names[JUDGE_GRADING_COUNT] = {"none", "isolated", "output",
                                                               "in-process", "exit-status"};

const char *judge_grading_name(enum judge_grading g)
{
    return (unsigned)g < JUDGE_GRADING_COUNT ? grading_names[g] : "?";
}

int judge_grading_parse(const char *s, enum judge_grading *g)
{
    for (int i = 0; s && i < JUDGE_GRADING_COUNT; i++) {
        if (strcmp(s, grading_names[i]) == 0) {
            *g = (enum judge_grading)i;
            return 0;
        }
    }
    return -EINVAL;
}

/* Whether compiled graders are used: VERDICT_COMPILED_GRADERS=off judges their languages'
 * harnesses as before them (C++: sealed in-process). Read once. */
static bool compiled_graders(void)
{
    static _Atomic int on = -1;
    if (on < 0) {
        const char *v = getenv("VERDICT_COMPILED_GRADERS");
        on = !(v && strcmp(v, "off") == 0);
    }
    return on == 1;
}

/* How a harness in l is decided when its grader is not used. */
static enum judge_grading in_process(const struct lang *l)
{
    return seal_supports(l->name) ? JUDGE_GRADING_IN_PROCESS : JUDGE_GRADING_EXIT_STATUS;
}

/* A compiled grader's request may still be judged in-process: assemble_source and
 * build_program say so in the result's grading when its grader cannot be planned or built. */
enum judge_grading judge_harness_grading(const struct lang *l)
{
    if (l && l->grader && (!l->grader->compiled || compiled_graders()))
        return JUDGE_GRADING_ISOLATED;
    return l ? in_process(l) : JUDGE_GRADING_EXIT_STATUS;
}

/* assemble_source and run_test follow this choice: the one place it is made. */
enum judge_grading judge_grading_of(const struct judge_request *r)
{
    if (r->run_only)
        return JUDGE_GRADING_NONE;
    if (!r->harness)
        return JUDGE_GRADING_OUTPUT;
    enum judge_grading g = judge_harness_grading(r->lang);
    if (g == JUDGE_GRADING_ISOLATED && r->lang->grader->compiled &&
        (!r->entry_point || !*r->entry_point)) /* graded_plan's -ENOENT, known now */
        return in_process(r->lang);
    return g;
}

/* A sealed program seal_lint refused: CE with its reason as the compiler's output (the
 * program's doing), or SE when memory ran out. Returns rc. */
static int refuse_lint(struct judging *j, int rc, const char *why)
{
    if (rc != -EPERM) {
        fail(j->res, VERDICT_SE, "out of memory assembling the program", NULL);
        return rc;
    }
    fail(j->res, VERDICT_CE, "refused before compiling (in-process tests)", why);
    struct judge_compile *c = &j->res->compile;
    c->built = true;
    c->verdict = VERDICT_CE;
    c->compiled_language = j->r->lang->compiled;
    c->output = strdup(j->res->message);
    return rc;
}

/* The tests' entry wrapped by seal (seal.h), once seal_lint let the code through: the program
 * then passes by printing the marker. */
static int seal_source(struct judging *j)
{
    const struct judge_request *r = j->r;
    char err[ERR_LEN] = "";
    int rc = seal_lint(r->lang->name, r->code, r->harness, r->entry_point, err);
    if (rc < 0)
        return refuse_lint(j, rc, err);
    rc = seal_marker(r->lang->name, r->code, r->harness, j->marker);
    if (rc == 0)
        rc =
            seal_program(r->lang->name, r->code, r->harness, j->marker, &j->slots, &j->source, err);
    if (rc < 0) {
        fail(j->res, VERDICT_SE,
             rc == -EIO      ? "no randomness for the completion marker (getrandom)"
             : rc == -EINVAL ? "the test code has no entry seal can wrap"
                             : "out of memory assembling the program",
             rc == -EINVAL ? err : NULL);
        return rc;
    }
    j->sealed = true;
    return 0;
}

/* A compiled grader's plan (graded.h): 0 planned, 1 when the request is judged in-process
 * instead, or a negative errno with the request failed (CE: the code's declaration). */
static int plan_compiled(struct judging *j)
{
    char why[ERR_LEN] = "";
    const struct judge_request *r = j->r;
    int rc = graded_plan(r->lang, r, &j->gr, why);
    /* a problem's setup that declares no entry point it names, in a language without a seal:
     * the problem's CE, as for tests that do not compile (problem_ce) */
    if (rc == -ENOENT && r->harness_setup && r->entry_point && *r->entry_point &&
        in_process(r->lang) != JUDGE_GRADING_IN_PROCESS) {
        snprintf(why, sizeof(why),
                 "the problem's setup has no declaration of %.128s that a grader can call",
                 r->entry_point);
        fail(j->res, VERDICT_CE, why, NULL);
        struct judge_compile *c = &j->res->compile;
        c->built = true;
        c->verdict = VERDICT_CE;
        c->output = strdup(why);
        return -EINVAL;
    }
    if (rc == -ENOENT)
        return 1;
    if (rc == -EINVAL)
        fail(j->res, VERDICT_CE, why, NULL);
    else if (rc < 0)
        fail(j->res, VERDICT_SE, "out of memory assembling the grader", NULL);
    if (rc < 0)
        return rc;
    j->source = j->gr.program_source; /* the judging's now */
    j->gr.program_source = NULL;
    j->graded = j->compiled = true;
    return 0;
}

/* The program's source and work-dir files, by the result's grading. A harness for a language
 * with a grader stays out of the program: the code is joined to the host that serves the
 * grader's calls, and the tests go to the grader (its stdin, or compiled into it). Another
 * language's harness is sealed, or joined after the code, the program judged by exit status
 * alone. A compiled grader that cannot be planned leaves the request in-process. */
static int assemble_source(struct judging *j)
{
    const struct judge_request *r = j->r;
    const struct lang_grader *g =
        j->res->grading == JUDGE_GRADING_ISOLATED ? r->lang->grader : NULL;
    j->source = r->code;
    int rc = g && g->compiled ? plan_compiled(j) : 0;
    if (rc < 0)
        return rc;
    if (rc == 1) {
        g = NULL;
        j->res->grading = in_process(r->lang);
    }
    enum judge_grading how = j->res->grading;
    if (j->compiled) {
        /* planned */
    } else if (g) {
        j->source = judge_join_harness(g->join, r->code, "");
        j->grader_in = grader_input(g, r, &j->grader_in_len);
        j->graded = true;
    } else if (how == JUDGE_GRADING_IN_PROCESS) { /* tests' entry wrapped (seal.h) */
        if ((rc = seal_source(j)) < 0)
            return rc;
    } else if (how == JUDGE_GRADING_EXIT_STATUS) { /* judged by exit status alone */
        if (!r->allow_exit_status) { /* request.c refuses it first: never a pass by exit */
            fail(j->res, VERDICT_SE, "a harness judged by exit status was not allowed", NULL);
            return -EPERM;
        }
        j->source = judge_join_harness("{code}\n{tests}\n", r->code, r->harness);
    }
    free(j->files);
    j->files = calloc((size_t)r->nfiles + 3, sizeof(*j->files));
    if (!j->source || !j->files || (j->graded && !j->compiled && !j->grader_in)) {
        fail(j->res, VERDICT_SE, "out of memory assembling the program", NULL);
        return -ENOMEM;
    }
    memcpy(j->files, r->files, (size_t)r->nfiles * sizeof(*j->files));
    j->nfiles = r->nfiles;
    if (g)
        j->files[j->nfiles++] = (struct job_file){g->host_file, 0644, (const uint8_t *)g->host_load,
                                                  strlen(g->host_load)};
    if (g && g->code_file) /* the source starts the host, which runs the code from here */
        j->files[j->nfiles++] =
            (struct job_file){g->code_file, 0644, (const uint8_t *)r->code, strlen(r->code)};
    j->files[j->nfiles++] =
        (struct job_file){r->lang->source, 0644, (const uint8_t *)j->source, strlen(j->source)};
    return 0;
}

static int build_one(struct judging *j)
{
    const struct judge_request *r = j->r;
    struct judge_compile *c = &j->res->compile;
    char err[ERR_LEN] = "";
    c->compiled_language = r->lang->compiled;
    const struct seal_slots *sl = &j->slots;
    struct program_patch patch = {.n = 2,
                                  .len = sl->len,
                                  .find = {sl->find[0], sl->find[1]},
                                  .put = {sl->put[0], sl->put[1]}};
    int rc = program_build_patched(j->env, r->lang, j->files, j->nfiles, &r->compile_limits,
                                   j->sealed ? &patch : NULL, &j->p, err);
    if (rc < 0) {
        fail(j->res, VERDICT_SE, "the compile could not run", err);
        return rc;
    }
    j->have_p = true;
    c->built = true;
    c->verdict = j->p.compile_verdict;
    c->cached = j->p.cached;
    c->wall_ms = j->p.cached ? 0 : j->p.compile.wall_ms;
    if (j->p.message && !(c->output = strdup(j->p.message))) {
        fail(j->res, VERDICT_SE, "out of memory", NULL);
        return -ENOMEM;
    }
    if (c->verdict != VERDICT_OK) {
        j->res->status = c->verdict;
        return -EINVAL;
    }
    return 0;
}

/* Back to an empty build, for the request judged in-process instead (graded.h). */
static void unbuild(struct judging *j)
{
    if (j->have_p)
        program_free(j->env, &j->p);
    j->have_p = false;
    free(j->res->compile.output);
    memset(&j->res->compile, 0, sizeof(j->res->compile));
    j->res->status = VERDICT_OK;
    j->res->message[0] = '\0';
    graded_fini(j->env, &j->gr);
    if (j->source != j->r->code)
        free(j->source);
    j->source = j->r->code;
    j->graded = j->compiled = false;
    j->res->grading = in_process(j->r->lang);
}

/* The problem's own grader did not compile, in a language without a seal (graded.h): its tests
 * do not compile against its own declaration (a broken translation: a literal out of range, a
 * type that does not exist). CE, with the grader's compiler output: judged by exit status
 * instead, an answer could declare what the tests lack and then exit 0 before them. */
static int problem_ce(struct judging *j)
{
    struct judge_compile *c = &j->res->compile;
    free(c->output);
    c->output = NULL;
    c->built = true;
    c->verdict = VERDICT_CE;
    char what[ERR_LEN];
    snprintf(what, sizeof(what),
             "the problem's tests do not compile against its own declaration of %.128s",
             j->r->entry_point);
    fail(j->res, VERDICT_CE, what, NULL);
    const char *why = j->gr.gp.message ? j->gr.gp.message : "";
    if (asprintf(&c->output, "%s\n%s", j->res->message, why) < 0)
        c->output = NULL;
    return -EINVAL;
}

/* Where a host apart is planned and builds (graded_host_build), the program becomes the code
 * joined by the unit's join, linked with the host's object, which takes the host header's
 * place among the work-dir files (assemble_source: after the request's files, the source
 * last); otherwise it stays the code joined to the host. */
static void use_host_unit(struct judging *j)
{
    const struct lang_grader *g = j->r->lang->grader;
    int h = j->r->nfiles;
    if (graded_host_build(j->env, j->r->lang, &j->gr) < 0 || j->nfiles != h + 2 ||
        strcmp(j->files[h].path, g->host_file) != 0)
        return;
    j->files[h] =
        (struct job_file){g->host_unit->artifacts[0], 0644, j->gr.host_obj, j->gr.host_obj_len};
    if (j->source != j->r->code)
        free(j->source);
    j->source = j->gr.unit_source;
    j->gr.unit_source = NULL;
    j->files[h + 1].data = (const uint8_t *)j->source;
    j->files[h + 1].len = strlen(j->source);
}

/* The program's build; with a compiled grader, the grader's at the same time (graded.h), and
 * the request judged in-process (sealed) when a grader of the problem's own does not compile,
 * or CE where the language has no seal (problem_ce). */
static int build_program(struct judging *j)
{
    if (!j->compiled)
        return build_one(j);
    graded_build_start(j->env, j->r->lang, &j->gr);
    use_host_unit(j);
    int rc = build_one(j);
    char why[ERR_LEN] = "";
    int g = graded_build_wait(j->env, &j->gr, why);
    if (g == GRADED_IN_PROCESS && in_process(j->r->lang) == JUDGE_GRADING_IN_PROCESS) {
        unbuild(j);
        return (rc = assemble_source(j)) < 0 ? rc : build_one(j);
    }
    if (g == GRADED_IN_PROCESS) /* no seal: joining the tests to the code would let it exit */
        return problem_ce(j);
    if (rc < 0)
        return rc;
    if (g == GRADED_CE) {
        snprintf(why, sizeof(why), "the tests do not compile against the code's declaration of %s",
                 j->r->entry_point);
        fail(j->res, VERDICT_CE, why, NULL);
        return -EINVAL;
    }
    if (g < 0) {
        fail(j->res, VERDICT_SE, why, NULL);
        return g;
    }
    return 0;
}

static int build_checker(struct judging *j)
{
    const struct judge_request *r = j->r;
    if (!r->checker_lang)
        return 0;
    char err[ERR_LEN] = "";
    struct job_file *f = &j->checker_source;
    *f = (struct job_file){r->checker_lang->source, 0644, (const uint8_t *)r->checker_code,
                           r->checker_len};
    int rc = program_build(j->env, r->checker_lang, f, 1, NULL, &j->ck, err);
    if (rc < 0) {
        fail(j->res, VERDICT_SE, "the checker could not be built", err);
        return rc;
    }
    j->have_ck = true;
    if (!j->ck.ok) { /* the checker's fault is not the program's */
        fail(j->res, VERDICT_SE, "the checker did not compile", NULL);
        j->res->checker_output = j->ck.message ? strdup(j->ck.message) : NULL;
        return -EINVAL;
    }
    return 0;
}

/* ---- runs the load spoiled -------------------------------------------------------------- */

static const char *const rerun_names[JUDGE_RERUN_COUNT] = {NULL, "starved", "contended", "sandbox"};

const char *judge_rerun_name(enum judge_rerun r)
{
    return (unsigned)r < JUDGE_RERUN_COUNT ? rerun_names[r] : NULL;
}

/* Whether a run is discarded and run again, after `done` runs of the test: one stopped at the
 * backstop while waiting for a CPU (up to 3 runs in all, the later ones after a pause), one
 * the sandbox failed (2), and a CPU TLE whose tasks waited for a CPU for at least 5% of its
 * CPU time (3): contention stretches CPU time too (caches, a busy SMT sibling), by 10-15% for
 * Python beside two busy loops on 2 cores, so a program near its limit gets more
 * measurements, and the verdict is the last's (not for run_only:
 * /run_code's timeout is a wall-clock contract its caller waits on). A TLE on a machine
 * without contention, and every other verdict, stands. */
enum judge_rerun judge_rerun_reason(const struct job_result *res, int done, bool run_only)
{
    if (res->starved)
        return done < 3 ? JUDGE_RERUN_STARVED : JUDGE_RERUN_NONE;
    if (res->status == JOB_SE)
        return done < 2 ? JUDGE_RERUN_SANDBOX : JUDGE_RERUN_NONE;
    int64_t noticed = res->cpu_ms / 20 > 50 ? res->cpu_ms / 20 : 50;
    if (!run_only && res->status == JOB_TLE && res->tle_clock == JOB_CLOCK_CPU &&
        res->waited_ms >= noticed)
        return done < 3 ? JUDGE_RERUN_CONTENDED : JUDGE_RERUN_NONE;
    return JUDGE_RERUN_NONE;
}

/* program_run, again while judge_rerun_reason says so; t counts the runs discarded. */
static void run_until_fair(struct judging *j, const struct program_io *io, struct job_result *res,
                           uint8_t **payload, struct judge_test_result *t)
{
    for (int done = 1;; done++) {
        program_run(j->env, &j->p, io, res, payload);
        enum judge_rerun why = judge_rerun_reason(res, done, j->r->run_only);
        if (why == JUDGE_RERUN_NONE)
            return;
        t->reruns++;
        t->rerun = why;
        job_result_fini(res);
        free(*payload);
        if (why == JUDGE_RERUN_STARVED) /* let the load pass: 0.25 s, then 0.5 s */
            nanosleep(&(struct timespec){0, 250000000L * done}, NULL);
    }
}

/* Runs test i into t: the run, then the marker, checker or comparison. */
static void run_test(struct judging *j, int i, struct judge_test_result *t)
{
    const struct judge_request *r = j->r;
    const struct judge_test *test = &r->tests[i];
    struct job_result res;
    uint8_t *payload;
    bool graded = j->graded;
    struct program_io io = {.in = graded ? j->grader_in : test->in,
                            .in_len = graded ? j->grader_in_len : test->in_len,
                            .limits = &r->limits,
                            .nfetch = r->nfetch,
                            .fetch = (const char *const *)r->fetch,
                            .graded = graded,
                            .grader_exe = j->gr.exe,
                            .grader_exe_len = j->gr.exe_len};
    run_until_fair(j, &io, &res, &payload, t);
    size_t out_len = res.out_len;
    t->index = i;
    t->verdict = verdict_of_job(res.status);
    const char *reason = res.message;
    char why[CMP_WHY] = "";
    if (graded && res.status == JOB_RE && res.signal == 0 && res.exit_code == GRADER_FAILED) {
        t->verdict = VERDICT_WA;
        reason = "a check failed on the program's answers (the traceback is in stderr)";
    } else if (graded && res.status == JOB_RE && res.signal == 0 && res.exit_code == GRADER_BROKE) {
        reason = "the program broke the grader's call: it raised, exited or answered with "
                 "what is not a value (stderr)";
    } else if (graded && res.status == JOB_RE && res.signal == 0 &&
               res.exit_code == GRADER_CANNOT && j->r->lang->grader && !j->compiled) {
        t->verdict = VERDICT_SE;
        reason = "the grader cannot run these tests: they need what it does not provide (stderr)";
    } else if (res.status != JOB_OK || r->run_only) {
        /* the run's own verdict */
    } else if (j->sealed) {
        if (!take_marker_line((uint8_t *)(uintptr_t)res.out, &out_len, j->marker)) {
            t->verdict = VERDICT_WA;
            reason = "exited 0 before the checks finished (no completion marker)";
        }
    } else if (r->harness) {
        /* a harness without a grader or a seal passes by exiting 0 */
    } else if (r->checker_lang) {
        t->verdict = run_checker(j->env, r, &j->ck, test, &res, why, sizeof(why));
        reason = why;
    } else if (!cmp_equal(&r->cmp, (const char *)test->want, test->want_len, (const char *)res.out,
                          res.out_len, why)) {
        t->verdict = VERDICT_WA;
        reason = why;
    }
    if (t->verdict != VERDICT_OK)
        snprintf(t->reason, sizeof(t->reason), "%s", reason);
    if (keep_run(t, &res, out_len, r->run_only) < 0) {
        t->verdict = VERDICT_SE;
        snprintf(t->reason, sizeof(t->reason), "out of memory keeping the run's output");
    }
    job_result_fini(&res);
    free(payload);
}

static void run_tests(struct judging *j)
{
    const struct judge_request *r = j->r;
    struct judge_result *res = j->res;
    for (int i = 0; i < r->ntests; i++) {
        if (!r->selected[i])
            continue;
        struct judge_test_result *t = &res->tests[res->ntests++];
        run_test(j, i, t);
        res->ran++;
        res->passed += t->verdict == VERDICT_OK;
        if (t->verdict == VERDICT_SE) {
            res->status = VERDICT_SE;
            snprintf(res->message, sizeof(res->message), "test %d: %s", i, t->reason);
        }
        if (t->verdict != VERDICT_OK && r->stop_on_failure)
            break;
    }
}

void judge_run(const struct program_env *env, const struct judge_request *r,
               struct judge_result *res)
{
    memset(res, 0, sizeof(*res));
    struct judging j = {.env = env, .r = r, .res = res};
    for (int i = 0; i < r->ntests; i++)
        res->total += r->selected[i];
    res->status = VERDICT_OK;
    res->grading = judge_grading_of(r);
    if (!(res->tests = calloc((size_t)r->ntests + 1, sizeof(*res->tests))))
        fail(res, VERDICT_SE, "out of memory", NULL);
    else if (assemble_source(&j) == 0 && build_program(&j) == 0 && build_checker(&j) == 0)
        run_tests(&j);
    res->reward = res->total == 0     ? 0
                  : r->all_or_nothing ? (res->passed == res->total ? 1.0 : 0.0)
                                      : (double)res->passed / res->total;
    if (j.have_p)
        program_free(env, &j.p);
    if (j.have_ck)
        program_free(env, &j.ck);
    graded_fini(env, &j.gr);
    if (j.source != r->code)
        free(j.source);
    free(j.grader_in);
    free(j.files);
}

enum verdict judge_outcome(const struct judge_result *res, int *test, const char **reason)
{
    *test = -1;
    bool compile_failed = res->compile.built && res->compile.verdict != VERDICT_OK;
    *reason = compile_failed && res->compile.output ? res->compile.output : res->message;
    if (res->status != VERDICT_OK)
        return res->status;
    for (int i = 0; i < res->ntests; i++) {
        if (res->tests[i].verdict != VERDICT_OK) {
            *test = res->tests[i].index;
            *reason = res->tests[i].reason;
            return res->tests[i].verdict;
        }
    }
    return res->passed == res->total && res->total > 0 ? VERDICT_OK : VERDICT_WA;
}
