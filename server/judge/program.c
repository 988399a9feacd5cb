/*
 * program: compile through the cache, then run.
 *
 * An entry holds the artifacts plus ".status" ("ok" or "ce") and ".output" (what the compiler
 * printed). Only the compiler's own verdict on the source is cached: OK, or CE when it exited
 * non-zero, crashed or printed past its output limit by itself. A compile stopped by a time
 * or memory limit (TLE, MLE) or failed for our reasons (SE: the sandbox, an artifact that
 * cannot come back or be written) is aborted: the next identical request compiles again.
 *
 * Time. The CPU limit is what makes a compile TLE. Its wall clock is raised to a backstop
 * (program_compile_wall_ms: a multiple of the CPU limit sized by cells per core), because N
 * cells compiling at once on fewer cores stretch every compile's wall time by N / cores
 * without it using more CPU. A compile the wall clock killed with CPU to spare was starved,
 * not slow: it runs once more, then is reported TLE, never CE.
 *
 * Hits. An entry the cache serves is checked before use (.status and .output readable, every
 * artifact a regular file); a damaged one is discarded and rebuilt once, then SE.
 *
 * Uncached. An OK or CE outcome the cache cannot keep (no build directory, a write or the
 * publishing rename failed: its disk full or read-only) is not the program's fault and not
 * SE: the artifacts are held in memory and each run places them in its work dir under
 * HELD_DIR ({dir} then names that). The cache counts and logs the failures.
 *
 * Placeholders in a template's argv are expanded here: {dir} (the artifacts' directory, or
 * the work dir for a language without a compile step), {memory_bytes} (the run's memory
 * limit), {cuda_arch} (this server's GPU architecture flag). An expanded entry that does not
 * fit its 512 bytes, or a template past MAX_ARGS entries, is SE, never a truncated argv.
 */
#include "server/judge/program.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/judge/program_internal.h"
#include "server/util/sha256.h"

#define MAX_ARGS  128
#define ARG_BYTES 512
#define MAX_MSG   (64 * 1024)
#define HELD_DIR  ".verdict-artifacts" /* an uncached program's artifacts, in the work dir */

struct expanded {
    const char *argv[MAX_ARGS + PROGRAM_MAX_ARGS + 1];
    char storage[MAX_ARGS][ARG_BYTES];
};

/* Run-time placeholders of template argv (languages/README.md) and their values. */
struct placeholders {
    const char *dir;       /* {dir} */
    uint64_t memory_bytes; /* {memory_bytes} */
    const char *cuda_arch; /* {cuda_arch} */
};

/* Expands one argv entry into out (ARG_BYTES). Returns false if it does not fit. */
static bool expand_one(const char *a, const struct placeholders *ph, char *out)
{
    char memory[32];
    snprintf(memory, sizeof(memory), "%llu", (unsigned long long)ph->memory_bytes);
    const struct {
        const char *name, *value;
    } table[] = {{"{dir}", ph->dir}, {"{memory_bytes}", memory}, {"{cuda_arch}", ph->cuda_arch}};
    size_t o = 0, n = sizeof(table) / sizeof(table[0]);
    while (*a) {
        size_t k = 0, len = 0;
        for (; k < n; k++)
            if (strncmp(a, table[k].name, len = strlen(table[k].name)) == 0)
                break;
        const char *piece = k < n ? table[k].value : a;
        size_t plen = k < n ? strlen(piece) : 1;
        if (o + plen >= ARG_BYTES)
            return false;
        memcpy(out + o, piece, plen);
        o += plen;
        a += k < n ? len : 1;
    }
    out[o] = '\0';
    return true;
}

