/*
 * loader_dir: problem directories (problems/README.md) as stdio problems. A problem set is a
 * directory of DIR/NAME/ with problem.json (id, language, limits, compare mode), statement.md,
 * tests/NAME.in + NAME.out pairs and solutions/LANG.EXT; read in name order. Bounds: a test
 * file 1 MiB, a problem's tests 8 MiB in all and 256 pairs, problem.json and the statement
 * 1 MiB each.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/datasets/loader_impl.h"
#include "server/judge/compare.h"
#include "server/util/slurp.h"
#include "server/util/strset.h"

#define MAX_TEST_FILE  (1u << 20)
#define MAX_TESTS_SIZE (8u << 20)
#define MAX_DIR_TESTS  256

bool loader_pathf(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, cap, fmt, ap);
    va_end(ap);
    return n >= 0 && (size_t)n < cap;
}

int loader_read_text(const char *path, size_t cap, char **out, char err[ERR_LEN])
{
    size_t len;
    int rc = slurp(path, cap, out, &len, err);
    if (rc == 0 && strlen(*out) != len) {
        free(*out);
        return err_set(err, -EINVAL, "%.200s: holds a NUL byte", path);
    }
    return rc;
}

int loader_visible(const struct dirent *d)
{
    return d->d_name[0] != '.';
}

bool loader_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int dir_tests(const char *dir, struct json *p, char err[ERR_LEN])
{
    char path[4096];
    struct dirent **ents;
    loader_pathf(path, sizeof(path), "%s/tests", dir);
    int n = scandir(path, &ents, loader_visible, alphasort), rc = 0, count = 0;
    if (n < 0)
        return err_set(err, -errno, "%.200s: %m", path);
    struct json *tests = json_set(p, "tests", json_array());
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        size_t l = strlen(name);
        if (rc == 0 && l > 3 && strcmp(name + l - 3, ".in") == 0) {
            char *in = NULL, *want = NULL;
            loader_pathf(path, sizeof(path), "%s/tests/%s", dir, name);
            rc = loader_read_text(path, MAX_TEST_FILE, &in, err);
            loader_pathf(path, sizeof(path), "%s/tests/%.*s.out", dir, (int)(l - 3), name);
            if (rc == 0)
                rc = loader_read_text(path, MAX_TEST_FILE, &want, err);
            if (rc == 0 && (total += strlen(in) + strlen(want)) > MAX_TESTS_SIZE)
                rc = err_set(err, -EFBIG, "%.200s/tests: more than 8 MiB", dir);
            if (rc == 0 && ++count > MAX_DIR_TESTS)
                rc = err_set(err, -E2BIG, "%.200s/tests: more than 256 tests", dir);
            if (rc == 0) {
                struct json *o = json_push(tests, json_object());
                json_set_str(o, "name", name);
                json_set_str(o, "stdin", in);
                json_set_str(o, "expected", want);
            }
            free(in);
            free(want);
        }
        free(ents[i]);
    }
    free(ents);
    if (rc == 0 && count == 0)
        rc = err_set(err, -EINVAL, "%.200s/tests: no NAME.in/NAME.out pairs", dir);
    return rc;
}

static int dir_solutions(const char *dir, struct json *p, char err[ERR_LEN])
{
    char path[4096];
    struct dirent **ents;
    loader_pathf(path, sizeof(path), "%s/solutions", dir);
    int n = scandir(path, &ents, loader_visible, alphasort), rc = 0;
    if (n < 0)
        return errno == ENOENT ? 0 : err_set(err, -errno, "%.200s: %m", path);
    struct json *sols = json_child(p, "solutions");
    for (int i = 0; i < n; i++) {
        char lang[32], *code = NULL;
        const char *dot = strchr(ents[i]->d_name, '.');
        snprintf(lang, sizeof(lang), "%.*s",
                 (int)(dot ? (size_t)(dot - ents[i]->d_name) : strlen(ents[i]->d_name)),
                 ents[i]->d_name);
        loader_pathf(path, sizeof(path), "%s/solutions/%s", dir, ents[i]->d_name);
        if (rc == 0 && (rc = loader_read_text(path, MAX_TEST_FILE, &code, err)) == 0)
            json_set_str(sols, lang, code);
        free(code);
        free(ents[i]);
    }
    free(ents);
    return rc;
}

static int load_problem_dir(const char *dir, const char *slug, struct json **out, char err[ERR_LEN])
{
    char path[4096], *meta_text = NULL, *statement = NULL;
    loader_pathf(path, sizeof(path), "%s/problem.json", dir);
    int rc = loader_read_text(path, 1u << 20, &meta_text, err);
    struct json *meta = rc == 0 ? json_parse(meta_text) : NULL;
    free(meta_text);
    if (rc < 0)
        return rc;
    struct loader_ctx c = {.file = path, .where = 0, .err = err};
    const char *id = slug, *lang = "python", *mode = "lines";
    double time_ms = 2000, memory_mb = 256, abs_eps = 1e-6, rel_eps = 1e-6;
    if (!json_is_object(meta))
        rc = err_set(err, -EINVAL, "%.200s: not a JSON object", path);
    else if (json_get(meta, "id") && (!json_str(json_get(meta, "id"), &id) || !*id))
        rc = loader_bad(&c, "id", "must be a non-empty string");
    else if (json_get(meta, "language") && !json_str(json_get(meta, "language"), &lang))
        rc = loader_bad(&c, "language", "must be a string");
    else if (json_get(meta, "compare") && !json_str(json_get(meta, "compare"), &mode))
        rc = loader_bad(&c, "compare", "must be a string");
    else if ((json_get(meta, "time_limit_ms") &&
              !json_num(json_get(meta, "time_limit_ms"), &time_ms)) ||
             time_ms < 1 || time_ms > 60000)
        rc = loader_bad(&c, "time_limit_ms", "must be a number of milliseconds, 1..60000");
    else if ((json_get(meta, "memory_mb") && !json_num(json_get(meta, "memory_mb"), &memory_mb)) ||
             memory_mb < 16 || memory_mb > 16384)
        rc = loader_bad(&c, "memory_mb", "must be a number of MiB, 16..16384");
    enum cmp_mode m;
    if (rc == 0 && (cmp_mode_parse(mode, &m) < 0 || m == CMP_CHECKER))
        rc = loader_bad(&c, "compare", "a mode: exact, lines, tokens, float, nocase or regex");
    const char *eps_keys[2] = {"abs_eps", "rel_eps"};
    double *eps[2] = {&abs_eps, &rel_eps};
    for (int i = 0; rc == 0 && i < 2; i++) {
        const struct json *v = json_get(meta, eps_keys[i]);
        if (v && (!json_num(v, eps[i]) || !(*eps[i] >= 0) || !isfinite(*eps[i])))
            rc = loader_bad(&c, eps_keys[i], "must be a finite number >= 0");
    }
    loader_pathf(path, sizeof(path), "%s/statement.md", dir);
    if (rc == 0)
        rc = loader_read_text(path, 1u << 20, &statement, err);
    struct json *p = NULL;
    if (rc == 0) {
        p = loader_new_problem(id, statement, lang, "", "stdio", (long)time_ms, (long)memory_mb);
        struct json *cmp = json_set(p, "compare", json_object());
        json_set_str(cmp, "mode", mode);
        json_set_num(cmp, "abs_eps", abs_eps);
        json_set_num(cmp, "rel_eps", rel_eps);
        const char *title;
        if (json_str(json_get(meta, "title"), &title))
            json_set_str(json_child(p, "labels"), "title", title);
        rc = dir_tests(dir, p, err);
        if (rc == 0)
            rc = dir_solutions(dir, p, err);
    }
    free(statement);
    json_free(meta);
    if (rc < 0) {
        json_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

/* Ids are unique within a problem set, as within a file: a repeat names both directories. */
static int check_dir_id(struct strset *ids, const struct json *p, struct dirent **ents, long i,
                        char err[ERR_LEN])
{
    const char *id = json_get_str(p, "id");
    long first = 0;
    int added = strset_add(ids, id ? id : "", i, &first);
    if (added < 0)
        return err_set(err, -ENOMEM, "out of memory");
    if (added == 0)
        return err_set(err, -EINVAL, "%.120s: duplicate id \"%.60s\" (also %.60s's)",
                       ents[i]->d_name, id ? id : "", ents[first]->d_name);
    return 0;
}

