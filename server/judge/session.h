/*
 * session: the server's sessions for multi-turn agents (docs/api.md, "Sessions").
 *
 * A session holds one cell of the pool (runners/session.h, pool_session_*) from its open to
 * its close, for calls that keep their state: its work dir's files, and for Python one
 * interpreter (languages/python/jupyter.py --session). A compiled language's call compiles
 * the code in the session's work dir (its template's compile step) and runs it there.
 *
 * The table is bounded (max sessions, 503 past it), and so is each client's part of it
 * (client_max sessions from one address, whatever labels it gives); ids are 128 random bits
 * after 32 bits that name this server's run (so an id from an earlier run is answered
 * "restarted", never another session's state); a closed session's id is remembered (the last
 * SESSION_TOMBS) with why it closed. A reaper thread closes sessions idle past idle_ms or older
 * than lifetime_ms and does every close, so no HTTP thread waits for a cell.
 *
 * Threads: sessions_begin/end, sessions_get, sessions_delete and sessions_list never block
 * (one mutex, O(sessions) at most); sessions_open and sessions_call block on the sandbox and
 * run on the scheduler's workers.
 */
#ifndef VERDICT_JUDGE_SESSION_H
#define VERDICT_JUDGE_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "runners/pool.h"
#include "runners/session.h"
#include "server/judge/lang.h"
#include "server/judge/program.h"
#include "server/judge/verdict.h"

#define SESSION_ID_LEN   40 /* hex characters: 8 of the server's run, 32 random (128 bits) */
#define SESSION_ID_TEXT  "40 lowercase hex characters"
#define SESSION_TOMBS    4096 /* closed sessions remembered */
#define SESSION_MAX      512  /* --max-sessions at most */
#define SESSION_DEFAULTS 32   /* --max-sessions by default */
#define SESSION_PEER_LEN 48   /* bytes of the opening client's address kept */

/* The most idle_ms and lifetime_ms a session may ask for: 1 h and 6 h unless serve's
 * --session-idle-max and --session-lifetime-max say otherwise, never more than a day. */
#define SESSION_IDLE_CEILING     3600000
#define SESSION_LIFETIME_CEILING 21600000
#define SESSION_CEILING_MAX      86400000
struct session_ceilings {
    int64_t idle_ms, lifetime_ms;
};

/* Why a session ended (the 410's reason). */
enum session_end {
    SESSION_DELETED,
    SESSION_IDLE,
    SESSION_LIFETIME,
    SESSION_LOST, /* its cell failed */
    SESSION_SHUTDOWN,
    SESSION_NENDS
};

/* "deleted", "idle", "lifetime", "lost", "shutdown". */
const char *session_end_name(enum session_end e);

/* What a session is opened with (docs/api.md gives the bounds, which http/request checks). */
struct session_spec {
    const struct lang *lang;
    struct session_limits lim;  /* memory_bytes, pids, cpu_ms of the whole session */
    uint64_t call_memory_bytes; /* what one call may add */
    int64_t call_cpu_ms;        /* one call's CPU */
    int64_t call_wall_ms;       /* one call's default timeout */
    int64_t idle_ms, lifetime_ms;
};

/* Whether a session of language l keeps an interpreter across calls (Python: the notebook
 * driver; its calls may be cells), rather than running each call as a program. */
bool session_interpreted(const struct lang *l);

/* Fills the zero members of s with the defaults (docs/api.md). */
void session_spec_defaults(struct session_spec *s);

/* A call (everything borrowed for the call's length). */
struct session_call {
    const char *code;         /* the code (one cell, for Python) */
    const char *const *cells; /* Python only: cells instead of code */
    int ncells;
    const uint8_t *in; /* stdin */
    size_t in_len;
    const struct job_file *files;
    int nfiles;
    const char *const *fetch;
    int nfetch;
    int64_t timeout_ms; /* 0: the session's call_wall_ms */
};

/* The state of a session's interpreter after a call (docs/api.md's "state"). */
enum session_state { STATE_NEW, STATE_KEPT, STATE_LOST, STATE_RESTARTED };

/* "new", "kept", "lost", "restarted". */
const char *session_state_name(enum session_state s);

/* A snapshot of a session (for GET, the list, and each call's answer). */
#define SESSION_CLIENT_LEN 64 /* bytes of the opening client's name kept */

