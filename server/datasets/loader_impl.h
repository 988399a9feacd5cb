/*
 * loader_impl: what the loader's source files share; not a contract for other modules (they
 * use server/datasets/loader.h).
 *
 *   loader.c            the problem model's builders, format detection, the record readers
 *   loader_humaneval.c  HumanEval, HumanEval-X, MultiPL-E, McEval (harness sources)
 *   loader_mbpp.c       MBPP, full and sanitized
 *   loader_contests.c   SandboxFusion's CodeContests rows (stdin/stdout)
 *   loader_dir.c        problem directories (problems/README.md)
 *   loader_source.c     fingerprints and the names of sources found in a directory
 */
#ifndef VERDICT_LOADER_IMPL_H
#define VERDICT_LOADER_IMPL_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>

#include "server/datasets/loader.h"

/* Where a record came from, for errors: file, then line (jsonl) or index (json array). */
struct loader_ctx {
    const char *file;
    long where;
    bool lines;
    char *err; /* ERR_LEN bytes */
};

/* Sets c->err to "FILE:line N: field "F": what" and returns -EINVAL. */
int loader_bad(const struct loader_ctx *c, const char *field, const char *what);

/* The string field of rec in *out (borrowed), or loader_bad (missing / not a string). */
int loader_need_str(const struct loader_ctx *c, const struct json *rec, const char *field,
                    const char **out);

/* A non-empty id (string or integer) as a string in out, or loader_bad. */
int loader_need_id(const struct loader_ctx *c, const struct json *rec, const char *field, char *out,
                   size_t cap);

/* a b c d concatenated (NULLs as ""), heap; NULL when out of memory. */
char *loader_cat(const char *a, const char *b, const char *c, const char *d);

/* The function that text (a prompt or declaration ending in a signature) declares last, in
 * out ("" when none). */
void loader_guess_entry(const char *text, char *out, size_t cap);

/* text up to the start of the last line that declares entry (heap; the whole text when no
 * line does), for completions that define the function themselves. */
char *loader_before_signature(const char *text, const char *entry);

/* A new problem of the model (loader.h) with empty solutions, stop and labels. */
struct json *loader_new_problem(const char *id, const char *prompt, const char *lang,
                                const char *entry, const char *kind, long time_ms, long memory_mb);

/* Sets before, preamble and after, taking ownership of the three strings; -ENOMEM when one
 * is NULL. */
int loader_set_harness(struct json *p, char *before, char *preamble, char *after);

void loader_set_solution(struct json *p, const char *lang, const char *code);

/* The normalisers: one record as a problem in *out (heap, also on an error, when it may be
 * partial), or a negative errno with c->err (-ENOMEM without it). */
int loader_norm_humaneval(const struct loader_ctx *c, const struct json *r, struct json **out);
int loader_norm_humanevalx(const struct loader_ctx *c, const struct json *r, struct json **out);
int loader_norm_multiple(const struct loader_ctx *c, const struct json *r, struct json **out);
int loader_norm_mceval(const struct loader_ctx *c, const struct json *r, struct json **out);
int loader_norm_mbpp_full(const struct loader_ctx *c, const struct json *r, struct json **out);
int loader_norm_mbpp_sanitized(const struct loader_ctx *c, const struct json *r, struct json **out);
int loader_norm_code_contests(const struct loader_ctx *c, const struct json *r, struct json **out);

/* Appends the problems of the problem directories under dir to arr; returns their number or
 * a negative errno with err. */
int loader_read_problem_set(const char *dir, struct json *arr, char err[ERR_LEN]);

/* snprintf for paths: false when the path does not fit. */
bool loader_pathf(char *out, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A whole text file of at most cap bytes (heap); a NUL byte in it is -EINVAL. */
int loader_read_text(const char *path, size_t cap, char **out, char err[ERR_LEN]);

/* scandir filter: names not starting with '.'. */
int loader_visible(const struct dirent *d);

bool loader_is_dir(const char *path);

#endif
