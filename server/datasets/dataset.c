/*
 * dataset: two tables. `dataset` holds one row per name with its source; `problem` holds the
 * problems as JSON documents (server/datasets/loader's model) keyed by (dataset, seq), seq
 * being the source order, with the id indexed for lookups. An import is one transaction of one
 * INSERT per problem (the problems walked in order, linear); reads are single indexed queries.
 */
#include "server/datasets/dataset.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "server/datasets/loader.h"
#include "server/store/db.h"

struct dataset_store {
    pthread_mutex_t lock;
    struct db *db;
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS dataset ("
    "  name TEXT PRIMARY KEY, format TEXT NOT NULL, source TEXT NOT NULL,"
    "  fingerprint TEXT NOT NULL, problems INTEGER NOT NULL, imported_at INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS problem ("
    "  dataset TEXT NOT NULL REFERENCES dataset(name) ON DELETE CASCADE,"
    "  seq INTEGER NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL,"
    "  PRIMARY KEY (dataset, seq), UNIQUE (dataset, id));";

/* SandboxFusion's dataset ids for the datasets verdict names otherwise. */
static const struct {
    const char *alias, *name;
} aliases[] = {
    {"humaneval_python", "humaneval"},
    {"openai_humaneval", "humaneval"},
};

bool dataset_name_ok(const char *name)
{
    size_t n = 0;
    for (; name[n]; n++)
        if (!(islower((unsigned char)name[n]) || isdigit((unsigned char)name[n]) || name[n] == '_'))
            return false;
    return n >= 1 && n <= 64;
}

int dataset_open(const char *path, struct dataset_store **out, char err[ERR_LEN])
{
    struct dataset_store *s = calloc(1, sizeof(*s));
    if (!s)
        return err_set(err, -ENOMEM, "out of memory");
    pthread_mutex_init(&s->lock, NULL);
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) { /* the store's directory, one level (/var/lib/verdict) */
        *slash = '\0';
        mkdir(dir, 0755);
    }
    int rc = db_open(path, &s->db, err);
    if (rc == 0)
        rc = db_exec(s->db, schema, err);
    if (rc < 0) {
        dataset_close(s);
        return rc;
    }
    *out = s;
    return 0;
}

void dataset_close(struct dataset_store *s)
{
    if (!s)
        return;
    db_close(s->db);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static bool same_fingerprint(struct dataset_store *s, const char *name, const char *fp)
{
    struct db_stmt *st;
    char err[ERR_LEN];
    bool same = false;
    if (db_prepare(s->db, "SELECT fingerprint FROM dataset WHERE name = ?1", &st, err) < 0)
        return false;
    db_bind_text(st, 1, name);
    if (db_step(st, err) == 1 && db_text(st, 0))
        same = strcmp(db_text(st, 0), fp) == 0;
    db_finalize(st);
    return same;
}

static int store(struct dataset_store *s, const char *name, const char *format, const char *path,
                 const char *fp, const struct json *problems, char err[ERR_LEN])
{
    struct db_stmt *ins = NULL, *meta = NULL;
    int rc = db_exec(s->db, "BEGIN IMMEDIATE", err);
    if (rc < 0)
        return rc;
    char abs[4096];
    const char *source = realpath(path, abs) ? abs : path;
    if ((rc = db_prepare(s->db, "DELETE FROM dataset WHERE name = ?1", &meta, err)) == 0) {
        db_bind_text(meta, 1, name);
        rc = db_step(meta, err);
        db_finalize(meta);
        meta = NULL;
    }
    if (rc == 0)
        rc = db_prepare(s->db,
                        "INSERT INTO dataset (name, format, source, fingerprint, problems, "
                        "imported_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                        &meta, err);
    if (rc == 0) {
        db_bind_text(meta, 1, name);
        db_bind_text(meta, 2, format);
        db_bind_text(meta, 3, source);
        db_bind_text(meta, 4, fp);
        db_bind_int(meta, 5, json_len(problems));
        db_bind_int(meta, 6, (int64_t)time(NULL));
        rc = db_step(meta, err);
    }
    if (rc == 0)
        rc =
            db_prepare(s->db, "INSERT INTO problem (dataset, seq, id, doc) VALUES (?1, ?2, ?3, ?4)",
                       &ins, err);
    int seq = 0;
    for (const struct json *p = json_first(problems); rc == 0 && p; p = json_next(p), seq++) {
        const char *id = NULL;
        char *doc = json_render(p, false);
        json_str(json_get(p, "id"), &id);
        db_reset(ins);
        db_bind_text(ins, 1, name);
        db_bind_int(ins, 2, seq);
        db_bind_text(ins, 3, id);
        db_bind_text(ins, 4, doc);
        rc = doc ? db_step(ins, err) : err_set(err, -ENOMEM, "out of memory");
        free(doc);
    }
    db_finalize(ins);
    db_finalize(meta);
    if (rc == 0)
        rc = db_exec(s->db, "COMMIT", err);
    if (rc < 0) {
        char ignored[ERR_LEN];
        db_exec(s->db, "ROLLBACK", ignored);
    }
    return rc;
}

int dataset_import(struct dataset_store *s, const char *name, const char *path, const char *format,
                   bool force, bool *skipped, char err[ERR_LEN])
{
    if (!dataset_name_ok(name))
        return err_set(err, -EINVAL, "dataset name \"%.80s\": use 1..64 of a-z, 0-9 and _", name);
    char fp[65], fmt[32] = "";
    int rc = loader_fingerprint(path, fp, err);
    if (rc < 0)
        return rc;
    if (skipped)
        *skipped = false;
    pthread_mutex_lock(&s->lock);
    if (!force && same_fingerprint(s, name, fp)) {
        pthread_mutex_unlock(&s->lock);
        if (skipped)
            *skipped = true;
        return 0;
    }
    pthread_mutex_unlock(&s->lock);
    struct json *problems = NULL;
    int n = loader_read(path, format, &problems, fmt, sizeof(fmt), err);
    if (n < 0)
        return n;
    pthread_mutex_lock(&s->lock);
    rc = store(s, name, fmt, path, fp, problems, err);
    pthread_mutex_unlock(&s->lock);
    json_free(problems);
    return rc < 0 ? rc : n;
}

/* Imports one source found under a datasets directory and says what became of it; returns
 * 1 when it failed (a source verdict does not run is skipped, not failed). */
static int import_found(struct dataset_store *s, const char *name, const char *path, FILE *log)
{
    char err[ERR_LEN];
    bool skipped;
    int n = dataset_import(s, name, path, NULL, false, &skipped, err);
    if (n == -EOPNOTSUPP)
        fprintf(log, "datasets: %s: skipped: %s\n", name, err);
    else if (n < 0)
        fprintf(log, "datasets: %s: %s\n", name, err);
    else if (skipped)
        fprintf(log, "datasets: %s: unchanged\n", name);
    else
        fprintf(log, "datasets: %s: %d problems from %s\n", name, n, path);
    return n < 0 && n != -EOPNOTSUPP;
}

static int import_tree(struct dataset_store *s, const char *root, const char *rel, FILE *log,
                       int depth)
{
    char path[4096], name[80];
    snprintf(path, sizeof(path), "%s%s%s", root, *rel ? "/" : "", rel);
    if (*rel && loader_is_problem_set(path))
        return loader_default_name(rel, 1, name, sizeof(name)) < 0
                   ? 0
                   : import_found(s, name, path, log);
    struct dirent **ents;
    int n = scandir(path, &ents, NULL, alphasort), failed = 0;
    if (n < 0)
        return 0;
    for (int i = 0; i < n; i++) {
        const char *e = ents[i]->d_name;
        char sub[4096], subrel[4096];
        struct stat st;
        bool fits = snprintf(sub, sizeof(sub), "%s/%s", path, e) < (int)sizeof(sub) &&
                    snprintf(subrel, sizeof(subrel), "%s%s%s", rel, *rel ? "/" : "", e) <
                        (int)sizeof(subrel);
        if (!fits || e[0] == '.' || stat(sub, &st) < 0) {
        } else if (S_ISDIR(st.st_mode)) {
            if (depth < 4)
                failed += import_tree(s, root, subrel, log, depth + 1);
        } else if (S_ISREG(st.st_mode) && loader_default_name(subrel, 0, name, sizeof(name)) == 0) {
            failed += import_found(s, name, sub, log);
        }
        free(ents[i]);
    }
    free(ents);
    return failed;
}

int dataset_import_dir(struct dataset_store *s, const char *dir, FILE *log, char err[ERR_LEN])
{
    struct stat st;
    if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
        return err_set(err, -ENOTDIR, "%.200s: not a directory", dir);
    return import_tree(s, dir, "", log, 0);
}

struct json *dataset_list(struct dataset_store *s)
{
    struct json *arr = json_array();
    struct db_stmt *st;
    char err[ERR_LEN];
    pthread_mutex_lock(&s->lock);
    if (db_prepare(s->db,
                   "SELECT name, format, source, problems, imported_at FROM dataset ORDER BY name",
                   &st, err) == 0) {
        while (db_step(st, err) == 1) {
            struct json *o = json_push(arr, json_object());
            json_set_str(o, "name", db_text(st, 0));
            json_set_str(o, "format", db_text(st, 1));
            json_set_str(o, "source", db_text(st, 2));
            json_set_num(o, "problems", (double)db_int(st, 3));
            json_set_num(o, "imported_at", (double)db_int(st, 4));
        }
        db_finalize(st);
    }
    pthread_mutex_unlock(&s->lock);
    return arr;
}

static bool exists_locked(struct dataset_store *s, const char *name)
{
    struct db_stmt *st;
    char err[ERR_LEN];
    bool found = false;
    if (db_prepare(s->db, "SELECT 1 FROM dataset WHERE name = ?1", &st, err) == 0) {
        db_bind_text(st, 1, name);
        found = db_step(st, err) == 1;
        db_finalize(st);
    }
    return found;
}

bool dataset_resolve(struct dataset_store *s, const char *name, char *out, size_t cap)
{
    const char *want = name;
    pthread_mutex_lock(&s->lock);
    bool found = exists_locked(s, want);
    for (size_t i = 0; !found && i < sizeof(aliases) / sizeof(aliases[0]); i++)
        if (strcmp(aliases[i].alias, name) == 0 && exists_locked(s, aliases[i].name)) {
            want = aliases[i].name;
            found = true;
        }
    pthread_mutex_unlock(&s->lock);
    if (found)
        snprintf(out, cap, "%s", want);
    return found;
}

/* Runs sql, binding the dataset's name, then text, or a and b when a >= 0, and collects
 * column 0 of each row: parsed as a JSON document (docs), or as a string. */
static struct json *collect(struct dataset_store *s, const char *name, const char *sql,
                            const char *text, long a, long b, bool docs)
{
    char real[80], err[ERR_LEN];
    if (!dataset_resolve(s, name, real, sizeof(real)))
        return NULL;
    struct json *arr = json_array();
    struct db_stmt *st;
    pthread_mutex_lock(&s->lock);
    if (db_prepare(s->db, sql, &st, err) == 0) {
        db_bind_text(st, 1, real);
        if (text) {
            db_bind_text(st, 2, text);
        } else if (a >= 0) {
            db_bind_int(st, 2, a);
            db_bind_int(st, 3, b);
        }
        while (db_step(st, err) == 1)
            if (docs)
                json_push(arr, json_parse(db_text(st, 0)));
            else
                json_push_str(arr, db_text(st, 0));
        db_finalize(st);
    }
    pthread_mutex_unlock(&s->lock);
    return arr;
}

struct json *dataset_problem(struct dataset_store *s, const char *name, const char *id)
{
    struct json *arr =
        collect(s, name, "SELECT doc FROM problem WHERE dataset = ?1 AND id = ?2", id, 0, 0, true);
    const struct json *one = json_first(arr);
    struct json *p = one && !json_next(one) ? json_dup(one) : NULL;
    json_free(arr);
    return p;
}

struct json *dataset_problems(struct dataset_store *s, const char *name, long offset, long limit)
{
    return collect(s, name,
                   "SELECT doc FROM problem WHERE dataset = ?1 ORDER BY seq LIMIT ?3 OFFSET ?2",
                   NULL, offset < 0 ? 0 : offset, limit < 0 ? -1 : limit, true);
}

struct json *dataset_ids(struct dataset_store *s, const char *name)
{
    return collect(s, name, "SELECT id FROM problem WHERE dataset = ?1 ORDER BY seq", NULL, -1, 0,
                   false);
}
