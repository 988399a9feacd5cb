/*
 * api_session: the session routes (docs/api.md, "Sessions"): POST /v1/sessions, GET and
 * DELETE /v1/sessions/{id}, POST /v1/sessions/{id}/exec, and GET /v1/sessions (behind the
 * dashboard token). The HTTP thread parses and looks the session up (never blocking: the
 * table's one mutex); opening a session (a cell to reserve, maybe to start) and a call (the
 * sandbox) run on the scheduler's WALL workers, as /run_code does.
 */
#include "server/http/api_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "server/http/render.h"
#include "server/http/request.h"

#define LIST_MAX SESSION_MAX
#define ID_SHOWN 12 /* characters of an id GET /v1/sessions shows */

/* The {id} of /v1/sessions/{id}[/exec] into id, or false after a 422 (or 404: no id). */
static bool path_id(struct api *a, struct http_exchange *x, char id[SESSION_ID_LEN + 1])
{
    const char *p = http_path(x) + strlen("/v1/sessions/");
    size_t n = strcspn(p, "/");
    if (n > SESSION_ID_LEN) {
        api_reply_422_in(a, x, "path", "string_pattern_mismatch", "id",
                         "a session id is " SESSION_ID_TEXT);
        return false;
    }
    memcpy(id, p, n);
    id[n] = '\0';
    if (!session_id_ok(id)) {
        api_reply_422_in(a, x, "path", "string_pattern_mismatch", "id",
                         "a session id is " SESSION_ID_TEXT);
        return false;
    }
    return true;
}

/* 404, 409 or 410 for a lookup that did not find an open session. */
static void reply_missing(struct api *a, struct http_exchange *x, enum session_lookup l,
                          enum session_end end)
{
    if (l == LOOKUP_BUSY) {
        api_reply_detail(a, x, 409, "session busy");
        return;
    }
    if (l == LOOKUP_UNKNOWN) {
        api_reply_detail(a, x, 404, "no such session");
        return;
    }
    struct json *d = json_object();
    if (l == LOOKUP_RESTARTED) {
        json_set_str(d, "detail",
                     "not this server's session: it was opened by an earlier run of this "
                     "server (which restarted since: its state is gone), or by another server");
        json_set_str(d, "reason", "restarted");
    } else {
        char msg[96];
        snprintf(msg, sizeof(msg), "session closed (%s)", session_end_name(end));
        json_set_str(d, "detail", msg);
        json_set_str(d, "reason", session_end_name(end));
    }
    api_reply_json(a, x, 410, d);
}

/* A body the parser refused (422 naming the field), or no memory to parse it (500). */
static void refuse(struct api *a, struct http_exchange *x, bool parsed,
                   const struct request_error *e)
{
    if (parsed)
        api_reply_error(a, x, e);
    else
        api_reply_detail(a, x, 500, "out of memory");
}

static bool sessions_on(struct api *a, struct http_exchange *x)
{
    if (a->cfg.sessions)
        return true;
    api_reply_detail(a, x, 503, "sessions are off on this server (--max-sessions 0)");
    return false;
}

/* ---- POST /v1/sessions --------------------------------------------------------------------- */

struct open_job {
    struct api *api;
    struct http_exchange *x;
    struct session_spec spec;
    char client[SESSION_CLIENT_LEN]; /* its label, or its address */
    char peer[PEER_ADDR_LEN];
};

static void open_work(void *arg)
{
    struct open_job *w = arg;
    struct api *a = w->api;
    struct session_info info;
    char err[ERR_LEN] = "";
    int rc = sessions_open(a->cfg.sessions, &w->spec, w->client, w->peer, &info, err);
    if (rc == 0) {
        struct json *d = render_session(&info, NULL, SESSION_ID_LEN);
        if (d)
            api_reply_json(a, w->x, 201, d);
        else
            api_reply_detail(a, w->x, 500, "out of memory");
    } else if (rc == -EDQUOT) { /* this client's own sessions: retrying will not help */
        struct json *d = json_object();
        json_set_str(d, "detail", err);
        json_set_str(d, "reason", "client_sessions");
        api_reply_json(a, w->x, 429, d);
    } else if (rc == -EBUSY || rc == -ESHUTDOWN) {
        http_add_header(w->x, "Retry-After", "1");
        api_reply_detail(a, w->x, 503, err);
    } else {
        api_reply_detail(a, w->x, 500, err);
    }
    free(w);
}

void api_session_open(struct api *a, struct http_exchange *x)
{
    if (!sessions_on(a, x))
        return;
    size_t len;
    http_body(x, &len); /* no body at all: every member's default */
    struct json *body = len ? api_read_body(a, x) : json_object();
    if (!body)
        return;
    struct open_job *w = calloc(1, sizeof(*w));
    struct request_error e;
    struct session_ceilings ceil = sessions_ceilings(a->cfg.sessions);
    int rc = w ? request_parse_session_open(a->cfg.langs, body, &ceil, &w->spec, &e) : -ENOMEM;
    json_free(body);
    if (rc < 0) {
        refuse(a, x, w != NULL, &e);
        free(w);
        return;
    }
    w->api = a;
    w->x = x;
    api_client(a, x, w->peer, w->client, sizeof(w->client));
    if (!w->client[0]) /* no label: shown by its address */
        memcpy(w->client, w->peer, sizeof(w->peer));
    if ((rc = api_queue(a, x, SCHED_WALL, 1, 0, open_work, NULL, w)) == 0)
        return;
    free(w);
    api_reply_busy(a, x, rc);
}

/* ---- POST /v1/sessions/{id}/exec ----------------------------------------------------------- */

