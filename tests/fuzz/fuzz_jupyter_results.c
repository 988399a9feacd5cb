/*
 * fuzz_jupyter_results: the notebook driver's results file as /run_jupyter reads it
 * (render_jupyter, server/http/render.h): the cells write that file, so every byte of it is
 * hostile. Byte 0 picks the request's cell count (1..8); byte 1 how the run ended (OK, TLE,
 * MLE, RE, SE) and whether the stopped cell's stream files came back; the rest is
 * .verdict_jupyter/results.jsonl, read line by line within json_sandbox_budget.
 *
 * Invariants: an answer always comes back, and it renders as valid JSON and valid UTF-8 (each
 * invalid sequence the cells wrote is U+FFFD); it holds exactly the request's cells, each with
 * string stdout and stderr, list display and error, boolean executed and output_truncated; its
 * status is Success, Failed or SandboxError, Success only for a run that finished; its
 * rendering is at most the results' rendered budget (3 bytes a byte of them) plus the streams'
 * worst (6 bytes a byte: \u0001) and a fixed part per cell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "server/http/render.h"
#include "server/http/request.h"

static char RESULTS[] = JUPYTER_RESULTS, OUT[] = JUPYTER_STDOUT, ERR[] = JUPYTER_STDERR;
static const char STREAM[] = "out \x01\x02 \xff\xfe half \xe2\x82";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    static const enum verdict ends[] = {VERDICT_OK, VERDICT_TLE, VERDICT_MLE, VERDICT_RE,
                                        VERDICT_SE};
    int ncells = data[0] % 8 + 1;
    enum verdict v = ends[data[1] % 5];
    bool streams = data[1] & 0x10;
    struct judge_fetched fetched[3] = {
        {.path = RESULTS, .data = (uint8_t *)(uintptr_t)(data + 2), .len = size - 2},
        {.path = OUT, .data = (uint8_t *)(uintptr_t)STREAM, .len = sizeof(STREAM) - 1},
        {.path = ERR, .data = (uint8_t *)(uintptr_t)STREAM, .len = sizeof(STREAM) - 1},
    };
    struct judge_test_result t = {.verdict = v,
                                  .exit_code = v == VERDICT_RE ? 1 : 0,
                                  .nfetched = streams ? 3 : 1,
                                  .fetched = fetched};
    snprintf(t.reason, sizeof(t.reason), "%s", v == VERDICT_SE ? "sandbox \xff fault" : "");
    struct judge_result res = {.status = VERDICT_OK, .ntests = 1, .tests = &t};
    struct render_jupyter_ask ask = {
        .ncells = ncells, .cell_timeout_s = 1, .total_timeout_s = 2, .memory_mb = data[1] & 1};
    struct json *d = render_jupyter(&res, &ask);
    FUZZ_CHECK(d);
    char *text = json_render(d, false);
    FUZZ_CHECK(text);
    size_t n = strlen(text);
    FUZZ_CHECK(fuzz_utf8_ok((const unsigned char *)text, n));
    FUZZ_CHECK(n <= 3 * (size - 2) + 2 * 6 * sizeof(STREAM) + 4096 + 1024 * (size_t)ncells);
    struct json *back = json_parse(text);
    FUZZ_CHECK(back);
    const char *status = json_get_str(back, "status");
    FUZZ_CHECK(status);
    bool ok = strcmp(status, "Success") == 0;
    FUZZ_CHECK(ok || strcmp(status, "Failed") == 0 || strcmp(status, "SandboxError") == 0);
    FUZZ_CHECK(!ok || v == VERDICT_OK);
    FUZZ_CHECK((strcmp(status, "SandboxError") == 0) == (v == VERDICT_SE));
    const struct json *cells = json_get(back, "cells");
    FUZZ_CHECK(json_len(cells) == (v == VERDICT_SE ? 0 : ncells));
    for (const struct json *c = json_first(cells); c; c = json_next(c)) {
        bool b;
        FUZZ_CHECK(json_is_string(json_get(c, "stdout")) && json_is_string(json_get(c, "stderr")));
        FUZZ_CHECK(json_is_array(json_get(c, "display")) && json_is_array(json_get(c, "error")));
        FUZZ_CHECK(json_bool(json_get(c, "executed"), &b));
        FUZZ_CHECK(json_bool(json_get(c, "output_truncated"), &b));
    }
    json_free(back);
    free(text);
    json_free(d);
    return 0;
}
