/* Unit tests for server/judge/gpu: the CUDA runtime loader against a missing library and against a
 * stand-in runtime (tests/unit/cudart_standin.c) with 0 and 2 devices. */
#include "server/judge/gpu.h"
#include "test.h"

#include <stdlib.h>

static const char *standin;

static void test_no_runtime(void)
{
    struct gpu_info g;
    setenv("VERDICT_CUDART", "/nonexistent/libcudart.so", 1);
    ASSERT_INT_EQ(gpu_probe(&g), 0);
    ASSERT_FALSE(g.runtime);
    ASSERT_INT_EQ(g.count, 0);
    ASSERT_STR_CONTAINS(g.detail, "no CUDA runtime");
}

static void test_no_device(void)
{
    struct gpu_info g;
    setenv("VERDICT_CUDART", standin, 1);
    setenv("STANDIN_DEVICES", "0", 1);
    ASSERT_INT_EQ(gpu_probe(&g), 0);
    ASSERT_TRUE(g.runtime);
    ASSERT_INT_EQ(g.runtime_version, 12080);
    ASSERT_INT_EQ(g.count, 0);
    ASSERT_STR_EQ(g.detail, "no GPU (CUDA runtime 12.8: no CUDA-capable device is detected)");
}

static void test_two_devices(void)
{
    struct gpu_info g;
    setenv("VERDICT_CUDART", standin, 1);
    setenv("STANDIN_DEVICES", "2", 1);
    ASSERT_INT_EQ(gpu_probe(&g), 0);
    ASSERT_INT_EQ(g.count, 2);
    ASSERT_STR_EQ(g.dev[0].name, "Stand-in GPU 0");
    ASSERT_STR_EQ(g.dev[1].name, "Stand-in GPU 1");
    ASSERT_INT_EQ(g.dev[1].cc_major, 9);
    ASSERT_INT_EQ(g.dev[1].cc_minor, 1);
    ASSERT_STR_EQ(g.detail, "2 GPUs (CUDA runtime 12.8, driver 13.0)");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_gpu PATH/TO/standin.so\n");
        return 2;
    }
    standin = argv[1];
    TEST_RUN(test_no_runtime);
    TEST_RUN(test_no_device);
    TEST_RUN(test_two_devices);
    return TEST_EXIT();
}
