/*
 * session: a job that lives across requests (the data model; the cell's side is in
 * supervisor.c, the server's in pool.c).
 *
 * A session holds one cell for an agent's many calls. It has one cgroup for its whole life
 * (its memory, pids and CPU limits are the session's), and its work directory, /tmp and
 * /dev/shm are not emptied between calls. A call is either
 *   - SESSION_RUN: a job as any other (argv, files, stdin, fetch, limits), run in the
 *     session's cgroup and directories; its processes end with it (a compiled language's
 *     compile, then its run);
 *   - SESSION_CALL: a request to the session's interpreter, a process that outlives calls
 *     (Python: languages/python/jupyter.py --session). job.argv starts it when none lives
 *     (then or after a loss); job.stdin_data is the request, framed to the interpreter's fd 3
 *     as "<length>\n<bytes>"; the interpreter answers on its fd 4 in the same framing. The
 *     call ends at the answer, the interpreter still alive; or when the interpreter dies, or
 *     a limit fires, when every process of the session is killed (the state is lost; files
 *     stay).
 * A call's limits: cpu_ms (its own CPU), wall_ms (its wall clock; a SESSION_CALL's
 * interpreter keeps its own, gentler timer inside this one), memory_bytes (what the call may
 * add to the memory the session holds when it starts; the session's limit caps it).
 */
#ifndef VERDICT_SESSION_H
#define VERDICT_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "runners/buf.h"
#include "runners/job.h"
#include "runners/wire.h"

/* How a call's message starts when one of its files could not be written over what the
 * session left under that name (a directory, a link, a FIFO): RE, the session's doing. */
#define SESSION_PLACE_FAILED "cannot write "

/* The interpreter's answer to one call, at most (16 MiB of output and display data fit). */
#define SESSION_REPLY_MAX (20u << 20)

struct session_limits {
    uint64_t memory_bytes; /* everything the session holds at once -> MLE */
    uint32_t pids;         /* processes and threads at once */
    int64_t cpu_ms;        /* CPU of the whole session -> TLE (session_cpu), state lost */
};

enum session_mode { SESSION_RUN, SESSION_CALL };

/* The session as it stands after a call (or when asked). */
struct session_totals {
    int64_t cpu_ms;           /* CPU used by the session so far */
    uint64_t memory_kib;      /* held now */
    uint64_t memory_peak_kib; /* the most held at once (v2 kernels without a peak file: 0) */
    uint32_t starts;          /* interpreters started */
    bool alive;               /* an interpreter lives */
    bool cpu_spent;           /* the session's CPU limit was reached: its calls are TLE */
};

struct session_result {
    struct job_result res; /* the call: status, clocks, output, fetched files */
    const uint8_t *reply;  /* SESSION_CALL: the interpreter's answer (borrowed), or NULL */
    size_t reply_len;      /* when it did not answer */
    bool started;          /* an interpreter was started for this call */
    bool lost;             /* the call ended the interpreter (and every session process) */
    struct session_totals totals;
};

void session_limits_encode(const struct session_limits *l, struct buf *b);
int session_limits_decode(struct rbuf *r, struct session_limits *l);

/* A call: its mode, then the job (job.h's encoding). */
void session_call_encode(enum session_mode mode, const struct job *j, struct buf *b);
/* Decodes into *mode and j (job_decode's ownership: job_decoded_fini). -EBADMSG when bad. */
int session_call_decode(struct rbuf *r, enum session_mode *mode, struct job *j);

void session_result_encode(const struct session_result *s, struct buf *b);
/* Like result_decode: s->res.fetched is heap (job_result_fini), the rest borrowed. */
int session_result_decode(struct rbuf *r, struct session_result *s);

#endif
