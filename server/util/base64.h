/*
 * base64: RFC 4648 standard alphabet with padding, for file contents in the JSON APIs.
 */
#ifndef VERDICT_BASE64_H
#define VERDICT_BASE64_H

#include <stddef.h>
#include <stdint.h>

/* Encodes len bytes into a new NUL-terminated heap string (caller frees), or NULL. */
char *base64_encode(const void *data, size_t len);

/* Decodes text (whitespace ignored, padding optional) into a new heap buffer (caller frees)
 * with its length in *len. Returns NULL on an invalid character or length, or no memory. */
uint8_t *base64_decode(const char *text, size_t *len);

#endif
