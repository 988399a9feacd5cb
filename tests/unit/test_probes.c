/* The host probes run for real (label sandbox): namespaces, pivot_root, seccomp, cgroups, and
 * the child runner's timeout and crash handling. Needs root; skipped (77) otherwise. Every
 * probe works inside a throw-away child or a temporary cgroup it removes itself. */
#include "runners/cgroup.h"
#include "runners/child.h"
#include "runners/mount.h"
#include "runners/ns.h"
#include "runners/seccomp.h"
#include "test.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>

static int sleepy(void *arg, char err[ERR_LEN])
{
    (void)arg;
    (void)err;
    sleep(30);
    return 0;
}

static int crashy(void *arg, char err[ERR_LEN])
{
    (void)arg;
    (void)err;
    raise(SIGKILL);
    return 0;
}

static int failing(void *arg, char err[ERR_LEN])
{
    return err_set(err, -EXDEV, "failed at step %d", *(int *)arg);
}

static void test_child_runner(void)
{
    char err[ERR_LEN] = "";
    int step = 7;
    ASSERT_INT_EQ(child_run(failing, &step, 5000, err), -EXDEV);
    ASSERT_STR_EQ(err, "failed at step 7");
    ASSERT_INT_EQ(child_run(sleepy, NULL, 200, err), -ETIMEDOUT);
    ASSERT_STR_CONTAINS(err, "200 ms");
    ASSERT_INT_EQ(child_run(crashy, NULL, 5000, err), -ECHILD);
    ASSERT_STR_CONTAINS(err, "signal 9");
}

static void test_namespaces(void)
{
    for (int k = 0; k < NS_COUNT; k++) {
        char detail[ERR_LEN] = "", err[ERR_LEN] = "";
        int rc = ns_probe((enum ns_kind)k, detail, err);
        if (ns_required((enum ns_kind)k)) {
            if (rc != 0)
                fprintf(stderr, "namespace %s: %s\n", ns_name((enum ns_kind)k), err);
            ASSERT_INT_EQ(rc, 0);
            ASSERT_STR_CONTAINS(detail, ns_name((enum ns_kind)k));
        }
    }
}

static void test_pivot_root(void)
{
    char detail[ERR_LEN] = "", err[ERR_LEN] = "";
    int rc = mnt_probe_pivot_root(detail, err);
    if (rc != 0)
        fprintf(stderr, "pivot_root: %s\n", err);
    ASSERT_INT_EQ(rc, 0);
    ASSERT_STR_CONTAINS(detail, "EROFS");
}

static void test_seccomp(void)
{
    char detail[ERR_LEN] = "", err[ERR_LEN] = "";
    int rc = sc_probe(detail, err);
    if (rc != 0)
        fprintf(stderr, "seccomp: %s\n", err);
    ASSERT_INT_EQ(rc, 0);
    ASSERT_STR_CONTAINS(detail, "libseccomp 2.");
}

/* True if dir still holds a probe cgroup of this process. */
static bool leftover(const char *dir)
{
    char prefix[64];
    int n = snprintf(prefix, sizeof(prefix), "verdict-probe-%d-", (int)getpid());
    DIR *d = opendir(dir);
    bool found = false;
    for (struct dirent *e; d && (e = readdir(d));)
        found |= strncmp(e->d_name, prefix, (size_t)n) == 0;
    if (d)
        closedir(d);
    return found;
}

static void test_cgroups(void)
{
    struct cg_host h;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(cg_detect(&h, err), 0);
    if (h.version == CG_NONE)
        TEST_SKIP("no usable cgroup hierarchy on this host");
    enum cg_ctrl need[] = {CG_MEMORY, CG_PIDS, CG_CPUACCT};
    for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
        char detail[ERR_LEN] = "";
        int rc = cg_probe(&h, need[i], detail, err);
        if (rc != 0)
            fprintf(stderr, "cgroup %s: %s\n", cg_ctrl_name(need[i]), err);
        ASSERT_INT_EQ(rc, 0);
        ASSERT_FALSE(leftover(cg_dir(&h, need[i]))); /* the probe cleaned up */
    }
}

int main(void)
{
    if (geteuid() != 0)
        TEST_SKIP("host probes need root");
    TEST_RUN(test_child_runner);
    TEST_RUN(test_namespaces);
    TEST_RUN(test_pivot_root);
    TEST_RUN(test_seccomp);
    TEST_RUN(test_cgroups);
    return TEST_EXIT();
}