static int expand_argv(const struct lang_step *st, const struct placeholders *ph,
                       struct expanded *x, char err[ERR_LEN])
{
    if (st->argc > MAX_ARGS)
        return err_set(err, -E2BIG, "the template's argv has %d entries (at most %d)", st->argc,
                       MAX_ARGS);
    for (int i = 0; i < st->argc; i++) {
        if (!expand_one(st->argv[i], ph, x->storage[i]))
            return err_set(err, -E2BIG, "argv entry %d expands past %d bytes: %.60s...", i,
                           ARG_BYTES - 1, st->argv[i]);
        x->argv[i] = x->storage[i];
    }
    x->argv[st->argc] = NULL;
    return 0;
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
    /* v2: entries of v1 may hold a timeout cached as CE; they are never served. */
    hash_str(&h, "verdict compile v2");
    hash_str(&h, l->name);
    hash_str(&h, l->version_line);
    hash_str(&h, env->cuda_arch);
    for (int i = 0; i < l->compile.argc; i++)
        hash_str(&h, l->compile.argv[i]);
    for (int i = 0; i < l->compile.nenv; i++)
        hash_str(&h, l->compile.env[i]);
    /* Limits too: memory and output limits can change what a compiler says of a source. */
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

int64_t program_compile_wall_ms(int64_t cpu_ms, int64_t wall_ms, int cells, long cpus)
{
    int64_t factor = 3;
    if (cells > 0 && cpus > 0 && ((int64_t)cells + cpus - 1) / cpus + 1 > factor)
        factor = ((int64_t)cells + cpus - 1) / cpus + 1;
    int64_t backstop = cpu_ms * factor + 1000;
    return wall_ms > backstop ? wall_ms : backstop;
}

enum verdict program_compile_outcome(const struct job_result *r, const struct job_limits *lim,
                                     bool *starved)
{
    *starved = false;
    switch (r->status) {
    case JOB_OK:
        return VERDICT_OK;
    case JOB_TLE:
        *starved = r->tle_clock == JOB_CLOCK_WALL && r->cpu_ms < lim->cpu_ms;
        return VERDICT_TLE;
    case JOB_MLE:
        return VERDICT_MLE;
    case JOB_RE:
    case JOB_OLE:
        return VERDICT_CE;
    default:
        return VERDICT_SE;
    }
}

/* ---- the entry's files ------------------------------------------------------------------ */

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
    if (close(fd) < 0 && rc == 0)
        rc = -errno;
    return rc;
}

/* dir/name's first max bytes as a string (heap), or NULL if it cannot be read. */
/* The file's first max bytes, NUL-terminated (heap), or NULL. Sized to the file: a cache hit
 * reads two small files per request, and a buffer of max bytes (64 KiB) malloc'd and freed
 * each time made glibc consolidate its free lists on every request. */
static char *read_file(const char *dir, const char *name, size_t max)
{
    char path[CACHE_PATH + 64];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *buf = NULL;
    if (fstat(fd, &st) == 0 && st.st_size >= 0) {
        size_t want = (uint64_t)st.st_size < max ? (size_t)st.st_size : max, n = 0;
        buf = malloc(want + 1);
        while (buf && n < want) {
            ssize_t r = read(fd, buf + n, want - n);
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0) {
                free(buf);
                buf = NULL;
            } else if (r == 0) {
                break;
            } else {
                n += (size_t)r;
            }
        }
        if (buf)
            buf[n] = '\0';
    }
    close(fd);
    return buf;
}

/* Reads a hit into p. Returns 0, or -EBADMSG if the entry is damaged (a file missing or
 * unreadable, a status neither "ok" nor "ce"). */
static int read_entry(const struct lang *l, struct program *p)
{
    char *status = read_file(p->entry.dir, ".status", 8);
    bool ok = status && strcmp(status, "ok") == 0, ce = status && strcmp(status, "ce") == 0;
    free(status);
    p->message = read_file(p->entry.dir, ".output", MAX_MSG);
    for (int i = 0; ok && i < l->nartifacts; i++) {
        char path[CACHE_PATH + 64];
        struct stat st;
        snprintf(path, sizeof(path), "%s/%s", p->entry.dir, l->artifacts[i]);
        ok = lstat(path, &st) == 0 && S_ISREG(st.st_mode);
    }
    if (!p->message || (!ok && !ce)) {
        free(p->message);
        p->message = NULL;
        return -EBADMSG;
    }
    p->ok = ok;
    p->compile_verdict = ok ? VERDICT_OK : VERDICT_CE;
    p->cached = true;
    return 0;
}

