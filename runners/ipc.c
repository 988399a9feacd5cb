/*
 * ipc: sweeping SysV IPC.
 *
 * Objects are found by index, not by key: *_INFO gives the highest index in use and *_STAT
 * turns an index into an id (or fails for a free slot), so objects created with IPC_PRIVATE
 * or unknown keys are found too. Run as root, so permissions never hide one.
 */
#include "runners/ipc.h"

#include <errno.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

static int clean_shm(char err[ERR_LEN])
{
    struct shm_info info;
    int max = shmctl(0, SHM_INFO, (struct shmid_ds *)(void *)&info), n = 0;
    if (max < 0)
        return err_set(err, -errno, "shmctl(SHM_INFO): %m");
    for (int i = 0; i <= max; i++) {
        struct shmid_ds ds;
        int id = shmctl(i, SHM_STAT, &ds);
        if (id >= 0 && shmctl(id, IPC_RMID, NULL) == 0)
            n++;
    }
    return n;
}

static int clean_sem(char err[ERR_LEN])
{
    struct seminfo info;
    int max = semctl(0, 0, SEM_INFO, &info), n = 0;
    if (max < 0)
        return err_set(err, -errno, "semctl(SEM_INFO): %m");
    for (int i = 0; i <= max; i++) {
        struct semid_ds ds;
        int id = semctl(i, 0, SEM_STAT, &ds);
        if (id >= 0 && semctl(id, 0, IPC_RMID) == 0)
            n++;
    }
    return n;
}

static int clean_msg(char err[ERR_LEN])
{
    struct msginfo info;
    int max = msgctl(0, MSG_INFO, (struct msqid_ds *)(void *)&info), n = 0;
    if (max < 0)
        return err_set(err, -errno, "msgctl(MSG_INFO): %m");
    for (int i = 0; i <= max; i++) {
        struct msqid_ds ds;
        int id = msgctl(i, MSG_STAT, &ds);
        if (id >= 0 && msgctl(id, IPC_RMID, NULL) == 0)
            n++;
    }
    return n;
}

int ipc_clean(char err[ERR_LEN])
{
    int a = clean_shm(err);
    if (a < 0)
        return a;
    int b = clean_sem(err);
    if (b < 0)
        return b;
    int c = clean_msg(err);
    if (c < 0)
        return c;
    return a + b + c;
}
