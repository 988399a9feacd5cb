/*
 * db: verdict's embedded store; the only module that includes sqlite3.h.
 *
 * One connection per struct db, opened in WAL mode with a busy timeout so that a second
 * process (`verdict datasets import` beside a running server) waits instead of failing. A
 * struct db is not for concurrent use: callers serialise (server/datasets/dataset holds a lock).
 * Statements are prepared, bound, stepped and finalised; text is bound by copy.
 *
 * Failures are negative errnos: -ENOSPC the disk is full, -EBUSY the database is locked by
 * another connection (after the busy timeout), -EIO the file is corrupt, not a database or
 * could not be read or written, -EEXIST a constraint failed, -ENOMEM.
 */
#ifndef VERDICT_DB_H
#define VERDICT_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runners/err.h"

struct db;
struct db_stmt;

/* Opens (creating) the database at path; ":memory:" for a private in-memory one. */
int db_open(const char *path, struct db **out, char err[ERR_LEN]);

/* Runs one or more statements that return no rows. */
int db_exec(struct db *d, const char *sql, char err[ERR_LEN]);

int db_prepare(struct db *d, const char *sql, struct db_stmt **out, char err[ERR_LEN]);

/* Binds parameter i (from 1); text NULL binds NULL. Returns 0 or -EINVAL. */
int db_bind_text(struct db_stmt *s, int i, const char *text);
int db_bind_int(struct db_stmt *s, int i, int64_t v);
int db_bind_double(struct db_stmt *s, int i, double v);
/* Binds len bytes (copied); data NULL binds NULL. */
int db_bind_blob(struct db_stmt *s, int i, const void *data, size_t len);

/* Steps: 1 a row is ready, 0 done, or a negative errno with err. */
int db_step(struct db_stmt *s, char err[ERR_LEN]);

/* Column i (from 0) of the current row; text is NULL for SQL NULL and valid until the next
 * step, reset or finalize. */
const char *db_text(struct db_stmt *s, int i);
int64_t db_int(struct db_stmt *s, int i);
double db_double(struct db_stmt *s, int i);
/* A blob column's bytes (NULL for SQL NULL or an empty blob) and *len; valid like db_text. */
const void *db_blob(struct db_stmt *s, int i, size_t *len);
bool db_is_null(struct db_stmt *s, int i);

/* Makes the statement ready to run again (bindings are kept). */
void db_reset(struct db_stmt *s);

void db_finalize(struct db_stmt *s); /* NULL: no-op */

/* Rows changed by the last INSERT/UPDATE/DELETE. */
int64_t db_changes(struct db *d);

void db_close(struct db *d); /* NULL: no-op */

#endif
