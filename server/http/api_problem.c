/*
 * api_problem: a /v1/judge body (or batch item) that names a stored problem instead of shipping
 * its tests, {"dataset", "problem", "code", ...}, made into the body its harness gives, as
 * /submit builds it (server/datasets/harness), so that a training step sends code only.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "server/datasets/harness.h"
#include "server/datasets/loader.h"
#include "server/http/api_impl.h"

/* What a problem body may set besides dataset, problem, code, language and extract: the
 * judging's own options, copied onto the body the harness gives. */
static const char *const options[] = {"limits", "reward", "stop_on_failure", "allow_exit_status",
                                      NULL};

int api_problem_body(struct api *a, const struct json *body, struct json **out,
                     struct request_error *e)
{
    *out = NULL;
    const struct json *pv = json_is_object(body) ? json_get(body, "problem") : NULL;
    if (!pv)
        return 0;
    const char *dataset = NULL, *code = NULL, *language = NULL;
    char id[256], name[80];
    bool extract = true;
    if (!loader_id(pv, id, sizeof(id)) || !*id) /* as /submit's id: a string or an integer */
        return request_fail(e, "value_error",
                            "problem must be a stored problem's id (a string "
                            "or an integer)",
                            "problem", NULL, NULL);
    if (!json_str(json_get(body, "dataset"), &dataset))
        return request_fail(e, "missing",
                            "a problem needs its dataset (a stored dataset's "
                            "name, as /list_datasets gives it)",
                            "dataset", NULL, NULL);
    if (json_get(body, "tests") || json_get(body, "harness"))
        return request_fail(e, "value_error",
                            "a stored problem brings its own tests: give "
                            "problem or tests/harness, not both",
                            "problem", NULL, NULL);
    if (!json_str(json_get(body, "code"), &code))
        return request_fail(e, "missing", "Field required (the completion to judge)", "code", NULL,
                            NULL);
    const struct json *lv = json_get(body, "language"), *xv = json_get(body, "extract");
    if (lv && !json_is_null(lv) && !json_str(lv, &language))
        return request_fail(e, "string_type", "language must be a string", "language", NULL, NULL);
    if (xv && !json_is_null(xv) && !json_bool(xv, &extract))
        return request_fail(e, "bool_type", "extract must be true or false", "extract", NULL, NULL);
    if (!a->cfg.datasets || !dataset_resolve(a->cfg.datasets, dataset, name, sizeof(name)))
        return request_fail(e, "value_error", "no stored dataset of that name", "dataset", NULL,
                            NULL);
    struct json *p = dataset_problem(a->cfg.datasets, name, id);
    if (!p)
        return request_fail(e, "value_error", "no problem of that id in the dataset", "problem",
                            NULL, NULL);
    struct harness h;
    char err[ERR_LEN];
    int rc =
        harness_build(p, code, language, extract ? HARNESS_EXTRACT : HARNESS_CONTINUE, &h, err);
    json_free(p);
    if (rc < 0) {
        request_fail(e, "value_error", "", "language", NULL, NULL);
        snprintf(e->msg, sizeof(e->msg), "%s", err);
        return -EINVAL;
    }
    for (int i = 0; options[i]; i++) {
        const struct json *v = json_get(body, options[i]);
        if (v && !json_set(h.request, options[i], json_dup(v))) {
            harness_fini(&h);
            return request_fail(e, "memory", "out of memory", options[i], NULL, NULL);
        }
    }
    *out = h.request;
    h.request = NULL;
    harness_fini(&h);
    return 0;
}