struct call_job {
    struct api *api;
    struct http_exchange *x;
    char id[SESSION_ID_LEN + 1];
    struct judge_request *req; /* code, files, fetch; stdin as tests[0] */
    struct json *cells;        /* {"cells": [...]}, or NULL */
    const char **cell_list;
    int64_t timeout_ms;
};

static void call_free(struct call_job *w)
{
    judge_request_free(w->req);
    json_free(w->cells);
    free(w->cell_list);
    free(w);
}

static void call_work(void *arg)
{
    struct call_job *w = arg;
    struct api *a = w->api;
    const struct judge_request *r = w->req;
    struct session_call c = {.code = r->code,
                             .cells = w->cell_list,
                             .ncells = w->cell_list ? json_len(json_get(w->cells, "cells")) : 0,
                             .in = r->tests[0].in,
                             .in_len = r->tests[0].in_len,
                             .files = r->files,
                             .nfiles = r->nfiles,
                             .fetch = (const char *const *)r->fetch,
                             .nfetch = r->nfetch,
                             .timeout_ms = w->timeout_ms};
    struct session_outcome o;
    sessions_call(a->cfg.sessions, w->id, &c, &o);
    metrics_verdict(a->metrics, r->lang, o.verdict);
    struct json *d = render_session_call(&o);
    if (d)
        api_reply_json(a, w->x, 200, d);
    else
        api_reply_detail(a, w->x, 500, "out of memory");
    session_outcome_fini(&o);
    call_free(w);
}

void api_session_exec(struct api *a, struct http_exchange *x)
{
    char id[SESSION_ID_LEN + 1];
    if (!sessions_on(a, x) || !path_id(a, x, id))
        return;
    struct session_info info;
    enum session_end end = SESSION_DELETED;
    enum session_lookup l = sessions_get(a->cfg.sessions, id, &info, &end);
    if (l != LOOKUP_FOUND) {
        reply_missing(a, x, l, end);
        return;
    }
    struct json *body = api_read_body(a, x);
    if (!body)
        return;
    struct call_job *w = calloc(1, sizeof(*w));
    struct request_error e;
    int rc =
        w ? request_parse_session_exec(info.spec.lang, body, &w->req, &w->cells, &w->timeout_ms, &e)
          : -ENOMEM;
    json_free(body);
    if (rc < 0) {
        refuse(a, x, w != NULL, &e);
        free(w);
        return;
    }
    const struct json *cells = json_get(w->cells, "cells");
    int n = json_len(cells);
    if (cells && !(w->cell_list = calloc((size_t)n + 1, sizeof(*w->cell_list)))) {
        call_free(w);
        api_reply_detail(a, x, 500, "out of memory");
        return;
    }
    int i = 0;
    for (const struct json *c = json_first(cells); c; c = json_next(c))
        json_str(c, &w->cell_list[i++]);
    w->api = a;
    w->x = x;
    memcpy(w->id, id, sizeof(w->id));
    if ((l = sessions_begin(a->cfg.sessions, id, &end)) != LOOKUP_FOUND) {
        call_free(w);
        reply_missing(a, x, l, end);
        return;
    }
    if ((rc = api_queue(a, x, SCHED_WALL, 1, 0, call_work, NULL, w)) == 0)
        return;
    sessions_end(a->cfg.sessions, id);
    call_free(w);
    api_reply_busy(a, x, rc);
}

/* ---- GET, DELETE /v1/sessions/{id} --------------------------------------------------------- */

/* The session as it is (GET), or as it was when closed (DELETE). */
static void look(struct api *a, struct http_exchange *x, bool close)
{
    char id[SESSION_ID_LEN + 1];
    if (!sessions_on(a, x) || !path_id(a, x, id))
        return;
    struct session_info info;
    enum session_end end = SESSION_DELETED;
    enum session_lookup l = close ? sessions_delete(a->cfg.sessions, id, &info, &end)
                                  : sessions_get(a->cfg.sessions, id, &info, &end);
    if (l != LOOKUP_FOUND) {
        reply_missing(a, x, l, end);
        return;
    }
    struct json *d = render_session(&info, close ? "closed" : NULL, SESSION_ID_LEN);
    if (d)
        api_reply_json(a, x, 200, d);
    else
        api_reply_detail(a, x, 500, "out of memory");
}

void api_session_get(struct api *a, struct http_exchange *x)
{
    look(a, x, false);
}

void api_session_delete(struct api *a, struct http_exchange *x)
{
    look(a, x, true);
}

/* ---- GET /v1/sessions ---------------------------------------------------------------------- */

struct json *api_sessions_totals(const struct sessions_stats *st)
{
    struct json *t = json_object();
    json_set_str(t, "run", st->run);
    json_set_num(t, "opened", (double)st->opened);
    struct json *closed = json_set(t, "closed", json_object());
    for (int i = 0; i < SESSION_NENDS; i++)
        json_set_num(closed, session_end_name((enum session_end)i), (double)st->closed[i]);
    json_set_num(t, "calls", (double)st->calls);
    json_set_num(t, "refused", (double)st->refused);
    return t;
}

void api_session_list(struct api *a, struct http_exchange *x)
{
    if (!sessions_on(a, x))
        return;
    struct session_info *infos = calloc(LIST_MAX, sizeof(*infos));
    if (!infos) {
        api_reply_detail(a, x, 500, "out of memory");
        return;
    }
    struct sessions_stats st;
    int n = sessions_list(a->cfg.sessions, infos, LIST_MAX, &st);
    struct json *d = json_object();
    json_set_num(d, "open", st.open);
    json_set_num(d, "max", st.max);
    struct json *list = json_set(d, "sessions", json_array());
    for (int i = 0; i < n; i++)
        json_push(list, render_session(&infos[i], NULL, ID_SHOWN));
    json_set(d, "totals", api_sessions_totals(&st));
    free(infos);
    api_reply_json(a, x, 200, d);
}
