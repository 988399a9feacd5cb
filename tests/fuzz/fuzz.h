/*
 * fuzz: what the fuzz targets share. Each target (fuzz_<name>.c) defines libFuzzer's
 * LLVMFuzzerTestOneInput, and LLVMFuzzerInitialize where it needs set-up; it is linked either
 * with libFuzzer (cmake -DVERDICT_FUZZ=ON, clang) or with replay.c, which runs it over the files
 * of its corpus and regression directories as a ctest. A broken invariant aborts (FUZZ_CHECK),
 * which both report as a crash with the failing condition.
 */
#ifndef VERDICT_FUZZ_H
#define VERDICT_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "server/judge/lang.h"
#include "server/util/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Aborts with file:line and the condition when c is false. */
#define FUZZ_CHECK(c)                                                                              \
    do {                                                                                           \
        if (!(c))                                                                                  \
            fuzz_fail(__FILE__, __LINE__, #c);                                                     \
    } while (0)

void fuzz_fail(const char *file, int line, const char *what) __attribute__((noreturn));

/* The repository's language templates ($VERDICT_LANGUAGES, else the built-in
 * VERDICT_LANGUAGES_DIR), loaded once and every one marked available without probing a
 * toolchain. Aborts when they do not load. Borrowed; lives as long as the process. */
const struct lang_set *fuzz_langs(void);

/* That directory ($VERDICT_LANGUAGES, else VERDICT_LANGUAGES_DIR). Static. */
const char *fuzz_languages_dir(void);

/* data[0..size) as a NUL-terminated heap string (cut at a NUL byte it holds, as C strings
 * are); aborts when out of memory. */
char *fuzz_text(const uint8_t *data, size_t size);

/* Whether s[0..n) is valid UTF-8 (shortest forms, no surrogates, at most U+10FFFF): a check
 * of its own, apart from server/util/utf8's, for what an answer must hold. */
bool fuzz_utf8_ok(const unsigned char *s, size_t n);

/* Checks one problem of server/datasets/loader's model (loader.h): every field there, of its
 * type, within its bounds. */
void fuzz_check_problem(const struct json *p);

#endif
