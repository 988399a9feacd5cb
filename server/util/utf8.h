/*
 * utf8: text from outside made valid UTF-8, so that every answer that carries it is JSON.
 */
#ifndef VERDICT_UTF8_H
#define VERDICT_UTF8_H

#include <stddef.h>

/* Copies src (NUL-terminated; NULL: "") into dst (cap >= 1 bytes, always NUL-terminated) as
 * valid UTF-8: each byte that does not begin a valid sequence becomes U+FFFD; a character
 * that would not fit whole is left out with everything after it. Returns the bytes written
 * (without the NUL). Never fails. */
size_t utf8_copy(char *dst, size_t cap, const char *src);

#endif
