/*
 * ns: namespace probes.
 *
 * Each probe runs in a child made by child_run(): unshare(2) with one CLONE_NEW* flag, then a
 * check that the new namespace is really in effect, since an unshare that succeeds can still be
 * useless (a user namespace whose uid map cannot be written, a pid namespace whose first fork
 * fails). The child exits afterwards and takes its namespaces with it.
 */
#include "runners/ns.h"

#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runners/child.h"
#include "runners/file.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

#define PROBE_TIMEOUT_MS 5000

struct ns_spec {
    const char *name;
    int flag;
    bool required;
    const char *proc_name; /* entry in /proc/self/ns */
};

static const struct ns_spec specs[NS_COUNT] = {
    [NS_USER] = {"user", CLONE_NEWUSER, false, "user"},
    [NS_PID] = {"pid", CLONE_NEWPID, true, "pid_for_children"},
    [NS_MOUNT] = {"mount", CLONE_NEWNS, true, "mnt"},
    [NS_NET] = {"net", CLONE_NEWNET, true, "net"},
    [NS_IPC] = {"ipc", CLONE_NEWIPC, true, "ipc"},
    [NS_UTS] = {"uts", CLONE_NEWUTS, true, "uts"},
    [NS_CGROUP] = {"cgroup", CLONE_NEWCGROUP, false, "cgroup"},
    [NS_TIME] = {"time", CLONE_NEWTIME, false, "time_for_children"},
};

const char *ns_name(enum ns_kind kind)
{
    return kind < NS_COUNT ? specs[kind].name : "?";
}

bool ns_required(enum ns_kind kind)
{
    return kind < NS_COUNT && specs[kind].required;
}

static int ns_inode(const char *proc_name, ino_t *ino)
{
    char path[64];
    struct stat st;
    snprintf(path, sizeof(path), "/proc/self/ns/%s", proc_name);
    if (stat(path, &st) < 0)
        return -errno;
    *ino = st.st_ino;
    return 0;
}

/* The first process forked into a new pid namespace must see itself as pid 1. */
static int check_pid(char err[ERR_LEN])
{
    pid_t pid = fork();
    if (pid < 0)
        return err_set(err, -errno, "fork into new pid namespace: %m");
    if (pid == 0)
        _exit(getpid() == 1 ? 0 : 1);
    int status;
    if (waitpid(pid, &status, 0) < 0)
        return err_set(err, -errno, "waitpid: %m");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return err_set(err, -EPERM, "first process in new pid namespace is not pid 1");
    return 0;
}

/* A user namespace is only useful if a uid/gid map can be written for it. Since Linux 5.12
 * mapping uid 0 needs CAP_SETFCAP in the parent namespace, which a process loses as it
 * unshares, so (as a real container runtime does) a grandchild unshares and waits while this
 * process, still privileged outside, writes its map; the grandchild then checks that it is
 * uid 0 inside. */
static int check_user(char err[ERR_LEN])
{
    int ready[2], go[2];
    if (pipe(ready) < 0)
        return err_set(err, -errno, "pipe: %m");
    if (pipe(go) < 0)
        return err_set(err, -errno, "pipe: %m");
    pid_t pid = fork();
    if (pid < 0)
        return err_set(err, -errno, "fork: %m");
    if (pid == 0) {
        char c = unshare(CLONE_NEWUSER) == 0 ? 'u' : 'e';
        if (write(ready[1], &c, 1) != 1 || c != 'u')
            _exit(2);
        if (read(go[0], &c, 1) != 1) /* the map is written, or the parent gave up */
            _exit(3);
        _exit(getuid() == 0 && getgid() == 0 ? 0 : 4);
    }
    close(ready[1]);
    close(go[0]);
    char c = 0, path[64], map[64];
    int rc = read(ready[0], &c, 1) == 1 && c == 'u' ? 0 : -EPERM;
    if (rc < 0)
        err_set(err, rc, "unshare(CLONE_NEWUSER) failed in the grandchild");
    snprintf(map, sizeof(map), "0 %d 1", (int)geteuid());
    snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)pid);
    if (rc == 0 && (rc = file_write(path, map)) < 0)
        err_set(err, rc, "write uid_map: %s", strerror(-rc));
    snprintf(path, sizeof(path), "/proc/%d/setgroups", (int)pid);
    if (rc == 0 && (rc = file_write(path, "deny")) < 0)
        err_set(err, rc, "write setgroups: %s", strerror(-rc));
    snprintf(map, sizeof(map), "0 %d 1", (int)getegid());
    snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)pid);
    if (rc == 0 && (rc = file_write(path, map)) < 0)
        err_set(err, rc, "write gid_map: %s", strerror(-rc));
    if (write(go[1], "x", 1) != 1 && rc == 0)
        rc = err_set(err, -EPIPE, "grandchild gone");
    close(ready[0]);
    close(go[1]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (rc == 0 && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
        rc = err_set(err, -EPERM, "mapped user namespace, but its process is not uid 0 inside");
    return rc;
}

/* A new network namespace holds loopback and nothing else. */
static int check_net(char err[ERR_LEN])
{
    struct if_nameindex *ifs = if_nameindex();
    if (!ifs)
        return err_set(err, -errno, "if_nameindex: %m");
    int n = 0, rc = 0;
    for (struct if_nameindex *i = ifs; i->if_index != 0; i++, n++)
        if (strcmp(i->if_name, "lo") != 0)
            rc = err_set(err, -EEXIST, "new net namespace has interface %s", i->if_name);
    if_freenameindex(ifs);
    if (rc == 0 && n != 1)
        rc = err_set(err, -ENODEV, "new net namespace has %d interfaces, expected lo only", n);
    return rc;
}

static int probe_fn(void *arg, char err[ERR_LEN])
{
    enum ns_kind kind = *(enum ns_kind *)arg;
    const struct ns_spec *s = &specs[kind];
    if (kind == NS_USER) /* unshared by a grandchild, see check_user() */
        return check_user(err);
    ino_t before = 0, after = 0;
    int have_inode = ns_inode(s->proc_name, &before) == 0;

    if (unshare(s->flag) < 0)
        return err_set(err, -errno, "unshare(CLONE_NEW%s): %m", s->name);
    if (have_inode && ns_inode(s->proc_name, &after) == 0 && after == before)
        return err_set(err, -EPERM, "unshare succeeded but /proc/self/ns/%s did not change",
                       s->proc_name);
    int rc = 0;
    switch (kind) {
    case NS_PID:
        rc = check_pid(err);
        break;
    case NS_NET:
        rc = check_net(err);
        break;
    default:
        break;
    }
    return rc;
}

static const char *verified[NS_COUNT] = {
    [NS_USER] = "new user namespace, uid map written",
    [NS_PID] = "new pid namespace, first process is pid 1",
    [NS_MOUNT] = "new mount namespace",
    [NS_NET] = "new net namespace, loopback only",
    [NS_IPC] = "new ipc namespace",
    [NS_UTS] = "new uts namespace",
    [NS_CGROUP] = "new cgroup namespace",
    [NS_TIME] = "new time namespace",
};

int ns_probe(enum ns_kind kind, char detail[ERR_LEN], char err[ERR_LEN])
{
    if (kind >= NS_COUNT)
        return err_set(err, -EINVAL, "unknown namespace kind %d", (int)kind);
    int rc = child_run(probe_fn, &kind, PROBE_TIMEOUT_MS, err);
    if (rc == 0 && detail)
        snprintf(detail, ERR_LEN, "%s", verified[kind]);
    return rc;
}
