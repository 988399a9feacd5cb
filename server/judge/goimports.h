/*
 * goimports: a Go source's package clause and imports made one block of what it uses, as
 * goimports would: one package clause (the first), one import block after it holding every
 * import the text declares (at line starts, anywhere in it) that its code uses (a name
 * followed by `.` outside comments and literals; blank and dot imports kept), and the
 * standard packages it uses without importing them (a fixed list: fmt, math, strings,
 * strconv, sort...). A prompt's imports, a completion's and the tests' then make one valid
 * file, and the packages no part uses are not an "imported and not used" compile error.
 */
#ifndef VERDICT_GOIMPORTS_H
#define VERDICT_GOIMPORTS_H

/* src so merged (heap), src itself copied when it has no package clause, or NULL when out of
 * memory. */
char *goimports_fix(const char *src);

#endif
