/*
 * run: `verdict run`.
 *
 * Starts a pool of one cell, reads the files the job needs from the host (the program itself
 * when it lives outside the sandbox's read-only /usr, --file extras, --stdin), runs the job,
 * and prints. Host files are read here, by the caller's privileges, and travel to the cell as
 * bytes: the sandbox never sees the host's paths.
 */
#include "server/run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runners/pool.h"
#include "server/json.h"

#define EXIT_SE 3
#define MAX_IN  (1ull << 30)

static int slurp(const char *path, uint8_t **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -errno;
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap && cap < MAX_IN) {
            uint8_t *b = realloc(buf, cap * 2);
            if (!b) {
                free(buf);
                buf = NULL;
            }
            buf = b;
            cap *= 2;
        }
    }
    int rc = !buf ? -ENOMEM : ferror(f) ? -EIO : 0;
    fclose(f);
    if (rc < 0) {
        free(buf);
        return rc;
    }
    *data = buf;
    *len = n;
    return 0;
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
    struct job_file files[OPT_LIST_MAX + 1];
    uint8_t *data[OPT_LIST_MAX + 1];
    int n;
    char exe_arg[300];
};

static int add_file(struct inputs *in, const char *host, uint32_t mode)
{
    int rc = slurp(host, &in->data[in->n], &in->files[in->n].len);
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

static void print_json(const struct job_result *r)
{
    static const char *const clocks[] = {NULL, "cpu", "wall"};
    struct json *o = json_object();
    json_set_str(o, "status", job_status_name(r->status));
    json_set_str(o, "tle_clock", clocks[r->tle_clock]);
    json_set_num(o, "exit_code", r->exit_code);
    json_set_num(o, "signal", r->signal);
    json_set_num(o, "cpu_ms", (double)r->cpu_ms);
    json_set_num(o, "wall_ms", (double)r->wall_ms);
    json_set_num(o, "memory_kib", (double)r->memory_kib);
    json_set_bytes(o, "stdout", r->out, r->out_len);
    json_set_bytes(o, "stderr", r->err, r->err_len);
    json_set_bool(o, "stdout_truncated", r->stdout_truncated);
    json_set_bool(o, "stderr_truncated", r->stderr_truncated);
    json_set_str(o, "message", r->message);
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

static int exe_path(char *buf, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
    if (n < 0)
        return -errno;
    buf[n] = '\0';
    return 0;
}

int run_main(const struct run_opts *o)
{
    if (geteuid() != 0) {
        fprintf(stderr, "verdict run: needs root (cells use namespaces and cgroups)\n");
        return EXIT_SE;
    }
    struct inputs *in = calloc(1, sizeof(*in));
    const char **argv = calloc((size_t)o->argc + 1, sizeof(*argv));
    uint8_t *stdin_data = NULL;
    size_t stdin_len = 0;
    struct pool *pool = NULL;
    int code = EXIT_SE;
    char exe[4096], err[ERR_LEN];
    if (!in || !argv)
        goto out;
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
    int rc;
    if (o->stdin_path && (rc = slurp(o->stdin_path, &stdin_data, &stdin_len)) < 0) {
        fprintf(stderr, "verdict run: --stdin %s: %s\n", o->stdin_path, strerror(-rc));
        goto out;
    }
    struct job j = {.argc = o->argc,
                    .argv = argv,
                    .nenv = o->env.n,
                    .env = o->env.items,
                    .nfiles = in->n,
                    .files = in->files,
                    .stdin_data = stdin_data,
                    .stdin_len = stdin_len,
                    .nfetch = o->fetch.n,
                    .fetch = o->fetch.items,
                    .limits = {.cpu_ms = o->cpu_ms,
                               .wall_ms = o->wall_ms,
                               .memory_bytes = o->memory_bytes,
                               .stdout_bytes = o->output_bytes,
                               .stderr_bytes = o->output_bytes,
                               .pids = (uint32_t)o->pids}};
    if ((rc = exe_path(exe, sizeof(exe))) < 0) {
        fprintf(stderr, "verdict run: /proc/self/exe: %s\n", strerror(-rc));
        goto out;
    }
    struct pool_config pc = {.cells = 1, .exe = exe, .uid_base = 60000};
    if (pool_new(&pc, &pool, err) < 0) {
        fprintf(stderr, "verdict run: %s\n", err);
        goto out;
    }
    struct job_result res;
    uint8_t *payload = NULL;
    pool_run(pool, &j, &res, &payload);
    struct job_limits shown = j.limits;
    job_limits_defaults(&shown);
    if (o->json)
        print_json(&res);
    else
        print_text(&res, &shown);
    code = res.status == JOB_OK ? 0 : res.status == JOB_SE ? EXIT_SE : 1;
    job_result_fini(&res);
    free(payload);
out:
    pool_free(pool);
    for (int i = 0; in && i < in->n; i++)
        free(in->data[i]);
    free(in);
    free(argv);
    free(stdin_data);
    return code;
}
