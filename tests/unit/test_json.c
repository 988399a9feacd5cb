/* Unit tests for server/util/json: building, rendering, parsing, typed reads and iteration. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "server/util/json.h"
#include "test.h"

static void test_build_render(void)
{
    struct json *o = json_object();
    json_set_str(o, "s", "a\"b\n");
    json_set_num(o, "n", 42);
    json_set_bool(o, "b", true);
    json_set_null(o, "z");
    json_set_str(o, "nullstr", NULL);
    struct json *a = json_set(o, "a", json_array());
    json_push_str(a, "x");
    json_push(a, json_object());
    char *text = json_render(o, false);
    ASSERT_STR_EQ(text, "{\"s\":\"a\\\"b\\n\",\"n\":42,\"b\":true,\"z\":null,\"nullstr\":null,"
                        "\"a\":[\"x\",{}]}");
    free(text);
    json_free(o);
}

static void test_null_safety(void)
{
    ASSERT_NULL(json_set_str(NULL, "k", "v"));
    ASSERT_NULL(json_set(NULL, "k", NULL));
    ASSERT_NULL(json_push(NULL, NULL));
    ASSERT_NULL(json_render(NULL, true));
    ASSERT_NULL(json_get(NULL, "k"));
    ASSERT_INT_EQ(json_len(NULL), 0);
    json_free(NULL);
}

static void test_parse_read(void)
{
    struct json *d = json_parse("{\"ready\": false, \"n\": 2.5, \"list\": [1, \"two\"], "
                                "\"s\": \"\\u00e9\"}");
    ASSERT_NOT_NULL(d);
    bool b = true;
    double n = 0;
    const char *s = NULL;
    ASSERT_TRUE(json_bool(json_get(d, "ready"), &b));
    ASSERT_FALSE(b);
    ASSERT_TRUE(json_num(json_get(d, "n"), &n));
    ASSERT_TRUE(n == 2.5);
    ASSERT_INT_EQ(json_len(json_get(d, "list")), 2);
    ASSERT_TRUE(json_str(json_at(json_get(d, "list"), 1), &s));
    ASSERT_STR_EQ(s, "two");
    ASSERT_NULL(json_at(json_get(d, "list"), 2));
    ASSERT_NULL(json_at(json_get(d, "list"), -1));
    ASSERT_TRUE(json_str(json_get(d, "s"), &s));
    ASSERT_STR_EQ(s, "\xc3\xa9");
    ASSERT_FALSE(json_str(json_get(d, "n"), &s)); /* wrong type */
    ASSERT_FALSE(json_num(json_get(d, "missing"), &n));
    ASSERT_NULL(json_get(d, "READY")); /* case-sensitive */
    json_free(d);
}

static void test_parse_bad(void)
{
    ASSERT_NULL(json_parse("{\"a\":"));
    ASSERT_NULL(json_parse("{} trailing"));
    ASSERT_NULL(json_parse(""));
    ASSERT_NULL(json_parse(NULL));
}

static void test_iterate(void)
{
    struct json *d =
        json_parse("{\"a\": [1, 2, 3], \"o\": {\"x\": 1, \"y\": 2}, \"e\": [], \"s\": \"t\"}");
    double sum = 0, v;
    for (const struct json *e = json_first(json_get(d, "a")); e; e = json_next(e))
        sum += json_num(e, &v) ? v : 100;
    ASSERT_TRUE(sum == 6);
    const struct json *m = json_first(json_get(d, "o"));
    ASSERT_STR_EQ(json_key(m), "x");
    ASSERT_STR_EQ(json_key(json_next(m)), "y");
    ASSERT_NULL(json_next(json_next(m)));
    ASSERT_NULL(json_first(json_get(d, "e")));
    ASSERT_NULL(json_first(json_get(d, "s"))); /* neither an array nor an object */
    ASSERT_NULL(json_first(NULL));
    ASSERT_NULL(json_next(NULL));
    json_free(d);
}

/* 200,000 elements built and walked in well under a second: appending and iterating are
 * O(1) a step (a walk by json_at would be 2e10 steps). */
static void test_iterate_is_linear(void)
{
    struct json *a = json_array();
    for (int i = 0; i < 200000; i++)
        json_push_num(a, i);
    long n = 0;
    double last = -1;
    for (const struct json *e = json_first(a); e; e = json_next(e), n++)
        json_num(e, &last);
    ASSERT_INT_EQ(n, 200000);
    ASSERT_TRUE(last == 199999);
    ASSERT_INT_EQ(json_len(a), 200000);
    json_free(a);
}

/* json_parse_budget on a copy of text (it may rewrite escapes in place). */
static int parse_budget(const char *text, struct json_budget *b, struct json **out)
{
    char *t = strdup(text);
    int rc = json_parse_budget(t, strlen(t), b, out);
    free(t);
    return rc;
}

