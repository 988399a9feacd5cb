/*
 * loader_contests: SandboxFusion's CodeContests rows as stdio problems. A row's test field is
 * itself JSON text, a list of {input: {stdin}, output: {stdout}}, parsed here; its labels
 * field (JSON text too) becomes the labels. Compared as SandboxFusion does: lines stripped,
 * case ignored. Rows whose tests are asset bundles (python_gpu, torch) are -EOPNOTSUPP.
 */
#include <errno.h>

#include "server/datasets/loader_impl.h"

int loader_norm_code_contests(const struct loader_ctx *c, const struct json *r, struct json **out)
{
    char id[64];
    const char *content, *test, *labels;
    if (loader_need_id(c, r, "id", id, sizeof(id)) || loader_need_str(c, r, "content", &content) ||
        loader_need_str(c, r, "test", &test))
        return -EINVAL;
    struct json *t = json_parse(test);
    if (!json_is_array(t)) {
        int rc = json_get(t, "asset")
                     ? err_set(c->err, -EOPNOTSUPP,
                               "%.150s: its tests are SandboxFusion asset bundles (python_gpu, "
                               "torch), which verdict does not run",
                               c->file)
                     : loader_bad(c, "test",
                                  "must be a JSON list of {input: {stdin}, output: {stdout}}");
        json_free(t);
        return rc;
    }
    struct json *p = loader_new_problem(id, content, "python", "", "stdio", 5000, 512);
    struct json *tests = json_set(p, "tests", json_array());
    for (const struct json *e = json_first(t); e; e = json_next(e)) {
        const char *in, *want;
        if (!json_str(json_get(json_get(e, "input"), "stdin"), &in) ||
            !json_str(json_get(json_get(e, "output"), "stdout"), &want)) {
            json_free(t);
            json_free(p);
            return loader_bad(c, "test", "each test is {input: {stdin}, output: {stdout}}");
        }
        struct json *o = json_push(tests, json_object());
        json_set_str(o, "stdin", in);
        json_set_str(o, "expected", want);
    }
    json_free(t);
    /* SandboxFusion's check: lines stripped, compared without regard to case. */
    struct json *cmp = json_set(p, "compare", json_object());
    json_set_str(cmp, "mode", "nocase");
    if (json_str(json_get(r, "labels"), &labels)) {
        struct json *l = json_parse(labels);
        if (json_is_object(l)) {
            json_set(p, "labels", l);
            l = NULL;
        }
        json_free(l);
    }
    *out = p;
    return 0;
}
