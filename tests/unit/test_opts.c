/* Unit tests for server/util/opts: the table-driven flag parser and its value parsers. */
#include "server/util/opts.h"
#include "server/util/opts_internal.h"
#include "test.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static bool flag_json, flag_help;
static const char *str_listen;
static long int_cells;
static uint64_t bytes_mem;
static int64_t ms_time;

static const struct opt table[] = {
    {"json", 0, OPT_FLAG, &flag_json, NULL, "json", 0, 0},
    {"help", 'h', OPT_FLAG, &flag_help, NULL, "help", 0, 0},
    {"listen", 'l', OPT_STRING, &str_listen, "ADDR", "listen", 0, 0},
    {"cells", 'c', OPT_INT, &int_cells, "N", "cells", 1, 256},
    {"mem", 0, OPT_BYTES, &bytes_mem, "SIZE", "memory", 0, 0},
    {"time", 't', OPT_DURATION, &ms_time, "SECONDS", "time", 0, 0},
    OPT_END,
};

static void reset(void)
{
    flag_json = flag_help = false;
    str_listen = NULL;
    int_cells = 0;
    bytes_mem = 0;
    ms_time = 0;
}

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void test_forms(void)
{
    reset();
    char *argv[] = {"cmd", "--json",     "--listen", "0.0.0.0:9", "-c",
                    "8",   "--mem=256M", "-t",       "1.5",       "file"};
    char err[ERR_LEN] = "";
    bool dd = true;
    int first = opts_parse(table, ARGC(argv), argv, 1, &dd, err);
    ASSERT_INT_EQ(first, 9);
    ASSERT_FALSE(dd);
    ASSERT_TRUE(flag_json);
    ASSERT_STR_EQ(str_listen, "0.0.0.0:9");
    ASSERT_INT_EQ(int_cells, 8);
    ASSERT_UINT_EQ(bytes_mem, 256ull << 20);
    ASSERT_INT_EQ(ms_time, 1500);
}

static void test_dashdash(void)
{
    reset();
    char *argv[] = {"run", "--time", "2", "--", "--json", "x"};
    char err[ERR_LEN] = "";
    bool dd = false;
    int first = opts_parse(table, ARGC(argv), argv, 1, &dd, err);
    ASSERT_INT_EQ(first, 4);
    ASSERT_TRUE(dd);
    ASSERT_FALSE(flag_json); /* after "--" nothing is a flag */
    ASSERT_INT_EQ(ms_time, 2000);
}

static void test_no_args(void)
{
    reset();
    char *argv[] = {"cmd"};
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(opts_parse(table, 1, argv, 1, NULL, err), 1);
}

