/* Unit tests for runners/cgroup: parsing /proc/self/cgroup and /proc/self/mountinfo as found
 * on real hosts (fixture text), controller lists, and the v1/v2 decision. */
#include "runners/cgroup.h"
#include "runners/cgroup_internal.h"
#include "runners/cpus.h"
#include "runners/file.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

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
    ASSERT_UINT_EQ(cg_parse_controllers("cpuset cpu\n"), 1u << CG_CPU);
    ASSERT_UINT_EQ(cg_parse_controllers("cpuset memoryx"), 0);
    ASSERT_STR_EQ(cg_ctrl_name(CG_CPUACCT), "cpuacct");
}

/* ---- the job tree on fixture cgroup directories ----------------------------------------
 * Regular files stand in for cgroupfs: the code under test must write the right values to
 * the right files and parse what the kernel would answer. The tree's directories are
 * pre-created with their files; a job's leaf, which cgroupfs gives its files as it is made,
 * is made through cgroup's seam (cgroup_internal.h) by fixture_mkdirat, which does the same
 * with the files leaf_files listed for that parent. */

static char fx[128];

/* fx = base + sub ("" for none); the fixture's paths are short. */
static void fx_at(const char *base, const char *sub)
{
    size_t b = strlen(base), n = strlen(sub);
    if (b + n >= sizeof(fx))
        abort();
    memmove(fx, base, b);
    memcpy(fx + b, sub, n + 1);
}

static void put(const char *rel, const char *content)
{
    char p[CG_PATH * 2];
    snprintf(p, sizeof(p), "%s/%s", fx, rel);
    FILE *f = fopen(p, "w");
    if (f) {
        fputs(content, f);
        fclose(f);
    }
}

static void dir(const char *rel)
{
    char p[CG_PATH * 2];
    snprintf(p, sizeof(p), "%s/%s", fx, rel);
    mkdir(p, 0755);
}

static char *get(const char *rel)
{
    static char buf[256];
    char p[CG_PATH * 2];
    snprintf(p, sizeof(p), "%s/%s", fx, rel);
    buf[0] = '\0';
    FILE *f = fopen(p, "r");
    if (f) {
        size_t n = fread(buf, 1, sizeof(buf) - 1, f);
        buf[n] = '\0';
        fclose(f);
    }
    return buf;
}

static struct {
    char parent[CG_PATH];
    const char *const *files;
    size_t n;
} leaves[CG_MAX_DIRS];
static int nleaves;

static int fixture_mkdirat(int dirfd, const char *name, mode_t mode)
{
    char link[64], parent[CG_PATH];
    snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
    ssize_t len = readlink(link, parent, sizeof(parent) - 1);
    if (len < 0 || mkdirat(dirfd, name, mode) < 0)
        return -1;
    parent[len] = '\0';
    for (int i = 0; i < nleaves; i++) {
        for (size_t k = 0; strcmp(leaves[i].parent, parent) == 0 && k < leaves[i].n; k++) {
            char rel[CG_PATH];
            snprintf(rel, sizeof(rel), "%s/%s", name, leaves[i].files[k]);
            int fd = openat(dirfd, rel, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
            if (fd < 0)
                return -1;
            close(fd);
        }
    }
    return 0;
}

static void rm_fixture(void)
{
    nleaves = 0;
    cg_set_mkdirat(NULL);
    char cmd[sizeof(fx) + 16];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", fx);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", fx);
}

static const char *tree_name(void)
{
    static char name[32];
    snprintf(name, sizeof(name), "verdict-%d", (int)getpid());
    return name;
}

/* The files a job's leaf made beneath fx's tree directory gets (from then on). */
static void leaf_files(const char *const *files, size_t n)
{
    if (nleaves == CG_MAX_DIRS)
        abort();
    snprintf(leaves[nleaves].parent, CG_PATH, "%.200s/%s", fx, tree_name());
    leaves[nleaves].files = files;
    leaves[nleaves++].n = n;
    cg_set_mkdirat(fixture_mkdirat);
}

