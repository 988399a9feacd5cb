/*
 * api_jupyter: SandboxFusion's POST /run_jupyter, on /run_code's way through: the HTTP thread
 * parses (request_parse_jupyter: 422 naming the field) and queues; a worker runs the notebook
 * driver (languages/python/jupyter.py) as one run_only python job in a pooled cell, and
 * render_jupyter answers from the driver's results file. The cells share one process, so
 * their state carries from cell to cell; a request is a new process (stateless, as
 * SandboxFusion's new kernel per request). cell_timeout is the driver's (a timer in the
 * process), total_timeout and memory_limit_MB the sandbox's (CPU and wall limits, the cgroup's
 * memory limit), so a cell that blocks the timer still ends, and the cells finished before the
 * sandbox stopped the run are still answered.
 */
#include "server/http/api_impl.h"

#include <stdlib.h>
#include <string.h>

#include "runners/buf.h"

#include "server/http/render.h"
#include "server/http/request.h"

struct notebook_job {
    struct api *api;
    struct http_exchange *x;
    struct jupyter_request req;
    char *cells; /* the cells' sources, joined, as the stored submission's code (heap) */
    double queued_at;
    double start_by; /* the latest start answered before its client gives up (SandboxFusion
                        waits total_timeout + 10 s; the run may take total_timeout + 9 s) */
};

/* Still queued at start_by: 504, not run (the scheduler's timer, or a worker just after). */
static void notebook_late(struct notebook_job *w)
{
    metrics_observe(w->api->metrics, HIST_QUEUE, api_now_s() - w->queued_at);
    api_reply_detail(w->api, w->x, 504,
                     "the request waited in the queue too long to be answered before its "
                     "client's timeout (total_timeout + 10 s); retry");
    jupyter_request_fini(&w->req);
    free(w->cells);
    free(w);
}

/* The cells' sources, each ended by a newline, with a "# %%" line between (heap), or NULL;
 * past STORE_MAX_CODE bytes the rest is left out (the store keeps no more). */
static char *join_cells(const struct json *cells)
{
    struct buf b;
    buf_init(&b, 0);
    for (const struct json *c = json_first(cells); c && b.len <= STORE_MAX_CODE; c = json_next(c)) {
        const char *src = "";
        json_str(c, &src);
        if (b.len)
            buf_append(&b, "# %%\n", 5);
        buf_append(&b, src, strlen(src));
        if (!*src || src[strlen(src) - 1] != '\n')
            buf_append(&b, "\n", 1);
    }
    return buf_take(&b, NULL);
}

static void notebook_expire(void *arg)
{
    notebook_late(arg);
}

static void notebook_work(void *arg)
{
    struct notebook_job *w = arg;
    struct api *a = w->api;
    double started = api_now_s();
    if (started > w->start_by)
        return notebook_late(w);
    metrics_observe(a->metrics, HIST_QUEUE, started - w->queued_at);
    struct judge_result res;
    judge_run(&a->env, w->req.run, &res);
    struct record_origin o = record_origin_of(w->x);
    o.code = w->cells;
    o.code_len = w->cells ? strlen(w->cells) : 0;
    api_judged(a, w->x, &o, w->req.run, &res);
    struct render_jupyter_ask ask = {w->req.ncells, w->req.cell_timeout_s, w->req.total_timeout_s,
                                     w->req.memory_mb};
    struct json *d = render_jupyter(&res, &ask);
    if (d)
        api_reply_json(a, w->x, 200, d);
    else
        api_reply_detail(a, w->x, 500, "out of memory");
    judge_result_fini(&res);
    jupyter_request_fini(&w->req);
    free(w->cells);
    free(w);
}

void api_run_jupyter(struct api *a, struct http_exchange *x)
{
    struct json *body = api_read_body(a, x);
    if (!body)
        return;
    struct request_error e;
    struct notebook_job *w = calloc(1, sizeof(*w));
    if (!w) {
        json_free(body);
        api_reply_detail(a, x, 500, "out of memory");
        return;
    }
    int rc = request_parse_jupyter(a->cfg.langs, body, &w->req, &e);
    if (rc == 0)
        w->cells = join_cells(json_get(body, "cells"));
    json_free(body);
    if (rc < 0) {
        free(w);
        api_reply_error(a, x, &e);
        return;
    }
    w->api = a;
    w->x = x;
    w->queued_at = api_now_s();
    w->start_by =
        w->queued_at + 10.0 -
        (double)(w->req.run->limits.backstop_ms - (int64_t)(w->req.total_timeout_s * 1000)) /
            1000.0;
    if ((rc = api_queue(a, x, SCHED_WALL, 1, w->start_by, notebook_work, notebook_expire, w)) == 0)
        return; /* answered by a worker; the connection waits suspended */
    jupyter_request_fini(&w->req);
    free(w->cells);
    free(w);
    api_reply_busy(a, x, rc);
}
