/*
 * session_internal: what the session module's two files share: session.c (the table of open
 * sessions and the reaper) and session_call.c (one call run on a session's cell). Not a
 * contract for other modules: they use session.h.
 */
#ifndef VERDICT_SESSION_INTERNAL_H
#define VERDICT_SESSION_INTERNAL_H

#include <stdbool.h>

#include "server/judge/session.h"

/* Runs call c of the session whose spec is sp on its cell ps and fills o (verdict, runs,
 * the interpreter's reply, totals; o zeroed by the caller). *dead: the cell failed (the
 * session is lost). Blocks for the call's length; never touches the table. */
void session_run_call(const struct sessions_config *cfg, struct pool_session *ps,
                      const struct session_spec *sp, const struct session_call *c,
                      struct session_outcome *o, bool *dead);

#endif
