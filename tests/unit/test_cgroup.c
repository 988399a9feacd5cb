/* Unit tests for runners/cgroup: parsing /proc/self/cgroup and /proc/self/mountinfo as found
 * on real hosts (fixture text), controller lists, and the v1/v2 decision. */
#include "runners/cgroup.h"
#include "test.h"

#include <errno.h>

/* This project's CI machines: v1 hierarchies, memory in a supervisor's sub-cgroup, an
 * unused cgroup2 mount (hybrid). */
static const char *v1_self = "9:name=systemd:/\n"
                             "8:pids:/\n"
                             "7:blkio:/\n"
                             "4:memory:/process_api/b2675905cf717a0d5d103449778eab41\n"
                             "2:cpuacct:/\n"
                             "1:cpu:/\n"
                             "0::/\n";
static const char *v1_mounts =
    "22 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
    "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
    "39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n"
    "40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
    "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

static void test_v1_hybrid(void)
{
    struct cg_host h;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(cg_parse(v1_self, v1_mounts, &h, err), 0);
    ASSERT_TRUE(h.v2_mounted);
    ASSERT_STR_EQ(h.v2_dir, "/sys/fs/cgroup/unified");
    ASSERT_STR_EQ(h.v1_dir[CG_MEMORY],
                  "/sys/fs/cgroup/memory/process_api/b2675905cf717a0d5d103449778eab41");
    ASSERT_STR_EQ(h.v1_dir[CG_PIDS], "/sys/fs/cgroup/pids");
    ASSERT_STR_EQ(h.v1_dir[CG_CPU], "/sys/fs/cgroup/cpu");
    ASSERT_STR_EQ(h.v1_dir[CG_CPUACCT], "/sys/fs/cgroup/cpuacct");
    h.v2_controllers = cg_parse_controllers(""); /* the unified mount offers nothing */
    cg_decide(&h);
    ASSERT_INT_EQ(h.version, CG_V1);
    ASSERT_STR_EQ(cg_dir(&h, CG_MEMORY), h.v1_dir[CG_MEMORY]);
}

/* Debian 10 style: cpu and cpuacct co-mounted at /sys/fs/cgroup/cpu,cpuacct. */
static void test_v1_comounted(void)
{
    const char *self = "5:cpu,cpuacct:/user.slice\n3:memory:/user.slice/user-0.slice\n"
                       "2:pids:/user.slice/user-0.slice/session-1.scope\n";
    const char *mounts =
        "30 25 0:26 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
        "31 25 0:27 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
        "32 25 0:28 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n";
    struct cg_host h;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(cg_parse(self, mounts, &h, err), 0);
    ASSERT_FALSE(h.v2_mounted);
    ASSERT_STR_EQ(h.v1_dir[CG_CPU], "/sys/fs/cgroup/cpu,cpuacct/user.slice");
    ASSERT_STR_EQ(h.v1_dir[CG_CPUACCT], "/sys/fs/cgroup/cpu,cpuacct/user.slice");
    ASSERT_STR_EQ(h.v1_dir[CG_MEMORY], "/sys/fs/cgroup/memory/user.slice/user-0.slice");
    ASSERT_STR_EQ(h.v1_dir[CG_PIDS], "/sys/fs/cgroup/pids/user.slice/user-0.slice/session-1.scope");
    cg_decide(&h);
    ASSERT_INT_EQ(h.version, CG_V1);
}

/* Pure v2 under systemd with a delegated service cgroup. */
static void test_v2(void)
{
    const char *self = "0::/system.slice/verdict.service\n";
    const char *mounts = "25 21 0:22 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";
    struct cg_host h;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(cg_parse(self, mounts, &h, err), 0);
    ASSERT_TRUE(h.v2_mounted);
    ASSERT_STR_EQ(h.v2_dir, "/sys/fs/cgroup/system.slice/verdict.service");
    h.v2_controllers = cg_parse_controllers("cpuset cpu io memory hugetlb pids rdma misc\n");
    cg_decide(&h);
    ASSERT_INT_EQ(h.version, CG_V2);
    ASSERT_STR_EQ(cg_dir(&h, CG_PIDS), h.v2_dir);
    ASSERT_STR_EQ(cg_dir(&h, CG_CPUACCT), h.v2_dir);
}

