/*
 * fuzz_compare: every comparison mode of server/judge/compare on arbitrary bytes. The first
 * byte picks the mode, the second the epsilons (float), the third where the rest splits into
 * the expected output and the program's.
 *
 * Invariants: a comparison is deterministic (twice, the same answer and the same reason), says
 * why exactly when it disagrees, in a NUL-terminated reason; an output equals itself in every
 * mode that compares text; exact, lines and tokens and nocase are symmetric; the modes nest
 * (exact => lines => tokens => float, lines => nocase); nocase is lines on ASCII-lowered bytes;
 * a literal pattern (\Q...\E) matches its own text in regex mode; checker mode never agrees
 * (the judge runs a program instead).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "server/judge/compare.h"

static bool cmp(enum cmp_mode mode, double abs_eps, double rel_eps, const char *w, size_t wl,
                const char *g, size_t gl)
{
    struct cmp_spec s = {mode, abs_eps, rel_eps};
    char why[CMP_WHY], again[CMP_WHY];
    memset(why, 'x', sizeof(why));
    bool same = cmp_equal(&s, w, wl, g, gl, why);
    FUZZ_CHECK(memchr(why, '\0', sizeof(why)) != NULL);
    FUZZ_CHECK(same ? why[0] == '\0' : why[0] != '\0');
    FUZZ_CHECK(cmp_equal(&s, w, wl, g, gl, again) == same && strcmp(why, again) == 0);
    return same;
}

static char *lowered(const char *s, size_t n)
{
    char *l = malloc(n ? n : 1);
    FUZZ_CHECK(l != NULL);
    for (size_t i = 0; i < n; i++)
        l[i] = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] + 32) : s[i];
    return l;
}

static void check_text_modes(double a, double r, const char *w, size_t wl, const char *g, size_t gl)
{
    static const enum cmp_mode text[] = {CMP_EXACT, CMP_LINES, CMP_TOKENS, CMP_FLOAT, CMP_NOCASE};
    for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++)
        FUZZ_CHECK(cmp(text[i], a, r, g, gl, g, gl));
    bool exact = cmp(CMP_EXACT, a, r, w, wl, g, gl), lines = cmp(CMP_LINES, a, r, w, wl, g, gl);
    bool tokens = cmp(CMP_TOKENS, a, r, w, wl, g, gl), nocase = cmp(CMP_NOCASE, a, r, w, wl, g, gl);
    bool fl = cmp(CMP_FLOAT, a, r, w, wl, g, gl);
    FUZZ_CHECK(!exact || lines);
    FUZZ_CHECK(!lines || (tokens && nocase));
    FUZZ_CHECK(!tokens || fl);
    FUZZ_CHECK(exact == cmp(CMP_EXACT, a, r, g, gl, w, wl));
    FUZZ_CHECK(lines == cmp(CMP_LINES, a, r, g, gl, w, wl));
    FUZZ_CHECK(tokens == cmp(CMP_TOKENS, a, r, g, gl, w, wl));
    FUZZ_CHECK(nocase == cmp(CMP_NOCASE, a, r, g, gl, w, wl));
    char *lw = lowered(w, wl), *lg = lowered(g, gl);
    FUZZ_CHECK(nocase == cmp(CMP_LINES, a, r, lw, wl, lg, gl));
    free(lw);
    free(lg);
}

/* \Q got \E matches got itself (when got holds no \E to end the quote early). */
static void check_literal(const char *g, size_t gl)
{
    if (memmem(g, gl, "\\E", 2) || (gl && g[gl - 1] == '\\'))
        return;
    char *pat = malloc(gl + 4);
    FUZZ_CHECK(pat != NULL);
    memcpy(pat, "\\Q", 2);
    memcpy(pat + 2, g, gl);
    memcpy(pat + 2 + gl, "\\E", 2);
    struct cmp_spec s = {CMP_REGEX, 0, 0};
    char why[CMP_WHY];
    bool same = cmp_equal(&s, pat, gl + 4, g, gl, why);
    FUZZ_CHECK(same || strstr(why, "too costly"));
    free(pat);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const double eps[] = {0, 1e-9, 1e-6, 1e-3, 0.5, 1, 1e6, 1e300};
    if (size < 3)
        return 0;
    enum cmp_mode mode = (enum cmp_mode)(data[0] % (CMP_CHECKER + 1));
    double a = eps[data[1] & 7], r = eps[(data[1] >> 3) & 7];
    const char *rest = (const char *)data + 3;
    size_t n = size - 3, split = (size_t)data[2] * n / 255;
    const char *w = rest, *g = rest + split;
    size_t wl = split, gl = n - split;
    bool same = cmp(mode, a, r, w, wl, g, gl);
    if (mode == CMP_CHECKER)
        FUZZ_CHECK(!same);
    else if (mode == CMP_REGEX)
        check_literal(g, gl);
    else
        check_text_modes(a, r, w, wl, g, gl);
    return 0;
}
