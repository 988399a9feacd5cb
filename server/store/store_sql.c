/*
 * store_sql: the store's SQL, run by store.c's threads: the schema and its migrations, the
 * batched inserts, retention, and the queries that answer the JSON routes.
 *
 * Tables: `submission` (one row per judged request, id = the id store_put_submission gave,
 * code as a blob cut at STORE_MAX_CODE, detail as JSON text) and `run` (one row per benchmark
 * run: the summary without its per-problem results in `summary`, {"results", "failed"} in
 * `results`, so that listing runs reads little). The schema's version is kept in
 * `schema_version(module, version)` under the module "store", beside the dataset registry's
 * tables in the same file; `migrations` lists the steps, each applied once, in order, in one
 * transaction with the version's update.
 *
 * List queries are keyset-paged: newest first, `id < before`, limit + 1 rows read to know
 * whether there is a next page. Filters are ANDed; each is an indexed (column, id) pair.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/store/store_internal.h"

/* migrations[v - 1] takes the schema from version v - 1 to v. */
static const char *const migrations[] = {
    /* 1: the tables */
    "CREATE TABLE submission ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, route TEXT, client TEXT,"
    "  label TEXT, language TEXT, dataset TEXT, problem TEXT, verdict TEXT, reward REAL,"
    "  passed INTEGER, total INTEGER, cpu_ms INTEGER, wall_ms INTEGER, memory_kib INTEGER,"
    "  compiled INTEGER, cached INTEGER, code_sha256 TEXT, code_bytes INTEGER, code BLOB,"
    "  code_truncated INTEGER NOT NULL DEFAULT 0, detail TEXT);"
    "CREATE TABLE run ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, dataset TEXT, label TEXT,"
    "  source TEXT, model TEXT, summary TEXT NOT NULL, results TEXT NOT NULL);"
    "CREATE INDEX submission_at ON submission(at);",
    /* 2: an index per filter, for keyset paging with a filter, and one for the stats */
    "CREATE INDEX submission_language ON submission(language, id);"
    "CREATE INDEX submission_verdict ON submission(verdict, id);"
    "CREATE INDEX submission_dataset ON submission(dataset, id);"
    "CREATE INDEX submission_route ON submission(route, id);"
    "CREATE INDEX submission_label ON submission(label, id);"
    "CREATE INDEX submission_client ON submission(client, id);"
    "CREATE INDEX submission_problem ON submission(dataset, problem, verdict);"
    "CREATE INDEX run_dataset ON run(dataset, id);",
    /* 3: how each submission's tests were decided (judge_grading_name; NULL where none
     * decides, and for the rows kept before it was recorded), and its filter's index */
    "ALTER TABLE submission ADD COLUMN grading TEXT;"
    "CREATE INDEX submission_grading ON submission(grading, id);",
};

_Static_assert(sizeof(migrations) / sizeof(migrations[0]) == STORE_SCHEMA_VERSION,
               "one migration per schema version");

static int64_t one_int(struct db *d, const char *sql, int64_t none, char err[ERR_LEN])
{
    struct db_stmt *st;
    int64_t v = none;
    if (db_prepare(d, sql, &st, err) < 0)
        return none;
    if (db_step(st, err) == 1 && !db_is_null(st, 0))
        v = db_int(st, 0);
    db_finalize(st);
    return v;
}

int sql_migrate(struct db *d, char err[ERR_LEN])
{
    char ignored[ERR_LEN];
    int rc = db_exec(d,
                     "CREATE TABLE IF NOT EXISTS schema_version ("
                     "  module TEXT PRIMARY KEY, version INTEGER NOT NULL);"
                     "BEGIN IMMEDIATE;",
                     err);
    if (rc < 0)
        return rc;
    err[0] = '\0';
    int64_t v = one_int(d, "SELECT version FROM schema_version WHERE module = 'store'", 0, err);
    if (err[0])
        rc = -EIO;
    else if (v > STORE_SCHEMA_VERSION)
        rc = err_set(err, -EPROTO,
                     "the store's schema is version %lld, newer than this verdict's (%d)",
                     (long long)v, STORE_SCHEMA_VERSION);
    for (; rc == 0 && v < STORE_SCHEMA_VERSION; v++)
        rc = db_exec(d, migrations[v], err);
    if (rc == 0) {
        char sql[128];
        snprintf(sql, sizeof(sql),
                 "INSERT OR REPLACE INTO schema_version (module, version) VALUES ('store', %d)",
                 STORE_SCHEMA_VERSION);
        rc = db_exec(d, sql, err);
    }
    if (rc == 0)
        rc = db_exec(d, "COMMIT", err);
    if (rc < 0)
        db_exec(d, "ROLLBACK", ignored);
    return rc;
}

