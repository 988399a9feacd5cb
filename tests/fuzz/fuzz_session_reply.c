/*
 * fuzz_session_reply: a Python session's reply frame as the server takes it. The interpreter
 * runs in the session's cell with the cells' code, so the frame it writes on fd 4 is the cells'
 * to forge: the server parses it within json_sandbox_budget(SESSION_REPLY_MAX) (as
 * server/judge/session.c's run_call does) and renders the call's answer from it
 * (render_session_call, server/http/render.h). The whole input is the frame's JSON.
 *
 * Invariants: the parse answers 0 with a tree, -E2BIG naming one of its four caps (and then
 * nothing), or -EINVAL; the budget taken is never more than it held. The answer always comes
 * back and renders as valid JSON and valid UTF-8 (forged strings' invalid sequences are
 * U+FFFD); its cells each have string stdout and stderr, list display and error, booleans
 * executed and output_truncated; stdout and stderr are strings, display a list; its rendering is
 * at most twice the reply's rendered budget (the call's display repeats its cells') plus a
 * fixed part per cell.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "runners/session.h"
#include "server/http/render.h"
#include "server/http/request.h"

static void check_parse(int rc, const struct json *reply, const struct json_budget *b)
{
    const struct json_budget full = json_sandbox_budget(SESSION_REPLY_MAX);
    FUZZ_CHECK(rc == 0 || rc == -E2BIG || rc == -EINVAL);
    FUZZ_CHECK((rc == 0) == (reply != NULL));
    FUZZ_CHECK(b->bytes <= full.bytes && b->nodes <= full.nodes && b->out <= full.out);
    if (rc == -E2BIG) {
        FUZZ_CHECK(b->over);
        FUZZ_CHECK(!strcmp(b->over, "bytes") || !strcmp(b->over, "values") ||
                   !strcmp(b->over, "rendered bytes") || !strcmp(b->over, "depth"));
        FUZZ_CHECK(b->bytes == full.bytes && b->nodes == full.nodes && b->out == full.out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct lang *python;
    if (!python)
        python = lang_find(fuzz_langs(), "python");
    FUZZ_CHECK(python && session_interpreted(python));
    char *text = fuzz_text(data, size);
    struct session_outcome o = {.call = 1, .verdict = VERDICT_OK};
    struct json_budget b = json_sandbox_budget(SESSION_REPLY_MAX);
    int rc = json_parse_budget(text, strlen(text), &b, &o.reply);
    check_parse(rc, o.reply, &b);
    size_t out = json_sandbox_budget(SESSION_REPLY_MAX).out - b.out;
    free(text);
    o.info.spec.lang = python;
    snprintf(o.info.id, sizeof(o.info.id), "fuzz");
    struct json *d = render_session_call(&o);
    FUZZ_CHECK(d);
    char *answer = json_render(d, false);
    FUZZ_CHECK(answer);
    size_t n = strlen(answer);
    FUZZ_CHECK(fuzz_utf8_ok((const unsigned char *)answer, n));
    struct json *back = json_parse(answer);
    FUZZ_CHECK(back);
    const struct json *cells = json_get(back, "cells");
    FUZZ_CHECK(json_is_array(cells) && json_is_array(json_get(back, "display")));
    FUZZ_CHECK(json_is_string(json_get(back, "stdout")) &&
               json_is_string(json_get(back, "stderr")));
    size_t ncells = 0;
    for (const struct json *c = json_first(cells); c; c = json_next(c), ncells++) {
        bool v;
        FUZZ_CHECK(json_is_string(json_get(c, "stdout")) && json_is_string(json_get(c, "stderr")));
        FUZZ_CHECK(json_is_array(json_get(c, "display")) && json_is_array(json_get(c, "error")));
        FUZZ_CHECK(json_bool(json_get(c, "executed"), &v));
        FUZZ_CHECK(json_bool(json_get(c, "output_truncated"), &v));
    }
    FUZZ_CHECK(n <= 2 * out + 128 * ncells + 8192);
    json_free(back);
    free(answer);
    json_free(d);
    session_outcome_fini(&o);
    return 0;
}
