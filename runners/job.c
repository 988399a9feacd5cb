/*
 * job: defaults, names, path validation and the wire encoding of jobs and results.
 *
 * The limits struct travels as raw bytes: both ends are the same executable (a cell is
 * /proc/self/exe re-executed), so its layout cannot differ.
 */
#include "runners/job.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runners/clock.h"

#define MiB (1024ull * 1024)

void job_limits_defaults(struct job_limits *l)
{
    if (!l->cpu_ms)
        l->cpu_ms = 2000;
    if (!l->wall_ms)
        l->wall_ms = 3 * l->cpu_ms + 1000;
    if (!l->backstop_ms)
        l->backstop_ms = clock_backstop_ms(l->wall_ms);
    if (!l->memory_bytes)
        l->memory_bytes = 256 * MiB;
    if (!l->stack_bytes)
        l->stack_bytes = l->memory_bytes;
    if (!l->stdout_bytes)
        l->stdout_bytes = 16 * MiB;
    if (!l->stderr_bytes)
        l->stderr_bytes = 16 * MiB;
    if (!l->file_bytes)
        l->file_bytes = 64 * MiB;
    if (!l->fetch_bytes)
        l->fetch_bytes = 16 * MiB;
    if (!l->fetch_total)
        l->fetch_total = l->fetch_bytes;
    if (l->fetch_total > JOB_FETCH_TOTAL)
        l->fetch_total = JOB_FETCH_TOTAL;
    if (!l->pids)
        l->pids = 64;
    if (!l->nofile)
        l->nofile = 256;
}

