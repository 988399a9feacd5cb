/*
 * query: the one parser of a dataset request's body (SandboxFusion's /list_ids, /get_prompts,
 * /get_prompt_by_id and /submit: ../shared/reference/sandboxfusion-api.md §2-3), from JSON into
 * a struct query. It reads the body only: whether a stored dataset or problem exists is the
 * route's to find out (server/http/api_datasets.c).
 *
 * The body: {dataset, config?: TestConfig, id?, offset?, limit?, completion?}. config is null or
 * an object; its provided_data (rows inline, normalised by server/datasets/loader), language,
 * extra.is_freeform and extra.allow_exit_status are read; custom_extract_logic is refused.
 */
#ifndef VERDICT_QUERY_H
#define VERDICT_QUERY_H

#include <stdbool.h>

#include "runners/err.h"
#include "server/http/request.h"
#include "server/util/json.h"

#define QUERY_MAX_WINDOW 1e15 /* /get_prompts' first row and count, at most */

enum query_route {
    QUERY_IDS,     /* /list_ids */
    QUERY_PROMPTS, /* /get_prompts: a window of rows */
    QUERY_PROMPT,  /* /get_prompt_by_id: one problem */
    QUERY_SUBMIT,  /* /submit: one problem and a completion */
};

struct query {
    const char *dataset; /* the dataset's name or alias (borrowed from the body) */
    /* config.provided_data as problems (heap; NULL: none given, the stored dataset's): every
     * row for QUERY_IDS and QUERY_PROMPTS, the one row for QUERY_PROMPT and QUERY_SUBMIT */
    struct json *provided;
    bool has_id;  /* the body's id is a string or an integer: id holds it */
    char id[256]; /* the problem's id (QUERY_PROMPT, QUERY_SUBMIT without provided_data) */
    long first;   /* QUERY_PROMPTS: the window's first row, 0..QUERY_MAX_WINDOW */
    long count;   /* QUERY_PROMPTS: rows in the window, 0..QUERY_MAX_WINDOW, or -1: to the end */
    const char *completion; /* QUERY_SUBMIT: the completion (borrowed) */
    const char *language;   /* QUERY_SUBMIT: config.language (borrowed), or NULL */
    int freeform;           /* QUERY_SUBMIT: config.extra.is_freeform: 1, 0, or -1 when not given */
    bool allow_exit_status; /* QUERY_SUBMIT: config.extra.allow_exit_status is true (request.c) */
    char detail[ERR_LEN + 40]; /* a 400's detail */
};

/* Reads body (an object holding a NUL-free JSON body, as api_read_body parsed it) for route into
 * q, whose pointers borrow from body. Returns 0 (release q with query_fini), or -EINVAL for a
 * 422 (e: FastAPI's validation error), -EBADMSG for a 400 (q->detail says why: a provided row
 * that is no problem), -ENOMEM; q holds nothing to release then. */
int query_parse(const struct json *body, enum query_route route, struct query *q,
                struct request_error *e);

void query_fini(struct query *q);

#endif