static void test_budget_caps(void)
{
    struct json *d = NULL;
    struct json_budget b = {.bytes = 100, .nodes = 4, .out = 100, .depth = 2};
    ASSERT_INT_EQ(parse_budget("[1,2,3]", &b, &d), 0); /* 4 values: the array and three */
    ASSERT_UINT_EQ(b.nodes, 0);
    ASSERT_UINT_EQ(b.bytes, 93);
    json_free(d);
    b = (struct json_budget){.bytes = 100, .nodes = 4, .out = 100, .depth = 2};
    ASSERT_INT_EQ(parse_budget("[1,2,3,4]", &b, &d), -E2BIG);
    ASSERT_STR_EQ(b.over, "values");
    ASSERT_UINT_EQ(b.over_cap, 4);
    ASSERT_UINT_EQ(b.nodes, 4); /* nothing taken */
    ASSERT_NULL(d);
    ASSERT_INT_EQ(parse_budget("[[[]]]", &b, &d), -E2BIG);
    ASSERT_STR_EQ(b.over, "depth");
    ASSERT_INT_EQ(parse_budget("[[]]", &b, &d), 0);
    json_free(d);
    b = (struct json_budget){.bytes = 5, .nodes = 10, .out = 100, .depth = 2};
    ASSERT_INT_EQ(parse_budget("\"abcdef\"", &b, &d), -E2BIG);
    ASSERT_STR_EQ(b.over, "bytes");
    /* \u0001 is 6 bytes of text and renders as 6; 1e300 may render as 26 */
    b = (struct json_budget){.bytes = 100, .nodes = 10, .out = 20, .depth = 2};
    ASSERT_INT_EQ(parse_budget("[1e300]", &b, &d), -E2BIG);
    ASSERT_STR_EQ(b.over, "rendered bytes");
    ASSERT_INT_EQ(parse_budget("\"\\u0001\\u0001\"", &b, &d), 0);
    char *text = json_render(d, false);
    ASSERT_UINT_EQ(strlen(text), 20 - b.out); /* exactly what was counted */
    free(text);
    json_free(d);
}

static void test_budget_strict_and_utf8(void)
{
    struct json *d = NULL;
    struct json_budget b = json_sandbox_budget(1 << 20);
    const char *bad[] = {"",     "[1,]", "{\"a\"}", "[1] x",      "\"a\x01\"",  "01",
                         "[1.]", "nul",  "\"\\x\"", "{\"a\":1,}", "[\"\\u12\"]"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        ASSERT_INT_EQ(parse_budget(bad[i], &b, &d), -EINVAL);
    ASSERT_INT_EQ(parse_budget(" {\"k\xff\": \"a\xff\xc3(\\ud800\\udc00\\udc00\"} ", &b, &d), 0);
    char *text = json_render(d, false);
    ASSERT_STR_EQ(text,
                  "{\"k\xef\xbf\xbd\":\"a\xef\xbf\xbd\xef\xbf\xbd(\xf0\x90\x80\x80\xef\xbf\xbd\"}");
    free(text);
    json_free(d);
    ASSERT_INT_EQ(parse_budget("{\"\xe2\x82\": [\"\\ud800x\"]}", &b, &d), 0);
    text = json_render(d, false);
    ASSERT_STR_EQ(text, "{\"\xef\xbf\xbd\xef\xbf\xbd\":[\"\xef\xbf\xbdx\"]}");
    free(text);
    json_free(d);
}

static void test_take_shift_and_strings(void)
{
    struct json *d = json_parse("{\"a\": [1, 2], \"b\": \"x\"}"), *o = json_object();
    json_set(o, "moved", json_take(d, "a"));
    ASSERT_NULL(json_get(d, "a"));
    ASSERT_NULL(json_take(d, "a"));
    struct json *arr = json_child(o, "moved"), *e = json_shift(arr);
    double n = 0;
    ASSERT_TRUE(json_num(e, &n) && n == 1);
    json_free(e);
    ASSERT_INT_EQ(json_len(arr), 1);
    json_set_str_take(o, "big", strdup("b64=="));
    json_set_bytes(o, "bad", "ok\xff", 3);
    bool cut = false;
    json_set_bytes_max(o, "ctl", "\x01\x01\x01", 3, 13, &cut); /* two fit: 12 bytes + quotes */
    ASSERT_TRUE(cut);
    json_set_bytes_max(o, "nl", "a\nb", 3, 100, &cut);
    ASSERT_FALSE(cut);
    char *text = json_render(o, false);
    ASSERT_STR_EQ(text, "{\"moved\":[2],\"big\":\"b64==\",\"bad\":\"ok\xef\xbf\xbd\","
                        "\"ctl\":\"\\u0001\\u0001\",\"nl\":\"a\\nb\"}");
    free(text);
    json_free(o);
    json_free(d);
}

int main(void)
{
    TEST_RUN(test_build_render);
    TEST_RUN(test_null_safety);
    TEST_RUN(test_parse_read);
    TEST_RUN(test_parse_bad);
    TEST_RUN(test_iterate);
    TEST_RUN(test_iterate_is_linear);
    TEST_RUN(test_budget_caps);
    TEST_RUN(test_budget_strict_and_utf8);
    TEST_RUN(test_take_shift_and_strings);
    return TEST_EXIT();
}