int sql_next_ids(struct db *d, int64_t *next_sub, int64_t *next_run, char err[ERR_LEN])
{
    err[0] = '\0';
    /* sqlite_sequence keeps the largest id ever used, also once retention deleted it */
    int64_t sub = one_int(d, "SELECT MAX(id) FROM submission", 0, err);
    int64_t seq = one_int(d, "SELECT seq FROM sqlite_sequence WHERE name = 'submission'", 0, err);
    int64_t run = one_int(d, "SELECT MAX(id) FROM run", 0, err);
    int64_t rseq = one_int(d, "SELECT seq FROM sqlite_sequence WHERE name = 'run'", 0, err);
    *next_sub = (sub > seq ? sub : seq) + 1;
    *next_run = (run > rseq ? run : rseq) + 1;
    return err[0] ? -EIO : 0;
}

int sql_seed(struct db *d, int64_t *next_sub, int64_t *next_run, int64_t *rows, char err[ERR_LEN])
{
    int rc = sql_next_ids(d, next_sub, next_run, err);
    if (rc == 0)
        *rows = one_int(d, "SELECT COUNT(*) FROM submission", 0, err);
    return rc == 0 && err[0] ? -EIO : rc;
}

int64_t sql_data_version(struct db *d)
{
    char err[ERR_LEN] = "";
    int64_t v = one_int(d, "PRAGMA data_version", -1, err);
    return err[0] ? -1 : v;
}

int sql_writer_open(struct sql_writer *w, const char *path, char err[ERR_LEN])
{
    memset(w, 0, sizeof(*w));
    int rc = db_open(path, &w->db, err);
    if (rc == 0) /* the WAL cut back to 4 MiB after each checkpoint that empties it */
        rc = db_exec(w->db, "PRAGMA journal_size_limit = 4194304", err);
    if (rc == 0)
        rc = sql_migrate(w->db, err);
    if (rc == 0)
        rc = db_prepare(w->db,
                        "INSERT INTO submission (id, at, route, client, label, language, dataset,"
                        " problem, verdict, reward, passed, total, cpu_ms, wall_ms, memory_kib,"
                        " compiled, cached, code_sha256, code_bytes, code, code_truncated, detail,"
                        " grading)"
                        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,"
                        " ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)",
                        &w->ins_sub, err);
    if (rc == 0)
        rc = db_prepare(w->db,
                        "INSERT INTO run (id, at, dataset, label, source, model, summary, results)"
                        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                        &w->ins_run, err);
    if (rc < 0)
        sql_writer_close(w);
    return rc;
}

void sql_writer_close(struct sql_writer *w)
{
    db_finalize(w->ins_sub);
    db_finalize(w->ins_run);
    db_close(w->db);
    memset(w, 0, sizeof(*w));
}

static int insert_submission(struct sql_writer *w, const struct rec *r, char err[ERR_LEN])
{
    struct db_stmt *st = w->ins_sub;
    db_reset(st);
    db_bind_int(st, 1, r->id);
    db_bind_int(st, 2, r->at_ms);
    db_bind_text(st, 3, r->route);
    db_bind_text(st, 4, r->client);
    db_bind_text(st, 5, r->label);
    db_bind_text(st, 6, r->language);
    db_bind_text(st, 7, r->dataset);
    db_bind_text(st, 8, r->problem);
    db_bind_text(st, 9, r->verdict);
    db_bind_double(st, 10, r->reward);
    db_bind_int(st, 11, r->passed);
    db_bind_int(st, 12, r->total);
    db_bind_int(st, 13, r->cpu_ms);
    db_bind_int(st, 14, r->wall_ms);
    db_bind_int(st, 15, (int64_t)r->memory_kib);
    db_bind_int(st, 16, r->compiled);
    db_bind_int(st, 17, r->cached);
    db_bind_text(st, 18, r->code_sha256[0] ? r->code_sha256 : NULL);
    db_bind_int(st, 19, (int64_t)r->code_bytes);
    db_bind_blob(st, 20, r->code ? r->code : "", r->code_len);
    db_bind_int(st, 21, r->code_len < r->code_bytes);
    db_bind_text(st, 22, r->detail);
    db_bind_text(st, 23, r->grading);
    int rc = db_step(st, err);
    db_reset(st);
    return rc < 0 ? rc : 0;
}