/* ---- compiling -------------------------------------------------------------------------- */

/* The compiler's output, after a line saying which limit or reason stopped it, if any. */
static char *compile_message(const struct job_result *r, const char *why)
{
    size_t cap = r->out_len + r->err_len + 512;
    cap = cap < MAX_MSG ? cap : MAX_MSG;
    char *m = malloc(cap);
    if (!m)
        return NULL;
    size_t o = 0;
    if (why[0])
        o += (size_t)snprintf(m, cap, "%s\n", why);
    else if (r->status != JOB_RE && r->status != JOB_OK)
        o += (size_t)snprintf(m, cap, "compilation stopped: %s (%s)\n", job_status_name(r->status),
                              r->message);
    o = o < cap - 1 ? o : cap - 1;
    size_t take = r->err_len < cap - 1 - o ? r->err_len : cap - 1 - o;
    memcpy(m + o, r->err, take);
    o += take;
    take = r->out_len < cap - 1 - o ? r->out_len : cap - 1 - o;
    memcpy(m + o, r->out, take);
    o += take;
    m[o] = '\0';
    return m;
}

/* What the artifacts of a compile that exited 0 say: OK; CE when the compiler left none
 * usable (its own doing); SE when one could not come back (too large for the caps, memory),
 * with why. */
static enum verdict check_artifacts(const struct lang *l, const struct job_result *r,
                                    const struct job_limits *lim, char why[ERR_LEN])
{
    if (r->nfetched != l->nartifacts) {
        err_set(why, -EIO, "compile: %d of %d artifacts came back", r->nfetched, l->nartifacts);
        return VERDICT_SE;
    }
    for (int i = 0; i < r->nfetched; i++) {
        int e = r->fetched[i].error;
        const char *name = l->artifacts[i];
        if (e == -EFBIG) {
            err_set(why, e,
                    "artifact %.64s too large (over the %llu-byte cap per file, %llu in all)", name,
                    (unsigned long long)lim->fetch_bytes, (unsigned long long)JOB_FETCH_TOTAL);
            return VERDICT_SE;
        }
        if (e == -ENOENT || e == -ELOOP || e == -EINVAL) {
            err_set(why, e, "the compiler left no usable %.64s (%s)", name, err_name(e));
            return VERDICT_CE;
        }
        if (e < 0) {
            err_set(why, e, "artifact %.64s could not come back: %s", name, strerror(-e));
            return VERDICT_SE;
        }
    }
    return VERDICT_OK;
}

/* Writes patch into the artifacts of r (the run's payload, ours to edit): OK, or CE with why
 * when a find string is there more than once (a copy of seal's slot). One that is not there
 * is left unwritten: the compiler dropped code that can never run (Rust drops seal's marker
 * code when it proves the tests always fail), and without it no marker can be printed. */
static enum verdict apply_patch(const struct lang *l, struct job_result *r,
                                const struct program_patch *patch, char why[ERR_LEN])
{
    uint8_t *at[PROGRAM_PATCHES] = {0};
    for (int k = 0; k < patch->n && k < PROGRAM_PATCHES; k++) {
        int seen = 0;
        for (int i = 0; i < r->nfetched && i < l->nartifacts; i++) {
            uint8_t *d = (uint8_t *)(uintptr_t)r->fetched[i].data, *e = d + r->fetched[i].len;
            for (uint8_t *q = d; q && (size_t)(e - q) >= patch->len; q++) {
                q = memmem(q, (size_t)(e - q), patch->find[k], patch->len);
                if (!q)
                    break;
                at[k] = q;
                seen++;
            }
        }
        if (seen > 1) {
            err_set(why, -EINVAL,
                    "the compiled program holds seal's slot %d %d times, not once: the program "
                    "copied it",
                    k, seen);
            return VERDICT_CE;
        }
        at[k] = seen ? at[k] : NULL;
    }
    for (int k = 0; k < patch->n && k < PROGRAM_PATCHES; k++)
        if (at[k])
            memcpy(at[k], patch->put[k], patch->len);
    return VERDICT_OK;
}

