/*
 * db: a thin layer over SQLite: errors become negative errnos with SQLite's message in err.
 */
#include "server/store/db.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>

struct db {
    sqlite3 *h;
};

struct db_stmt {
    sqlite3_stmt *h;
    struct db *d;
};

/* SQLite's result codes as errnos: the disk is full (-ENOSPC), the database is locked by
 * another connection (-EBUSY), the file is corrupt, not a database or unreadable (-EIO), a
 * constraint failed (-EEXIST); anything else -EIO. */
static int errno_of(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_FULL:
        return -ENOSPC;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return -EBUSY;
    case SQLITE_NOMEM:
        return -ENOMEM;
    case SQLITE_CONSTRAINT:
        return -EEXIST;
    case SQLITE_CANTOPEN:
        return -ENOENT;
    case SQLITE_READONLY:
        return -EROFS;
    default: /* SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_IOERR, ... */
        return -EIO;
    }
}

static int fail(struct db *d, char err[ERR_LEN], const char *what)
{
    int rc = d && d->h ? errno_of(sqlite3_extended_errcode(d->h)) : -EIO;
    return err_set(err, rc, "%s: %s", what, d && d->h ? sqlite3_errmsg(d->h) : "sqlite");
}

int db_open(const char *path, struct db **out, char err[ERR_LEN])
{
    struct db *d = calloc(1, sizeof(*d));
    if (!d)
        return err_set(err, -ENOMEM, "out of memory");
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    int orc = sqlite3_open_v2(path, &d->h, flags, NULL);
    if (orc != SQLITE_OK) {
        int rc = err_set(err, errno_of(orc), "open %.150s: %s", path,
                         d->h ? sqlite3_errmsg(d->h) : "out of memory");
        db_close(d);
        return rc;
    }
    sqlite3_busy_timeout(d->h, 10000);
    sqlite3_extended_result_codes(d->h, 1);
    int rc = db_exec(d,
                     "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                     "PRAGMA foreign_keys=ON;",
                     err);
    if (rc < 0) {
        db_close(d);
        return rc;
    }
    *out = d;
    return 0;
}

int db_exec(struct db *d, const char *sql, char err[ERR_LEN])
{
    char *msg = NULL;
    int erc = sqlite3_exec(d->h, sql, NULL, NULL, &msg);
    if (erc == SQLITE_OK)
        return 0;
    int rc = err_set(err, errno_of(sqlite3_extended_errcode(d->h)), "sqlite: %s",
                     msg ? msg : sqlite3_errmsg(d->h));
    sqlite3_free(msg);
    return rc;
}

int db_prepare(struct db *d, const char *sql, struct db_stmt **out, char err[ERR_LEN])
{
    struct db_stmt *s = calloc(1, sizeof(*s));
    if (!s)
        return err_set(err, -ENOMEM, "out of memory");
    s->d = d;
    if (sqlite3_prepare_v2(d->h, sql, -1, &s->h, NULL) != SQLITE_OK) {
        free(s);
        return fail(d, err, "prepare");
    }
    *out = s;
    return 0;
}

int db_bind_text(struct db_stmt *s, int i, const char *text)
{
    int rc =
        text ? sqlite3_bind_text(s->h, i, text, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(s->h, i);
    return rc == SQLITE_OK ? 0 : -EINVAL;
}

int db_bind_int(struct db_stmt *s, int i, int64_t v)
{
    return sqlite3_bind_int64(s->h, i, v) == SQLITE_OK ? 0 : -EINVAL;
}

int db_bind_double(struct db_stmt *s, int i, double v)
{
    return sqlite3_bind_double(s->h, i, v) == SQLITE_OK ? 0 : -EINVAL;
}

int db_bind_blob(struct db_stmt *s, int i, const void *data, size_t len)
{
    int rc = data ? sqlite3_bind_blob64(s->h, i, data, len, SQLITE_TRANSIENT)
                  : sqlite3_bind_null(s->h, i);
    return rc == SQLITE_OK ? 0 : -EINVAL;
}

int db_step(struct db_stmt *s, char err[ERR_LEN])
{
    int rc = sqlite3_step(s->h);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    return fail(s->d, err, "step");
}

const char *db_text(struct db_stmt *s, int i)
{
    return (const char *)sqlite3_column_text(s->h, i);
}

int64_t db_int(struct db_stmt *s, int i)
{
    return sqlite3_column_int64(s->h, i);
}

double db_double(struct db_stmt *s, int i)
{
    return sqlite3_column_double(s->h, i);
}

const void *db_blob(struct db_stmt *s, int i, size_t *len)
{
    const void *p = sqlite3_column_blob(s->h, i);
    *len = (size_t)sqlite3_column_bytes(s->h, i);
    return p;
}

bool db_is_null(struct db_stmt *s, int i)
{
    return sqlite3_column_type(s->h, i) == SQLITE_NULL;
}

void db_reset(struct db_stmt *s)
{
    sqlite3_reset(s->h);
}

void db_finalize(struct db_stmt *s)
{
    if (!s)
        return;
    sqlite3_finalize(s->h);
    free(s);
}

int64_t db_changes(struct db *d)
{
    return sqlite3_changes64(d->h);
}

void db_close(struct db *d)
{
    if (!d)
        return;
    sqlite3_close(d->h);
    free(d);
}