static int insert_run(struct sql_writer *w, struct rec *r, char err[ERR_LEN])
{
    struct db_stmt *st = w->ins_run;
    int rc = 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        db_reset(st);
        if (attempt == 0)
            db_bind_int(st, 1, r->id);
        else
            db_bind_text(st, 1, NULL); /* another process took the id: a fresh one */
        db_bind_int(st, 2, r->at_ms);
        db_bind_text(st, 3, r->dataset);
        db_bind_text(st, 4, r->label);
        db_bind_text(st, 5, r->source);
        db_bind_text(st, 6, r->model);
        db_bind_text(st, 7, r->summary);
        db_bind_text(st, 8, r->results);
        rc = db_step(st, err);
        db_reset(st);
        if (rc != -EEXIST)
            break;
    }
    return rc < 0 ? rc : 0;
}

int sql_insert(struct sql_writer *w, struct rec *list, char err[ERR_LEN])
{
    char ignored[ERR_LEN];
    int rc = db_exec(w->db, "BEGIN IMMEDIATE", err);
    for (struct rec *r = list; rc == 0 && r; r = r->next)
        rc = r->kind == REC_SUBMISSION ? insert_submission(w, r, err) : insert_run(w, r, err);
    if (rc == 0)
        rc = db_exec(w->db, "COMMIT", err);
    if (rc < 0)
        db_exec(w->db, "ROLLBACK", ignored);
    return rc;
}

static int delete_where(struct db *d, const char *sql, int64_t arg, int64_t *deleted,
                        char err[ERR_LEN])
{
    struct db_stmt *st;
    int rc = db_prepare(d, sql, &st, err);
    if (rc < 0)
        return rc;
    db_bind_int(st, 1, arg);
    db_bind_int(st, 2, STORE_RETAIN_STEP);
    rc = db_step(st, err);
    db_finalize(st);
    if (rc < 0)
        return rc;
    *deleted = db_changes(d);
    return 0;
}

int sql_retain(struct sql_writer *w, int64_t cap, int64_t cutoff_ms, int64_t *rows,
               int64_t *deleted, bool *more, char err[ERR_LEN])
{
    int64_t by_rows = 0, by_age = 0;
    int rc = 0;
    *deleted = 0;
    *more = false;
    if (cap >= 0 && *rows > cap) {
        int64_t n = *rows - cap;
        rc = delete_where(w->db,
                          "DELETE FROM submission WHERE id IN (SELECT id FROM submission"
                          " ORDER BY id LIMIT MIN(?1, ?2))",
                          n, &by_rows, err);
        *more = n > STORE_RETAIN_STEP;
    }
    if (rc == 0 && cutoff_ms > 0 && by_rows < STORE_RETAIN_STEP) {
        rc = delete_where(w->db,
                          "DELETE FROM submission WHERE id IN (SELECT id FROM submission"
                          " WHERE at < ?1 LIMIT ?2)",
                          cutoff_ms, &by_age, err);
        *more = *more || by_age == STORE_RETAIN_STEP;
    }
    if (rc < 0)
        return rc;
    *deleted = by_rows + by_age;
    *rows -= *deleted;
    if (*rows < 0)
        *rows = 0;
    return 0;
}

/* ---- queries -------------------------------------------------------------------------------- */

#define ROW_COLUMNS                                                                                \
    "id, at, route, client, label, language, dataset, problem, verdict, reward, passed, total,"    \
    " cpu_ms, wall_ms, memory_kib, compiled, cached, code_sha256, code_bytes, grading"

