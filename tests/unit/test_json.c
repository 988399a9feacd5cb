/* Unit tests for server/util/json: building, rendering, parsing, typed reads and iteration. */
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

int main(void)
{
    TEST_RUN(test_build_render);
    TEST_RUN(test_null_safety);
    TEST_RUN(test_parse_read);
    TEST_RUN(test_parse_bad);
    TEST_RUN(test_iterate);
    TEST_RUN(test_iterate_is_linear);
    return TEST_EXIT();
}
