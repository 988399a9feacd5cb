/*
 * store_internal: what server/store/store.c (the threads), store_rec.c (the queued records)
 * and store_sql.c (the schema, the writes and the queries) share. Private to the store module.
 */
#ifndef VERDICT_STORE_INTERNAL_H
#define VERDICT_STORE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "server/store/db.h"
#include "server/store/store.h"

#define STORE_SCHEMA_VERSION 3   /* the newest migration (store_sql.c) */
#define STORE_RETAIN_STEP    500 /* rows deleted by retention per transaction at most */

enum rec_kind { REC_SUBMISSION, REC_RUN };

/* One queued record, every string its own copy (NULL for none). */
struct rec {
    struct rec *next;
    enum rec_kind kind;
    int64_t id;
    uint64_t seq;      /* put order: store_flush waits for a seq to be done */
    int64_t queued_ms; /* when it was queued, ms of CLOCK_MONOTONIC */
    int64_t at_ms;
    size_t bytes; /* memory held, for the queue's byte bound */
    /* both kinds */
    char *dataset, *label;
    /* submission */
    char *route, *client, *language, *problem, *verdict, *grading, *detail;
    char *code;
    size_t code_len;   /* bytes kept in code */
    size_t code_bytes; /* the whole code's length */
    char code_sha256[65];
    double reward;
    int passed, total;
    int64_t cpu_ms, wall_ms;
    uint64_t memory_kib;
    bool compiled, cached;
    /* run */
    char *source, *model;
    char *summary, *results; /* JSON texts */
};

/* Copies (store_rec.c): NULL when out of memory. rec_run reads doc (the caller frees it). */
struct rec *rec_submission(const struct store_submission *sub);
struct rec *rec_run(const struct json *doc);
void rec_free(struct rec *r); /* NULL: no-op */
void rec_free_list(struct rec *r);

/* The writer's connection and its prepared statements. */
struct sql_writer {
    struct db *db;
    struct db_stmt *ins_sub, *ins_run;
};

/* Migrates the database at d to STORE_SCHEMA_VERSION (one transaction). */
int sql_migrate(struct db *d, char err[ERR_LEN]);

/* The next free ids (past every id the tables ever held), and with sql_seed the number of
 * submissions kept. */
int sql_next_ids(struct db *d, int64_t *next_sub, int64_t *next_run, char err[ERR_LEN]);
int sql_seed(struct db *d, int64_t *next_sub, int64_t *next_run, int64_t *rows, char err[ERR_LEN]);

/* PRAGMA data_version: changes when another connection commits (-1: unreadable). */
int64_t sql_data_version(struct db *d);

int sql_writer_open(struct sql_writer *w, const char *path, char err[ERR_LEN]);
void sql_writer_close(struct sql_writer *w);

/* Inserts the records of list (linked by next) in one transaction; on failure nothing of it
 * is kept. A run whose id another process took meanwhile is stored under a fresh id. */
int sql_insert(struct sql_writer *w, struct rec *list, char err[ERR_LEN]);

/* One retention step (one transaction): deletes the oldest submissions beyond cap (when
 * cap >= 0; *rows is the count kept, updated) or older than cutoff_ms (when > 0), at most
 * STORE_RETAIN_STEP rows. *deleted: rows removed; *more: another step has work. */
int sql_retain(struct sql_writer *w, int64_t cap, int64_t cutoff_ms, int64_t *rows,
               int64_t *deleted, bool *more, char err[ERR_LEN]);

/* Answers a query: 0 with *doc, or a status (404 not found) with why, or a negative errno
 * (a fault of the database) with why. */
int sql_query(struct db *d, const struct store_filter *f, struct json **doc, char why[ERR_LEN]);

#endif