static const struct {
    const char *name;
    char type; /* i integer, r real, t text, b bool */
} row_fields[] = {
    {"id", 'i'},      {"at", 'i'},          {"route", 't'},      {"client", 't'},
    {"label", 't'},   {"language", 't'},    {"dataset", 't'},    {"problem", 't'},
    {"verdict", 't'}, {"reward", 'r'},      {"passed", 'i'},     {"total", 'i'},
    {"cpu_ms", 'i'},  {"wall_ms", 'i'},     {"memory_kib", 'i'}, {"compiled", 'b'},
    {"cached", 'b'},  {"code_sha256", 't'}, {"code_bytes", 'i'}, {"grading", 't'},
};
#define ROW_NFIELDS ((int)(sizeof(row_fields) / sizeof(row_fields[0])))

static void set_column(struct json *o, const char *key, char type, struct db_stmt *st, int i)
{
    if (db_is_null(st, i)) {
        json_set_null(o, key);
        return;
    }
    switch (type) {
    case 'i':
        json_set_num(o, key, (double)db_int(st, i));
        break;
    case 'r':
        json_set_num(o, key, db_double(st, i));
        break;
    case 'b':
        json_set_bool(o, key, db_int(st, i) != 0);
        break;
    default:
        json_set_str(o, key, db_text(st, i));
    }
}

static struct json *row_of(struct db_stmt *st)
{
    struct json *o = json_object();
    for (int i = 0; o && i < ROW_NFIELDS; i++)
        set_column(o, row_fields[i].name, row_fields[i].type, st, i);
    return o;
}

/* A growing SQL text with its bound values (all text, or the two ints). */
struct select {
    char sql[1024];
    size_t len;
    const char *args[8];
    int nargs;
};

static void sel_add(struct select *q, const char *clause, const char *value)
{
    if (!value || !value[0] || q->nargs >= 8)
        return;
    q->args[q->nargs++] = value;
    q->len += (size_t)snprintf(q->sql + q->len, sizeof(q->sql) - q->len, " AND %s", clause);
    /* each clause names its parameter as ?N, N = nargs */
    char *p = strstr(q->sql + q->len - strlen(clause), "?N");
    while (p) {
        p[1] = (char)('0' + q->nargs);
        p = strstr(p, "?N");
    }
}

static int list_limit(const struct store_filter *f)
{
    return f->limit <= 0 ? 50 : f->limit > STORE_MAX_LIMIT ? STORE_MAX_LIMIT : f->limit;
}

/* Runs q (its text args bound, then ?9 = before when > 0, ?10 = limit + 1) and collects the rows
 * made by make into {key: [...], "next_before": id|null}. */
static int run_list(struct db *d, struct select *q, const struct store_filter *f, const char *key,
                    struct json *(*make)(struct db_stmt *), struct json **doc, char why[ERR_LEN])
{
    int limit = list_limit(f);
    q->len +=
        (size_t)snprintf(q->sql + q->len, sizeof(q->sql) - q->len, "%s ORDER BY id DESC LIMIT ?10",
                         f->before > 0 ? " AND id < ?9" : "");
    struct db_stmt *st;
    int rc = db_prepare(d, q->sql, &st, why);
    if (rc < 0)
        return rc;
    for (int i = 0; i < q->nargs; i++)
        db_bind_text(st, i + 1, q->args[i]);
    db_bind_int(st, 9, f->before);
    db_bind_int(st, 10, limit + 1);
    struct json *out = json_object(), *rows = json_set(out, key, json_array());
    int n = 0;
    int64_t last = 0;
    bool more = false;
    while ((rc = db_step(st, why)) == 1) {
        if (n == limit) {
            more = true;
            break;
        }
        last = db_int(st, 0);
        json_push(rows, make(st));
        n++;
    }
    db_finalize(st);
    if (rc < 0 || !rows) {
        json_free(out);
        return rc < 0 ? rc : err_set(why, -ENOMEM, "out of memory");
    }
    if (more)
        json_set_num(out, "next_before", (double)last);
    else
        json_set_null(out, "next_before");
    *doc = out;
    return 0;
}

/* Filters ANDed, each on an indexed (column, id). The client filter (label or address) is
 * two indexed halves, each cut at the page's length, merged: one OR would sort every row
 * of a busy client for each page. */
