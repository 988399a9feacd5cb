/* Unit tests for server/cli/doctor: kernel release and capability parsing, the ready verdict,
 * and both renderings, on reports built by hand (no probes run). */
#include "runners/pool.h"
#include "server/cli/doctor.h"
#include "server/util/json.h"
#include "test.h"

#include <errno.h>

static void test_kernel(void)
{
    int a = -1, b = -1, c = -1;
    ASSERT_INT_EQ(doctor_parse_kernel("6.18.44-fc-v769", &a, &b, &c), 0);
    ASSERT_INT_EQ(a, 6);
    ASSERT_INT_EQ(b, 18);
    ASSERT_INT_EQ(c, 44);
    ASSERT_INT_EQ(doctor_parse_kernel("6.1.0-18-amd64", &a, &b, &c), 0);
    ASSERT_INT_EQ(c, 0);
    ASSERT_INT_EQ(doctor_parse_kernel("4.19", &a, &b, &c), 0);
    ASSERT_INT_EQ(a, 4);
    ASSERT_INT_EQ(b, 19);
    ASSERT_INT_EQ(c, 0);
    ASSERT_INT_EQ(doctor_parse_kernel("5.15-rc1", &a, &b, &c), 0);
    ASSERT_INT_EQ(b, 15);
    ASSERT_INT_EQ(doctor_parse_kernel("linux", &a, &b, &c), -EINVAL);
    ASSERT_INT_EQ(doctor_parse_kernel("6", &a, &b, &c), -EINVAL);
    ASSERT_INT_EQ(doctor_parse_kernel("", &a, &b, &c), -EINVAL);
}

static void test_caps(void)
{
    const char *root = "Name:\tverdict\nCapInh:\t0000000000000000\n"
                       "CapPrm:\t000001ffffffffff\nCapEff:\t000001ffffffffff\n";
    const char *user = "CapEff:\t0000000000000000\n";
    const char *net_admin_only = "CapEff:\t0000000000001000\n";
    char names[256];
    ASSERT_INT_EQ(pool_missing_caps(root, names, sizeof(names)), 0);
    ASSERT_STR_EQ(names, "");
    ASSERT_INT_EQ(pool_missing_caps(user, names, sizeof(names)), 9);
    ASSERT_INT_EQ(pool_missing_caps(net_admin_only, names, sizeof(names)), 8);
    ASSERT_TRUE(strstr(names, "CAP_NET_ADMIN") == NULL);
    ASSERT_TRUE(strstr(names, "CAP_SYS_ADMIN") != NULL);
    /* docker/README.md's set: SYS_ADMIN NET_ADMIN MKNOD SETUID SETGID SETPCAP KILL CHOWN
     * DAC_OVERRIDE (bits 21 12 27 7 6 8 5 0 1) */
    ASSERT_INT_EQ(pool_missing_caps("CapEff:\t00000000082011e3\n", names, sizeof(names)), 0);
    /* the same without CAP_KILL (bit 5) */
    ASSERT_INT_EQ(pool_missing_caps("CapEff:\t00000000082011c3\n", names, sizeof(names)), 1);
    ASSERT_STR_EQ(names, "CAP_KILL");
    ASSERT_INT_EQ(pool_missing_caps("no caps here", names, sizeof(names)), 9);
    ASSERT_INT_EQ(pool_missing_caps("CapEff:\t0\n", names, 8), 9); /* cut, still counted */
    ASSERT_TRUE(strlen(names) < 8);
}

static struct doctor_report *sample(void)
{
    static struct doctor_report r;
    memset(&r, 0, sizeof(r));
    snprintf(r.kernel, sizeof(r.kernel), "6.18.44");
    r.cgroup.version = CG_V1;
    doctor_add(&r, "namespace", "pid", CHECK_OK, true, "new pid namespace");
    doctor_add(&r, "toolchain", "java", CHECK_WARN, false, "not installed");
    doctor_add(&r, "gpu", "cuda", CHECK_INFO, false, "no GPU");
    return &r;
}

