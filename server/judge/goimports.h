/*
 * goimports: a Go source's package clause and imports made one block of what it uses, as
 * goimports would: one package clause (the first), one import block after it holding every
 * import the text declares (at line starts, anywhere in it) that its code uses (a name
 * followed by `.` outside comments and literals; blank and dot imports kept), and the
 * standard packages it uses without importing them (a fixed list: fmt, math, strings,
 * strconv, sort...). A prompt's imports, a completion's and the tests' then make one valid
 * file, and the packages no part uses are not an "imported and not used" compile error.
 * Only a well-formed declaration moves: `import` at a line start followed by specs (names,
 * paths, comments, blanks) up to its `)` or line end. Any other `import` line stays where it
 * is (a compile error of its own): an unclosed `import (` in a candidate's code never
 * swallows the tests after it.
 */
#ifndef VERDICT_GOIMPORTS_H
#define VERDICT_GOIMPORTS_H

/* src so merged (heap), src itself copied when it has no package clause, or NULL when out of
 * memory. */
char *goimports_fix(const char *src);

#endif
