/* Unit tests for runners/seccomp: the rule table (every rule resolves, carries a reason, and
 * the calls the sandbox must block are all there) and the compiled filter, installed for real
 * in a child process (no root needed: no_new_privs suffices). */
#include "runners/child.h"
#include "runners/seccomp.h"
#include "test.h"

#include <errno.h>
#include <linux/keyctl.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct sc_rule *rule(const char *name)
{
    size_t n;
    const struct sc_rule *r = sc_rules(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(r[i].syscall, name) == 0)
            return &r[i];
    return NULL;
}

static void test_table(void)
{
    static const char *const required[] = {"keyctl",
                                           "add_key",
                                           "request_key",
                                           "io_uring_setup",
                                           "io_uring_enter",
                                           "io_uring_register",
                                           "bpf",
                                           "perf_event_open",
                                           "userfaultfd",
                                           "mount",
                                           "umount2",
                                           "pivot_root",
                                           "unshare",
                                           "setns",
                                           "chroot",
                                           "ptrace",
                                           "process_vm_readv",
                                           "process_vm_writev",
                                           "kexec_load",
                                           "kexec_file_load",
                                           "init_module",
                                           "finit_module",
                                           "delete_module",
                                           "reboot",
                                           "swapon",
                                           "swapoff",
                                           "acct",
                                           "open_by_handle_at"};
    for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
        if (!rule(required[i]))
            fprintf(stderr, "missing rule: %s\n", required[i]);
        ASSERT_NOT_NULL(rule(required[i]));
    }
    size_t n;
    const struct sc_rule *r = sc_rules(&n);
    for (size_t i = 0; i < n; i++) {
        ASSERT_TRUE(seccomp_syscall_resolve_name(r[i].syscall) != __NR_SCMP_ERROR);
        ASSERT_TRUE(r[i].why && strlen(r[i].why) > 5);
        for (size_t k = i + 1; k < n; k++)
            ASSERT_TRUE(strcmp(r[i].syscall, r[k].syscall) != 0); /* no duplicates */
    }
    ASSERT_INT_EQ(rule("io_uring_setup")->action, SC_ENOSYS);
    ASSERT_INT_EQ(rule("clone3")->action, SC_ENOSYS);
}

/* In a child: installs the filter, then each blocked call must fail with its errno. */
static int filtered(void *arg, char err[ERR_LEN])
{
    const struct sc_filter *f = arg;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        return err_set(err, -errno, "no_new_privs: %m");
    int rc = sc_filter_install(f);
    if (rc < 0)
        return err_set(err, rc, "install: %s", strerror(-rc));
#define EXPECT_ERRNO(call, want)                                                                   \
    do {                                                                                           \
        errno = 0;                                                                                 \
        long r_ = (long)(call);                                                                    \
        if (r_ != -1 || errno != (want))                                                           \
            return err_set(err, -EPERM, "%s returned %ld errno %d, want errno %d", #call, r_,      \
                           errno, want);                                                           \
    } while (0)
    int pair[2];
    EXPECT_ERRNO(syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0), EPERM);
    EXPECT_ERRNO(syscall(SYS_bpf, 0, NULL, 0), EPERM);
    EXPECT_ERRNO(syscall(SYS_io_uring_setup, 1, NULL), ENOSYS);
    EXPECT_ERRNO(unshare(CLONE_NEWUSER), EPERM);
    EXPECT_ERRNO(syscall(SYS_clone, CLONE_NEWNET | SIGCHLD, NULL, NULL, NULL, 0), EPERM);
    EXPECT_ERRNO(syscall(SYS_clone3, NULL, 0), ENOSYS);
    EXPECT_ERRNO(socket(AF_NETLINK, SOCK_RAW, 0), EAFNOSUPPORT);
    EXPECT_ERRNO(socket(AF_PACKET, SOCK_RAW, 0), EAFNOSUPPORT);
    EXPECT_ERRNO(socket(AF_VSOCK, SOCK_STREAM, 0), EAFNOSUPPORT);
    EXPECT_ERRNO(socket(AF_UNSPEC, SOCK_STREAM, 0), EAFNOSUPPORT);
    EXPECT_ERRNO(socketpair(AF_INET, SOCK_STREAM, 0, pair), EAFNOSUPPORT);
    /* inotify would show other cells' accesses to shared files; socket types other
     * than stream and datagram are refused. */
    EXPECT_ERRNO(syscall(SYS_inotify_init1, 0), ENOSYS);
    EXPECT_ERRNO(socket(AF_INET, SOCK_SEQPACKET, 0), EPROTONOSUPPORT);
    EXPECT_ERRNO(socketpair(AF_UNIX, SOCK_RDM | SOCK_CLOEXEC, 0, pair), EPROTONOSUPPORT);
    EXPECT_ERRNO(syscall(SYS_ptrace, 0, 0, 0, 0), EPERM);
    EXPECT_ERRNO(syscall(SYS_mount, "none", "/", "tmpfs", 0, NULL), EPERM);
    /* Allowed: the families a program needs, and a plain fork. */
    int u = socket(AF_UNIX, SOCK_STREAM, 0), i4 = socket(AF_INET, SOCK_DGRAM, 0),
        i6 = socket(AF_INET6, SOCK_DGRAM, 0);
    if (u < 0 || i4 < 0 || i6 < 0)
        return err_set(err, -EPERM, "AF_UNIX/AF_INET/AF_INET6 sockets refused");
    int sp[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) < 0)
        return err_set(err, -EPERM, "socketpair(AF_UNIX) refused");
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0) /* Rust's spawn */
        return err_set(err, -EPERM, "socketpair(AF_UNIX, SOCK_SEQPACKET) refused");
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    return pid > 0 ? 0 : err_set(err, -EPERM, "fork refused");
}

