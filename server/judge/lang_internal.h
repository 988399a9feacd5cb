/*
 * lang_internal: what only the tests and fuzzers need of lang. Not a contract for other
 * modules (they use lang.h).
 */
#ifndef VERDICT_LANG_INTERNAL_H
#define VERDICT_LANG_INTERNAL_H

#include "server/judge/lang.h"

/* Marks every language of set available without probing its toolchain, so that a request
 * parser can be driven over every language on a host that has none of them. */
void lang_set_available(struct lang_set *set);

#endif
