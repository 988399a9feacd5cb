/*
 * lint: the shadowing classes a sealed (in-process) harness refuses before compiling.
 *
 * seal (seal.h) keeps a candidate from passing by exiting early or printing a marker it could
 * read at compile time, but the tests still run in the candidate's process and translation
 * unit (C, C++), package (Go) or crate (Rust), where the candidate's declarations can change
 * what the tests' own names mean while keeping the prompt's signature. seal_lint refuses
 * those declarations, by tokens (server/judge/lex), in the candidate's code (for Go, whose
 * dataset harness joins code and tests, in the whole text):
 * - C, C++: `#define` of a keyword (true, false, bool, int, return, ...); `#undef` of a macro
 *   the code did not #define itself (NDEBUG aside); any mention of a function the tests define
 *   (HumanEval-X's `issame`: an overload of it would win); a definition of a C library function
 *   (strcmp, fabs, ...: it would replace the one the tests call), the entry point aside; C++: a
 * comparison operator
 *   (==, !=, <, >, <=, >=, <=>) declared at namespace scope (global, or reopened `namespace
 *   std`), not as a member; reopening `namespace std`.
 * - Go: a package-level declaration (const, var, type, func, import alias) of a predeclared
 *   constant, type or nil (true, false, iota, nil, int, string, error, ...), or of a builtin
 *   function the tests use (len, append, ...); a method named String, Error, Format, GoString
 *   or Equal (what fmt, errors and comparison helpers call on a value).
 * - Rust: an item (struct, enum, union, trait, type, fn, const, static, mod), enum variant,
 *   `use ... as` or `extern crate ... as` named like a primitive or std prelude type, value or
 *   common collection (bool, String, Vec, Option, Some, HashMap, std, ...); a hand-written
 *   `impl PartialEq`; a hand-written impl of an ordering, operator, deref or formatting trait
 *   for a type that a function of the code returns (or when a function returns `impl ...`).
 * None of these occurs in a reference solution or chat answer of HumanEval-X, MultiPL-E or
 * McEval (tests/datasets). What is left is in docs/integrity.md.
 */
#ifndef VERDICT_LINT_H
#define VERDICT_LINT_H

#include "runners/err.h"

/* Checks code (the candidate's, with the prompt) against tests (our test code; blank for a Go
 * dataset program, whose tests are in code); entry (may be NULL) is the problem's entry point,
 * which may have a C library function's name (HumanEval-X CPP/23's strlen). Returns 0, -EPERM with
 * why (the rule and the name: the caller answers CE), or -ENOMEM. Languages without rules (not c,
 * cpp, go, go_test, rust, rust_test) return 0. */
int seal_lint(const char *language, const char *code, const char *tests, const char *entry,
              char why[ERR_LEN]);

#endif