static void test_filter_enforced(void)
{
    struct sc_filter *f = NULL;
    char err[ERR_LEN] = "";
    ASSERT_INT_EQ(sc_filter_build(&f, err), 0);
    ASSERT_TRUE(sc_filter_len(f) > 50);
    int rc = child_run(filtered, f, 5000, err);
    if (rc != 0)
        fprintf(stderr, "%s\n", err);
    ASSERT_INT_EQ(rc, 0);
    sc_filter_free(f);
}

/* The i386 ABI through int 0x80 kills the process (SIGSYS), it does not just fail. A kernel
 * without IA32 emulation (CONFIG_IA32_EMULATION off, or ia32_emulation=0 on its command line)
 * faults the instruction itself (SIGSEGV) before any filter runs: there is then nothing to
 * block, and the probe below, unfiltered, says so. SIGSEGV goes back to its default so that a
 * sanitizer's handler does not turn the fault into an exit status. */
static long int80_getpid(void)
{
    long ret;
    __asm__ volatile("int $0x80" : "=a"(ret) : "a"(20L) : "memory"); /* i386 getpid */
    return ret;
}

static int int80_plain(void *arg, char err[ERR_LEN])
{
    (void)arg;
    signal(SIGSEGV, SIG_DFL);
    long ret = int80_getpid();
    return ret == (long)getpid() ? 0 : err_set(err, -EIO, "int 0x80 returned %ld", ret);
}

static int int80(void *arg, char err[ERR_LEN])
{
    const struct sc_filter *f = arg;
    signal(SIGSEGV, SIG_DFL);
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (sc_filter_install(f) < 0)
        return err_set(err, -EIO, "install failed");
    long ret = int80_getpid();
    return err_set(err, -EPERM, "int 0x80 survived, returned %ld", ret);
}

static void test_foreign_abi_killed(void)
{
    char err[ERR_LEN] = "";
    if (child_run(int80_plain, NULL, 5000, err) != 0) {
        ASSERT_STR_CONTAINS(err, "signal 11"); /* no i386 ABI here: the fault is the kernel's */
        printf("# no i386 ABI in this kernel, nothing to block (%s)\n", err);
        return;
    }
    struct sc_filter *f = NULL;
    ASSERT_INT_EQ(sc_filter_build(&f, err), 0);
    int rc = child_run(int80, f, 5000, err);
    sc_filter_free(f);
    ASSERT_INT_EQ(rc, -ECHILD);
    ASSERT_STR_CONTAINS(err, "signal 31"); /* SIGSYS */
}

int main(void)
{
    TEST_RUN(test_table);
    TEST_RUN(test_filter_enforced);
    TEST_RUN(test_foreign_abi_killed);
    return TEST_EXIT();
}
