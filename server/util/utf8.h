/*
 * utf8: checking and repairing UTF-8 text from outside (request bodies and headers a client
 * wrote), in one pass: valid sequences are kept, each byte of an invalid one becomes U+FFFD, so
 * that text read once can be stored and answered as JSON without a second check downstream.
 */
#ifndef VERDICT_UTF8_H
#define VERDICT_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Length of the valid UTF-8 sequence at p (1-4 bytes, of at most left), or 0 when it is
 * invalid (overlong, a surrogate, beyond U+10FFFF, cut short) or a NUL byte. O(1). */
size_t utf8_seq(const unsigned char *p, size_t left);

/* Whether all len bytes at p are valid UTF-8 without a NUL. O(len). */
bool utf8_valid(const char *p, size_t len);

/* A copy of len bytes at p with every byte of an invalid sequence (and every NUL) replaced by
 * U+FFFD; NUL-terminated, its length in *out_len. Heap (free()); NULL when out of memory.
 * O(len); at most 3 * len + 1 bytes. */
char *utf8_repair(const char *p, size_t len, size_t *out_len);

/* Copies src (NUL-terminated; NULL: "") into dst (cap >= 1 bytes, always NUL-terminated) as
 * valid UTF-8: each byte that does not begin a valid sequence becomes U+FFFD; a character
 * that would not fit whole is left out with everything after it. Returns the bytes written
 * (without the NUL). Never fails. O(strlen(src)). */
size_t utf8_copy(char *dst, size_t cap, const char *src);

#endif
