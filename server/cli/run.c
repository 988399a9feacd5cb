/*
 * run: `verdict run`.
 *
 * `verdict run -- PROGRAM` starts a pool of one cell; `verdict run --lang` opens the
 * server's engine (engine.h: the same templates, compile cache cap and uid locks) with one
 * cell. Either reads the files the job needs from the host (the program itself when it lives
 * outside the sandbox's read-only /usr, --file extras, --stdin), runs the job, and prints. Host
 * files are read here, by the caller's privileges, and travel to the cell as bytes: the sandbox
 * never sees the host's paths.
 */
#include "server/cli/run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_info.h"
#include "runners/buf.h"
#include "runners/pool.h"
#include "server/judge/engine.h"
#include "server/judge/program.h"
#include "server/util/json.h"

#define EXIT_USAGE 2
#define EXIT_SE    3
#define MAX_IN     (1ull << 30)

/* Reads a whole file into heap bytes. Returns 0, -EFBIG past MAX_IN (never a silent cut),
 * or another -errno. The bytes are used as they are (no gzip here: a program is a program). */
static int read_input(const char *path, uint8_t **data, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    struct buf b;
    buf_init(&b, MAX_IN);
    int rc = 0;
    for (;;) {
        if (buf_reserve(&b, 1 << 16) < 0) {
            rc = b.err;
            break;
        }
        ssize_t n = read(fd, b.data + b.len, b.cap - b.len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = n < 0 ? -errno : 0;
            break;
        }
        b.len += (size_t)n;
    }
    close(fd);
    char *d = rc == 0 ? buf_take(&b, len) : NULL;
    buf_fini(&b);
    if (rc == 0 && !d)
        rc = -ENOMEM;
    *data = (uint8_t *)d;
    return rc;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Paths the cell shows from the host as they are; anything else must be copied in. */
static bool visible_in_cell(const char *path)
{
    static const char *const dirs[] = {"/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/"};
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
        if (strncmp(path, dirs[i], strlen(dirs[i])) == 0)
            return true;
    return false;
}

struct inputs {
    struct job_file files[OPT_LIST_MAX + 2];
    uint8_t *data[OPT_LIST_MAX + 2];
    int n;
    char exe_arg[300];
    uint8_t *stdin_data;
    size_t stdin_len;
};

static int add_file(struct inputs *in, const char *host, uint32_t mode)
{
    int rc = read_input(host, &in->data[in->n], &in->files[in->n].len);
    if (rc < 0) {
        fprintf(stderr, "verdict run: %s: %s\n", host, strerror(-rc));
        return rc;
    }
    in->files[in->n].path = base_name(host);
    in->files[in->n].mode = mode;
    in->files[in->n].data = in->data[in->n];
    in->n++;
    return 0;
}

static void print_text(const struct job_result *r, const struct job_limits *l)
{
    fwrite(r->out, 1, r->out_len, stdout);
    fflush(stdout);
    fwrite(r->err, 1, r->err_len, stderr);
    fprintf(stderr, "--- verdict: %s", job_status_name(r->status));
    if (r->message[0])
        fprintf(stderr, " (%s)", r->message);
    fprintf(stderr,
            "\n    exit %d  signal %d  cpu %lld ms / %lld  wall %lld ms / %lld  "
            "memory %llu KiB / %llu\n    stdout %zu bytes%s  stderr %zu bytes%s\n",
            r->exit_code, r->signal, (long long)r->cpu_ms, (long long)l->cpu_ms,
            (long long)r->wall_ms, (long long)l->wall_ms, (unsigned long long)r->memory_kib,
            (unsigned long long)(l->memory_bytes / 1024), r->out_len,
            r->stdout_truncated ? " (truncated)" : "", r->err_len,
            r->stderr_truncated ? " (truncated)" : "");
}

static struct json *compile_json(const struct program *p)
{
    struct json *c = json_object();
    json_set_str(c, "status", p->ok ? "OK" : "CE");
    json_set_bool(c, "cached", p->cached);
    json_set_str(c, "message", p->message ? p->message : "");
    if (!p->cached) {
        json_set_num(c, "cpu_ms", (double)p->compile.cpu_ms);
        json_set_num(c, "wall_ms", (double)p->compile.wall_ms);
        json_set_num(c, "memory_kib", (double)p->compile.memory_kib);
    }
    return c;
}

static void print_ce_json(const struct program *p)
{
    struct json *o = json_object();
    json_set_str(o, "status", "CE");
    json_set(o, "compile", compile_json(p));
    char *text = json_render(o, true);
    printf("%s\n", text ? text : "{}");
    free(text);
    json_free(o);
}

static void print_json(const struct job_result *r, const struct program *p)
{
    struct json *o = json_object();
    json_set_str(o, "status", job_status_name(r->status));
    json_set_str(o, "tle_clock", job_clock_name(r->tle_clock));
    json_set_num(o, "exit_code", r->exit_code);
    json_set_num(o, "signal", r->signal);
    json_set_num(o, "cpu_ms", (double)r->cpu_ms);
    json_set_num(o, "wall_ms", (double)r->wall_ms);
    if (r->instructions > 0)
        json_set_num(o, "instructions", (double)r->instructions);
    json_set_num(o, "memory_kib", (double)r->memory_kib);
    json_set_bytes(o, "stdout", r->out, r->out_len);
    json_set_bytes(o, "stderr", r->err, r->err_len);
    json_set_bool(o, "stdout_truncated", r->stdout_truncated);
    json_set_bool(o, "stderr_truncated", r->stderr_truncated);
    json_set_str(o, "message", r->message);
    if (p && p->lang->compiled)
        json_set(o, "compile", compile_json(p));
    struct json *files = json_set(o, "files", json_object());
    for (int i = 0; i < r->nfetched; i++) {
        const struct job_fetched *f = &r->fetched[i];
        if (f->error)
            json_set_str(files, f->path, NULL);
        else
            json_set_bytes(files, f->path, f->data, f->len);
    }
    char *text = json_render(o, true);
    printf("%s\n", text ? text : "{}");
    free(text);
    json_free(o);
}

static int start_pool(struct pool **pool)
{
    char err[ERR_LEN];
    /* uid_base/uid_count 0: the host-wide range, a free uid taken with its lock */
    struct pool_config pc = {.cells = 1};
    int rc = pool_new(&pc, pool, err);
    if (rc < 0)
        fprintf(stderr, "verdict run: %s\n", err);
    return rc;
}

static int report(const struct run_opts *o, struct job_result *res, const struct job_limits *l,
                  const struct program *p)
{
    struct job_limits shown = *l;
    job_limits_defaults(&shown);
    if (o->json)
        print_json(res, p);
    else
        print_text(res, &shown);
    return res->status == JOB_OK ? 0 : res->status == JOB_SE ? EXIT_SE : 1;
}

/* `verdict run -- PROGRAM ARGS...` */
static int run_argv(const struct run_opts *o, struct inputs *in, const struct job_limits *lim)
{
    const char **argv = calloc((size_t)o->argc + 1, sizeof(*argv));
    struct pool *pool = NULL;
    int code = EXIT_SE;
    if (!argv)
        return EXIT_SE;
    for (int i = 0; i < o->argc; i++)
        argv[i] = o->argv[i];
    /* A program outside the sandbox's view travels in as a file. */
    if (strchr(argv[0], '/') && !visible_in_cell(argv[0])) {
        if (add_file(in, argv[0], 0755) < 0)
            goto out;
        snprintf(in->exe_arg, sizeof(in->exe_arg), "./%s", base_name(argv[0]));
        argv[0] = in->exe_arg;
    }
    for (int i = 0; i < o->files.n; i++)
        if (add_file(in, o->files.items[i], 0644) < 0)
            goto out;
    struct job j = {.argc = o->argc,
                    .argv = argv,
                    .nenv = o->env.n,
                    .env = o->env.items,
                    .nfiles = in->n,
                    .files = in->files,
                    .stdin_data = in->stdin_data,
                    .stdin_len = in->stdin_len,
                    .nfetch = o->fetch.n,
                    .fetch = o->fetch.items,
                    .limits = *lim};
    if (start_pool(&pool) < 0)
        goto out;
    struct job_result res;
    uint8_t *payload = NULL;
    pool_run(pool, &j, &res, &payload);
    code = report(o, &res, lim, NULL);
    job_result_fini(&res);
    free(payload);
out:
    pool_free(pool);
    free(argv);
    return code;
}

static const char *languages_dir(const struct run_opts *o)
{
    const char *env = getenv("VERDICT_LANGUAGES");
    return o->languages ? o->languages : env && *env ? env : VERDICT_LANGUAGES_DIR;
}

/* The language asked for, available; NULL (and the exit code in *code) otherwise. */
static const struct lang *find_lang(const struct run_opts *o, const struct engine *e, int *code)
{
    const struct lang *l = lang_find(e->langs, o->lang);
    if (!l) {
        fprintf(stderr, "verdict run: unknown language '%s'; known:", o->lang);
        for (int i = 0; i < lang_count(e->langs); i++)
            fprintf(stderr, " %s", lang_at(e->langs, i)->name);
        fprintf(stderr, "\n");
        *code = EXIT_USAGE;
        return NULL;
    }
    if (!l->available) {
        fprintf(stderr, "verdict run: language %s is unavailable: %s\n", l->name, l->why);
        return NULL;
    }
    return l;
}

/* Runs a built program and reports it with the limits it ran under. */
static int run_built(const struct run_opts *o, struct engine *e, const struct program *prog,
                     const struct inputs *in, const struct job_limits *lim)
{
    struct job_result res;
    uint8_t *payload = NULL;
    struct program_io io = {.in = in->stdin_data, .in_len = in->stdin_len, .limits = lim};
    program_run(&e->env, prog, &io, &res, &payload);
    struct job_limits shown = prog->lang->run.limits;
    shown.cpu_ms = lim->cpu_ms ? lim->cpu_ms : shown.cpu_ms;
    shown.wall_ms = lim->wall_ms ? lim->wall_ms : shown.wall_ms;
    shown.memory_bytes = lim->memory_bytes ? lim->memory_bytes : shown.memory_bytes;
    int code = report(o, &res, &shown, prog);
    job_result_fini(&res);
    free(payload);
    return code;
}

/* `verdict run --lang LANG FILE`: the server's engine (templates, cache and its cap, uid
 * locks) with one CPU cell, and GPU cells only for a language that needs them. */
static int run_lang(const struct run_opts *o, struct inputs *in, const struct job_limits *lim)
{
    struct engine e;
    struct program prog;
    struct engine_config ec = {
        .languages = languages_dir(o), .cache = o->cache, .cells = 1, .probe = o->lang};
    char err[ERR_LEN];
    int code = EXIT_SE, built = -1;
    memset(&prog, 0, sizeof(prog));
    if (engine_load(&ec, &e, err) < 0) {
        fprintf(stderr, "verdict run: %s\n", err);
        return EXIT_SE;
    }
    const struct lang *l = find_lang(o, &e, &code);
    if (!l || add_file(in, o->argv[0], 0644) < 0)
        goto out;
    in->files[in->n - 1].path = l->source; /* the source is always the template's name */
    for (int i = 0; i < o->files.n; i++)
        if (add_file(in, o->files.items[i], 0644) < 0)
            goto out;
    ec.no_gpu_cells = !l->needs_gpu;
    if (engine_start(&ec, &e, err) < 0) {
        fprintf(stderr, "verdict run: %s\n", err);
        goto out;
    }
    built = program_build(&e.env, l, in->files, in->n, NULL, &prog, err);
    if (built < 0) {
        fprintf(stderr, "verdict run: %s\n", err);
        goto out;
    }
    if (!prog.ok) {
        if (o->json)
            print_ce_json(&prog);
        else
            fprintf(stderr, "%s--- verdict: CE (compilation failed%s)\n",
                    prog.message ? prog.message : "", prog.cached ? ", cached" : "");
        code = 1;
        goto out;
    }
    code = run_built(o, &e, &prog, in, lim);
out:
    if (built == 0)
        program_free(&e.env, &prog);
    engine_close(&e);
    return code;
}

int run_main(const struct run_opts *o)
{
    if (geteuid() != 0) {
        fprintf(stderr, "verdict run: needs root (cells use namespaces and cgroups)\n");
        return EXIT_SE;
    }
    struct inputs *in = calloc(1, sizeof(*in));
    if (!in)
        return EXIT_SE;
    int rc, code = EXIT_SE;
    if (o->stdin_path && (rc = read_input(o->stdin_path, &in->stdin_data, &in->stdin_len)) < 0) {
        fprintf(stderr, "verdict run: --stdin %s: %s\n", o->stdin_path, strerror(-rc));
        goto out;
    }
    struct job_limits lim = {.cpu_ms = o->cpu_ms,
                             .wall_ms = o->wall_ms,
                             .memory_bytes = o->memory_bytes,
                             .stdout_bytes = o->output_bytes,
                             .stderr_bytes = o->output_bytes,
                             .pids = (uint32_t)o->pids};
    code = o->lang ? run_lang(o, in, &lim) : run_argv(o, in, &lim);
out:
    for (int i = 0; i < in->n; i++)
        free(in->data[i]);
    free(in->stdin_data);
    free(in);
    return code;
}
