/* Unit tests for runners/mount's plan: built against fixture host trees (a merged-/usr
 * Debian layout and a split one), checked op by op, without mounting anything. */
#include "runners/mount.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static char root[64];

static void touch(const char *rel)
{
    char p[256];
    snprintf(p, sizeof(p), "%s/%s", root, rel);
    int fd = open(p, O_WRONLY | O_CREAT, 0644);
    if (fd >= 0)
        close(fd);
}

static void mkd(const char *rel)
{
    char p[256];
    snprintf(p, sizeof(p), "%s/%s", root, rel);
    mkdir(p, 0755);
}

static void lnk(const char *target, const char *rel)
{
    char p[256];
    snprintf(p, sizeof(p), "%s/%s", root, rel);
    if (symlink(target, p) < 0)
        perror("symlink");
}

/* The first op for path, or a blank op of kind -1 when there is none (never NULL). */
static const struct mnt_op *find(const struct mnt_plan *p, const char *path)
{
    static struct mnt_op missing = {.kind = (enum mnt_kind) - 1, .content = ""};
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->ops[i].path, path) == 0)
            return &p->ops[i];
    return &missing;
}

static bool has(const struct mnt_plan *p, const char *path)
{
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->ops[i].path, path) == 0)
            return true;
    return false;
}

static int index_of(const struct mnt_plan *p, const char *path, enum mnt_kind kind)
{
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->ops[i].path, path) == 0 && p->ops[i].kind == kind)
            return i;
    return -1;
}

static void fixture(bool merged)
{
    snprintf(root, sizeof(root), "/tmp/verdict-mnt-XXXXXX");
    if (!mkdtemp(root))
        return;
    mkd("usr");
    mkd("usr/bin");
    mkd("usr/lib");
    mkd("etc");
    mkd("etc/alternatives");
    touch("etc/ld.so.cache");
    mkd("opt");
    mkd("opt/toolchain");
    if (merged) {
        lnk("usr/bin", "bin");
        lnk("usr/lib", "lib");
        lnk("usr/lib64", "lib64");
    } else {
        mkd("bin");
        mkd("lib");
    }
}

static void cleanup(void)
{
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", root);
}

static void test_merged_usr(void)
{
    fixture(true);
    const char *binds[] = {"/opt/toolchain", "/usr/lib/go"};
    struct mnt_config c = {.host_prefix = root,
                           .binds = binds,
                           .nbinds = 2,
                           .uid = 60001,
                           .gid = 60001,
                           .tmpfs_bytes = 32 << 20,
                           .tmpfs_inodes = 512};
    static struct mnt_plan p;
    char err[ERR_LEN] = "";
    int rc = mnt_plan_build(&c, &p, err);
    cleanup();
    ASSERT_INT_EQ(rc, 0);
    /* An overlay, not a bind: its inodes are the cell's, so locks and watches on /usr files
     * are not shared with other cells. */
    ASSERT_INT_EQ(find(&p, "/usr")->kind, MNT_OVERLAY);
    ASSERT_INT_EQ(find(&p, "/bin")->kind, MNT_SYMLINK);
    ASSERT_STR_EQ(find(&p, "/bin")->src, "usr/bin");
    ASSERT_STR_EQ(find(&p, "/lib64")->src, "usr/lib64");
    ASSERT_FALSE(has(&p, "/sbin")); /* absent on the host: absent in the cell */
    ASSERT_FALSE(has(&p, "/lib32"));
    ASSERT_INT_EQ(find(&p, "/opt/toolchain")->kind, MNT_BIND);
    ASSERT_FALSE(has(&p, "/usr/lib/go")); /* already visible through /usr */
    ASSERT_INT_EQ(find(&p, "/etc/ld.so.cache")->kind, MNT_BIND);
    ASSERT_INT_EQ(find(&p, "/etc/alternatives")->kind, MNT_BIND);
    ASSERT_STR_CONTAINS(find(&p, "/etc/passwd")->content, "sandbox:x:60001:60001:");
    ASSERT_STR_CONTAINS(find(&p, "/etc/group")->content, "sandbox:x:60001:");
    ASSERT_FALSE(has(&p, "/etc/shadow"));
    ASSERT_INT_EQ(find(&p, "/proc")->kind, MNT_PROC);
    /* The job dirs: size- and inode-capped tmpfs; the work dir belongs to the job user, and
     * nothing on /dev/shm may be executed. */
    const struct mnt_op *w = find(&p, MNT_WORKDIR), *tmp = find(&p, "/tmp"),
                        *shm = find(&p, "/dev/shm");
    ASSERT_INT_EQ(w->kind, MNT_TMPFS);
    ASSERT_STR_EQ(w->src, "size=33554432,nr_inodes=512,mode=0755,uid=60001,gid=60001");
    ASSERT_UINT_EQ(w->flags, MS_NOSUID | MS_NODEV);
    ASSERT_INT_EQ(tmp->kind, MNT_TMPFS);
    ASSERT_STR_EQ(tmp->src, "size=33554432,nr_inodes=512,mode=1777");
    ASSERT_INT_EQ(shm->kind, MNT_TMPFS);
    ASSERT_UINT_EQ(shm->flags, MS_NOSUID | MS_NODEV | MS_NOEXEC);
    ASSERT_UINT_EQ(find(&p, "/dev")->flags & MS_NODEV, 0); /* device nodes must work */
    /* /dev: a tmpfs with exactly the five harmless nodes, made read-only after them. */
    ASSERT_INT_EQ(find(&p, "/dev")->kind, MNT_TMPFS);
    const struct mnt_op *null = find(&p, "/dev/null");
    ASSERT_INT_EQ(null->kind, MNT_DEVNODE);
    ASSERT_UINT_EQ(major(null->dev), 1);
    ASSERT_UINT_EQ(minor(null->dev), 3);
    ASSERT_UINT_EQ(minor(find(&p, "/dev/urandom")->dev), 9);
    ASSERT_FALSE(has(&p, "/dev/mem"));
    ASSERT_FALSE(has(&p, "/dev/kmsg"));
    int nodes = 0;
    for (int i = 0; i < p.n; i++)
        nodes += p.ops[i].kind == MNT_DEVNODE;
    ASSERT_INT_EQ(nodes, 5);
    ASSERT_STR_EQ(find(&p, "/dev/fd")->src, "/proc/self/fd");
    ASSERT_TRUE(index_of(&p, "/dev", MNT_RDONLY) > index_of(&p, "/dev/shm", MNT_TMPFS));
    ASSERT_TRUE(index_of(&p, "/dev/shm", MNT_TMPFS) > index_of(&p, "/dev", MNT_TMPFS));
}

