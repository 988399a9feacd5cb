/*
 * sha256: SHA-256 (FIPS 180-4), for content-addressed keys (the compile cache).
 */
#ifndef VERDICT_SHA256_H
#define VERDICT_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
    uint32_t h[8];
    uint64_t len;      /* bytes hashed so far */
    uint8_t block[64]; /* pending input */
    size_t used;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* Finishes and writes the digest as 64 lowercase hex digits and a NUL into hex. */
void sha256_hex(struct sha256 *s, char hex[65]);

#endif