static void test_v2_tree_and_job(void)
{
    snprintf(fx, sizeof(fx), "/tmp/verdict-cg-XXXXXX");
    ASSERT_NOT_NULL(mkdtemp(fx));
    put("cgroup.controllers", "cpuset cpu io memory pids\n");
    put("cgroup.subtree_control", "cpu memory pids\n"); /* already delegated to us */
    dir(tree_name());
    char rel[CG_PATH];
    snprintf(rel, sizeof(rel), "%s/cgroup.subtree_control", tree_name());
    put(rel, "");
    struct cg_host h = {.version = CG_V2, .v2_mounted = true};
    snprintf(h.v2_dir, sizeof(h.v2_dir), "%s", fx);
    h.v2_controllers = cg_parse_controllers("cpu memory pids");
    struct cg_tree t;
    char err[ERR_LEN] = "";
    int rc = cg_tree_create(&h, &t, err);
    if (rc)
        fprintf(stderr, "%s\n", err);
    ASSERT_INT_EQ(rc, 0);
    ASSERT_INT_EQ(t.ndirs, 1);
    ASSERT_STR_EQ(get(rel), "+memory +pids +cpu");

    static const char *const files[] = {"cgroup.procs",   "memory.max",    "memory.swap.max",
                                        "memory.current", "pids.max",      "cpu.stat",
                                        "memory.peak",    "memory.events", "pids.events"};
    leaf_files(files, sizeof(files) / sizeof(files[0]));
    struct cg_root root;
    struct cg_job j;
    ASSERT_INT_EQ(cg_root_open(&t, &root, err), 0);
    ASSERT_INT_EQ(cg_job_create(&root, "c0-j1", &j, err), 0);
    ASSERT_INT_EQ(cg_job_limit(&j, 64 << 20, 32, err), 0);
    snprintf(rel, sizeof(rel), "%s/c0-j1/memory.max", tree_name());
    ASSERT_STR_EQ(get(rel), "67108864");
    snprintf(rel, sizeof(rel), "%s/c0-j1/memory.swap.max", tree_name());
    ASSERT_STR_EQ(get(rel), "0");
    snprintf(rel, sizeof(rel), "%s/c0-j1/pids.max", tree_name());
    ASSERT_STR_EQ(get(rel), "32");

    snprintf(rel, sizeof(rel), "%s/c0-j1/cpu.stat", tree_name());
    put(rel, "usage_usec 1500\nuser_usec 1000\nsystem_usec 500\n");
    snprintf(rel, sizeof(rel), "%s/c0-j1/memory.peak", tree_name());
    put(rel, "4096000\n");
    snprintf(rel, sizeof(rel), "%s/c0-j1/memory.events", tree_name());
    put(rel, "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\noom_group_kill 0\n");
    snprintf(rel, sizeof(rel), "%s/c0-j1/pids.events", tree_name());
    put(rel, "max 2\n");
    struct cg_stats st;
    ASSERT_INT_EQ(cg_job_stats(&j, &st, err), 0);
    ASSERT_UINT_EQ(st.cpu_ns, 1500000);
    ASSERT_UINT_EQ(st.memory_peak, 4096000);
    ASSERT_UINT_EQ(st.oom_kills, 1);
    ASSERT_UINT_EQ(st.memory_hits, 3);
    ASSERT_UINT_EQ(st.pids_hits, 2);
    ASSERT_INT_EQ(cg_job_cpu_ns(&j), 1500000);
    ASSERT_INT_EQ(cg_job_nprocs(&j), 0);
    /* v2 reuse: memory.peak is reset through the descriptor kept open (Linux 6.12+). */
    snprintf(rel, sizeof(rel), "%s/c0-j1/memory.current", tree_name());
    put(rel, "8192\n");
    ASSERT_INT_EQ(cg_job_reuse(&j, 1 << 20, err), 1);
    snprintf(rel, sizeof(rel), "%s/c0-j1/cpu.stat", tree_name());
    put(rel, "usage_usec 2500\nuser_usec 2000\n");
    ASSERT_INT_EQ(cg_job_cpu_ns(&j), 1000000);
    cg_root_close(&root);
    rm_fixture();
}