static int list_submissions(struct db *d, const struct store_filter *f, struct json **doc,
                            char why[ERR_LEN])
{
    struct select w = {0}, q = {0};
    sel_add(&w, "language = ?N", f->language);
    sel_add(&w, "verdict = ?N", f->verdict);
    sel_add(&w, "dataset = ?N", f->dataset);
    sel_add(&w, "problem = ?N", f->problem);
    sel_add(&w, "route = ?N", f->route);
    sel_add(&w, "grading = ?N", f->grading);
    memcpy(q.args, w.args, sizeof(q.args));
    q.nargs = w.nargs;
    if (f->client && f->client[0]) {
        const char *before = f->before > 0 ? " AND id < ?9" : "";
        int n = ++q.nargs;
        q.args[n - 1] = f->client;
        q.len = (size_t)snprintf(
            q.sql, sizeof(q.sql),
            "SELECT " ROW_COLUMNS " FROM submission WHERE id IN ("
            "SELECT id FROM (SELECT id FROM submission WHERE label = ?%d%s%s"
            " ORDER BY id DESC LIMIT ?10) UNION SELECT id FROM (SELECT id FROM submission"
            " WHERE client = ?%d%s%s ORDER BY id DESC LIMIT ?10))",
            n, w.sql, before, n, w.sql, before);
    } else {
        q.len = (size_t)snprintf(q.sql, sizeof(q.sql),
                                 "SELECT " ROW_COLUMNS " FROM submission WHERE 1%s", w.sql);
    }
    if (q.len >= sizeof(q.sql) - 64)
        return err_set(why, -EINVAL, "filters too long");
    return run_list(d, &q, f, "submissions", row_of, doc, why);
}

static int get_submission(struct db *d, int64_t id, struct json **doc, char why[ERR_LEN])
{
    struct db_stmt *st;
    int rc = db_prepare(d,
                        "SELECT " ROW_COLUMNS ", code, code_truncated, detail FROM submission"
                        " WHERE id = ?1",
                        &st, why);
    if (rc < 0)
        return rc;
    db_bind_int(st, 1, id);
    rc = db_step(st, why);
    if (rc == 1) {
        struct json *o = row_of(st);
        size_t len;
        const void *code = db_blob(st, ROW_NFIELDS, &len);
        json_set_bytes(o, "code", code ? code : "", code ? len : 0);
        json_set_bool(o, "code_truncated", db_int(st, ROW_NFIELDS + 1) != 0);
        const char *text = db_text(st, ROW_NFIELDS + 2);
        struct json *detail = text ? json_parse(text) : NULL;
        json_set(o, "detail", detail ? detail : json_object());
        *doc = o;
        rc = o ? 0 : err_set(why, -ENOMEM, "out of memory");
    } else if (rc == 0) {
        rc = err_set(why, 404, "no submission %lld", (long long)id);
    }
    db_finalize(st);
    return rc;
}

#define RUN_COLUMNS "id, at, dataset, label, source, model, summary"

/* A run's row: its columns, then the summary's members (a column's name in the summary is
 * skipped; the summary's keys are distinct, so each is appended without a lookup). */
static struct json *run_of(struct db_stmt *st)
{
    static const char *const keys[] = {"id", "at", "dataset", "label", "source", "model"};
    struct json *o = json_object();
    for (int i = 0; o && i < 6; i++)
        set_column(o, keys[i], i < 2 ? 'i' : 't', st, i);
    const char *text = db_text(st, 6);
    struct json *sum = text ? json_parse(text) : NULL;
    for (const struct json *m = json_first(sum); o && m; m = json_next(m)) {
        bool column = false;
        for (int i = 0; i < 6 && !column; i++)
            column = strcmp(json_key(m), keys[i]) == 0;
        if (!column)
            json_append(o, json_key(m), json_dup(m));
    }
    json_free(sum);
    return o;
}

static int list_runs(struct db *d, const struct store_filter *f, struct json **doc,
                     char why[ERR_LEN])
{
    struct select q = {0};
    q.len = (size_t)snprintf(q.sql, sizeof(q.sql), "SELECT " RUN_COLUMNS " FROM run WHERE 1");
    sel_add(&q, "dataset = ?N", f->dataset);
    return run_list(d, &q, f, "runs", run_of, doc, why);
}

