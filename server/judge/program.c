/*
 * program: compile through the cache, then run.
 *
 * An entry holds the artifacts plus "status" ("ok" or "ce") and "output" (what the compiler
 * printed). Compile faults of the sandbox (SE) are never cached: the next request tries again.
 * Placeholders in a template's argv are expanded here: {dir} (the artifacts' directory, or
 * the work dir for a language without a compile step), {memory_bytes} (the run's memory
 * limit), {cuda_arch} (this server's GPU architecture flag).
 */
#include "server/judge/program.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/util/sha256.h"

#define MAX_ARGS 128
#define MAX_MSG  (64 * 1024)

struct expanded {
    const char *argv[MAX_ARGS + PROGRAM_MAX_ARGS + 1];
    char storage[MAX_ARGS][512];
};

/* Run-time placeholders of template argv (languages/README.md) and their values. */
struct placeholders {
    const char *dir;       /* {dir} */
    uint64_t memory_bytes; /* {memory_bytes} */
    const char *cuda_arch; /* {cuda_arch} */
};

static void expand_argv(const struct lang_step *st, const struct placeholders *ph,
                        struct expanded *x)
{
    char memory[32];
    snprintf(memory, sizeof(memory), "%llu", (unsigned long long)ph->memory_bytes);
    const struct {
        const char *name, *value;
    } table[] = {{"{dir}", ph->dir}, {"{memory_bytes}", memory}, {"{cuda_arch}", ph->cuda_arch}};
    int n = st->argc < MAX_ARGS ? st->argc : MAX_ARGS;
    for (int i = 0; i < n; i++) {
        const char *a = st->argv[i];
        char *out = x->storage[i];
        size_t o = 0, cap = sizeof(x->storage[i]);
        while (*a && o < cap - 1) {
            size_t k = 0, len = 0;
            for (; k < sizeof(table) / sizeof(table[0]); k++)
                if (strncmp(a, table[k].name, len = strlen(table[k].name)) == 0)
                    break;
            if (k == sizeof(table) / sizeof(table[0])) {
                out[o++] = *a++;
                continue;
            }
            int w = snprintf(out + o, cap - o, "%s", table[k].value);
            o = w > 0 && (size_t)w < cap - o ? o + (size_t)w : cap - 1;
            a += len;
        }
        out[o] = '\0';
        x->argv[i] = out;
    }
    x->argv[n] = NULL;
}

static void hash_str(struct sha256 *h, const char *s)
{
    sha256_update(h, s, strlen(s) + 1); /* with the NUL: "ab","c" differs from "a","bc" */
}

void program_key(const struct program_env *env, const struct lang *l,
                 const struct job_limits *compile, const struct job_file *files, int nfiles,
                 char key[65])
{
    struct sha256 h;
    sha256_init(&h);
    hash_str(&h, "verdict compile v1");
    hash_str(&h, l->name);
    hash_str(&h, l->version_line);
    hash_str(&h, env->cuda_arch);
    for (int i = 0; i < l->compile.argc; i++)
        hash_str(&h, l->compile.argv[i]);
    for (int i = 0; i < l->compile.nenv; i++)
        hash_str(&h, l->compile.env[i]);
    /* Limits too: a compile that timed out under a short limit may succeed under a longer. */
    sha256_update(&h, compile, sizeof(*compile));
    for (int i = 0; i < nfiles; i++) {
        uint64_t len = files[i].len;
        hash_str(&h, files[i].path);
        sha256_update(&h, &files[i].mode, sizeof(files[i].mode));
        sha256_update(&h, &len, sizeof(len));
        sha256_update(&h, files[i].data, files[i].len);
    }
    sha256_hex(&h, key);
}

static int write_file(const char *dir, const char *name, const void *data, size_t len, mode_t mode)
{
    char path[CACHE_PATH + 64];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0)
        return -errno;
    const uint8_t *p = data;
    int rc = 0;
    while (len > 0 && rc == 0) {
        ssize_t w = write(fd, p, len);
        if (w <= 0)
            rc = w < 0 ? -errno : -EIO;
        else
            p += w, len -= (size_t)w;
    }
    if (rc == 0 && fchmod(fd, mode) < 0)
        rc = -errno;
    close(fd);
    return rc;
}