/* v2 with controllers not yet delegated: refused when others share our cgroup... */
static void test_v2_shared_cgroup_refused(void)
{
    snprintf(fx, sizeof(fx), "/tmp/verdict-cg-XXXXXX");
    ASSERT_NOT_NULL(mkdtemp(fx));
    put("cgroup.subtree_control", "");
    char procs[64];
    snprintf(procs, sizeof(procs), "1\n%d\n", (int)getpid());
    put("cgroup.procs", procs);
    struct cg_host h = {.version = CG_V2};
    snprintf(h.v2_dir, sizeof(h.v2_dir), "%s", fx);
    h.v2_controllers = cg_parse_controllers("cpu memory pids");
    struct cg_tree t;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(cg_tree_create(&h, &t, err), -EBUSY);
    ASSERT_STR_CONTAINS(err, "delegated cgroup of its own");
    rm_fixture();
}

/* ...and, when we are alone, done by moving into a leaf and enabling what our cgroup offers.
 * A host may not delegate cpu, and the kernel refuses a write naming a controller not offered
 * as a whole (the guest of tests/vm showed it): then memory and pids only, and CPU time is
 * still accounted, from cpu.stat. */
static void self_delegate(const char *offered, const char *enabled, unsigned ctrls)
{
    snprintf(fx, sizeof(fx), "/tmp/verdict-cg-XXXXXX");
    ASSERT_NOT_NULL(mkdtemp(fx));
    put("cgroup.subtree_control", "");
    char procs[64], leaf[64], rel[CG_PATH], tree_ctl[CG_PATH];
    snprintf(procs, sizeof(procs), "%d\n", (int)getpid());
    put("cgroup.procs", procs);
    snprintf(leaf, sizeof(leaf), "verdict-server-%d", (int)getpid());
    dir(leaf);
    snprintf(rel, sizeof(rel), "%s/cgroup.procs", leaf);
    put(rel, "");
    dir(tree_name());
    snprintf(tree_ctl, sizeof(tree_ctl), "%s/cgroup.subtree_control", tree_name());
    put(tree_ctl, "");
    struct cg_host h = {.version = CG_V2};
    snprintf(h.v2_dir, sizeof(h.v2_dir), "%s", fx);
    h.v2_controllers = cg_parse_controllers(offered);
    ASSERT_STR_EQ(cg_dir(&h, CG_CPUACCT), h.v2_dir);
    struct cg_tree t;
    char err[ERR_LEN] = "";
    int rc = cg_tree_create(&h, &t, err);
    if (rc)
        fprintf(stderr, "%s\n", err);
    ASSERT_INT_EQ(rc, 0);
    ASSERT_STR_EQ(get(rel), "0"); /* moved itself */
    ASSERT_STR_EQ(get("cgroup.subtree_control"), enabled);
    ASSERT_STR_EQ(get(tree_ctl), enabled);
    ASSERT_UINT_EQ(t.ctrls[0], ctrls | (1u << CG_CPUACCT));
    rm_fixture();
}

static void test_v2_self_delegation(void)
{
    unsigned mp = (1u << CG_MEMORY) | (1u << CG_PIDS);
    self_delegate("cpu memory pids", "+memory +pids +cpu", mp | (1u << CG_CPU));
    self_delegate("memory pids", "+memory +pids", mp);
}