struct session_info {
    char id[SESSION_ID_LEN + 1];
    char client[SESSION_CLIENT_LEN]; /* who opened it (X-Verdict-Client, or the peer) */
    struct session_spec spec;
    bool busy;
    double created, last_call; /* wall clock, seconds since the epoch (last_call 0: none) */
    double idle_s, expires;    /* idle for; when its lifetime ends (wall clock) */
    unsigned calls;
    struct session_totals totals;
    unsigned tle, mle, lost; /* calls that ended so */
    enum verdict last_verdict;
    bool has_last;
    char last_message[JOB_MSG_LEN];
};

/* One call's outcome. */
struct json;

struct session_outcome {
    unsigned call;         /* its number, from 1 */
    enum verdict verdict;  /* of the run (Python: RE when a cell raised) */
    struct job_result run; /* the run, or the interpreter's call */
    bool compiled;         /* a compile step ran */
    enum verdict compile_verdict;
    struct job_result compile; /* when compiled */
    struct json *reply;        /* Python: the interpreter's answer, or NULL (heap) */
    enum session_state state;
    struct session_info info; /* the session after the call */
    uint8_t *payload[2];      /* what run and compile borrow from */
};

void session_outcome_fini(struct session_outcome *o);

struct sessions_config {
    struct pool *pool;
    const struct program_env *env;
    int max;        /* sessions open at once; 0: none */
    int client_max; /* of which one client (one address) may hold; 0: max(1, 3/4 of max) */
    struct session_ceilings ceil; /* zero members: the default ceilings */
    const char *interp;           /* the Python interpreter's code (the notebook driver's text) */
    size_t interp_len;
};

struct sessions;

int sessions_new(const struct sessions_config *c, struct sessions **out, char err[ERR_LEN]);

/* The most idle_ms and lifetime_ms a session may ask for on this table (never blocks). */
struct session_ceilings sessions_ceilings(const struct sessions *ss);

/* Closes every session not in a call (reason shutdown), and refuses new ones from then on;
 * returns once their cells are back in the pool (one the reaper was asking for its figures
 * goes back when the answer comes, before sessions_free returns). NULL: no-op. */
void sessions_stop(struct sessions *ss);

/* sessions_stop, then stops the reaper and frees the table. NULL: no-op. */
void sessions_free(struct sessions *ss);

/* Opens a session for client (shown: its label, or its address) from address peer (blocks for
 * a cell). Returns 0 with *info; -EDQUOT when peer holds client_max sessions (err says so);
 * -EBUSY when max sessions are open or no cell can be had (err says which); -ESHUTDOWN while
 * stopping; another negative errno with err (the cell failed: ours). */
int sessions_open(struct sessions *ss, const struct session_spec *spec, const char *client,
                  const char *peer, struct session_info *info, char err[ERR_LEN]);

/* How a lookup went: found, never this server's in this run (404), closed (410 with *end),
 * from before a restart (410 "restarted"), busy (409). */
enum session_lookup { LOOKUP_FOUND, LOOKUP_UNKNOWN, LOOKUP_CLOSED, LOOKUP_RESTARTED, LOOKUP_BUSY };

/* Whether id is SESSION_ID_LEN lowercase hex characters. */
bool session_id_ok(const char *id);

/* Marks the session busy for a call (never blocks). */
enum session_lookup sessions_begin(struct sessions *ss, const char *id, enum session_end *end);

/* Frees a session sessions_begin marked busy, without a call (the call could not be queued). */
void sessions_end(struct sessions *ss, const char *id);

/* Runs the call on a session sessions_begin marked busy (blocks), then frees it for the
 * next. Fills o (session_outcome_fini). */
void sessions_call(struct sessions *ss, const char *id, const struct session_call *c,
                   struct session_outcome *o);

/* A snapshot (never blocks). */
enum session_lookup sessions_get(struct sessions *ss, const char *id, struct session_info *info,
                                 enum session_end *end);

/* Closes a session (its cell is wiped by the reaper; a call running finishes first). Fills
 * info as it was. Never blocks. */
enum session_lookup sessions_delete(struct sessions *ss, const char *id, struct session_info *info,
                                    enum session_end *end);

struct sessions_stats {
    char run[9]; /* this server run's id prefix: every id it gives starts so */
    int open, max;
    unsigned long long opened, refused, calls;
    unsigned long long closed[SESSION_NENDS];
    unsigned long long verdicts[VERDICT_COUNT]; /* calls by verdict */
};

/* The open sessions (at most cap, into infos; their count returned) and the totals. */
int sessions_list(struct sessions *ss, struct session_info *infos, int cap,
                  struct sessions_stats *st);

#endif
