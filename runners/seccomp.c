/*
 * seccomp: libseccomp behind one module.
 *
 * The probe proves the whole path a job will take: a filter is built with libseccomp, loaded
 * into the kernel in a child (which first sets no_new_privs, as libseccomp does by default),
 * and then observed in effect, both by the errno a filtered call returns and by the kernel's
 * own report in /proc/self/status. The caller's process never carries a filter.
 */
#include "runners/seccomp.h"

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runners/child.h"
#include "runners/file.h"

#define PROBE_TIMEOUT_MS 5000

char *sc_version(char *buf, size_t cap)
{
    const struct scmp_version *v = seccomp_version();
    snprintf(buf, cap, "%u.%u.%u (API level %u)", v->major, v->minor, v->micro, seccomp_api_get());
    return buf;
}

/* Seccomp mode of the calling task as the kernel reports it: 0 off, 1 strict, 2 filter. */
static int status_mode(void)
{
    char buf[4096];
    if (file_read("/proc/self/status", buf, sizeof(buf)) < 0)
        return -1;
    const char *p = strstr(buf, "\nSeccomp:");
    int mode = -1;
    if (p && sscanf(p, "\nSeccomp: %d", &mode) != 1)
        mode = -1;
    return mode;
}

static int probe_fn(void *arg, char err[ERR_LEN])
{
    (void)arg;
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx)
        return err_set(err, -ENOMEM, "seccomp_init failed");
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EDOM), SCMP_SYS(getppid), 0);
    if (rc < 0) {
        err_set(err, rc, "seccomp_rule_add: %s", strerror(-rc));
        goto out;
    }
    rc = seccomp_load(ctx);
    if (rc < 0) {
        err_set(err, rc, "seccomp_load: %s", strerror(-rc));
        goto out;
    }
    errno = 0;
    long r = syscall(SYS_getppid);
    if (r != -1 || errno != EDOM) {
        rc = err_set(err, -EPERM, "filter loaded but getppid() returned %ld (errno %d)", r, errno);
        goto out;
    }
    if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1) {
        rc = err_set(err, -EPERM, "no_new_privs not set after loading the filter");
        goto out;
    }
    int mode = status_mode();
    if (mode != 2)
        rc = err_set(err, -EPERM, "kernel reports Seccomp: %d, expected 2 (filter)", mode);
out:
    seccomp_release(ctx);
    return rc;
}

int sc_probe(char detail[ERR_LEN], char err[ERR_LEN])
{
    int rc = child_run(probe_fn, NULL, PROBE_TIMEOUT_MS, err);
    if (rc == 0 && detail) {
        char ver[64], actions[160] = "";
        if (file_read("/proc/sys/kernel/seccomp/actions_avail", actions, sizeof(actions)) > 0)
            actions[strcspn(actions, "\n")] = '\0';
        snprintf(detail, ERR_LEN, "libseccomp %s, filter loaded and enforced in a child; %s%s",
                 sc_version(ver, sizeof(ver)), actions[0] ? "kernel actions: " : "", actions);
    }
    return rc;
}
