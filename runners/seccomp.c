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
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
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

/*
 * The job filter: a denylist in the manner of isolate's, default allow. It blocks what the
 * namespaces, the read-only root and the dropped capabilities do not already make useless,
 * and what has a history of kernel exploits. Calls that fail for an unprivileged process
 * anyway are listed too: a filter holds even if some other layer is misconfigured.
 */
static const struct sc_rule rules[] = {
    /* Kernel keyrings are not namespaced: a job could read or plant keys of other jobs. */
    {"keyctl", SC_EPERM, "kernel keyring, shared across namespaces"},
    {"add_key", SC_EPERM, "kernel keyring, shared across namespaces"},
    {"request_key", SC_EPERM, "kernel keyring, may call out to user-space helpers"},
    /* Large, fast-moving attack surfaces with a long record of privilege escalations. */
    {"io_uring_setup", SC_ENOSYS, "io_uring: frequent kernel exploits; bypasses seccomp"},
    {"io_uring_enter", SC_ENOSYS, "io_uring: see io_uring_setup"},
    {"io_uring_register", SC_ENOSYS, "io_uring: see io_uring_setup"},
    {"bpf", SC_EPERM, "eBPF verifier bugs are a common escalation path"},
    {"perf_event_open", SC_EPERM, "perf: kernel address leaks, side channels, exploits"},
    {"userfaultfd", SC_EPERM, "lets an exploit pause the kernel mid-copy (race widening)"},
    /* The box is built once by the cell; a job must not rebuild or leave it. */
    {"mount", SC_EPERM, "file system layout is fixed by the cell"},
    {"umount2", SC_EPERM, "could reveal what the cell mounted over"},
    {"pivot_root", SC_EPERM, "root is fixed by the cell"},
    {"chroot", SC_EPERM, "root is fixed by the cell"},
    {"unshare", SC_EPERM, "new namespaces (user namespaces above all) widen the surface"},
    {"setns", SC_EPERM, "joining other namespaces"},
    {"open_tree", SC_EPERM, "new mount API"},
    {"move_mount", SC_EPERM, "new mount API"},
    {"fsopen", SC_EPERM, "new mount API"},
    {"fsconfig", SC_EPERM, "new mount API"},
    {"fsmount", SC_EPERM, "new mount API"},
    {"fspick", SC_EPERM, "new mount API"},
    {"mount_setattr", SC_EPERM, "new mount API"},
    {"name_to_handle_at", SC_EPERM, "file handles: the classic container escape"},
    {"open_by_handle_at", SC_EPERM, "file handles: opens files outside the root"},
    /* Other processes' memory and execution. */
    {"ptrace", SC_EPERM, "tracing other processes"},
    {"process_vm_readv", SC_EPERM, "reading other processes' memory"},
    {"process_vm_writev", SC_EPERM, "writing other processes' memory"},
    {"kcmp", SC_EPERM, "compares kernel objects of other processes (info leak)"},
    /* The machine itself. */
    {"kexec_load", SC_EPERM, "replacing the running kernel"},
    {"kexec_file_load", SC_EPERM, "replacing the running kernel"},
    {"init_module", SC_EPERM, "loading kernel modules"},
    {"finit_module", SC_EPERM, "loading kernel modules"},
    {"delete_module", SC_EPERM, "unloading kernel modules"},
    {"reboot", SC_EPERM, "rebooting the host"},
    {"swapon", SC_EPERM, "swap would defeat memory limits"},
    {"swapoff", SC_EPERM, "host swap configuration"},
    {"acct", SC_EPERM, "process accounting writes host files"},
    {"syslog", SC_EPERM, "kernel log: addresses and other jobs' traces"},
    {"quotactl", SC_EPERM, "disk quotas of host file systems"},
    {"settimeofday", SC_EPERM, "the host clock"},
    {"clock_settime", SC_EPERM, "the host clock"},
    {"clock_adjtime", SC_EPERM, "the host clock"},
    {"adjtimex", SC_EPERM, "the host clock"},
    {"sethostname", SC_EPERM, "host identity (the uts namespace is the cell's)"},
    {"setdomainname", SC_EPERM, "host identity"},
    {"vhangup", SC_EPERM, "terminal hang-up"},
    /* File system events: /usr and the toolchains are shared by every cell (and the host), so
     * a watch there would show other jobs' file accesses: a channel between jobs. ENOSYS, so
     * libraries fall back to polling as on a kernel without inotify. */
    {"inotify_init", SC_ENOSYS, "watches on shared files see other cells' accesses"},
    {"inotify_init1", SC_ENOSYS, "see inotify_init"},
    {"inotify_add_watch", SC_ENOSYS, "see inotify_init"},
    {"fanotify_init", SC_EPERM, "file system event monitoring"},
    {"fanotify_mark", SC_EPERM, "file system event monitoring"},
    {"lookup_dcookie", SC_EPERM, "kernel profiling support"},
    {"iopl", SC_EPERM, "raw I/O port access"},
    {"ioperm", SC_EPERM, "raw I/O port access"},
    {"modify_ldt", SC_EPERM, "16-bit segments: old exploit primitive, never needed"},
    {"uselib", SC_EPERM, "obsolete a.out loader"},
    {"ustat", SC_EPERM, "obsolete"},
    {"sysfs", SC_EPERM, "obsolete"},
    {"_sysctl", SC_EPERM, "obsolete"},
    {"nfsservctl", SC_EPERM, "obsolete"},
    /* POSIX message queues persist in the cell's IPC namespace beyond the job, with no file
     * the cell could list to remove them (SysV objects it removes after every job). */
    {"mq_open", SC_ENOSYS, "queues would outlive the job and reach the next one"},
    {"mq_unlink", SC_ENOSYS, "see mq_open"},
    {"mq_timedsend", SC_ENOSYS, "see mq_open"},
    {"mq_timedreceive", SC_ENOSYS, "see mq_open"},
    {"mq_notify", SC_ENOSYS, "see mq_open"},
    {"mq_getsetattr", SC_ENOSYS, "see mq_open"},
    /* clone3 passes its flags in memory a filter cannot read; glibc falls back to clone, whose
     * namespace flags are checked below. */
    {"clone3", SC_ENOSYS, "flags unreadable by seccomp; clone is checked instead"},
};

