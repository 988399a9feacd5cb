/*
 * err: the error convention shared by every module.
 *
 * Fallible functions return 0 on success or a negative errno-style code. A function that must
 * explain a failure to a human also takes `char err[ERR_LEN]` and writes one line into it (no
 * trailing newline). err_name() turns a code into its symbolic name for logs.
 */
#ifndef VERDICT_ERR_H
#define VERDICT_ERR_H

#define ERR_LEN 256

/* The symbolic name of a negative (or positive) errno code, e.g. "ENOENT"; "OK" for 0 and
 * "E?" for a code the C library does not know. The string is static. */
const char *err_name(int code);

/* Formats one line into err (ERR_LEN bytes, always NUL-terminated) and returns code, so a
 * failure path reads `return err_set(err, -errno, "mkdir %s: %m", path);`. err may be NULL. */
int err_set(char *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
