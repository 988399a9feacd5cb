/*
 * compare: is a program's output the expected one?
 *
 * Modes: exact bytes; lines (default: trailing whitespace of each line and trailing blank
 * lines ignored, CRLF = LF); tokens (whitespace-separated); float (tokens, numbers within an
 * absolute or relative epsilon); nocase (lines, ASCII case-insensitive); regex (the expected
 * text is a PCRE2 pattern that must match the whole output); checker (not a comparison of
 * text: the judge runs a checker program in the sandbox, `checker input output answer`, and
 * reads its exit status with testlib's convention, cmp_checker_status).
 */
#ifndef VERDICT_COMPARE_H
#define VERDICT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#define CMP_WHY 192

enum cmp_mode { CMP_LINES, CMP_EXACT, CMP_TOKENS, CMP_FLOAT, CMP_NOCASE, CMP_REGEX, CMP_CHECKER };

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

/* What a checker's exit status says, by testlib's convention: 0 accepted, 1 wrong answer,
 * 2 presentation error (a wrong answer here), 3 the checker itself failed, 7 partial points
 * (not supported: treated as a checker failure), anything else a checker failure. */
enum cmp_checker { CMP_ACCEPTED, CMP_WRONG, CMP_CHECKER_FAILED };
enum cmp_checker cmp_checker_status(int exit_code, const char **what);

#endif
