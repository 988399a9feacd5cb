/* Unit tests for server/judge/toolchain: picking the version line out of real version outputs, and
 * reading rustup's default toolchain; plus one live probe of the table. */
#include "server/judge/toolchain.h"
#include "test.h"

#include <stdlib.h>

#include <errno.h>

static void test_pick(void)
{
    char buf[TOOLCHAIN_VERSION];
    const char *gcc = "gcc (Debian 12.2.0-14+deb12u1) 12.2.0\nCopyright (C) 2022 Free Software "
                      "Foundation, Inc.\nThis is free software\n";
    ASSERT_STR_EQ(toolchain_pick_line(gcc, NULL, buf, sizeof(buf)),
                  "gcc (Debian 12.2.0-14+deb12u1) 12.2.0");
    const char *nvcc = "nvcc: NVIDIA (R) Cuda compiler driver\r\n"
                       "Copyright (c) 2005-2025 NVIDIA Corporation\r\n"
                       "Cuda compilation tools, release 13.0, V13.0.88\r\n"
                       "Build cuda_13.0.r13.0/compiler.36424714_0\r\n";
    ASSERT_STR_EQ(toolchain_pick_line(nvcc, "release", buf, sizeof(buf)),
                  "Cuda compilation tools, release 13.0, V13.0.88");
    const char *java = "Picked up JAVA_TOOL_OPTIONS: -Xmx1g\n"
                       "openjdk version \"17.0.15\" 2025-04-15\n"
                       "OpenJDK Runtime Environment (build 17.0.15+6-Debian-1deb12u1)\n";
    ASSERT_STR_EQ(toolchain_pick_line(java, "version", buf, sizeof(buf)),
                  "openjdk version \"17.0.15\" 2025-04-15");
    ASSERT_STR_EQ(toolchain_pick_line("\n\n   v20.20.2  \n", NULL, buf, sizeof(buf)), "v20.20.2");
    ASSERT_NULL(toolchain_pick_line("", NULL, buf, sizeof(buf)));
    ASSERT_NULL(toolchain_pick_line("error: no such file\n", "release", buf, sizeof(buf)));
    char tiny[6];
    ASSERT_STR_EQ(toolchain_pick_line("rustc 1.95.0", NULL, tiny, sizeof(tiny)), "rustc");
}

static void test_rustup(void)
{
    char buf[128];
    const char *settings = "version = \"12\"\n"
                           "default_toolchain = \"stable-x86_64-unknown-linux-gnu\"\n"
                           "profile = \"default\"\n\n[overrides]\n";
    ASSERT_INT_EQ(toolchain_rustup_default(settings, buf, sizeof(buf)), 0);
    ASSERT_STR_EQ(buf, "stable-x86_64-unknown-linux-gnu");
    ASSERT_INT_EQ(toolchain_rustup_default("  default_toolchain=\"nightly\"", buf, sizeof(buf)), 0);
    ASSERT_STR_EQ(buf, "nightly");
    ASSERT_INT_EQ(toolchain_rustup_default("profile = \"minimal\"\n", buf, sizeof(buf)), -ENOENT);
    ASSERT_INT_EQ(toolchain_rustup_default("default_toolchain = \"\"\n", buf, sizeof(buf)),
                  -ENOENT);
    ASSERT_INT_EQ(toolchain_rustup_default("default_toolchain = \"open\n", buf, sizeof(buf)),
                  -ENOENT);
    ASSERT_INT_EQ(toolchain_rustup_default("default_toolchains = \"x\"\n", buf, sizeof(buf)),
                  -ENOENT);
}

/* The live table: gcc built this test, so it must be found with a version. */
/* Filters (a template's bytecode step): input on stdin, stdout back, each failure named. */
static void test_filter(void)
{
    const char *cat[] = {"/bin/cat", NULL};
    const char *sh_big[] = {"/bin/sh", "-c", "head -c 100 /dev/zero | tr '\\0' a", NULL};
    const char *fail[] = {"/bin/false", NULL};
    const char *slow[] = {"/bin/sleep", "5", NULL};
    const char *none[] = {"/nonexistent/filter", NULL};
    char e[5][ERR_LEN];
    struct toolchain_filter f[5] = {
        {.argv = cat, .in = "hello\n", .in_len = 6, .max = 64, .err = e[0]},
        {.argv = sh_big, .in = "", .in_len = 0, .max = 10, .err = e[1]},
        {.argv = fail, .in = "x", .in_len = 1, .max = 64, .err = e[2]},
        {.argv = slow, .in = "", .in_len = 0, .max = 64, .err = e[3]},
        {.argv = none, .in = "", .in_len = 0, .max = 64, .err = e[4]},
    };
    ASSERT_INT_EQ(toolchain_filter(f, 5, 1000), 1);
    ASSERT_INT_EQ(f[0].rc, 0);
    ASSERT_STR_EQ(f[0].out, "hello\n");
    ASSERT_UINT_EQ(f[0].out_len, 6);
    ASSERT_INT_EQ(f[1].rc, -EFBIG);
    ASSERT_STR_CONTAINS(e[1], "more than");
    ASSERT_INT_EQ(f[2].rc, -EIO);
    ASSERT_STR_CONTAINS(e[2], "failed");
    ASSERT_INT_EQ(f[3].rc, -ETIMEDOUT);
    ASSERT_STR_CONTAINS(e[3], "did not answer in time");
    ASSERT_TRUE(f[4].rc < 0);
    for (int i = 1; i < 5; i++)
        ASSERT_NULL(f[i].out);
    free(f[0].out);
}

static void test_live_gcc(void)
{
    struct toolchain_found found[32];
    ASSERT_TRUE(toolchain_count() <= 32);
    int ok = toolchain_probe_all(found, 10000);
    ASSERT_TRUE(ok >= 1);
    for (size_t i = 0; i < toolchain_count(); i++) {
        if (strcmp(found[i].name, "gcc") != 0)
            continue;
        ASSERT_TRUE(found[i].ok);
        ASSERT_STR_CONTAINS(found[i].version, "gcc");
        return;
    }
    ASSERT_TRUE(!"gcc missing from the toolchain table");
}

int main(void)
{
    TEST_RUN(test_pick);
    TEST_RUN(test_rustup);
    TEST_RUN(test_filter);
    TEST_RUN(test_live_gcc);
    return TEST_EXIT();
}
