/*
 * dataset: the registry of benchmark datasets, stored in SQLite (server/store/db) so that a
 * restart does not parse the sources again.
 *
 * A dataset is a name, the source it was imported from (path, format, fingerprint) and its
 * problems in server/datasets/loader's model, kept in source order. Importing replaces a dataset of
 * the same name in one transaction: a bad file leaves what was there.
 *
 * Threads: every call is serialised on the store's lock, so threads may share one store. Every
 * call also blocks: on SQLite's I/O, on another thread's call, and on another process's write
 * (an import beside a running server) for up to the store's busy timeout (server/store/db,
 * 10 s). Call them from the scheduler's workers or a command, never from the HTTP thread.
 * Costs: an import is linear in the problems; a list of n problems or ids is O(n).
 */
#ifndef VERDICT_DATASET_H
#define VERDICT_DATASET_H

#include <stdbool.h>
#include <stdio.h>

#include "runners/err.h"
#include "server/util/json.h"

struct dataset_store;

/* Opens (creating) the store at path (":memory:" for a private one). */
int dataset_open(const char *path, struct dataset_store **out, char err[ERR_LEN]);

void dataset_close(struct dataset_store *s); /* NULL: no-op */

/* Imports path (a file, or a directory of problem directories) as dataset name; format NULL
 * to detect (server/datasets/loader's names). Returns the number of problems, or a negative errno
 * with err naming the file, line and field. When the source's fingerprint equals the stored
 * one and force is false, nothing is read again and *skipped (may be NULL) is set. */
int dataset_import(struct dataset_store *s, const char *name, const char *path, const char *format,
                   bool force, bool *skipped, char err[ERR_LEN]);

/* Imports every dataset file and problem-set directory under dir, named by
 * loader_default_name, skipping unchanged ones; reports one line per source on log. Returns
 * the number of sources that failed (each reported), or a negative errno when dir cannot be
 * read. */
int dataset_import_dir(struct dataset_store *s, const char *dir, FILE *log, char err[ERR_LEN]);

/* [{name, format, source, problems, imported_at}] in name order. */
struct json *dataset_list(struct dataset_store *s);

/* The stored name for name: itself, or the dataset an alias (SandboxFusion's id, e.g.
 * humaneval_python) stands for. False when there is no such dataset. */
bool dataset_resolve(struct dataset_store *s, const char *name, char *out, size_t cap);

/* One problem (heap, server/datasets/loader's model), or NULL when dataset or id is unknown. */
struct json *dataset_problem(struct dataset_store *s, const char *name, const char *id);

/* Problems offset..offset+limit-1 in source order, as a JSON array; NULL for an unknown
 * dataset. */
struct json *dataset_problems(struct dataset_store *s, const char *name, long offset, long limit);

/* Ids in source order, as a JSON array of strings; NULL for an unknown dataset. */
struct json *dataset_ids(struct dataset_store *s, const char *name);

/* Dataset names must be 1..64 of [a-z0-9_]. */
bool dataset_name_ok(const char *name);

#endif