/* Runs the compile step once into p->compile (*payload owns its buffers). */
static int run_compile(const struct program_env *env, const struct lang *l, struct program *p,
                       uint8_t **payload, char err[ERR_LEN])
{
    struct expanded x;
    struct placeholders ph = {.dir = ".", .cuda_arch = env->cuda_arch};
    int rc = expand_argv(&l->compile, &ph, &x, err);
    if (rc < 0)
        return rc;
    struct job j = {.argc = l->compile.argc,
                    .argv = x.argv,
                    .nenv = l->compile.nenv,
                    .env = (const char *const *)l->compile.env,
                    .nfiles = p->nfiles,
                    .files = p->files,
                    .nfetch = l->nartifacts,
                    .fetch = (const char *const *)l->artifacts,
                    .limits = p->compile_limits};
    pool_run(env->pool, &j, &p->compile, payload);
    p->attempts++;
    return 0;
}

/* Drops a compile run's buffers; the measurements stay. */
static void forget_run(struct job_result *r, uint8_t **payload)
{
    job_result_fini(r);
    r->out = r->err = NULL;
    r->out_len = r->err_len = 0;
    free(*payload);
    *payload = NULL;
}

/* Writes an OK or CE outcome into e->tmp. Returns 0 or a negative errno. */
static int store(const struct lang *l, const struct program *p)
{
    int rc = 0;
    /* a private entry (a compiled grader's: its tests) is the server's alone to read */
    mode_t exe = l->private_entry ? 0600 : 0755, text = l->private_entry ? 0600 : 0644;
    for (int i = 0; p->ok && i < l->nartifacts && rc == 0; i++)
        rc = write_file(p->entry.tmp, l->artifacts[i], p->compile.fetched[i].data,
                        p->compile.fetched[i].len, exe);
    if (rc == 0)
        rc = write_file(p->entry.tmp, ".output", p->message, strlen(p->message), text);
    if (rc == 0)
        rc = write_file(p->entry.tmp, ".status", p->ok ? "ok" : "ce", 2, 0644);
    return rc;
}

/* Writes an OK or CE outcome into the entry being built and publishes it. Returns 0, or a
 * negative errno when the cache could not keep it: the entry is then given up (and the
 * failure counted by the cache). */
static int publish(const struct program_env *env, const struct lang *l, struct program *p)
{
    char why[ERR_LEN];
    int rc = store(l, p);
    if (rc < 0) {
        cache_fail(env->cache, &p->entry, rc);
        return rc;
    }
    return cache_commit(env->cache, &p->entry, why);
}

/* Holds an OK outcome's artifacts (still in p->compile) in memory, as work-dir files under
 * HELD_DIR, for a program the cache could not keep; a CE holds nothing. Returns 0, or
 * -ENOMEM with err. */
static int hold_artifacts(const struct lang *l, struct program *p, char err[ERR_LEN])
{
    p->uncached = true;
    if (!p->ok || l->nartifacts == 0)
        return 0;
    size_t total = 0;
    for (int i = 0; i < l->nartifacts; i++)
        total += sizeof(HELD_DIR) + strlen(l->artifacts[i]) + 1 + p->compile.fetched[i].len;
    p->held = calloc((size_t)l->nartifacts, sizeof(*p->held));
    p->held_bytes = malloc(total);
    if (!p->held || !p->held_bytes)
        return err_set(err, -ENOMEM, "compile: out of memory for the artifacts");
    uint8_t *o = p->held_bytes;
    for (int i = 0; i < l->nartifacts; i++) {
        const struct job_fetched *f = &p->compile.fetched[i];
        char *path = (char *)o;
        size_t n = (size_t)sprintf(path, "%s/%s", HELD_DIR, l->artifacts[i]) + 1;
        memcpy(o + n, f->data, f->len);
        p->held[i] = (struct job_file){.path = path, .mode = 0755, .data = o + n, .len = f->len};
        o += n + f->len;
    }
    p->nheld = l->nartifacts;
    return 0;
}