static char *read_file(const char *dir, const char *name, size_t max)
{
    char path[CACHE_PATH + 64];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    char *buf = f ? malloc(max + 1) : NULL;
    size_t n = buf ? fread(buf, 1, max, f) : 0;
    if (buf)
        buf[n] = '\0';
    if (f)
        fclose(f);
    return buf;
}

/* The compiler's output for a CE: what it printed, and which limit stopped it, if one did. */
static char *compile_message(const struct job_result *r)
{
    size_t cap = r->out_len + r->err_len + 256;
    cap = cap < MAX_MSG ? cap : MAX_MSG;
    char *m = malloc(cap);
    if (!m)
        return NULL;
    size_t o = 0;
    if (r->status != JOB_RE && r->status != JOB_OK)
        o += (size_t)snprintf(m, cap, "compilation stopped: %s (%s)\n", job_status_name(r->status),
                              r->message);
    size_t take = r->err_len < cap - 1 - o ? r->err_len : cap - 1 - o;
    memcpy(m + o, r->err, take);
    o += take;
    take = r->out_len < cap - 1 - o ? r->out_len : cap - 1 - o;
    memcpy(m + o, r->out, take);
    o += take;
    m[o] = '\0';
    return m;
}

/* Runs the compile step into e->tmp. Returns 0 (ok or CE recorded), or -EIO for SE. */
static int compile(const struct program_env *env, const struct lang *l, struct program *p,
                   char err[ERR_LEN])
{
    struct expanded x;
    struct placeholders ph = {.dir = ".", .cuda_arch = env->cuda_arch};
    expand_argv(&l->compile, &ph, &x);
    struct job j = {.argc = l->compile.argc,
                    .argv = x.argv,
                    .nenv = l->compile.nenv,
                    .env = (const char *const *)l->compile.env,
                    .nfiles = p->nfiles,
                    .files = p->files,
                    .nfetch = l->nartifacts,
                    .fetch = (const char *const *)l->artifacts,
                    .limits = p->compile_limits};
    uint8_t *payload = NULL;
    struct job_result *r = &p->compile;
    pool_run(env->pool, &j, r, &payload);
    int rc = 0;
    if (r->status == JOB_SE) {
        rc = err_set(err, -EIO, "compile: %s", r->message);
        goto out;
    }
    bool all = r->status == JOB_OK && r->nfetched == l->nartifacts;
    for (int i = 0; all && i < r->nfetched; i++)
        all = r->fetched[i].error == 0;
    for (int i = 0; all && i < r->nfetched && rc == 0; i++)
        rc = write_file(p->entry.tmp, l->artifacts[i], r->fetched[i].data, r->fetched[i].len, 0755);
    p->message = compile_message(r);
    if (rc == 0 && p->message)
        rc = write_file(p->entry.tmp, ".output", p->message, strlen(p->message), 0644);
    if (rc == 0)
        rc = write_file(p->entry.tmp, ".status", all ? "ok" : "ce", 2, 0644);
    if (rc < 0)
        err_set(err, rc, "write the compile cache: %s", strerror(-rc));
    p->ok = all;
out:
    /* The measurements stay; the buffers they borrow go with the payload. */
    job_result_fini(r);
    r->out = r->err = NULL;
    r->out_len = r->err_len = 0;
    free(payload);
    return rc;
}

/* Non-zero fields of o replace those of l. */
static void override(struct job_limits *l, const struct job_limits *o)
{
    if (!o)
        return;
    l->cpu_ms = o->cpu_ms ? o->cpu_ms : l->cpu_ms;
    l->wall_ms = o->wall_ms ? o->wall_ms : l->wall_ms;
    l->memory_bytes = o->memory_bytes ? o->memory_bytes : l->memory_bytes;
    l->stack_bytes = o->stack_bytes ? o->stack_bytes : l->stack_bytes;
    l->stdout_bytes = o->stdout_bytes ? o->stdout_bytes : l->stdout_bytes;
    l->stderr_bytes = o->stderr_bytes ? o->stderr_bytes : l->stderr_bytes;
    l->file_bytes = o->file_bytes ? o->file_bytes : l->file_bytes;
    l->fetch_bytes = o->fetch_bytes ? o->fetch_bytes : l->fetch_bytes;
    l->pids = o->pids ? o->pids : l->pids;
    l->nofile = o->nofile ? o->nofile : l->nofile;
}

