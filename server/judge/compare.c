/*
 * compare: output comparison.
 *
 * Lines and tokens are walked in place (no copies): a cursor over each text yields the next
 * line (trailing blanks trimmed) or token. Differences are reported with their line or token
 * number and a short, escaped excerpt of both sides. Regexes are compiled per comparison by
 * server/util/regex (byte mode: program output may be any bytes), anchored at both ends, and
 * matched under its limits so a pathological pattern cannot stall a worker.
 */
#include "server/judge/compare.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/util/regex.h"

static const char *const names[] = {"lines",  "exact", "tokens", "float",
                                    "nocase", "regex", "checker"};

int cmp_mode_parse(const char *name, enum cmp_mode *out)
{
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (enum cmp_mode)i;
            return 0;
        }
    return -EINVAL;
}

const char *cmp_mode_name(enum cmp_mode m)
{
    return (unsigned)m < sizeof(names) / sizeof(names[0]) ? names[m] : "?";
}

/* A short printable excerpt of s[0..n): control and non-ASCII bytes escaped, "..." when cut. */
static void excerpt(const char *s, size_t n, char *out, size_t cap)
{
    size_t o = 0, i = 0;
    for (; i < n && o + 8 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 32 && c < 127 && c != '"' && c != '\\')
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, cap - o, "\\x%02x", c);
    }
    if (i < n)
        o += (size_t)snprintf(out + o, cap - o, "...");
    out[o < cap ? o : cap - 1] = '\0';
}

static void differ(char why[CMP_WHY], const char *what, size_t index, const char *w, size_t wn,
                   const char *g, size_t gn)
{
    char a[64], b[64];
    excerpt(w, wn, a, sizeof(a));
    excerpt(g, gn, b, sizeof(b));
    snprintf(why, CMP_WHY, "%s %zu: expected \"%s\", got \"%s\"", what, index, a, b);
}

struct cursor {
    const char *p, *end;
};

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next line without its terminator and trailing blanks; false at the end. */
static bool next_line(struct cursor *c, const char **s, size_t *n)
{
    if (c->p >= c->end)
        return false;
    const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
    const char *e = nl ? nl : c->end;
    *s = c->p;
    while (e > *s && is_blank(e[-1]))
        e--;
    *n = (size_t)(e - *s);
    c->p = nl ? nl + 1 : c->end;
    return true;
}

/* Lines up to the last non-empty one (trailing blank lines do not count). */
static size_t count_lines(const char *t, size_t n)
{
    struct cursor c = {t, t + n};
    const char *s;
    size_t len, i = 0, last = 0;
    while (next_line(&c, &s, &len)) {
        i++;
        if (len > 0)
            last = i;
    }
    return last;
}

/* Whether a[0..n) and b[0..n) are the same bytes but for ASCII case (NUL bytes included:
 * strncasecmp would stop at the first one). */
static bool same_nocase(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return false;
    return true;
}

static bool lines_equal(const char *w, size_t wl, const char *g, size_t gl, bool nocase,
                        char why[CMP_WHY])
{
    size_t nw = count_lines(w, wl), ng = count_lines(g, gl);
    struct cursor cw = {w, w + wl}, cg = {g, g + gl};
    for (size_t i = 1; i <= nw || i <= ng; i++) {
        const char *a = "", *b = "";
        size_t an = 0, bn = 0;
        if (i <= nw)
            next_line(&cw, &a, &an);
        if (i <= ng)
            next_line(&cg, &b, &bn);
        bool same = an == bn && (nocase ? same_nocase(a, b, an) : memcmp(a, b, an) == 0);
        if (i > nw || i > ng || !same) {
            if (i > nw)
                snprintf(why, CMP_WHY, "line %zu: expected end of output, got more", i);
            else if (i > ng)
                snprintf(why, CMP_WHY, "line %zu: output ended, expected more", i);
            else
                differ(why, "line", i, a, an, b, bn);
            return false;
        }
    }
    return true;
}

static bool next_token(struct cursor *c, const char **s, size_t *n)
{
    while (c->p < c->end && (is_blank(*c->p) || *c->p == '\n'))
        c->p++;
    if (c->p >= c->end)
        return false;
    *s = c->p;
    while (c->p < c->end && !is_blank(*c->p) && *c->p != '\n')
        c->p++;
    *n = (size_t)(c->p - *s);
    return true;
}

