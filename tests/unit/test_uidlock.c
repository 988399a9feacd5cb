/*
 * test_uidlock: uid slots are exclusive across processes and released when their holder
 * exits (a server and `verdict bench` ran jobs as the same uids).
 *
 * The lock tests need no privilege (a temporary lock directory). With root, a cgroup host and
 * the verdict binary (argv[1]), two pools in two processes must hand their cells disjoint
 * uids: before uid locks every pool numbered its cells uid_base + i, so both got 60000.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runners/pool.h"
#include "runners/uidlock.h"
#include "test.h"

#define BASE 70000u

static char dir[64];
static const char *verdict_exe;

/* A forked child takes n slots (or starts a pool of n cells), writes their uids to out, then
 * waits until the parent closes `hold` before exiting. */
static pid_t child_holding(int n, bool pool, int fds[2], unsigned *uids)
{
    int up[2], hold[2];
    if (pipe(up) < 0 || pipe(hold) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(up[0]);
        close(hold[1]);
        struct uid_slot s[8];
        struct pool *p = NULL;
        char err[ERR_LEN];
        unsigned got[8] = {0};
        struct pool_config pc = {.cells = n, .exe = verdict_exe, .uid_lock_dir = dir};
        if (pool && pool_new(&pc, &p, err) < 0)
            fprintf(stderr, "child pool: %s\n", err);
        for (int i = 0; i < n; i++)
            got[i] = pool ? (p ? pool_cell_uid(p, i) : 0)
                          : (uidlock_take(dir, BASE, 8, &s[i], err) == 0 ? s[i].uid : 0);
        if (write(up[1], got, sizeof(got)) != (ssize_t)sizeof(got))
            _exit(1);
        char c;
        while (read(hold[0], &c, 1) > 0) {
        }
        pool_free(p);
        _exit(0); /* the slots' locks go with the process */
    }
    close(up[1]);
    close(hold[0]);
    unsigned got[8];
    if (read(up[0], got, sizeof(got)) != (ssize_t)sizeof(got))
        pid = -1;
    memcpy(uids, got, sizeof(got));
    close(up[0]);
    fds[1] = hold[1];
    return pid;
}

static void release_child(pid_t pid, int fds[2])
{
    close(fds[1]);
    waitpid(pid, NULL, 0);
}

static void test_first_free_slot_and_full_range(void)
{
    struct uid_slot a, b, c;
    char err[ERR_LEN];
    ASSERT_INT_EQ(uidlock_take(dir, BASE, 2, &a, err), 0);
    ASSERT_INT_EQ(uidlock_take(dir, BASE, 2, &b, err), 0);
    ASSERT_UINT_EQ(a.uid, BASE);
    ASSERT_UINT_EQ(b.uid, BASE + 1); /* the same process's two slots exclude each other */
    ASSERT_INT_EQ(uidlock_take(dir, BASE, 2, &c, err), -EAGAIN);
    ASSERT_STR_CONTAINS(err, "held");
    uidlock_give(&a);
    ASSERT_INT_EQ(uidlock_take(dir, BASE, 2, &c, err), 0);
    ASSERT_UINT_EQ(c.uid, BASE); /* the freed one is taken again */
    uidlock_give(&b);
    uidlock_give(&c);
    uidlock_give(&c); /* no-op */
    struct stat st;
    ASSERT_INT_EQ(stat(dir, &st), 0);
    ASSERT_UINT_EQ(st.st_mode & 0777, 0700);
}

static void test_two_processes_disjoint_and_released_on_exit(void)
{
    struct uid_slot mine[3];
    char err[ERR_LEN];
    for (int i = 0; i < 3; i++)
        ASSERT_INT_EQ(uidlock_take(dir, BASE, 8, &mine[i], err), 0);
    int fds[2];
    unsigned theirs[8];
    pid_t pid = child_holding(3, false, fds, theirs);
    ASSERT_TRUE(pid > 0);
    for (int i = 0; i < 3; i++) {
        ASSERT_UINT_EQ(mine[i].uid, BASE + (unsigned)i);
        ASSERT_UINT_EQ(theirs[i], BASE + 3 + (unsigned)i); /* never one of ours */
    }
    release_child(pid, fds);
    struct uid_slot again;
    ASSERT_INT_EQ(uidlock_take(dir, BASE, 8, &again, err), 0);
    ASSERT_UINT_EQ(again.uid, BASE + 3); /* the child's first slot, released by its exit */
    uidlock_give(&again);
    for (int i = 0; i < 3; i++)
        uidlock_give(&mine[i]);
}

static void test_two_pools_get_disjoint_uids(void)
{
    if (!verdict_exe || geteuid() != 0) {
        fprintf(stderr, "  (skipped: two real pools need root and the verdict binary)\n");
        return;
    }
    /* The child first: pools start threads, and a threaded process must not fork. */
    int fds[2];
    unsigned theirs[8];
    pid_t pid = child_holding(2, true, fds, theirs);
    ASSERT_TRUE(pid > 0);
    if (theirs[0] == 0) {
        release_child(pid, fds);
        fprintf(stderr, "  (skipped: no pool on this host)\n");
        return;
    }
    char err[ERR_LEN];
    struct pool *p = NULL;
    struct pool_config pc = {.cells = 2, .exe = verdict_exe, .uid_lock_dir = dir};
    int rc = pool_new(&pc, &p, err);
    unsigned ours[2] = {p ? pool_cell_uid(p, 0) : 0, p ? pool_cell_uid(p, 1) : 0};
    release_child(pid, fds);
    pool_free(p);
    ASSERT_INT_EQ(rc, 0);
    /* each cell takes two uids, its jobs' and its graders': theirs hold BASE..BASE+3 */
    ASSERT_UINT_EQ(theirs[0], UIDLOCK_BASE);
    ASSERT_UINT_EQ(theirs[1], UIDLOCK_BASE + 2);
    ASSERT_UINT_EQ(ours[0], UIDLOCK_BASE + 4); /* before uid locks: UIDLOCK_BASE, as theirs */
    ASSERT_UINT_EQ(ours[1], UIDLOCK_BASE + 6);
}

int main(int argc, char **argv)
{
    verdict_exe = argc > 1 ? argv[1] : NULL;
    snprintf(dir, sizeof(dir), "/tmp/test_uidlock.%d", (int)getpid());
    TEST_RUN(test_first_free_slot_and_full_range);
    TEST_RUN(test_two_processes_disjoint_and_released_on_exit);
    TEST_RUN(test_two_pools_get_disjoint_uids);
    char cmd[96];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return TEST_EXIT();
}