/* Compiles into p (retrying once a compile starved by load); *payload owns the last run's
 * buffers (p->compile's artifacts) until the caller forgets the run. Returns 0 with
 * p->compile_verdict, or a negative errno with err (SE). */
static int compile(const struct program_env *env, const struct lang *l, struct program *p,
                   uint8_t **payload, char err[ERR_LEN])
{
    char why[ERR_LEN] = "";
    enum verdict v = VERDICT_SE;
    int rc = 0;
    bool starved = true;
    while (starved && p->attempts < 2) {
        forget_run(&p->compile, payload);
        if ((rc = run_compile(env, l, p, payload, err)) < 0)
            goto out;
        v = program_compile_outcome(&p->compile, &p->compile_limits, &starved);
    }
    if (starved)
        snprintf(why, sizeof(why),
                 "compilation stopped: TLE: %d times by the wall clock (%lld ms) with CPU time "
                 "to spare: the server is overloaded",
                 p->attempts, (long long)p->compile_limits.wall_ms);
    if (v == VERDICT_OK)
        v = check_artifacts(l, &p->compile, &p->compile_limits, why);
    if (v == VERDICT_OK && p->patch)
        v = apply_patch(l, &p->compile, p->patch, why);
    if (v == VERDICT_SE) {
        rc = err_set(err, -EIO, "compile: %s", why[0] ? why : p->compile.message);
        goto out;
    }
    p->compile_verdict = v;
    p->ok = v == VERDICT_OK;
    if (!(p->message = compile_message(&p->compile, why)))
        rc = err_set(err, -ENOMEM, "compile: out of memory for the compiler's message");
out:
    if (rc < 0) {
        p->ok = false;
        p->compile_verdict = VERDICT_SE;
    }
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
    l->fetch_total = o->fetch_total ? o->fetch_total : l->fetch_total;
    l->pids = o->pids ? o->pids : l->pids;
    l->nofile = o->nofile ? o->nofile : l->nofile;
    l->instructions = o->instructions ? o->instructions : l->instructions;
    l->backstop_ms = o->backstop_ms ? o->backstop_ms : l->backstop_ms;
    l->starved_tle = o->starved_tle || l->starved_tle;
}

/* CPUs online, read once (sysconf reads /sys/devices/system/cpu/online on every call, and
 * this is asked on every request). */
static long online_cpus(void)
{
    static _Atomic long n;
    long v = n;
    if (v <= 0) {
        v = sysconf(_SC_NPROCESSORS_ONLN);
        n = v;
    }
    return v;
}

/* Compiles a miss (p->pinned: into the cache entry being built; else the cache could not
 * make one) and keeps an OK or CE outcome: published, or held when the cache cannot keep it.
 * TLE, MLE and SE are not kept. */
static int build_miss(const struct program_env *env, const struct lang *l, struct program *p,
                      char err[ERR_LEN])
{
    uint8_t *payload = NULL;
    int rc = compile(env, l, p, &payload, err);
    bool keep = rc == 0 && (p->compile_verdict == VERDICT_OK || p->compile_verdict == VERDICT_CE);
    if (!keep && p->pinned)
        cache_abort(env->cache, &p->entry);
    if (keep && (!p->pinned || publish(env, l, p) < 0))
        rc = hold_artifacts(l, p, err);
    if (!keep || p->uncached)
        p->pinned = false; /* abort, a failed write and a failed commit all released it */
    if (rc < 0) {
        p->ok = false;
        p->compile_verdict = VERDICT_SE;
    }
    forget_run(&p->compile, &payload);
    return rc;
}

