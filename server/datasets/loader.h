/*
 * loader: benchmark files as verdict's problems.
 *
 * One reader per file format (jsonl, jsonl.gz, a json array; a directory of problem
 * directories, problems/README.md) and one normaliser per source, chosen from the first
 * record's fields or named: humaneval, mbpp, mbpp_sanitized, humanevalx, multiple, mceval,
 * code_contests, problem_dir. Every problem becomes one JSON object of this model:
 *
 *   id          string (numeric ids become strings)
 *   prompt      the text a model is given
 *   language    the verdict language the program runs as (python, cpp, go_test, rust_test...)
 *   entry_point the function a completion defines ("" for stdin/stdout problems)
 *   kind        "harness" (the program carries its tests; it passes by exiting 0) or
 *               "stdio" (tests are stdin/expected pairs, any language)
 *   before      harness: code placed before a completion that continues the prompt
 *   preamble    harness: code placed before a completion that defines entry_point itself
 *   after       harness: the test code placed after the completion
 *   tests       stdio: [{stdin, expected}]
 *   compare     stdio: {mode, abs_eps, rel_eps} (server/judge/compare's modes)
 *   solutions   {language: reference completion} ({} when the source has none)
 *   stop        strings at which a continuation is cut (MultiPL-E's stop tokens), or []
 *   stop_line   whether a continuation also ends before its first line that starts in column 0
 *               (HumanEval's Python rule: a newline followed by a non-space character)
 *   continues   harness: whether a completion continues the prompt unless /submit is told
 *               otherwise (the HumanEval family, SandboxFusion's pretrain mode), rather than
 *               being an answer the code is extracted from
 *   time_ms, memory_mb   limits per run
 *   labels      the source's other fields worth keeping (difficulty, level, name...)
 *
 * A bad record is an error naming the file, the line (or array index) and the field; nothing
 * is returned for a file with any bad record. Ids are unique within a file (a repeat is an
 * error naming both lines). Reading is linear in the records; bounds: LOADER_MAX_FILE bytes a
 * file, and for problem directories those loader_dir.c lists. A source verdict cannot run
 * (SandboxFusion's torch/python_gpu asset bundles) is -EOPNOTSUPP.
 */
#ifndef VERDICT_LOADER_H
#define VERDICT_LOADER_H

#include <stdbool.h>
#include <stddef.h>

#include "runners/err.h"
#include "server/util/json.h"

#define LOADER_MAX_FILE (256u << 20) /* after decompression */

/* Reads path (a file, or a directory of problem directories) into a JSON array of problems.
 * format: NULL or "" to detect; the format used is written to fmt (cap bytes). Returns the
 * number of problems, or a negative errno with err. */
int loader_read(const char *path, const char *format, struct json **problems, char *fmt, size_t cap,
                char err[ERR_LEN]);

/* One record (a row sent inline, e.g. SandboxFusion's provided_data) as a problem; format
 * NULL or "" to detect. Returns 0 with *problem (heap), or a negative errno with err. */
int loader_record(const struct json *rec, const char *format, struct json **problem,
                  char err[ERR_LEN]);

/* An id given as a string or an integer (SandboxFusion's rows and requests use both), as a
 * string in out (cap bytes). False for another type, a non-integral number, or a string that
 * does not fit. */
bool loader_id(const struct json *v, char *out, size_t cap);

/* The formats loader_read knows, comma-separated (for help and errors). */
const char *loader_formats(void);

/* A fingerprint (64 hex digits) of what loader_read would read at path: its bytes (a
 * directory's files and their names) and the loader's version, so that an unchanged source
 * need not be parsed again. */
int loader_fingerprint(const char *path, char hex[65], char err[ERR_LEN]);

/* The dataset name for a file or problem-set directory found at relpath under a datasets
 * directory ("HumanEval.jsonl.gz" -> "humaneval", "mceval/C.jsonl" -> "mceval_c", a
 * directory "stdio" of problem directories -> "verdict_stdio"); is_dir says which it is.
 * Returns 0, or -ENOENT for a path that is not a dataset (another extension). */
int loader_default_name(const char *relpath, int is_dir, char *name, size_t cap);

/* True when dir holds problem directories (a subdirectory with a problem.json). */
int loader_is_problem_set(const char *dir);

#endif