static void test_split_usr(void)
{
    fixture(false);
    struct mnt_config c = {.host_prefix = root, .uid = 1, .gid = 1};
    static struct mnt_plan p;
    char err[ERR_LEN] = "";
    int rc = mnt_plan_build(&c, &p, err);
    cleanup();
    ASSERT_INT_EQ(rc, 0);
    ASSERT_INT_EQ(find(&p, "/bin")->kind, MNT_OVERLAY);
    ASSERT_STR_EQ(find(&p, "/bin")->src, "/bin");
    ASSERT_INT_EQ(find(&p, "/lib")->kind, MNT_OVERLAY);
}

static void test_bad_binds(void)
{
    fixture(true);
    static struct mnt_plan p;
    const char *bad[][1] = {{"relative/path"},   {"/opt/../etc"},    {"/opt/./toolchain"},
                            {"/opt//toolchain"}, {"/tmp/cache"},     {"/w"},
                            {"/dev/nvidia0"},    {"/does/not/exist"}};
    int want[] = {-EINVAL, -EINVAL, -EINVAL, -EINVAL, -EINVAL, -EINVAL, -EINVAL, -ENOENT};
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        struct mnt_config c = {.host_prefix = root, .binds = bad[i], .nbinds = 1};
        char err[ERR_LEN] = "";
        int rc = mnt_plan_build(&c, &p, err);
        if (rc != want[i])
            fprintf(stderr, "bind %s: rc %d (%s)\n", bad[i][0], rc, err);
        ASSERT_INT_EQ(rc, want[i]);
    }
    /* No /usr on the host: nothing to run. */
    char usr[128], moved[128];
    snprintf(usr, sizeof(usr), "%s/usr", root);
    snprintf(moved, sizeof(moved), "%s/usr-moved", root);
    rename(usr, moved);
    struct mnt_config c = {.host_prefix = root};
    char err[ERR_LEN] = "";
    int rc = mnt_plan_build(&c, &p, err);
    rename(moved, usr);
    cleanup();
    ASSERT_INT_EQ(rc, -ENOENT);
    ASSERT_STR_CONTAINS(err, "/usr");
}

/* The host's mounts beneath /usr (an overlay shows none of them) come back as binds at the
 * same paths, after the overlay: a directory (the driver's /usr/local/nvidia), a file (a driver
 * library bound in by a container runtime), a name with a space; not /usr itself, not what is
 * beside /usr, not a mount point gone from the host, not one listed twice. */
