/*
 * child: run a probe function in a short-lived forked child and bring back its answer.
 *
 * Host checks that change process state (unshare, mount, seccomp_load, dlopen of a driver) run
 * in a child so that the caller's own process is never altered, and a crash or hang in the
 * probe is reported instead of inherited.
 */
#ifndef VERDICT_CHILD_H
#define VERDICT_CHILD_H

#include "runners/err.h"

/* A probe: returns 0 on success or a negative errno, explaining a failure in err. */
typedef int (*child_fn)(void *arg, char err[ERR_LEN]);

/* Forks, runs fn(arg, err) in the child, and waits at most timeout_ms for it. Returns the
 * probe's code with its err text; -ETIMEDOUT if it ran too long (it is killed); -ECHILD if it
 * died by a signal or exited without reporting. Only memory the probe writes into a
 * MAP_SHARED mapping is visible to the caller afterwards. */
int child_run(child_fn fn, void *arg, int timeout_ms, char err[ERR_LEN]);

#endif
