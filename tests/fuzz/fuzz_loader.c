/*
 * fuzz_loader: every dataset loader (server/datasets/loader.h) on arbitrary bytes. The first
 * byte picks the way in and the format (detected, each one named, an unknown name):
 *   0  loader_record on the rest as one JSON record (SandboxFusion's provided_data);
 *   1  loader_read on the rest as a file (a memfd, read through /proc/self/fd/N): a JSON array
 *      or JSON lines, gzip-compressed when it starts with gzip's magic;
 *   2  loader_read on a directory of problem directories built from the rest: entries split
 *      at NUL bytes, each "PATH\nCONTENT" (PATH of at most three plain components, e.g.
 *      "a/tests/1.in"), written into a scratch directory under $TMPDIR.
 *
 * Invariants: a read returns as many problems as it says, each one of loader.h's model (every
 * field of its type and within its bounds: fuzz_check_problem), ids unique within a read, the
 * format's name among loader_formats(); a refusal explains itself (a non-empty error) and
 * returns no problems.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "server/datasets/loader.h"
#include "server/util/strset.h"

#define MAX_ENTRIES 32

static const char *const formats[] = {NULL,          "humaneval",     "mbpp",   "mbpp_sanitized",
                                      "humanevalx",  "multiple",      "mceval", "code_contests",
                                      "problem_dir", "no_such_format"};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static char scratch[64]; /* the problem-set directory, made once per process */

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st;
    (void)flag;
    return f->level > 0 ? remove(path) : 0;
}

/* Empties scratch. */
static void clean(void)
{
    nftw(scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void clean_at_exit(void)
{
    clean();
    rmdir(scratch);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch, sizeof(scratch), "%.40s/fuzz-loader-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    FUZZ_CHECK(mkdtemp(scratch) != NULL);
    atexit(clean_at_exit);
    return 0;
}

static void check_err(const char *err)
{
    FUZZ_CHECK(memchr(err, '\0', ERR_LEN) != NULL && err[0] != '\0');
}

static void check_problems(int n, const struct json *arr, const char *fmt)
{
    FUZZ_CHECK(n >= 1 && json_len(arr) == n);
    FUZZ_CHECK(strstr(loader_formats(), fmt) != NULL && fmt[0]);
    struct strset *ids = strset_new();
    FUZZ_CHECK(ids != NULL);
    for (const struct json *p = json_first(arr); p; p = json_next(p)) {
        fuzz_check_problem(p);
        long first;
        FUZZ_CHECK(strset_add(ids, json_get_str(p, "id"), 0, &first) == 1);
    }
    strset_free(ids);
}

static void from_record(const char *text, const char *format)
{
    struct json *rec = json_parse(text), *p = NULL;
    char err[ERR_LEN];
    if (!rec)
        return;
    if (loader_record(rec, format, &p, err) == 0)
        fuzz_check_problem(p);
    else
        check_err(err);
    json_free(p);
    json_free(rec);
}

static void read_path(const char *path, const char *format)
{
    struct json *problems = NULL;
    char fmt[32] = "", err[ERR_LEN];
    int n = loader_read(path, format, &problems, fmt, sizeof(fmt), err);
    if (n >= 0) {
        check_problems(n, problems, fmt);
    } else {
        check_err(err);
        FUZZ_CHECK(problems == NULL);
    }
    json_free(problems);
}

static void from_file(const uint8_t *data, size_t size, const char *format)
{
    int fd = memfd_create("fuzz-loader", MFD_CLOEXEC);
    FUZZ_CHECK(fd >= 0);
    FUZZ_CHECK(write(fd, data, size) == (ssize_t)size);
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    read_path(path, format);
    close(fd);
}

/* A relative path of 1..3 components of [A-Za-z0-9._-], none "." or "..". */
static bool entry_path_ok(const char *p)
{
    int parts = 0;
    for (const char *c = p; *c;) {
        size_t n = strspn(c, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-");
        if (n == 0 || n > 64 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
            return false;
        c += n;
        parts++;
        if (*c == '/' && c[1])
            c++;
        else if (*c)
            return false;
    }
    return parts >= 1 && parts <= 3;
}

/* Writes one "PATH\nCONTENT" entry under scratch, making its directories. */
static void write_entry(const char *e, size_t len)
{
    const char *nl = memchr(e, '\n', len);
    char rel[256], path[512];
    if (!nl || (size_t)(nl - e) >= sizeof(rel))
        return;
    snprintf(rel, sizeof(rel), "%.*s", (int)(nl - e), e);
    if (!entry_path_ok(rel))
        return;
    for (char *s = strchr(rel, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        snprintf(path, sizeof(path), "%s/%s", scratch, rel);
        mkdir(path, 0700);
        *s = '/';
    }
    snprintf(path, sizeof(path), "%s/%s", scratch, rel);
    FILE *f = fopen(path, "we");
    if (!f)
        return;
    fwrite(nl + 1, 1, len - (size_t)(nl + 1 - e), f);
    fclose(f);
}

static void from_dir(const uint8_t *data, size_t size, const char *format)
{
    clean();
    const char *p = (const char *)data, *end = p + size;
    for (int i = 0; i < MAX_ENTRIES && p < end; i++) {
        const char *z = memchr(p, '\0', (size_t)(end - p));
        size_t n = z ? (size_t)(z - p) : (size_t)(end - p);
        write_entry(p, n);
        p += n + 1;
    }
    read_path(scratch, format);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int way = data[0] % 3;
    const char *format = formats[(data[0] / 3) % NFORMATS];
    if (way == 0) {
        char *text = fuzz_text(data + 1, size - 1);
        from_record(text, format);
        free(text);
    } else if (way == 1) {
        from_file(data + 1, size - 1, format);
    } else {
        from_dir(data + 1, size - 1, format);
    }
    return 0;
}