const char *job_status_name(enum job_status s)
{
    static const char *const names[] = {"OK", "RE", "TLE", "MLE", "OLE", "SE"};
    return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

const char *job_clock_name(enum job_clock c)
{
    static const char *const names[] = {NULL, "cpu", "wall", "instructions", "session_cpu"};
    return (unsigned)c < sizeof(names) / sizeof(names[0]) ? names[c] : NULL;
}

bool job_path_ok(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    if (n == 0 || n > 255 || path[0] == '/')
        return false;
    for (const char *p = path; *p;) {
        size_t len = strcspn(p, "/");
        if (len == 0 || (len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
            return false;
        p += len;
        if (*p == '/')
            p++;
        if (*p == '\0' && p[-1] == '/')
            return false;
    }
    return true;
}

static int check_strs(const char *what, int n, const char *const *v, int max, char err[ERR_LEN])
{
    if (n < 0 || n > max)
        return err_set(err, -E2BIG, "job has %d %s entries, at most %d", n, what, max);
    for (int i = 0; i < n; i++)
        if (!v || !v[i])
            return err_set(err, -EINVAL, "job's %s entry %d is missing", what, i);
    return 0;
}

int job_check(const struct job *j, char err[ERR_LEN])
{
    if (j->argc < 1)
        return err_set(err, -EINVAL, "job has no program (empty argv)");
    int rc = check_strs("argv", j->argc, j->argv, JOB_MAX_ARGS, err);
    if (rc == 0)
        rc = check_strs("env", j->nenv, j->env, JOB_MAX_ARGS, err);
    if (rc == 0)
        rc = check_strs("fetch", j->nfetch, j->fetch, JOB_MAX_FILES, err);
    if (rc == 0)
        rc = check_strs("grader argv", j->grader_argc, j->grader_argv, JOB_MAX_ARGS, err);
    if (rc == 0 && (j->nfiles < 0 || j->nfiles > JOB_MAX_FILES))
        rc = err_set(err, -E2BIG, "job has %d files, at most %d", j->nfiles, JOB_MAX_FILES);
    for (int i = 0; rc == 0 && i < j->nfiles; i++)
        if (!j->files[i].path || (j->files[i].len && !j->files[i].data))
            rc = err_set(err, -EINVAL, "job's file %d has no path or no data", i);
    return rc;
}

static void put_strs(struct buf *b, int n, const char *const *v)
{
    wbuf_u32(b, (uint32_t)n);
    for (int i = 0; i < n; i++)
        wbuf_str(b, v[i]);
}

/* Reads a counted string vector into a heap array of borrowed pointers. */
static int get_strs(struct rbuf *r, int *n, const char *const **out, uint32_t max)
{
    uint32_t count = rbuf_u32(r);
    *n = 0;
    *out = NULL;
    if (r->err)
        return r->err;
    if (count > max)
        return -E2BIG;
    const char **v = calloc(count + 1, sizeof(*v));
    if (!v)
        return -ENOMEM;
    for (uint32_t i = 0; i < count; i++)
        v[i] = rbuf_str(r);
    *out = v;
    *n = (int)count;
    return r->err;
}

void job_encode(const struct job *j, struct buf *b)
{
    wbuf_raw(b, &j->limits, sizeof(j->limits));
    put_strs(b, j->argc, j->argv);
    put_strs(b, j->nenv, j->env);
    wbuf_u32(b, (uint32_t)j->nfiles);
    for (int i = 0; i < j->nfiles; i++) {
        wbuf_str(b, j->files[i].path);
        wbuf_u32(b, j->files[i].mode);
        wbuf_bytes(b, j->files[i].data, j->files[i].len);
    }
    wbuf_bytes(b, j->stdin_data, j->stdin_len);
    put_strs(b, j->nfetch, j->fetch);
    put_strs(b, j->grader_argc, j->grader_argv);
    wbuf_bytes(b, j->grader_exe, j->grader_exe_len);
    wbuf_u32(b, j->warm);
}

/* The limits' one bool, read as its byte: a value other than 0 or 1 is no bool (loading it
 * as one would be undefined), so the message is malformed. */
static int check_limits(const struct job_limits *l)
{
    unsigned char b;
    _Static_assert(sizeof(l->starved_tle) == 1, "a bool is one byte");
    memcpy(&b, (const unsigned char *)l + offsetof(struct job_limits, starved_tle), 1);
    return b > 1 ? -EBADMSG : 0;
}

int job_decode(struct rbuf *r, struct job *j)
{
    memset(j, 0, sizeof(*j));
    rbuf_raw(r, &j->limits, sizeof(j->limits));
    int rc = r->err ? r->err : check_limits(&j->limits);
    if (rc == 0)
        rc = get_strs(r, &j->argc, &j->argv, JOB_MAX_ARGS);
    if (rc == 0)
        rc = get_strs(r, &j->nenv, &j->env, JOB_MAX_ARGS);
    uint32_t nfiles = rc == 0 ? rbuf_u32(r) : 0;
    if (rc == 0 && nfiles > JOB_MAX_FILES)
        rc = -E2BIG;
    struct job_file *files = rc == 0 ? calloc(nfiles + 1, sizeof(*files)) : NULL;
    if (rc == 0 && !files)
        rc = -ENOMEM;
    for (uint32_t i = 0; rc == 0 && i < nfiles; i++) {
        files[i].path = rbuf_str(r);
        files[i].mode = rbuf_u32(r);
        files[i].data = rbuf_bytes(r, &files[i].len);
    }
    j->files = files;
    j->nfiles = rc == 0 ? (int)nfiles : 0;
    if (rc == 0)
        j->stdin_data = rbuf_bytes(r, &j->stdin_len);
    if (rc == 0)
        rc = get_strs(r, &j->nfetch, &j->fetch, JOB_MAX_FILES);
    if (rc == 0)
        rc = get_strs(r, &j->grader_argc, &j->grader_argv, JOB_MAX_ARGS);
    if (rc == 0)
        j->grader_exe = rbuf_bytes(r, &j->grader_exe_len);
    if (rc == 0)
        j->warm = rbuf_u32(r);
    if (rc == 0 && r->err)
        rc = r->err;
    if (rc == 0 && j->argc < 1)
        rc = -EBADMSG;
    if (rc < 0)
        job_decoded_fini(j);
    return rc;
}

void job_decoded_fini(struct job *j)
{
    /* The arrays were allocated by job_decode (const only to the job's readers). */
    free((void *)(uintptr_t)j->argv);
    free((void *)(uintptr_t)j->env);
    free((void *)(uintptr_t)j->files);
    free((void *)(uintptr_t)j->fetch);
    free((void *)(uintptr_t)j->grader_argv);
    memset(j, 0, sizeof(*j));
}

void result_encode(const struct job_result *res, struct buf *b)
{
    wbuf_u32(b, (uint32_t)res->status);
    wbuf_u32(b, (uint32_t)res->tle_clock);
    wbuf_u32(b, (uint32_t)res->exit_code);
    wbuf_u32(b, (uint32_t)res->signal);
    wbuf_u64(b, (uint64_t)res->cpu_ms);
    wbuf_u64(b, (uint64_t)res->wall_ms);
    wbuf_u64(b, res->memory_kib);
    wbuf_u64(b, (uint64_t)res->instructions);
    wbuf_u64(b, (uint64_t)res->waited_ms);
    wbuf_u32(b, (uint32_t)res->stdout_truncated | (uint32_t)res->stderr_truncated << 1 |
                    (uint32_t)res->starved << 2);
    wbuf_bytes(b, res->out, res->out_len);
    wbuf_bytes(b, res->err, res->err_len);
    wbuf_str(b, res->message);
    wbuf_u32(b, (uint32_t)res->nfetched);
    for (int i = 0; i < res->nfetched; i++) {
        wbuf_str(b, res->fetched[i].path);
        wbuf_u32(b, (uint32_t)res->fetched[i].error);
        wbuf_bytes(b, res->fetched[i].data, res->fetched[i].len);
    }
}

int result_decode(struct rbuf *r, struct job_result *res)
{
    memset(res, 0, sizeof(*res));
    res->status = (enum job_status)rbuf_u32(r);
    res->tle_clock = (enum job_clock)rbuf_u32(r);
    res->exit_code = (int)rbuf_u32(r);
    res->signal = (int)rbuf_u32(r);
    res->cpu_ms = (int64_t)rbuf_u64(r);
    res->wall_ms = (int64_t)rbuf_u64(r);
    res->memory_kib = rbuf_u64(r);
    res->instructions = (int64_t)rbuf_u64(r);
    res->waited_ms = (int64_t)rbuf_u64(r);
    uint32_t flags = rbuf_u32(r);
    res->stdout_truncated = flags & 1;
    res->stderr_truncated = flags & 2;
    res->starved = flags & 4;
    res->out = rbuf_bytes(r, &res->out_len);
    res->err = rbuf_bytes(r, &res->err_len);
    const char *msg = rbuf_str(r);
    snprintf(res->message, sizeof(res->message), "%s", msg ? msg : "");
    uint32_t n = rbuf_u32(r);
    if (r->err || n > JOB_MAX_FILES || res->status > JOB_SE || res->tle_clock > JOB_CLOCK_SESSION)
        return -EBADMSG;
    res->fetched = calloc(n + 1, sizeof(*res->fetched));
    if (!res->fetched)
        return -ENOMEM;
    res->nfetched = (int)n;
    for (uint32_t i = 0; i < n; i++) {
        res->fetched[i].path = rbuf_str(r);
        res->fetched[i].error = (int)rbuf_u32(r);
        res->fetched[i].data = rbuf_bytes(r, &res->fetched[i].len);
    }
    if (r->err) {
        job_result_fini(res);
        return -EBADMSG;
    }
    return 0;
}

void job_result_fini(struct job_result *res)
{
    free(res->fetched);
    res->fetched = NULL;
    res->nfetched = 0;
}