static void test_submounts(void)
{
    fixture(true);
    mkd("usr/local");
    mkd("usr/local/nvidia");
    mkd("usr/local/a b");
    mkd("usr/lib/x86_64-linux-gnu");
    touch("usr/lib/x86_64-linux-gnu/libcuda.so.1");
    mkd("usr2");
    mkd("proc");
    mkd("proc/self");
    char path[256];
    snprintf(path, sizeof(path), "%s/proc/self/mountinfo", root);
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fputs("1 0 8:1 / / rw,relatime - ext4 /dev/vda rw\n"
          "2 1 8:2 / /usr ro - ext4 /dev/vdb ro\n"
          "3 2 0:40 / /usr/local/nvidia ro,nosuid - ext4 /dev/vdc ro\n"
          "4 2 8:1 /drv/libcuda.so.1 /usr/lib/x86_64-linux-gnu/libcuda.so.1 ro - ext4 /dev/vda ro\n"
          "5 2 0:41 / /usr/local/a\\040b rw - tmpfs tmpfs rw\n"
          "6 1 0:42 / /usr2 rw - tmpfs tmpfs rw\n"
          "7 2 0:43 / /usr/local/gone rw - tmpfs tmpfs rw\n"
          "8 3 0:44 / /usr/local/nvidia ro - tmpfs tmpfs ro\n"
          "9 1 0:5 / /proc rw - proc proc rw\n",
          f);
    fclose(f);
    struct mnt_config c = {.host_prefix = root, .uid = 1, .gid = 1};
    static struct mnt_plan p;
    char err[ERR_LEN] = "";
    int rc = mnt_plan_build(&c, &p, err);
    cleanup();
    ASSERT_INT_EQ(rc, 0);
    int usr = index_of(&p, "/usr", MNT_OVERLAY);
    ASSERT_TRUE(usr >= 0);
    ASSERT_TRUE(index_of(&p, "/usr/local/nvidia", MNT_BIND) > usr);
    ASSERT_STR_EQ(find(&p, "/usr/local/nvidia")->src, "/usr/local/nvidia");
    ASSERT_TRUE(index_of(&p, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", MNT_BIND) > usr);
    ASSERT_INT_EQ(find(&p, "/usr/local/a b")->kind, MNT_BIND);
    ASSERT_FALSE(has(&p, "/usr2"));
    ASSERT_FALSE(has(&p, "/usr/local/gone"));
    int binds = 0;
    for (int i = 0; i < p.n; i++)
        binds += strcmp(p.ops[i].path, "/usr/local/nvidia") == 0;
    ASSERT_INT_EQ(binds, 1);
}

/* A GPU cell gets the host's NVIDIA control and uvm nodes and its own GPU's node, no other. */
static void test_gpu_nodes(void)
{
    fixture(true);
    static struct mnt_plan p;
    struct mnt_config c = {.host_prefix = root, .gpu_cell = true, .gpu = 1};
    char err[ERR_LEN] = "";
    mkd("dev");
    int rc = mnt_plan_build(&c, &p, err); /* no device nodes on this "host" */
    ASSERT_INT_EQ(rc, -ENODEV);
    ASSERT_STR_CONTAINS(err, "GPU 1: /dev/nvidiactl is not a character device");
    if (geteuid() != 0) { /* making fixture device nodes needs root */
        cleanup();
        return;
    }
    char path[128];
    const struct {
        const char *name;
        unsigned major, minor;
    } nodes[] = {
        {"nvidiactl", 195, 255}, {"nvidia0", 195, 0}, {"nvidia1", 195, 1}, {"nvidia-uvm", 509, 0}};
    for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
        snprintf(path, sizeof(path), "%s/dev/%s", root, nodes[i].name);
        ASSERT_INT_EQ(mknod(path, S_IFCHR | 0666, makedev(nodes[i].major, nodes[i].minor)), 0);
    }
    rc = mnt_plan_build(&c, &p, err);
    cleanup();
    ASSERT_INT_EQ(rc, 0);
    ASSERT_INT_EQ(find(&p, "/dev/nvidia1")->kind, MNT_DEVNODE);
    ASSERT_UINT_EQ(minor(find(&p, "/dev/nvidia1")->dev), 1);
    ASSERT_UINT_EQ(major(find(&p, "/dev/nvidia-uvm")->dev), 509);
    ASSERT_UINT_EQ(minor(find(&p, "/dev/nvidiactl")->dev), 255);
    ASSERT_FALSE(has(&p, "/dev/nvidia0"));          /* another GPU: not this cell's */
    ASSERT_FALSE(has(&p, "/dev/nvidia-uvm-tools")); /* optional, absent on this host */
    ASSERT_TRUE(index_of(&p, "/dev", MNT_RDONLY) > index_of(&p, "/dev/nvidia1", MNT_DEVNODE));
}

int main(void)
{
    TEST_RUN(test_merged_usr);
    TEST_RUN(test_split_usr);
    TEST_RUN(test_bad_binds);
    TEST_RUN(test_submounts);
    TEST_RUN(test_gpu_nodes);
    return TEST_EXIT();
}
