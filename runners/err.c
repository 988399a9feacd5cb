/*
 * err: symbolic errno names and the one-line error formatter used across verdict.
 *
 * err_set() keeps errno intact for "%m" by formatting before anything else can change it.
 */
#include "runners/err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *err_name(int code)
{
    if (code == 0)
        return "OK";
    const char *name = strerrorname_np(code < 0 ? -code : code);
    return name ? name : "E?";
}

int err_set(char *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, ERR_LEN, fmt, ap);
        va_end(ap);
    }
    return code;
}