int program_build(const struct program_env *env, const struct lang *l, const struct job_file *files,
                  int nfiles, const struct job_limits *compile_limits, struct program *p,
                  char err[ERR_LEN])
{
    return program_build_patched(env, l, files, nfiles, compile_limits, NULL, p, err);
}

/* key, then the patch's put bytes (what the artifacts will hold), hashed again into key. */
static void patch_key(const struct program_patch *patch, char key[65])
{
    struct sha256 h;
    sha256_init(&h);
    hash_str(&h, "verdict patched");
    hash_str(&h, key);
    for (int k = 0; k < patch->n && k < PROGRAM_PATCHES; k++) {
        sha256_update(&h, patch->find[k], patch->len);
        sha256_update(&h, patch->put[k], patch->len);
    }
    sha256_hex(&h, key);
}

static int build(const struct program_env *env, const struct lang *l, const struct job_file *files,
                 int nfiles, const struct job_limits *compile_limits,
                 const struct program_patch *patch, struct program *p, char err[ERR_LEN])
{
    memset(p, 0, sizeof(*p));
    p->lang = l;
    p->patch = patch;
    p->files = files;
    p->nfiles = nfiles;
    p->compile_verdict = VERDICT_OK;
    p->compile_limits = l->compile.limits;
    override(&p->compile_limits, compile_limits);
    if (!l->compiled) {
        p->ok = true;
        return 0;
    }
    char key[65];
    program_key(env, l, &p->compile_limits, files, nfiles, key);
    if (patch)
        patch_key(patch, key);
    p->compile_limits.fetch_total = JOB_FETCH_TOTAL; /* the artifacts: the server stores them */
    job_limits_defaults(&p->compile_limits);
    p->compile_limits.wall_ms = program_compile_wall_ms(
        p->compile_limits.cpu_ms, p->compile_limits.wall_ms, env->cells, online_cpus());
    for (int tries = 0; tries < 2; tries++) {
        int state = cache_acquire(env->cache, key, &p->entry, err);
        if (state == -ENOMEM)
            return state;
        if (state < 0) /* no build directory (counted by the cache): compiled uncached */
            return build_miss(env, l, p, err);
        p->pinned = true;
        if (state == CACHE_BUILD)
            return build_miss(env, l, p, err);
        if (read_entry(l, p) == 0)
            return 0;
        p->pinned = false; /* damaged: removed, so that the next acquire builds */
        int rc = cache_discard(env->cache, &p->entry, err);
        if (rc < 0)
            return rc;
    }
    return err_set(err, -EIO, "compile cache entry %.64s is unreadable after rebuilding it", key);
}

int program_build_patched(const struct program_env *env, const struct lang *l,
                          const struct job_file *files, int nfiles,
                          const struct job_limits *compile_limits,
                          const struct program_patch *patch, struct program *p, char err[ERR_LEN])
{
    int rc = build(env, l, files, nfiles, compile_limits, patch, p, err);
    p->patch = NULL;
    return rc;
}

/* The run's work-dir files: the program's own (but a compiled language's source) and io's.
 * Heap (free it); NULL when memory runs out. */
static struct job_file *run_files(const struct program *p, const struct program_io *io, int *n)
{
    const struct lang *l = p->lang;
    int extra = io ? io->nfiles : 0;
    struct job_file *files =
        calloc((size_t)p->nfiles + (size_t)extra + (size_t)p->nheld + 1, sizeof(*files));
    *n = 0;
    for (int i = 0; files && i < p->nfiles; i++)
        if (!l->compiled || strcmp(p->files[i].path, l->source) != 0)
            files[(*n)++] = p->files[i];
    for (int i = 0; files && i < extra; i++)
        files[(*n)++] = io->files[i];
    for (int i = 0; files && i < p->nheld; i++)
        files[(*n)++] = p->held[i];
    return files;
}

