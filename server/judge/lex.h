/*
 * lex: just enough of the lexical grammar of C, C++, Go and Rust to walk test code by tokens
 * (server/judge/seal's rewrite of our own tests).
 *
 * Skipped: blanks; line and block comments (Rust's nest; C's line comment continues past a
 * splice); string, character and raw literals (C++ R"d(...)d", Rust r#"..."#, Go's
 * backquotes), returned as one TOK_OTHER token; Rust lifetimes told from characters; C
 * preprocessor lines (those whose first token is # or %:) with their splices, comments and
 * literals (or, when asked, each as one TOK_DIRECTIVE token). Returned: identifiers, numbers
 * (C's digit separators inside) and each other byte as a token of its own. Nothing is allocated;
 * offsets index the text given.
 */
#ifndef VERDICT_LEX_H
#define VERDICT_LEX_H

#include <stdbool.h>
#include <stddef.h>

enum lex_dialect { LEX_C, LEX_GO, LEX_RUST };

/* A position in a NUL-terminated text (caller storage; copy it to look ahead). */
struct lexer {
    const char *s;
    size_t i;
    enum lex_dialect d;
    bool bol;        /* nothing but blanks and comments since the last newline */
    bool directives; /* C: return each preprocessor line as one TOK_DIRECTIVE token */
};

enum { TOK_END = 0, TOK_IDENT = 'a', TOK_OTHER = '0', TOK_DIRECTIVE = 'd' };

struct lex_tok {
    size_t at, len;
    int kind; /* TOK_END, TOK_IDENT, TOK_OTHER (a number or literal), or the punctuation byte */
};

/* A lexer at the start of s (at a line's start). */
void lex_init(struct lexer *l, const char *s, enum lex_dialect d);

/* The next token past what is skipped; a TOK_END one (len 0) at the end of the text. */
struct lex_tok lex_next(struct lexer *l);

/* Whether t is the identifier word. */
bool lex_is(const struct lexer *l, struct lex_tok t, const char *word);

/* Past the group whose opening token ('(', '[' or '{') was just read: the matching closing
 * token, or a TOK_END one when the text ends first. */
struct lex_tok lex_match(struct lexer *l, int open);

/* Whether c may be part of an identifier (letters, digits, '_', any non-ASCII byte). */
bool lex_ident_char(char c);

/* The length of a C line splice at s (a backslash, optional blanks, a newline, as GCC
 * accepts it), or 0. */
size_t lex_splice(const char *s);

/* The end of the block comment at s[i] (past its closing star-slash); nest for Rust's. */
size_t lex_block_comment_end(const char *s, size_t i, bool nest);

#endif
