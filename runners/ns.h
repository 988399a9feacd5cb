/*
 * ns: Linux namespaces: which ones this host lets verdict create.
 *
 * The cell (issue: sandbox engine) enters pid, mount, ipc, uts and net namespaces; user, cgroup
 * and time namespaces are optional extras. ns_probe() tries each one for real in a child.
 */
#ifndef VERDICT_NS_H
#define VERDICT_NS_H

#include <stdbool.h>

#include "runners/err.h"

enum ns_kind { NS_USER, NS_PID, NS_MOUNT, NS_NET, NS_IPC, NS_UTS, NS_CGROUP, NS_TIME, NS_COUNT };

/* The short name ("pid", "net", ...) of a namespace kind; static string. */
const char *ns_name(enum ns_kind kind);

/* True for the namespaces a cell cannot do without. */
bool ns_required(enum ns_kind kind);

/* Creates a namespace of this kind in a throw-away child and checks that it took effect (a
 * new pid namespace's first process is pid 1, a new user namespace accepts a uid map, a new
 * network namespace has only loopback, ...). Returns 0, or a negative errno with the reason
 * in err; on success detail (ERR_LEN) says what was verified. Nothing outside the child's own
 * new namespace is touched. */
int ns_probe(enum ns_kind kind, char detail[ERR_LEN], char err[ERR_LEN]);

#endif