static void test_errors(void)
{
    struct {
        char *argv[4];
        int argc;
        const char *msg;
    } cases[] = {
        {{"c", "--nope"}, 2, "unknown option --nope"},
        {{"c", "-x"}, 2, "unknown option -x"},
        {{"c", "--listen"}, 2, "--listen needs a value"},
        {{"c", "--cells", "0"}, 3, "--cells: 0 is out of range [1, 256]"},
        {{"c", "--cells", "9x"}, 3, "--cells: invalid N '9x'"},
        {{"c", "--mem", "12Q"}, 3, "--mem: invalid SIZE '12Q'"},
        {{"c", "--time", "-1"}, 3, "--time: invalid SECONDS '-1'"},
        {{"c", "--json=yes"}, 2, "--json takes no value"},
        {{"c", "-hx"}, 2, "unknown option -hx"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        reset();
        char err[ERR_LEN] = "";
        ASSERT_INT_EQ(opts_parse(table, cases[i].argc, cases[i].argv, 1, NULL, err), -EINVAL);
        ASSERT_STR_CONTAINS(err, cases[i].msg);
    }
}

static void test_positional_dash(void)
{
    reset();
    char *argv[] = {"c", "-", "--json"};
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(opts_parse(table, 3, argv, 1, NULL, err), 1); /* "-" is positional */
    ASSERT_FALSE(flag_json);
}

static void test_bytes(void)
{
    uint64_t v = 0;
    ASSERT_INT_EQ(opts_parse_bytes("4096", &v), 0);
    ASSERT_UINT_EQ(v, 4096);
    ASSERT_INT_EQ(opts_parse_bytes("64K", &v), 0);
    ASSERT_UINT_EQ(v, 65536);
    ASSERT_INT_EQ(opts_parse_bytes("256MiB", &v), 0);
    ASSERT_UINT_EQ(v, 256ull << 20);
    ASSERT_INT_EQ(opts_parse_bytes("2g", &v), 0);
    ASSERT_UINT_EQ(v, 2ull << 30);
    ASSERT_INT_EQ(opts_parse_bytes("1T", &v), 0);
    ASSERT_UINT_EQ(v, 1ull << 40);
    ASSERT_INT_EQ(opts_parse_bytes("", &v), -EINVAL);
    ASSERT_INT_EQ(opts_parse_bytes(" 5", &v), -EINVAL);
    ASSERT_INT_EQ(opts_parse_bytes("-5", &v), -EINVAL);
    ASSERT_INT_EQ(opts_parse_bytes("5 M", &v), -EINVAL);
    ASSERT_INT_EQ(opts_parse_bytes("1.5G", &v), -EINVAL);
    ASSERT_INT_EQ(opts_parse_bytes("99999999999999999999", &v), -ERANGE);
    ASSERT_INT_EQ(opts_parse_bytes("17179869184G", &v), -ERANGE);
}

static void test_duration(void)
{
    int64_t v = 0;
    ASSERT_INT_EQ(opts_parse_duration_ms("2", &v), 0);
    ASSERT_INT_EQ(v, 2000);
    ASSERT_INT_EQ(opts_parse_duration_ms("0.25", &v), 0);
    ASSERT_INT_EQ(v, 250);
    ASSERT_INT_EQ(opts_parse_duration_ms(".5s", &v), 0);
    ASSERT_INT_EQ(v, 500);
    ASSERT_INT_EQ(opts_parse_duration_ms("750ms", &v), 0);
    ASSERT_INT_EQ(v, 750);
    ASSERT_INT_EQ(opts_parse_duration_ms("2m", &v), 0);
    ASSERT_INT_EQ(v, 120000);
    ASSERT_INT_EQ(opts_parse_duration_ms("nan", &v), -EINVAL);
    ASSERT_INT_EQ(opts_parse_duration_ms("inf", &v), -EINVAL);
    ASSERT_INT_EQ(opts_parse_duration_ms("2h", &v), -EINVAL);
    ASSERT_INT_EQ(opts_parse_duration_ms("", &v), -EINVAL);
    ASSERT_INT_EQ(opts_parse_duration_ms("1e300", &v), -ERANGE);
}

static void test_usage(void)
{
    char buf[2048] = "";
    FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
    ASSERT_NOT_NULL(f);
    opts_usage(f, table);
    fclose(f);
    ASSERT_STR_CONTAINS(buf, "-l, --listen ADDR");
    ASSERT_STR_CONTAINS(buf, "    --mem SIZE");
}

static void test_peek(void)
{
    char *argv[] = {"cmd", "--listen", "a:1", "-l", "b:2", "--", "--listen=c:3"};
    ASSERT_STR_EQ(opts_peek(table, ARGC(argv), argv, 1, "listen"), "b:2");
    char *eq[] = {"cmd", "--listen=d:4", "--cells"};
    ASSERT_STR_EQ(opts_peek(table, ARGC(eq), eq, 1, "listen"), "d:4");
    ASSERT_TRUE(opts_peek(table, ARGC(eq), eq, 1, "cells") == NULL); /* no value */
    ASSERT_TRUE(opts_peek(table, ARGC(eq), eq, 1, "nope") == NULL);
}

static void test_env(void)
{
    reset();
    char err[ERR_LEN] = "";
    setenv("T_CELLS", "12", 1);
    setenv("T_JSON", "yes", 1);
    setenv("T_HELP", "1", 1); /* never from the environment */
    setenv("T_MEM", "", 1);   /* empty: unset */
    ASSERT_INT_EQ(opts_env(table, "T_", err), 0);
    ASSERT_INT_EQ(int_cells, 12);
    ASSERT_TRUE(flag_json);
    ASSERT_FALSE(flag_help);
    ASSERT_INT_EQ(bytes_mem, 0);
    setenv("T_CELLS", "999", 1);
    ASSERT_INT_EQ(opts_env(table, "T_", err), -EINVAL);
    ASSERT_STR_CONTAINS(err, "T_CELLS");
    setenv("T_CELLS", "1", 1);
    setenv("T_JSON", "maybe", 1);
    ASSERT_INT_EQ(opts_env(table, "T_", err), -EINVAL);
    ASSERT_STR_CONTAINS(err, "T_JSON");
    unsetenv("T_CELLS");
    unsetenv("T_JSON");
    unsetenv("T_HELP");
    unsetenv("T_MEM");
}

static int write_config(char *path, const char *text)
{
    strcpy(path, "/tmp/verdict-opts-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

static void test_file(void)
{
    reset();
    char path[64], err[ERR_LEN] = "";
    ASSERT_INT_EQ(write_config(path, "# verdict\n\n  listen = 0.0.0.0:80  \nmem=1G\njson = true\n"
                                     "time = 250ms\n"),
                  0);
    ASSERT_INT_EQ(opts_file(table, path, err), 0);
    ASSERT_STR_EQ(str_listen, "0.0.0.0:80");
    ASSERT_INT_EQ(bytes_mem, 1ull << 30);
    ASSERT_TRUE(flag_json);
    ASSERT_INT_EQ(ms_time, 250);
    unlink(path);
    const char *bad[][2] = {{"colour = red\n", "unknown option 'colour'"},
                            {"help = 1\n", "unknown option"},
                            {"listen 1:2\n", ":1: expected name = value"},
                            {"\ncells = 0\n", ":2: --cells"}};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ASSERT_INT_EQ(write_config(path, bad[i][0]), 0);
        ASSERT_INT_EQ(opts_file(table, path, err), -EINVAL);
        ASSERT_STR_CONTAINS(err, bad[i][1]);
        unlink(path);
    }
    ASSERT_INT_EQ(opts_file(table, "/nonexistent/verdict.conf", err), -EINVAL);
    ASSERT_STR_CONTAINS(err, "/nonexistent/verdict.conf");
}

int main(void)
{
    TEST_RUN(test_forms);
    TEST_RUN(test_dashdash);
    TEST_RUN(test_no_args);
    TEST_RUN(test_errors);
    TEST_RUN(test_positional_dash);
    TEST_RUN(test_bytes);
    TEST_RUN(test_duration);
    TEST_RUN(test_usage);
    TEST_RUN(test_peek);
    TEST_RUN(test_env);
    TEST_RUN(test_file);
    return TEST_EXIT();
}