static void test_v1_job(void)
{
    snprintf(fx, sizeof(fx), "/tmp/verdict-cg-XXXXXX");
    ASSERT_NOT_NULL(mkdtemp(fx));
    static const char *const ctrls[] = {"memory", "pids", "cpuacct"};
    struct cg_host h = {.version = CG_V1};
    char base[128];
    memcpy(base, fx, sizeof(base));
    for (int i = 0; i < 3; i++) {
        dir(ctrls[i]);
        snprintf(h.v1_dir[i == 0   ? CG_MEMORY
                          : i == 1 ? CG_PIDS
                                   : CG_CPUACCT],
                 CG_PATH, "%s/%s", base, ctrls[i]);
    }
    snprintf(h.v1_dir[CG_CPU], CG_PATH, "%s/cpuacct", base); /* co-mounted */
    /* Trees of dead verdict processes are swept; a live process's tree stays. */
    dir("memory/verdict-3999999");
    dir("memory/verdict-3999999/c0-j4");
    dir("memory/verdict-1");
    dir("memory/other-3999999");
    struct cg_tree t;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(cg_tree_create(&h, &t, err), 0);
    ASSERT_INT_EQ(t.ndirs, 3);
    struct stat sb;
    char probe[CG_PATH];
    snprintf(probe, sizeof(probe), "%s/memory/verdict-3999999", base);
    ASSERT_INT_EQ(stat(probe, &sb), -1);
    snprintf(probe, sizeof(probe), "%s/memory/verdict-1", base);
    ASSERT_INT_EQ(stat(probe, &sb), 0);
    snprintf(probe, sizeof(probe), "%s/memory/other-3999999", base);
    ASSERT_INT_EQ(stat(probe, &sb), 0);
    static const char *const mem_files[] = {"tasks",
                                            "cgroup.procs",
                                            "memory.usage_in_bytes",
                                            "memory.limit_in_bytes",
                                            "memory.memsw.limit_in_bytes",
                                            "memory.max_usage_in_bytes",
                                            "memory.failcnt",
                                            "memory.oom_control"};
    static const char *const pid_files[] = {"tasks", "cgroup.procs", "pids.max", "pids.events"};
    static const char *const cpu_files[] = {"tasks", "cgroup.procs", "cpuacct.usage"};
    char saved[128];
    memcpy(saved, fx, sizeof(saved));
    fx_at(saved, "/memory");
    leaf_files(mem_files, 8);
    fx_at(saved, "/pids");
    leaf_files(pid_files, 4);
    fx_at(saved, "/cpuacct");
    leaf_files(cpu_files, 3);
    struct cg_root root;
    struct cg_job j;
    ASSERT_INT_EQ(cg_root_open(&t, &root, err), 0);
    ASSERT_INT_EQ(cg_job_create(&root, "c1-j7", &j, err), 0);
    ASSERT_INT_EQ(cg_job_limit(&j, 1 << 20, 5, err), 0);
    char rel[CG_PATH];
    fx_at(saved, "/memory");
    snprintf(rel, sizeof(rel), "%s/c1-j7/memory.memsw.limit_in_bytes", tree_name());
    ASSERT_STR_EQ(get(rel), "1048576"); /* swap off: memory+swap capped at the same value */
    snprintf(rel, sizeof(rel), "%s/c1-j7/memory.max_usage_in_bytes", tree_name());
    put(rel, "2097152\n");
    snprintf(rel, sizeof(rel), "%s/c1-j7/memory.failcnt", tree_name());
    put(rel, "12\n");
    snprintf(rel, sizeof(rel), "%s/c1-j7/memory.oom_control", tree_name());
    put(rel, "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n");
    fx_at(saved, "/cpuacct");
    snprintf(rel, sizeof(rel), "%s/c1-j7/cpuacct.usage", tree_name());
    put(rel, "987654321\n");
    fx_at(saved, "/pids");
    snprintf(rel, sizeof(rel), "%s/c1-j7/pids.max", tree_name());
    ASSERT_STR_EQ(get(rel), "5");
    struct cg_stats st;
    ASSERT_INT_EQ(cg_job_stats(&j, &st, err), 0);
    ASSERT_UINT_EQ(st.cpu_ns, 987654321);
    ASSERT_UINT_EQ(st.memory_peak, 2097152);
    ASSERT_UINT_EQ(st.memory_hits, 12);
    ASSERT_UINT_EQ(st.oom_kills, 2);

    /* Reuse for the next job: the peak restarts, cumulative counters become the base. */
    fx_at(saved, "/memory");
    snprintf(rel, sizeof(rel), "%s/c1-j7/memory.usage_in_bytes", tree_name());
    put(rel, "4096000\n"); /* too much left over: a fresh cgroup instead */
    ASSERT_INT_EQ(cg_job_reuse(&j, 1 << 20, err), 0);
    put(rel, "262144\n");
    snprintf(rel, sizeof(rel), "%s/c1-j7/memory.max_usage_in_bytes", tree_name());
    put(rel, ""); /* a regular file keeps old bytes past a short write; cgroupfs does not */
    ASSERT_INT_EQ(cg_job_reuse(&j, 1 << 20, err), 1);
    ASSERT_STR_EQ(get(rel), "0"); /* the kernel restarts it from the current usage */
    put(rel, "300000\n");
    snprintf(rel, sizeof(rel), "%s/c1-j7/memory.oom_control", tree_name());
    put(rel, "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n");
    fx_at(saved, "/cpuacct");
    snprintf(rel, sizeof(rel), "%s/c1-j7/cpuacct.usage", tree_name());
    put(rel, "997654321\n");
    ASSERT_INT_EQ(cg_job_stats(&j, &st, err), 0);
    ASSERT_UINT_EQ(st.cpu_ns, 10000000); /* 10 ms since the reuse */
    ASSERT_UINT_EQ(st.oom_kills, 1);
    ASSERT_UINT_EQ(st.memory_peak, 300000);
    ASSERT_INT_EQ(cg_job_cpu_ns(&j), 10000000);
    cg_root_close(&root);
    fx_at(saved, "");
    rm_fixture();
}

