/*
 * regex: PCRE2 behind one small interface. The only module that includes pcre2.h.
 *
 * Patterns and subjects are byte strings (not NUL-terminated, any bytes: PCRE2's byte mode,
 * so "." matches each byte and a UTF-8 literal matches its bytes). Every match runs under a
 * match and depth limit, so a pathological pattern or subject cannot stall a thread: it ends
 * with -E2BIG instead.
 */
#ifndef VERDICT_REGEX_H
#define VERDICT_REGEX_H

#include <stddef.h>
#include <stdint.h>

#include "runners/err.h"

enum {
    RX_DOTALL = 1 << 0,    /* "." matches newline too */
    RX_MULTILINE = 1 << 1, /* ^ and $ at every line */
    RX_CASELESS = 1 << 2,  /* ASCII case-insensitive */
    RX_FULL = 1 << 3,      /* a match must span the whole subject from start (rx_match) */
};

#define RX_MAX_GROUPS 8

struct rx;

/* A match: the whole match and capture groups 1..RX_MAX_GROUPS as [start, end) byte offsets;
 * a group that did not take part is {-1, -1}. */
struct rx_match {
    int ngroups; /* 1 + the highest group that took part */
    long start[RX_MAX_GROUPS + 1], end[RX_MAX_GROUPS + 1];
};

/* Compiles pattern[0..len) with RX_* flags. Returns 0 with *out, or -EINVAL with err saying
 * where the pattern is wrong. */
int rx_compile(const char *pattern, size_t len, unsigned flags, struct rx **out, char err[ERR_LEN]);

/* Finds the first match in subject[from..len). Returns 1 with m filled, 0 for no match, or
 * -E2BIG when matching gave up at its limits. */
int rx_match(const struct rx *r, const char *subject, size_t len, size_t from, struct rx_match *m);

void rx_free(struct rx *r);

#endif
