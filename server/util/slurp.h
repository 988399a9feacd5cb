/*
 * slurp: a whole file into memory, gunzipped when it is gzip (by its magic bytes, not its
 * name); the only module that includes zlib.h.
 */
#ifndef VERDICT_SLURP_H
#define VERDICT_SLURP_H

#include <stddef.h>

#include "runners/err.h"

/* Reads path into a new NUL-terminated heap buffer (*len bytes before the NUL), refusing
 * more than cap bytes (after decompression) with -EFBIG. */
int slurp(const char *path, size_t cap, char **out, size_t *len, char err[ERR_LEN]);

#endif