static void test_keyed(void)
{
    uint64_t v = 0;
    ASSERT_INT_EQ(cg_parse_keyed("usage_usec 12\nuser_usec 3\n", "usage_usec", &v), 0);
    ASSERT_UINT_EQ(v, 12);
    ASSERT_INT_EQ(cg_parse_keyed("usage_usec 12\nuser_usec 3", "user_usec", &v), 0);
    ASSERT_UINT_EQ(v, 3);
    ASSERT_INT_EQ(cg_parse_keyed("oom 1\noom_kill 4\n", "oom_kill", &v), 0);
    ASSERT_UINT_EQ(v, 4);
    ASSERT_INT_EQ(cg_parse_keyed("oom_kill 4\n", "oom", &v), -ENOENT); /* prefix only */
    ASSERT_INT_EQ(cg_parse_keyed("max x\n", "max", &v), -ENOENT);
    ASSERT_INT_EQ(cg_parse_keyed("", "max", &v), -ENOENT);
}

/* Writes text to base/rel (the directories must exist). */
static void put_file(const char *base, const char *rel, const char *text)
{
    char path[CG_PATH + 64];
    snprintf(path, sizeof(path), "%s/%s", base, rel);
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fputs(text, f);
    fclose(f);
}

/* cpus: a quota as whole CPUs (v2 cpu.max, v1 quota and period), the tightest of the server's
 * cgroup and those above it (a container's limit sits above the server's own cgroup), never
 * more than the affinity mask; the tree's weight, as many tasks as cells. */