const struct sc_rule *sc_rules(size_t *n)
{
    *n = sizeof(rules) / sizeof(rules[0]);
    return rules;
}

struct sc_filter {
    size_t len;
    struct sock_filter insns[];
};

static uint32_t action_of(enum sc_action a)
{
    switch (a) {
    case SC_ENOSYS:
        return SCMP_ACT_ERRNO(ENOSYS);
    case SC_KILL:
        return SCMP_ACT_KILL_PROCESS;
    case SC_EPERM:
    default:
        return SCMP_ACT_ERRNO(EPERM);
    }
}

/* Sockets: AF_UNIX, AF_INET and AF_INET6 only, stream or datagram. Netlink, packet, vsock,
 * bluetooth, alg and the rest reach kernel code (and, for netlink, host state) a program never
 * needs. Ranges are separate rules because libseccomp compares one argument once per rule. */
static int add_socket_rules(scmp_filter_ctx ctx)
{
    uint32_t no = SCMP_ACT_ERRNO(EAFNOSUPPORT);
    int rc = seccomp_rule_add(ctx, no, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_EQ, AF_UNSPEC));
    for (int fam = AF_INET + 1; rc == 0 && fam < AF_INET6; fam++)
        rc = seccomp_rule_add(ctx, no, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_EQ, (uint64_t)fam));
    if (rc == 0)
        rc = seccomp_rule_add(ctx, no, SCMP_SYS(socket), 1,
                              SCMP_A0(SCMP_CMP_GT, (uint64_t)AF_INET6));
    /* Types: stream and datagram only, and AF_UNIX seqpacket (Rust's std spawns through a
     * SOCK_SEQPACKET socketpair); the low four bits, the rest are SOCK_CLOEXEC and
     * SOCK_NONBLOCK. Raw and packet sockets need privileges anyway; inet seqpacket (SCTP),
     * rdm and dccp are kernel code no judged program uses. */
    static const uint64_t fams[] = {AF_UNIX, AF_INET, AF_INET6};
    for (size_t f = 0; rc == 0 && f < sizeof(fams) / sizeof(fams[0]); f++)
        for (uint64_t type = SOCK_RAW; rc == 0 && type <= 0xf; type++)
            if (fams[f] != AF_UNIX || type != SOCK_SEQPACKET)
                rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPROTONOSUPPORT), SCMP_SYS(socket), 2,
                                      SCMP_A0(SCMP_CMP_EQ, fams[f]),
                                      SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, type));
    for (uint64_t type = SOCK_RAW; rc == 0 && type <= 0xf; type++)
        if (type != SOCK_SEQPACKET)
            rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPROTONOSUPPORT), SCMP_SYS(socketpair), 2,
                                  SCMP_A0(SCMP_CMP_EQ, (uint64_t)AF_UNIX),
                                  SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, type));
    /* socketpair exists only for AF_UNIX. */
    if (rc == 0)
        rc = seccomp_rule_add(ctx, no, SCMP_SYS(socketpair), 1,
                              SCMP_A0(SCMP_CMP_NE, (uint64_t)AF_UNIX));
    return rc;
}

