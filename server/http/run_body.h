/*
 * run_body: the body of POST /v1/runs (`verdict bench --summary json`'s object, store.h's
 * store_put_run), read in one pass and bounded in shape, so that storing and listing a run is
 * linear in its size.
 *
 * Bounds (docs/api.md "POST /v1/runs"): at most RUN_MAX_MEMBERS top-level members, their keys
 * distinct (members verdict does not know are kept in the run's summary, within that count);
 * "dataset" 1..128 bytes; "label", "model" and "source" strings of at most RUN_MAX_TEXT bytes
 * or null ("source": "local" or "server"); "problems", "samples", "judged", "seconds" numbers
 * >= 0; "interrupted" a boolean; "pass_at_k" and "verdicts" objects of at most RUN_MAX_MAP
 * numbers (pass_at_k's may be null) with distinct keys of at most RUN_MAX_KEY bytes
 * (pass_at_k's "1" and "pass@1" are the same key); "results" (required) and "failed" lists of
 * at most RUN_MAX_RESULTS objects, each of at most RUN_MAX_ENTRY members, a result with a
 * "task_id" string of 1..RUN_MAX_TEXT bytes and "verdicts" an object of at most RUN_MAX_MAP
 * members or null; everything but "results" and "failed" (the summary that GET /v1/runs lists,
 * 500 runs a page) at most RUN_MAX_SUMMARY bytes as JSON. Invalid UTF-8 anywhere in the body (and
 * NUL bytes) is replaced by U+FFFD before parsing, so every string stored and answered is valid
 * UTF-8.
 */
#ifndef VERDICT_RUN_BODY_H
#define VERDICT_RUN_BODY_H

#include <stddef.h>

#include "server/util/json.h"

#define RUN_MAX_MEMBERS 32          /* top-level members of a run */
#define RUN_MAX_TEXT    256         /* bytes of label, model, source, a task_id */
#define RUN_MAX_MAP     64          /* members of pass_at_k, verdicts, a result's verdicts */
#define RUN_MAX_KEY     64          /* bytes of a pass_at_k or verdicts key */
#define RUN_MAX_RESULTS 100000      /* entries of "results", of "failed" */
#define RUN_MAX_ENTRY   16          /* members of one entry of "results" or "failed" */
#define RUN_MAX_SUMMARY (64u << 10) /* bytes of the run but results and failed, as JSON */
#define RUN_FIELD_LEN   128         /* bytes of the member named in a refusal (cut to fit) */

/* Parses and checks a run body of len bytes (any bytes, body[len] a NUL as http_body gives).
 * Returns
 * the document (heap, the caller frees it; its object keys are distinct at the top level and
 * in pass_at_k once its keys are read as "pass@k", as store_put_run needs), or NULL with
 * field set to the top-level member at fault ("": the body as a whole) and *why to a static
 * explanation (*why == RUN_BODY_NOT_JSON: not one JSON document; RUN_BODY_OOM: out of
 * memory). O(len) time and memory, whatever the body's shape. */
struct json *run_body_parse(const char *body, size_t len, char field[RUN_FIELD_LEN],
                            const char **why);

extern const char RUN_BODY_OOM[];      /* *why when out of memory */
extern const char RUN_BODY_NOT_JSON[]; /* *why when the body is not JSON */

#endif