/* A whole token that is a number (or nan/inf); false for anything else. */
static bool number(const char *s, size_t n, double *v)
{
    char buf[128];
    if (n == 0 || n >= sizeof(buf))
        return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end;
    errno = 0;
    *v = strtod(buf, &end);
    return *end == '\0' && end != buf;
}

static bool floats_close(double want, double got, const struct cmp_spec *sp)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (isinf(want) || isinf(got))
        return want == got;
    double d = fabs(want - got);
    return d <= sp->abs_eps || d <= sp->rel_eps * fabs(want);
}

static bool tokens_equal(const struct cmp_spec *sp, const char *w, size_t wl, const char *g,
                         size_t gl, char why[CMP_WHY])
{
    struct cursor cw = {w, w + wl}, cg = {g, g + gl};
    for (size_t i = 1;; i++) {
        const char *a, *b;
        size_t an, bn;
        bool ha = next_token(&cw, &a, &an), hb = next_token(&cg, &b, &bn);
        if (!ha && !hb)
            return true;
        if (!ha || !hb) {
            snprintf(why, CMP_WHY, "token %zu: %s", i,
                     ha ? "output ended, expected more" : "expected end of output, got more");
            return false;
        }
        double x, y;
        bool same = sp->mode == CMP_FLOAT && number(a, an, &x) && number(b, bn, &y)
                        ? floats_close(x, y, sp)
                        : an == bn && memcmp(a, b, an) == 0;
        if (!same) {
            differ(why, "token", i, a, an, b, bn);
            return false;
        }
    }
}

static bool regex_match(const char *pat, size_t pl, const char *g, size_t gl, char why[CMP_WHY])
{
    struct rx *re;
    struct rx_match m;
    char err[ERR_LEN];
    if (rx_compile(pat, pl, RX_DOTALL | RX_FULL, &re, err) < 0) {
        snprintf(why, CMP_WHY, "regex: %.160s", err);
        return false;
    }
    int rc = rx_match(re, g, gl, 0, &m);
    rx_free(re);
    if (rc == -E2BIG)
        snprintf(why, CMP_WHY, "regex: matching gave up (too costly)");
    else if (rc <= 0)
        snprintf(why, CMP_WHY, "regex: the output does not match the pattern");
    return rc == 1;
}

bool cmp_equal(const struct cmp_spec *s, const char *want, size_t wlen, const char *got,
               size_t glen, char why[CMP_WHY])
{
    why[0] = '\0';
    switch (s->mode) {
    case CMP_EXACT:
        if (wlen == glen && memcmp(want, got, wlen) == 0)
            return true;
        for (size_t i = 0;; i++) {
            if (i >= wlen || i >= glen || want[i] != got[i]) {
                snprintf(why, CMP_WHY, "byte %zu: %s", i,
                         i >= wlen   ? "expected end of output, got more"
                         : i >= glen ? "output ended, expected more"
                                     : "differs");
                return false;
            }
        }
    case CMP_TOKENS:
    case CMP_FLOAT:
        return tokens_equal(s, want, wlen, got, glen, why);
    case CMP_NOCASE:
        return lines_equal(want, wlen, got, glen, true, why);
    case CMP_REGEX:
        return regex_match(want, wlen, got, glen, why);
    case CMP_CHECKER:
        snprintf(why, CMP_WHY, "checker mode: the judge runs the checker program");
        return false;
    case CMP_LINES:
    default:
        return lines_equal(want, wlen, got, glen, false, why);
    }
}

enum cmp_checker cmp_checker_status(int exit_code, const char **what)
{
    switch (exit_code) {
    case 0:
        *what = "accepted";
        return CMP_ACCEPTED;
    case 1:
        *what = "wrong answer";
        return CMP_WRONG;
    case 2:
        *what = "presentation error";
        return CMP_WRONG;
    case 3:
        *what = "checker failed (exit 3)";
        return CMP_CHECKER_FAILED;
    case 7:
        *what = "checker gave partial points (exit 7), which verdict does not support";
        return CMP_CHECKER_FAILED;
    default:
        *what = "checker exited with a status outside testlib's convention";
        return CMP_CHECKER_FAILED;
    }
}