static void test_ready(void)
{
    struct doctor_report *r = sample();
    char reason[256] = "x";
    ASSERT_TRUE(doctor_ready(r, reason, sizeof(reason)));
    ASSERT_STR_EQ(reason, "");
    /* A failed optional check does not block; failed required checks are all named. */
    doctor_add(r, "namespace", "user", CHECK_FAIL, false, "EPERM");
    ASSERT_TRUE(doctor_ready(r, reason, sizeof(reason)));
    doctor_add(r, "cgroup", "memory", CHECK_FAIL, true, "mkdir: EACCES");
    doctor_add(r, "seccomp", "filter", CHECK_FAIL, true, "seccomp_load: EINVAL");
    ASSERT_FALSE(doctor_ready(r, reason, sizeof(reason)));
    ASSERT_STR_EQ(reason, "cgroup memory: mkdir: EACCES; seccomp filter: seccomp_load: EINVAL");
    char tiny[8];
    ASSERT_FALSE(doctor_ready(r, tiny, sizeof(tiny))); /* truncates, never overflows */
    ASSERT_INT_EQ(strlen(tiny), 7);
}

static void test_add_overflow(void)
{
    struct doctor_report *r = sample();
    for (int i = 0; i < DOCTOR_MAX_CHECKS + 5; i++)
        doctor_add(r, "g", "n", CHECK_OK, false, "%d", i);
    ASSERT_INT_EQ(r->nchecks, DOCTOR_MAX_CHECKS);
    ASSERT_NULL(doctor_add(r, "g", "n", CHECK_OK, false, "late"));
}

static void test_text(void)
{
    struct doctor_report *r = sample();
    char buf[4096] = "";
    FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
    ASSERT_NOT_NULL(f);
    doctor_print_text(f, r);
    fclose(f);
    ASSERT_STR_CONTAINS(buf, "  namespace  pid         ok    new pid namespace\n");
    ASSERT_STR_CONTAINS(buf, "  gpu        cuda        --    no GPU\n");
    ASSERT_STR_CONTAINS(buf, "\nready: this host can run sandboxed jobs (cgroup v1)\n");
    doctor_add(r, "mount", "pivot_root", CHECK_FAIL, true, "pivot_root: EINVAL");
    f = fmemopen(buf, sizeof(buf) - 1, "w");
    doctor_print_text(f, r);
    fclose(f);
    ASSERT_STR_CONTAINS(buf, "FAIL  pivot_root: EINVAL");
    ASSERT_STR_CONTAINS(buf, "\nNOT READY: mount pivot_root: pivot_root: EINVAL\n");
}

static void test_json(void)
{
    struct doctor_report *r = sample();
    char *text = doctor_render_json(r);
    struct json *doc = json_parse(text);
    ASSERT_NOT_NULL(doc);
    bool ready = false;
    ASSERT_TRUE(json_bool(json_get(doc, "ready"), &ready));
    ASSERT_TRUE(ready);
    const char *s = NULL;
    ASSERT_TRUE(json_str(json_get(json_get(doc, "kernel"), "release"), &s));
    ASSERT_STR_EQ(s, "6.18.44");
    double v = 0;
    ASSERT_TRUE(json_num(json_get(json_get(doc, "cgroup"), "version"), &v));
    ASSERT_INT_EQ(v, 1);
    const struct json *checks = json_get(doc, "checks");
    ASSERT_INT_EQ(json_len(checks), 3);
    ASSERT_TRUE(json_str(json_get(json_at(checks, 2), "status"), &s));
    ASSERT_STR_EQ(s, "info");
    ASSERT_TRUE(json_num(json_get(json_get(doc, "gpu"), "count"), &v));
    ASSERT_INT_EQ(v, 0);
    json_free(doc);
    free(text);
}

int main(void)
{
    TEST_RUN(test_kernel);
    TEST_RUN(test_caps);
    TEST_RUN(test_ready);
    TEST_RUN(test_add_overflow);
    TEST_RUN(test_text);
    TEST_RUN(test_json);
    return TEST_EXIT();
}