static bool runnable(const struct program_env *env, const struct program *p, struct job_result *res)
{
    if (!p->ok)
        snprintf(res->message, sizeof(res->message), "program did not compile");
    else if (p->lang->needs_gpu && env->gpus == 0)
        snprintf(res->message, sizeof(res->message),
                 "no GPU on this server: %s programs compile but cannot run", p->lang->name);
    else
        return true;
    res->status = JOB_SE;
    return false;
}

void program_run(const struct program_env *env, const struct program *p,
                 const struct program_io *io, struct job_result *res, uint8_t **payload)
{
    const struct lang *l = p->lang;
    *payload = NULL;
    memset(res, 0, sizeof(*res));
    res->exit_code = -1;
    if (!runnable(env, p, res))
        return;
    struct job_limits lim = l->run.limits;
    override(&lim, io ? io->limits : NULL);
    job_limits_defaults(&lim);
    /* A compiled program runs from the cache; its other files (data) still go to /w. */
    int n;
    struct job_file *files = run_files(p, io, &n);
    struct expanded x;
    struct placeholders ph = {.dir = !l->compiled  ? "."
                                     : p->uncached ? HELD_DIR
                                                   : p->entry.dir,
                              .memory_bytes = lim.memory_bytes,
                              .cuda_arch = env->cuda_arch};
    char err[ERR_LEN] = "";
    if (!files || expand_argv(&l->run, &ph, &x, err) < 0) {
        res->status = JOB_SE;
        snprintf(res->message, sizeof(res->message), "run: %.200s",
                 files ? err : "out of memory for the program's files");
        free(files);
        return;
    }
    int argc = l->run.argc;
    for (int i = 0; io && i < io->nargs && i < PROGRAM_MAX_ARGS; i++)
        x.argv[argc++] = io->args[i];
    x.argv[argc] = NULL;
    if (io && io->graded && !l->grader) {
        res->status = JOB_SE;
        snprintf(res->message, sizeof(res->message), "run: %s has no grader", l->name);
        free(files);
        return;
    }
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
    j.warm = env->cold ? JOB_COLD : l->warm;
    if (io && io->graded) {
        j.grader_argc = l->grader->argc;
        j.grader_argv = (const char *const *)l->grader->argv;
        j.grader_exe = io->grader_exe;
        j.grader_exe_len = io->grader_exe_len;
    }
    if (l->needs_gpu)
        pool_run_gpu(env->pool, &j, res, payload);
    else
        pool_run(env->pool, &j, res, payload);
    free(files);
}

int program_step_job(const struct program_env *env, const struct lang *l, bool compile,
                     uint64_t memory_bytes, struct job *j, void **owned, char err[ERR_LEN])
{
    *owned = NULL;
    const struct lang_step *st = compile ? &l->compile : &l->run;
    struct expanded *x = malloc(sizeof(*x));
    if (!x)
        return err_set(err, -ENOMEM, "out of memory");
    struct placeholders ph = {
        .dir = ".", .memory_bytes = memory_bytes, .cuda_arch = env->cuda_arch};
    int rc = expand_argv(st, &ph, x, err);
    if (rc < 0) {
        free(x);
        return rc;
    }
    j->argc = st->argc;
    j->argv = x->argv;
    j->nenv = st->nenv;
    j->env = (const char *const *)st->env;
    j->limits = st->limits;
    job_limits_defaults(&j->limits);
    if (compile)
        j->limits.wall_ms =
            program_compile_wall_ms(j->limits.cpu_ms, j->limits.wall_ms, env->cells, online_cpus());
    *owned = x;
    return 0;
}

void program_free(const struct program_env *env, struct program *p)
{
    if (p->pinned)
        cache_release(env->cache, &p->entry);
    p->pinned = false;
    free(p->message);
    p->message = NULL;
    free(p->held);
    free(p->held_bytes);
    p->held = NULL;
    p->held_bytes = NULL;
    p->nheld = 0;
}
