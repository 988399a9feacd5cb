/*
 * fuzz: the targets' shared helpers (fuzz.h): the failure report, the language set loaded once
 * per process, input bytes as a C string, and the checks of the loader's problem model.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_info.h"
#include "server/judge/compare.h"
#include "server/judge/lang_internal.h"

void fuzz_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
    abort();
}

const char *fuzz_languages_dir(void)
{
    const char *dir = getenv("VERDICT_LANGUAGES");
    return dir && *dir ? dir : VERDICT_LANGUAGES_DIR;
}

const struct lang_set *fuzz_langs(void)
{
    static struct lang_set *langs;
    if (langs)
        return langs;
    const char *dir = fuzz_languages_dir();
    char err[ERR_LEN];
    if (lang_load_dir(dir, &langs, err) < 0) {
        fprintf(stderr, "fuzz: languages %s: %s\n", dir, err);
        abort();
    }
    lang_set_available(langs);
    return langs;
}

char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    FUZZ_CHECK(s != NULL);
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

static bool is_str(const struct json *p, const char *key)
{
    const char *s;
    return json_str(json_get(p, key), &s);
}

static void check_strings(const struct json *arr, bool object)
{
    FUZZ_CHECK(object ? json_is_object(arr) : json_is_array(arr));
    for (const struct json *e = json_first(arr); e; e = json_next(e))
        FUZZ_CHECK(json_is_string(e));
}

void fuzz_check_problem(const struct json *p)
{
    const char *id, *kind;
    double v;
    bool b;
    FUZZ_CHECK(json_is_object(p));
    FUZZ_CHECK(json_str(json_get(p, "id"), &id) && *id);
    FUZZ_CHECK(is_str(p, "prompt") && is_str(p, "language") && is_str(p, "entry_point"));
    FUZZ_CHECK(json_str(json_get(p, "kind"), &kind));
    FUZZ_CHECK(json_num(json_get(p, "time_ms"), &v) && v >= 1 && v <= 60000);
    FUZZ_CHECK(json_num(json_get(p, "memory_mb"), &v) && v >= 16 && v <= 16384);
    check_strings(json_get(p, "solutions"), true);
    check_strings(json_get(p, "stop"), false);
    FUZZ_CHECK(json_bool(json_get(p, "stop_line"), &b) && json_bool(json_get(p, "continues"), &b));
    FUZZ_CHECK(json_is_object(json_get(p, "labels")));
    if (strcmp(kind, "harness") == 0) {
        FUZZ_CHECK(is_str(p, "before") && is_str(p, "preamble") && is_str(p, "after"));
        return;
    }
    FUZZ_CHECK(strcmp(kind, "stdio") == 0);
    FUZZ_CHECK(json_is_array(json_get(p, "tests")));
    for (const struct json *t = json_first(json_get(p, "tests")); t; t = json_next(t))
        FUZZ_CHECK(is_str(t, "stdin") && is_str(t, "expected"));
    const struct json *cmp = json_get(p, "compare");
    if (cmp) {
        const char *mode;
        enum cmp_mode m;
        double eps;
        FUZZ_CHECK(json_str(json_get(cmp, "mode"), &mode));
        FUZZ_CHECK(cmp_mode_parse(mode, &m) == 0 && m != CMP_CHECKER);
        for (int i = 0; i < 2; i++)
            if (json_num(json_get(cmp, i ? "rel_eps" : "abs_eps"), &eps))
                FUZZ_CHECK(eps >= 0 && eps < 1e300);
    }
}

bool fuzz_utf8_ok(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t k = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : 4;
        if ((c >= 0x80 && c < 0xc2) || c > 0xf4 || i + k > n)
            return false;
        for (size_t j = 1; j < k; j++)
            if ((s[i + j] & 0xc0) != 0x80)
                return false;
        if ((c == 0xe0 && s[i + 1] < 0xa0) || (c == 0xed && s[i + 1] >= 0xa0) ||
            (c == 0xf0 && s[i + 1] < 0x90) || (c == 0xf4 && s[i + 1] >= 0x90))
            return false;
        i += k;
    }
    return true;
}