static void test_cpus(void)
{
    ASSERT_INT_EQ(cpus_from_cpu_max("max 100000\n"), 0);
    ASSERT_INT_EQ(cpus_from_cpu_max("150000 100000\n"), 2);
    ASSERT_INT_EQ(cpus_from_cpu_max("100000 100000"), 1);
    ASSERT_INT_EQ(cpus_from_cpu_max("garbage"), 0);
    ASSERT_INT_EQ(cpus_from_cfs(-1, 100000), 0);
    ASSERT_INT_EQ(cpus_from_cfs(50000, 100000), 1);
    char base[] = "/tmp/verdict-cpus-XXXXXX", path[CG_PATH];
    ASSERT_NOT_NULL(mkdtemp(base));
    snprintf(path, sizeof(path), "%s/a", base);
    ASSERT_INT_EQ(mkdir(path, 0755), 0);
    snprintf(path, sizeof(path), "%s/a/b", base);
    ASSERT_INT_EQ(mkdir(path, 0755), 0);
    put_file(base, "a/cpu.max", "100000 100000\n"); /* the container's: 1 CPU */
    put_file(base, "a/b/cpu.max", "max 100000\n");  /* the server's own: none */
    struct cg_host h = {.version = CG_V2};
    snprintf(h.v2_dir, sizeof(h.v2_dir), "%s/a/b", base);
    ASSERT_INT_EQ(cpus_usable(&h), 1);
    put_file(base, "a/cpu.max", "max 100000\n");
    ASSERT_TRUE(cpus_usable(&h) >= 1);
    ASSERT_INT_EQ(cpus_usable(&h), cpus_usable(NULL)); /* the affinity mask alone */
    struct cg_host v1 = {.version = CG_V1};
    snprintf(v1.v1_dir[CG_CPU], CG_PATH, "%s/a/b", base);
    put_file(base, "a/cpu.cfs_quota_us", "100000\n");
    put_file(base, "a/cpu.cfs_period_us", "100000\n");
    put_file(base, "a/b/cpu.cfs_quota_us", "-1\n");
    put_file(base, "a/b/cpu.cfs_period_us", "100000\n");
    ASSERT_INT_EQ(cpus_usable(&v1), 1);
    /* the weight: v1 1024 shares a cell, v2 100 (at most 10000); a tree without cpu: 1 */
    struct cg_tree t = {.version = CG_V1, .ndirs = 2};
    snprintf(t.dir[0], CG_PATH, "%s/a", base);
    snprintf(t.dir[1], CG_PATH, "%s/a/b", base);
    t.ctrls[0] = 1u << CG_MEMORY;
    t.ctrls[1] = 1u << CG_CPU | 1u << CG_CPUACCT;
    char err[ERR_LEN], got[32];
    put_file(base, "a/b/cpu.shares", "1024\n"); /* kernel files exist: no O_CREAT */
    put_file(base, "a/b/cpu.weight", "100\n");
    ASSERT_INT_EQ(cpus_weigh_tree(&t, 3, err), 0);
    snprintf(path, sizeof(path), "%s/a/b/cpu.shares", base);
    ASSERT_TRUE(file_read(path, got, sizeof(got)) > 0);
    ASSERT_INT_EQ(atoi(got), 3072);
    t.version = CG_V2;
    ASSERT_INT_EQ(cpus_weigh_tree(&t, 200, err), 0);
    snprintf(path, sizeof(path), "%s/a/b/cpu.weight", base);
    ASSERT_TRUE(file_read(path, got, sizeof(got)) > 0);
    ASSERT_INT_EQ(atoi(got), 10000);
    t.ctrls[1] = 1u << CG_CPUACCT;
    ASSERT_INT_EQ(cpus_weigh_tree(&t, 2, err), 1);
    static const char *const files[] = {"a/b/cpu.max",
                                        "a/b/cpu.cfs_quota_us",
                                        "a/b/cpu.cfs_period_us",
                                        "a/b/cpu.shares",
                                        "a/b/cpu.weight",
                                        "a/cpu.max",
                                        "a/cpu.cfs_quota_us",
                                        "a/cpu.cfs_period_us",
                                        "a/b",
                                        "a",
                                        ""};
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", base, files[i]);
        ASSERT_INT_EQ(remove(path), 0);
    }
}

int main(void)
{
    TEST_RUN(test_v2_tree_and_job);
    TEST_RUN(test_v2_shared_cgroup_refused);
    TEST_RUN(test_v2_self_delegation);
    TEST_RUN(test_v1_job);
    TEST_RUN(test_keyed);
    TEST_RUN(test_cpus);
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
