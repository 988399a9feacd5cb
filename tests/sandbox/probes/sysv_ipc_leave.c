/* Leaves SysV shared memory, a semaphore set and a message queue with a secret for the next job
 * in the same cell; containment: the canary run next finds none of them. POSIX message queues
 * (mq_open) are refused outright. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

struct msg {
    long type;
    char text[32];
};

int main(void)
{
    int shm = shmget(0x5eC2e7, 65536, IPC_CREAT | 0666);
    char *p = shm >= 0 ? shmat(shm, NULL, 0) : NULL;
    if (p && p != (void *)-1)
        strcpy(p, "secret for the next job");
    int sem = semget(0x5eC2e8, 4, IPC_CREAT | 0666);
    int msq = msgget(0x5eC2e9, IPC_CREAT | 0666);
    struct msg m = {1, "secret"};
    if (msq >= 0)
        msgsnd(msq, &m, sizeof(m.text), IPC_NOWAIT);
    mqd_t mq = mq_open("/verdict-secret", O_CREAT | O_RDWR, 0666, NULL);
    if (mq != (mqd_t)-1) {
        printf("ESCAPED: POSIX message queue created (it would outlive the job)\n");
        return 1;
    }
    printf("contained: left shm %d sem %d msg %d; mq_open: %s\n", shm, sem, msq, strerror(errno));
    return 0;
}
