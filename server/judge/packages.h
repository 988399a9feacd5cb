/*
 * packages: the libraries a language offers programs beyond its standard library (Python's
 * numpy, scipy, pandas...), as its toolchain reports them when the server probes it.
 *
 * A template's `packages` is a command (argv, argv[0] absolute) run on the host at probe time,
 * like the version command: each line it prints is `name<TAB>version<TAB>import`, the
 * package's name, its version and what a program imports (Python: `scikit-learn` is imported
 * as `sklearn`). What it does not print is not offered. The list is what GET /v1/languages
 * (`packages`) and `verdict doctor` show, and what tests/api/test_packages.py imports inside
 * the sandbox. At most PACKAGES_MAX entries; a longer line or a field past its size is
 * skipped.
 */
#ifndef VERDICT_PACKAGES_H
#define VERDICT_PACKAGES_H

#include <stddef.h>

#define PACKAGES_MAX 256

struct lang_package {
    char name[64];
    char version[48];
    char import[64];
};

struct lang;

/* Runs the packages command of each available language of langs[0..n) that has one, all at
 * once, and fills each one's package list (replacing what an earlier probe found; an
 * unavailable language, or a command that failed, offers none). Never fails: out of memory
 * leaves lists empty. */
void packages_probe(struct lang *const *langs, size_t n);

/* Parses a packages command's output into out (at most max entries). Returns the count.
 * Pure. */
int packages_parse(const char *text, struct lang_package *out, int max);

#endif