int program_build(const struct program_env *env, const struct lang *l, const struct job_file *files,
                  int nfiles, const struct job_limits *compile_limits, struct program *p,
                  char err[ERR_LEN])
{
    memset(p, 0, sizeof(*p));
    p->lang = l;
    p->files = files;
    p->nfiles = nfiles;
    p->compile_limits = l->compile.limits;
    override(&p->compile_limits, compile_limits);
    if (!l->compiled) {
        p->ok = true;
        return 0;
    }
    char key[65];
    program_key(env, l, &p->compile_limits, files, nfiles, key);
    int state = cache_acquire(env->cache, key, &p->entry, err);
    if (state < 0)
        return state;
    p->pinned = true;
    if (state == CACHE_HIT) {
        char *status = read_file(p->entry.dir, ".status", 8);
        p->ok = status && strncmp(status, "ok", 2) == 0;
        p->cached = true;
        p->message = read_file(p->entry.dir, ".output", MAX_MSG);
        free(status);
        return 0;
    }
    int rc = compile(env, l, p, err);
    if (rc == 0)
        rc = cache_commit(env->cache, &p->entry, err);
    else
        cache_abort(env->cache, &p->entry);
    if (rc < 0)
        p->pinned = false; /* abort and a failed commit both released the entry */
    return rc;
}

void program_run(const struct program_env *env, const struct program *p,
                 const struct program_io *io, struct job_result *res, uint8_t **payload)
{
    const struct lang *l = p->lang;
    *payload = NULL;
    memset(res, 0, sizeof(*res));
    res->exit_code = -1;
    if (!p->ok) {
        res->status = JOB_SE;
        snprintf(res->message, sizeof(res->message), "program did not compile");
        return;
    }
    if (l->needs_gpu && env->gpus == 0) {
        res->status = JOB_SE;
        snprintf(res->message, sizeof(res->message),
                 "no GPU on this server: %s programs compile but cannot run", l->name);
        return;
    }
    struct job_limits lim = l->run.limits;
    override(&lim, io ? io->limits : NULL);
    job_limits_defaults(&lim);
    /* A compiled program runs from the cache; its other files (data) still go to /w. */
    int extra = io ? io->nfiles : 0;
    struct job_file *files = calloc((size_t)p->nfiles + (size_t)extra + 1, sizeof(*files));
    int n = 0;
    for (int i = 0; files && i < p->nfiles; i++)
        if (!l->compiled || strcmp(p->files[i].path, l->source) != 0)
            files[n++] = p->files[i];
    for (int i = 0; files && i < extra; i++)
        files[n++] = io->files[i];
    struct expanded x;
    struct placeholders ph = {.dir = l->compiled ? p->entry.dir : ".",
                              .memory_bytes = lim.memory_bytes,
                              .cuda_arch = env->cuda_arch};
    expand_argv(&l->run, &ph, &x);
    int argc = l->run.argc < MAX_ARGS ? l->run.argc : MAX_ARGS;
    for (int i = 0; io && i < io->nargs && i < PROGRAM_MAX_ARGS; i++)
        x.argv[argc++] = io->args[i];
    x.argv[argc] = NULL;
    struct job j = {.argc = argc,
                    .argv = x.argv,
                    .nenv = l->run.nenv,
                    .env = (const char *const *)l->run.env,
                    .nfiles = n,
                    .files = files,
                    .stdin_data = io ? io->in : NULL,
                    .stdin_len = io ? io->in_len : 0,
                    .nfetch = io ? io->nfetch : 0,
                    .fetch = io ? io->fetch : NULL,
                    .limits = lim};
    if (l->needs_gpu)
        pool_run_gpu(env->pool, &j, res, payload);
    else
        pool_run(env->pool, &j, res, payload);
    free(files);
}

void program_free(const struct program_env *env, struct program *p)
{
    if (p->pinned)
        cache_release(env->cache, &p->entry);
    p->pinned = false;
    free(p->message);
    p->message = NULL;
}
