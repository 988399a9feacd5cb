/*
 * compare: is a program's output the expected one? The only module that includes pcre2.h.
 *
 * Modes: exact bytes; lines (default: trailing whitespace of each line and trailing blank
 * lines ignored, CRLF = LF); tokens (whitespace-separated); float (tokens, numbers within an
 * absolute or relative epsilon); nocase (lines, ASCII case-insensitive); regex (the expected
 * text is a PCRE2 pattern that must match the whole output). A checker program is not a
 * comparison of text: the judge runs it in the sandbox.
 */
#ifndef VERDICT_COMPARE_H
#define VERDICT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#define CMP_WHY 192

enum cmp_mode { CMP_LINES, CMP_EXACT, CMP_TOKENS, CMP_FLOAT, CMP_NOCASE, CMP_REGEX };

struct cmp_spec {
    enum cmp_mode mode;
    double abs_eps; /* CMP_FLOAT: |got - want| <= abs_eps ... */
    double rel_eps; /* ... or <= rel_eps * |want| */
};

/* The mode named name ("lines", "exact", ...). Returns 0, or -EINVAL. */
int cmp_mode_parse(const char *name, enum cmp_mode *out);
const char *cmp_mode_name(enum cmp_mode m);

/* Compares got with want (byte strings, not NUL-terminated). Returns true if they agree;
 * otherwise why (CMP_WHY bytes) says where they first differ, e.g. `line 3: expected "5",
 * got "6"` or `regex: no match`. Never reads past either length. */
bool cmp_equal(const struct cmp_spec *s, const char *want, size_t wlen, const char *got,
               size_t glen, char why[CMP_WHY]);

#endif