int loader_read_problem_set(const char *dir, struct json *arr, char err[ERR_LEN])
{
    struct dirent **ents;
    int n = scandir(dir, &ents, loader_visible, alphasort), rc = 0, count = 0;
    if (n < 0)
        return err_set(err, -errno, "%.200s: %m", dir);
    struct strset *ids = strset_new();
    if (!ids)
        rc = err_set(err, -ENOMEM, "out of memory");
    for (int i = 0; i < n; i++) {
        char sub[4096], meta[4200];
        loader_pathf(sub, sizeof(sub), "%s/%s", dir, ents[i]->d_name);
        loader_pathf(meta, sizeof(meta), "%s/problem.json", sub);
        struct json *p = NULL;
        if (rc == 0 && loader_is_dir(sub) && access(meta, F_OK) == 0 &&
            (rc = load_problem_dir(sub, ents[i]->d_name, &p, err)) == 0 &&
            (rc = check_dir_id(ids, p, ents, i, err)) == 0) {
            json_push(arr, p);
            count++;
        } else if (p) {
            json_free(p);
        }
    }
    for (int i = 0; i < n; i++)
        free(ents[i]);
    free(ents);
    strset_free(ids);
    if (rc == 0 && count == 0)
        rc = err_set(err, -ENOENT, "%.200s: no problem directories (DIR/NAME/problem.json)", dir);
    return rc < 0 ? rc : count;
}

int loader_is_problem_set(const char *dir)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, loader_visible, alphasort), found = 0;
    for (int i = 0; i < n; i++) {
        char meta[4200];
        loader_pathf(meta, sizeof(meta), "%s/%s/problem.json", dir, ents[i]->d_name);
        found = found || access(meta, F_OK) == 0;
        free(ents[i]);
    }
    if (n >= 0)
        free(ents);
    return found;
}