/* v2 that offers no memory controller: not usable, and nothing else is either. */
static void test_v2_without_memory(void)
{
    struct cg_host h;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(
        cg_parse("0::/\n", "25 21 0:22 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", &h, err), 0);
    h.v2_controllers = cg_parse_controllers("cpu io pids");
    cg_decide(&h);
    ASSERT_INT_EQ(h.version, CG_NONE);
    ASSERT_NULL(cg_dir(&h, CG_MEMORY));
}

/* A container without a cgroup namespace: the mount's root is the container's own cgroup,
 * and a mount of a foreign subtree cannot reach ours. */
static void test_container_root(void)
{
    const char *self = "0::/docker/abc123/inner\n";
    const char *mounts = "40 30 0:30 /docker/other /mnt/other rw - cgroup2 cgroup2 rw\n"
                         "41 30 0:30 /docker/abc123 /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";
    struct cg_host h;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(cg_parse(self, mounts, &h, err), 0);
    ASSERT_STR_EQ(h.v2_dir, "/sys/fs/cgroup/inner");
}

/* A mount root that is a string prefix but not a path prefix must not match. */
static void test_prefix_is_not_parent(void)
{
    const char *self = "3:memory:/jobs10/x\n";
    const char *mounts = "41 30 0:30 /jobs1 /cg rw - cgroup cgroup rw,memory\n";
    struct cg_host h;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(cg_parse(self, mounts, &h, err), 0);
    ASSERT_STR_EQ(h.v1_dir[CG_MEMORY], "");
}

/* Mount points with spaces are octal-escaped in mountinfo. */
static void test_escaped_mountpoint(void)
{
    const char *self = "3:memory:/a\n";
    const char *mounts = "41 30 0:30 / /cg\\040root rw - cgroup cgroup rw,memory\n";
    struct cg_host h;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(cg_parse(self, mounts, &h, err), 0);
    ASSERT_STR_EQ(h.v1_dir[CG_MEMORY], "/cg root/a");
}

static void test_malformed(void)
{
    struct cg_host h;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(cg_parse("0::/\n", "41 30 0:30 / /x rw cgroup2\n", &h, err), -EINVAL);
    ASSERT_STR_CONTAINS(err, "malformed line: 41 30");
    /* Garbage in /proc/self/cgroup is ignored line by line, never a crash. */
    ASSERT_INT_EQ(cg_parse("nonsense\n::\n7\n", v1_mounts, &h, err), 0);
    ASSERT_STR_EQ(h.v1_dir[CG_MEMORY], "");
    ASSERT_INT_EQ(cg_parse("", "", &h, err), 0);
    cg_decide(&h);
    ASSERT_INT_EQ(h.version, CG_NONE);
}

static void test_controllers(void)
{
    ASSERT_UINT_EQ(cg_parse_controllers(""), 0);
    ASSERT_UINT_EQ(cg_parse_controllers("memory pids"), (1u << CG_MEMORY) | (1u << CG_PIDS));
    ASSERT_UINT_EQ(cg_parse_controllers("cpuset cpu\n"), (1u << CG_CPU) | (1u << CG_CPUACCT));
    ASSERT_UINT_EQ(cg_parse_controllers("cpuset memoryx"), 0);
    ASSERT_STR_EQ(cg_ctrl_name(CG_CPUACCT), "cpuacct");
}

int main(void)
{
    TEST_RUN(test_v1_hybrid);
    TEST_RUN(test_v1_comounted);
    TEST_RUN(test_v2);
    TEST_RUN(test_v2_without_memory);
    TEST_RUN(test_container_root);
    TEST_RUN(test_prefix_is_not_parent);
    TEST_RUN(test_escaped_mountpoint);
    TEST_RUN(test_malformed);
    TEST_RUN(test_controllers);
    return TEST_EXIT();
}
