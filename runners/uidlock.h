/*
 * uidlock: a uid that no other process on the host is using, held by a lock file.
 *
 * Each cell runs its jobs as a uid of its own, and RLIMIT_NPROC counts processes per uid, so
 * two processes (a server and `verdict bench`, `verdict run`, `verdict doctor`, a test) that
 * handed out the same uids would let one's jobs starve the other's. As isolate locks a box,
 * a slot is taken by flock(LOCK_EX|LOCK_NB) on `DIR/uid-<uid>.lock` and held for as long as
 * the descriptor stays open: the kernel releases it when the holder closes it or dies, so a
 * crashed process never leaks a slot. flock locks belong to the open file description, so two
 * slots taken in one process exclude each other just as two processes do.
 *
 * Not thread-safe per slot (one owner each); uidlock_take may be called from any thread.
 * Neither function blocks: a held slot is skipped, never waited for.
 */
#ifndef VERDICT_UIDLOCK_H
#define VERDICT_UIDLOCK_H

#include "runners/err.h"

/* The default range, 60000..61183: below systemd's DynamicUser range (61184..65519) and far
 * above ordinary accounts; room for a 512-cell server (two uids a cell) and several smaller
 * processes. */
#define UIDLOCK_BASE  60000u
#define UIDLOCK_COUNT 1184u
/* The default lock directory (created 0700 when missing). */
#define UIDLOCK_DIR "/run/verdict"

struct uid_slot {
    unsigned uid; /* the uid (and gid) this slot hands out */
    int fd;       /* the locked file; -1 when not held */
};

/* Takes the first free uid of [base, base + count) with its lock under dir (NULL:
 * UIDLOCK_DIR; base 0: UIDLOCK_BASE; count 0: UIDLOCK_COUNT). Returns 0 with *out held,
 * -EAGAIN when every uid of the range is held, or another negative errno (the directory
 * cannot be created or opened) with the reason in err. */
int uidlock_take(const char *dir, unsigned base, unsigned count, struct uid_slot *out,
                 char err[ERR_LEN]);

/* Releases the slot (closes its lock file; the file stays for the next taker). A slot that
 * is not held (after uidlock_init or a failed uidlock_take) is a no-op. */
void uidlock_give(struct uid_slot *s);

/* Marks s as not held (fd -1), so uidlock_give on it is a no-op. */
void uidlock_init(struct uid_slot *s);

#endif
