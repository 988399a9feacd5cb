/*
 * ipc: System V IPC objects (shared memory, semaphore sets, message queues) of the calling
 * process's IPC namespace.
 *
 * They outlive the processes that made them, so a cell removes every one of them after each
 * job: otherwise a job could leave a message for the next job in the same cell.
 */
#ifndef VERDICT_IPC_H
#define VERDICT_IPC_H

#include "runners/err.h"

/* Removes every SysV shared memory segment, semaphore set and message queue of this IPC
 * namespace. Returns the number removed, or a negative errno with the reason in err. */
int ipc_clean(char err[ERR_LEN]);

#endif
