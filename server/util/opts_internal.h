/*
 * opts_internal: opts' value parsers, which the unit tests reach directly. Not a contract for
 * other modules: they describe options with OPT_BYTES and OPT_DURATION in a table.
 */
#ifndef VERDICT_OPTS_INTERNAL_H
#define VERDICT_OPTS_INTERNAL_H

#include <stdint.h>

/* "4096", "64K", "256MiB", "2g": bytes. Returns 0 or -EINVAL / -ERANGE. */
int opts_parse_bytes(const char *s, uint64_t *out);
/* "1.5", "500ms", "2m": milliseconds. Returns 0 or -EINVAL / -ERANGE. */
int opts_parse_duration_ms(const char *s, int64_t *out);

#endif