static int get_run(struct db *d, int64_t id, struct json **doc, char why[ERR_LEN])
{
    struct db_stmt *st;
    int rc = db_prepare(d, "SELECT " RUN_COLUMNS ", results FROM run WHERE id = ?1", &st, why);
    if (rc < 0)
        return rc;
    db_bind_int(st, 1, id);
    rc = db_step(st, why);
    if (rc == 1) {
        struct json *o = run_of(st);
        const char *text = db_text(st, 7);
        struct json *res = text ? json_parse(text) : NULL;
        const struct json *results = json_get(res, "results"), *failed = json_get(res, "failed");
        json_set(o, "results", results ? json_dup(results) : json_array());
        json_set(o, "failed", failed ? json_dup(failed) : json_array());
        json_free(res);
        *doc = o;
        rc = o ? 0 : err_set(why, -ENOMEM, "out of memory");
    } else if (rc == 0) {
        rc = err_set(why, 404, "no run %lld", (long long)id);
    }
    db_finalize(st);
    return rc;
}

/* {key: [{name_key, "submissions", "passed", "by_verdict"}]} from rows (name, verdict, n) in
 * name order. */
static int group_stats(struct db *d, const char *sql, const char *arg, const char *key,
                       const char *name_key, struct json **doc, char why[ERR_LEN])
{
    struct db_stmt *st;
    int rc = db_prepare(d, sql, &st, why);
    if (rc < 0)
        return rc;
    if (arg)
        db_bind_text(st, 1, arg);
    struct json *out = json_object(), *list = json_set(out, key, json_array()), *cur = NULL;
    const char *name = NULL; /* cur's, owned by cur */
    double subs = 0, passed = 0;
    while ((rc = db_step(st, why)) == 1) {
        const char *n = db_text(st, 0), *v = db_text(st, 1);
        if (!cur || !name || strcmp(name, n ? n : "") != 0) {
            if (cur) {
                json_set_num(cur, "submissions", subs);
                json_set_num(cur, "passed", passed);
            }
            cur = json_push(list, json_object());
            json_set_str(cur, name_key, n ? n : "");
            name = json_get_str(cur, name_key);
            json_set(cur, "by_verdict", json_object());
            subs = passed = 0;
        }
        double c = (double)db_int(st, 2);
        subs += c;
        passed += v && strcmp(v, "OK") == 0 ? c : 0;
        json_set_num(json_child(cur, "by_verdict"), v ? v : "none", c);
    }
    if (cur) {
        json_set_num(cur, "submissions", subs);
        json_set_num(cur, "passed", passed);
    }
    db_finalize(st);
    if (rc < 0 || !list) {
        json_free(out);
        return rc < 0 ? rc : err_set(why, -ENOMEM, "out of memory");
    }
    *doc = out;
    return 0;
}

int sql_query(struct db *d, const struct store_filter *f, struct json **doc, char why[ERR_LEN])
{
    *doc = NULL;
    switch (f->kind) {
    case STORE_LIST_SUBMISSIONS:
        return list_submissions(d, f, doc, why);
    case STORE_GET_SUBMISSION:
        return get_submission(d, f->id, doc, why);
    case STORE_LIST_RUNS:
        return list_runs(d, f, doc, why);
    case STORE_GET_RUN:
        return get_run(d, f->id, doc, why);
    case STORE_DATASET_STATS:
        return group_stats(d,
                           "SELECT dataset, verdict, COUNT(*) FROM submission"
                           " WHERE dataset IS NOT NULL GROUP BY dataset, verdict ORDER BY dataset",
                           NULL, "datasets", "name", doc, why);
    case STORE_PROBLEM_STATS:
        if (!f->dataset || !f->dataset[0])
            return err_set(why, -EINVAL, "a dataset is needed");
        return group_stats(d,
                           "SELECT problem, verdict, COUNT(*) FROM submission"
                           " WHERE dataset = ?1 AND problem IS NOT NULL"
                           " GROUP BY problem, verdict ORDER BY problem",
                           f->dataset, "problems", "problem", doc, why);
    }
    return err_set(why, -EINVAL, "unknown query");
}
