/* Unit tests for server/http/record: a judged request's detail JSON (excerpts bounded and cut
 * on a character's boundary, invalid UTF-8 replaced, the whole under STORE_MAX_DETAIL with the
 * tests dropped past it counted). */
#include "server/http/record.h"

#include <stdlib.h>
#include <string.h>

#include "server/util/json.h"
#include "test.h"

static uint8_t *bytes(const char *unit, size_t n, size_t *len)
{
    size_t u = strlen(unit);
    uint8_t *p = malloc(u * n + 1);
    for (size_t i = 0; i < n; i++)
        memcpy(p + i * u, unit, u);
    *len = u * n;
    return p;
}

/* A request and result of n tests, each with in, want, out and err of `size` bytes. */
static void make(int n, size_t size, struct judge_request **req, struct judge_result *res)
{
    *req = judge_request_new();
    (*req)->code = strdup("print(input())");
    (*req)->ntests = n;
    (*req)->tests = calloc((size_t)n, sizeof(*(*req)->tests));
    memset(res, 0, sizeof(*res));
    res->ntests = res->total = n;
    res->tests = calloc((size_t)n, sizeof(*res->tests));
    for (int i = 0; i < n; i++) {
        struct judge_test *t = &(*req)->tests[i];
        t->in = bytes("i", size, &t->in_len);
        t->want = bytes("w", size, &t->want_len);
        struct judge_test_result *r = &res->tests[i];
        r->index = i;
        r->verdict = i % 2 ? VERDICT_WA : VERDICT_OK;
        r->out = bytes("o", size, &r->out_len);
        r->err = bytes("e", size, &r->err_len);
        if (r->verdict != VERDICT_OK)
            strcpy(r->reason, "line 1 differs");
    }
}

/* The detail, parsed (NULL when it is not valid JSON under STORE_MAX_DETAIL). */
static struct json *detail_of(const struct judge_request *req, const struct judge_result *res)
{
    char *text = record_detail(req, res);
    struct json *d = text && strlen(text) <= STORE_MAX_DETAIL ? json_parse(text) : NULL;
    free(text);
    return d;
}

static void test_small(void)
{
    struct judge_request *req;
    struct judge_result res;
    make(2, 10, &req, &res);
    struct json *d = detail_of(req, &res);
    ASSERT_NOT_NULL(d);
    const struct json *tests = json_get(d, "tests");
    ASSERT_INT_EQ(json_len(tests), 2);
    const struct json *t1 = json_at(tests, 1);
    ASSERT_STR_EQ(json_get_str(t1, "stdin"), "iiiiiiiiii");
    ASSERT_STR_EQ(json_get_str(t1, "expected"), "wwwwwwwwww");
    ASSERT_STR_EQ(json_get_str(t1, "stdout"), "oooooooooo");
    ASSERT_STR_EQ(json_get_str(t1, "verdict"), "WA");
    ASSERT_STR_EQ(json_get_str(t1, "reason"), "line 1 differs");
    ASSERT_NULL(json_get(json_at(tests, 0), "reason"));
    bool cut = true;
    ASSERT_TRUE(json_bool(json_get(t1, "stdout_truncated"), &cut) && !cut);
    double dropped = -1;
    ASSERT_TRUE(json_num(json_get(d, "tests_dropped"), &dropped) && dropped == 0);
    ASSERT_NOT_NULL(json_get(d, "compile"));
    ASSERT_NOT_NULL(json_get(d, "limits"));
    json_free(d);
    judge_result_fini(&res);
    judge_request_free(req);
}

static void test_excerpt_cut_on_a_character(void)
{
    struct judge_request *req;
    struct judge_result res;
    make(1, 1, &req, &res);
    free(res.tests[0].out);
    res.tests[0].out = bytes("\xc3\xa9", 3000, &res.tests[0].out_len); /* é: 6000 bytes */
    free(res.tests[0].err);
    res.tests[0].err = bytes("\xff", 5, &res.tests[0].err_len);
    struct json *d = detail_of(req, &res);
    ASSERT_NOT_NULL(d);
    const struct json *t = json_at(json_get(d, "tests"), 0);
    const char *out = json_get_str(t, "stdout");
    ASSERT_TRUE(strlen(out) <= RECORD_EXCERPT && strlen(out) >= RECORD_EXCERPT - 2);
    ASSERT_TRUE(strlen(out) % 2 == 0); /* whole characters only */
    ASSERT_NULL(strstr(out, "\xef\xbf\xbd"));
    bool cut = false;
    ASSERT_TRUE(json_bool(json_get(t, "stdout_truncated"), &cut) && cut);
    ASSERT_STR_EQ(json_get_str(t, "stderr"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
                                             "\xef\xbf\xbd");
    json_free(d);
    judge_result_fini(&res);
    judge_request_free(req);
}

static void test_many_big_tests_stay_under_the_cap(void)
{
    struct judge_request *req;
    struct judge_result res;
    make(JUDGE_MAX_TESTS, 8192, &req, &res);
    struct json *d = detail_of(req, &res);
    ASSERT_NOT_NULL(d);
    double dropped = -1;
    ASSERT_TRUE(json_num(json_get(d, "tests_dropped"), &dropped));
    int kept = json_len(json_get(d, "tests"));
    ASSERT_INT_EQ(kept + (int)dropped, JUDGE_MAX_TESTS);
    ASSERT_TRUE(kept > 0 && dropped > 0);
    /* the failed tests (every odd one) are kept before the passed ones, in index order */
    int failed = 0, last = -1;
    for (const struct json *t = json_first(json_get(d, "tests")); t; t = json_next(t)) {
        double index = -1;
        json_num(json_get(t, "index"), &index);
        ASSERT_TRUE((int)index > last);
        last = (int)index;
        failed += strcmp(json_get_str(t, "verdict"), "WA") == 0;
    }
    ASSERT_TRUE(failed == kept || failed == JUDGE_MAX_TESTS / 2);
    json_free(d);
    judge_result_fini(&res);
    judge_request_free(req);
}

int main(void)
{
    TEST_RUN(test_small);
    TEST_RUN(test_excerpt_cut_on_a_character);
    TEST_RUN(test_many_big_tests_stay_under_the_cap);
    return TEST_EXIT();
}