/* clone with any CLONE_NEW* flag: one rule per bit, since a rule matches a masked value. */
static int add_clone_rules(scmp_filter_ctx ctx)
{
    static const uint64_t bits[] = {CLONE_NEWNS,  CLONE_NEWUTS, CLONE_NEWIPC,   CLONE_NEWUSER,
                                    CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWCGROUP};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof(bits) / sizeof(bits[0]); i++)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                              SCMP_A0(SCMP_CMP_MASKED_EQ, bits[i], bits[i]));
    return rc;
}

static int export_bpf(scmp_filter_ctx ctx, struct sc_filter **out, char err[ERR_LEN])
{
    int fd = memfd_create("verdict-seccomp", MFD_CLOEXEC);
    if (fd < 0)
        return err_set(err, -errno, "memfd_create: %m");
    int rc = seccomp_export_bpf(ctx, fd);
    off_t size = rc == 0 ? lseek(fd, 0, SEEK_END) : -1;
    struct sc_filter *f = NULL;
    if (rc < 0) {
        err_set(err, rc, "seccomp_export_bpf: %s", strerror(-rc));
    } else if (size <= 0 || size % (off_t)sizeof(struct sock_filter) != 0) {
        rc = err_set(err, -EINVAL, "exported filter has odd size %lld", (long long)size);
    } else if (!(f = malloc(sizeof(*f) + (size_t)size))) {
        rc = err_set(err, -ENOMEM, "out of memory");
    } else if (pread(fd, f->insns, (size_t)size, 0) != size) {
        rc = err_set(err, -EIO, "read back exported filter");
    } else {
        f->len = (size_t)size / sizeof(struct sock_filter);
        *out = f;
        f = NULL;
    }
    free(f);
    close(fd);
    return rc;
}

int sc_filter_build(struct sc_filter **out, char err[ERR_LEN])
{
    *out = NULL;
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx)
        return err_set(err, -ENOMEM, "seccomp_init failed");
    /* Only the native ABI: a 64-bit program calling through int 0x80 (i386) or with the x32
     * bit set reaches differently checked syscall tables; no compiled job needs either. */
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    if (rc < 0)
        err_set(err, rc, "set bad-arch action: %s", strerror(-rc));
    /* A binary search over syscall numbers instead of a linear chain: every system call a job
     * makes passes through this filter. */
    if (rc == 0 && (rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2)) < 0)
        err_set(err, rc, "set optimisation: %s", strerror(-rc));
    for (size_t i = 0; rc == 0 && i < sizeof(rules) / sizeof(rules[0]); i++) {
        int nr = seccomp_syscall_resolve_name(rules[i].syscall);
        if (nr == __NR_SCMP_ERROR)
            continue; /* not on this architecture (e.g. iopl on arm64) */
        rc = seccomp_rule_add(ctx, action_of(rules[i].action), nr, 0);
        if (rc < 0)
            err_set(err, rc, "rule %s: %s", rules[i].syscall, strerror(-rc));
    }
    if (rc == 0 && (rc = add_socket_rules(ctx)) < 0)
        err_set(err, rc, "socket rules: %s", strerror(-rc));
    if (rc == 0 && (rc = add_clone_rules(ctx)) < 0)
        err_set(err, rc, "clone rules: %s", strerror(-rc));
    if (rc == 0)
        rc = export_bpf(ctx, out, err);
    seccomp_release(ctx);
    return rc;
}

int sc_filter_install(const struct sc_filter *f)
{
    struct sock_fprog prog = {.len = (unsigned short)f->len,
                              .filter = (struct sock_filter *)(uintptr_t)f->insns};
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
        return -errno;
    return 0;
}

size_t sc_filter_len(const struct sc_filter *f)
{
    return f ? f->len : 0;
}

void sc_filter_free(struct sc_filter *f)
{
    free(f);
}
