/*
 * signature: where a C-like text (C++ here) declares a function, for a compiled grader's
 * proxy of the entry point (server/judge/graded.h).
 *
 * The text is walked by tokens (server/judge/lex: comments, literals and preprocessor lines
 * skipped). A declaration of name is the identifier at brace depth 0, outside any
 * parentheses, after a token that can end a type (an identifier, `>`, `*`, `&`), and followed
 * by a parameter list (or after a D template instance's `)`: `Tuple!(long, long) f(...)`);
 * it starts at the first token after the previous `;`, `{` or `}` at
 * depth 0 (the return type) and ends at the list's closing parenthesis. A call or a use of
 * the name inside a function body is at depth 1 or more and never matches.
 *
 * A member (Java's methods) is searched at brace depth 1 instead: inside a class body, whose
 * name is the identifier after the last `class` (or Scala's `object`) keyword at depth 0
 * before it; a member that follows a `def` or `fun` keyword starts there (Scala's and
 * Kotlin's members need no `;` between them). Their parameters are named before a `:`, and
 * a return type after the list (`) : Option[Long]`, up to the body's `=` or `{`) belongs to
 * the declaration. A Go declaration starts at its `func`; each parameter is named by its
 * first identifier (`a, b int` names two), and its result type follows the list up to the
 * body's `{` (`(int, error)`, an `interface{}`'s braces included; none: it returns nothing).
 * A Rust declaration is the item whose `fn` names it (`pub` and attributes kept): its
 * parameters are named before a `:`, a `mut` binding is left out of its text, `->` stays one
 * token, and its return type runs to the body's `{` or a `where`; a generic one (`fn f<T>`)
 * is not found.
 */
#ifndef VERDICT_SIGNATURE_H
#define VERDICT_SIGNATURE_H

#include <stdbool.h>
#include <stddef.h>

struct signature {
    size_t start;    /* the declaration's first token (its return type) */
    size_t end;      /* past its parameter list's closing parenthesis */
    char *text;      /* its tokens, one space between two (none between two colons) (heap) */
    bool plain;      /* only identifiers, numbers and < > , & * : [ ] ! and the one parameter
                        list (a D template instance's parentheses aside):
                        nothing that could run, define, include or close a scope */
    char *args;      /* its parameters' names, ", " between two (heap) */
    char *type;      /* its return type, less modifiers (public, static...) (heap) */
    bool returns;    /* its return type is not void (nor Scala's Unit) */
    char owner[128]; /* a member's class, or "" */
};

/* The last (a prompt ends with its entry's) or first (a program's own) declaration of name
 * in text, at brace depth 0, or 1 for a member. Returns 0 with *s filled (signature_fini),
 * -ENOENT when there is none, -ENOMEM. */
int signature_find(const char *text, const char *name, bool last, bool member, struct signature *s);

void signature_fini(struct signature *s);

#endif
