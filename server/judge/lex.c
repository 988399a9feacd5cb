/*
 * lex: a token walk over C, C++, Go and Rust text (see lex.h). Each skipped construct is one
 * function returning where it ends; skip_at picks the one that starts at a position.
 */
#include "server/judge/lex.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

bool lex_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

/* A C line splice at s: a backslash, optional blanks, a newline; its length, or 0. */
size_t lex_splice(const char *s)
{
    if (*s != '\\')
        return 0;
    size_t n = 1;
    while (s[n] == ' ' || s[n] == '\t' || s[n] == '\r')
        n++;
    return s[n] == '\n' ? n + 1 : 0;
}

/* The end of a quoted literal opened at s[i] (q), escapes honoured; an unterminated one ends
 * at the newline when multiline is false (C, Go), else at the end of the text. */
static size_t quoted_end(const char *s, size_t i, char q, bool multiline)
{
    for (i++; s[i] && s[i] != q; i++) {
        if (s[i] == '\n' && !multiline)
            return i;
        if (s[i] == '\\' && s[i + 1])
            i++;
    }
    return s[i] ? i + 1 : i;
}

/* The end of a C++ raw string R"d( ... )d" whose R is at s[i], or i when it is none. */
static size_t cpp_raw_end(const char *s, size_t i)
{
    size_t p = i;
    while (p > 0 && p + 2 > i && strchr("u8UL", s[p - 1]))
        p--;
    bool prefix = p == i || (i - p == 1 && strchr("uUL", s[p])) ||
                  (i - p == 2 && s[p] == 'u' && s[p + 1] == '8');
    if (s[i] != 'R' || s[i + 1] != '"' || !prefix || (p > 0 && lex_ident_char(s[p - 1])))
        return i;
    const char *d = s + i + 2, *open = strchr(d, '(');
    if (!open || open - d > 16)
        return i;
    char close[20];
    snprintf(close, sizeof(close), ")%.*s\"", (int)(open - d), d);
    const char *e = strstr(open, close);
    return e ? (size_t)(e - s) + strlen(close) : strlen(s);
}

/* The end of a Rust raw string r"..." / r#"..."# (also b, c prefixes) at s[i], or i. */
static size_t rust_raw_end(const char *s, size_t i)
{
    size_t p = i;
    if ((s[p] == 'b' || s[p] == 'c') && s[p + 1] == 'r')
        p++;
    if (s[p] != 'r' || (i > 0 && lex_ident_char(s[i - 1])))
        return i;
    size_t hashes = 0;
    for (p++; s[p] == '#'; p++)
        hashes++;
    if (s[p] != '"')
        return i;
    for (p++; s[p]; p++) {
        size_t h = 0;
        while (s[p] == '"' && h < hashes && s[p + 1 + h] == '#')
            h++;
        if (s[p] == '"' && h == hashes)
            return p + 1 + hashes;
    }
    return p;
}

/* The end of a Rust character literal at s[i] ('x', '\n', 'é'), or i + 1 for a lifetime. */
static size_t rust_char_end(const char *s, size_t i)
{
    if (s[i + 1] == '\\')
        return quoted_end(s, i, '\'', false);
    if (!s[i + 1])
        return i + 1;
    size_t n = 1;
    while (((unsigned char)s[i + 1 + n] & 0xc0) == 0x80)
        n++;
    return s[i + 1] && s[i + 1 + n] == '\'' ? i + 2 + n : i + 1;
}

/* The end of a C preprocessor line at s[i]: its logical line, comments and literals in it
 * skipped, up to (not past) the newline. */
static size_t directive_end(const char *s, size_t i)
{
    while (s[i] && s[i] != '\n') {
        size_t sp = lex_splice(s + i);
        if (sp)
            i += sp;
        else if (s[i] == '/' && s[i + 1] == '*') {
            const char *e = strstr(s + i + 2, "*/");
            i = e ? (size_t)(e - s) + 2 : strlen(s);
        } else if (s[i] == '/' && s[i + 1] == '/')
            while (s[i] && (s[i] != '\n' || (i > 0 && s[i - 1] == '\\')))
                i++;
        else if (s[i] == '"' || s[i] == '\'')
            i = quoted_end(s, i, s[i], false);
        else
            i++;
    }
    return i;
}

/* The end of a block comment at s[i] (Rust's nest). */
size_t lex_block_comment_end(const char *s, size_t i, bool nest)
{
    int depth = 0;
    while (s[i]) {
        if (s[i] == '/' && s[i + 1] == '*')
            depth++, i += 2;
        else if (s[i] == '*' && s[i + 1] == '/') {
            i += 2;
            if (--depth == 0 || !nest)
                return i;
        } else
            i++;
    }
    return i;
}

/* The end of a line comment at s[i] (C's continues past a splice), up to the newline. */
static size_t line_comment_end(const char *s, size_t i, enum lex_dialect d)
{
    while (s[i] && s[i] != '\n') {
        size_t sp = d == LEX_C ? lex_splice(s + i) : 0;
        i += sp ? sp : 1;
    }
    return i;
}

enum skipped { SKIP_NONE, SKIP_COMMENT, SKIP_LITERAL, SKIP_DIRECTIVE };

/* What starts at s[i] that is not code (a comment, a literal, a preprocessor line at the start
 * of a line), and where it ends. */
static enum skipped skip_at(const char *s, size_t i, enum lex_dialect d, bool bol, size_t *end)
{
    char c = s[i];
    if (c == '/' && s[i + 1] == '/')
        return *end = line_comment_end(s, i, d), SKIP_COMMENT;
    if (c == '/' && s[i + 1] == '*')
        return *end = lex_block_comment_end(s, i, d == LEX_RUST), SKIP_COMMENT;
    if (d == LEX_C && bol && (c == '#' || (c == '%' && s[i + 1] == ':')))
        return *end = directive_end(s, i), SKIP_DIRECTIVE;
    if (c == '"')
        return *end = quoted_end(s, i, c, d == LEX_RUST), SKIP_LITERAL;
    if (c == '`' && d == LEX_GO) {
        const char *e = strchr(s + i + 1, '`');
        return *end = e ? (size_t)(e - s) + 1 : strlen(s), SKIP_LITERAL;
    }
    if (c == '\'') {
        *end = d == LEX_RUST ? rust_char_end(s, i) : quoted_end(s, i, c, false);
        return *end > i + 1 ? SKIP_LITERAL : SKIP_NONE;
    }
    size_t e = d == LEX_C ? cpp_raw_end(s, i) : d == LEX_RUST ? rust_raw_end(s, i) : i;
    return e != i ? (*end = e, SKIP_LITERAL) : SKIP_NONE;
}

/* The next token; comments, blanks and preprocessor lines are skipped. */
struct lex_tok lex_next(struct lexer *l)
{
    const char *s = l->s;
    for (;;) {
        size_t i = l->i, end, sp;
        char c = s[i];
        if (!c)
            return (struct lex_tok){i, 0, TOK_END};
        if (c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            l->bol = l->bol || c == '\n';
            l->i++;
            continue;
        }
        if (l->d == LEX_C && (sp = lex_splice(s + i))) {
            l->i += sp;
            continue;
        }
        enum skipped k = skip_at(s, i, l->d, l->bol, &end);
        if (k == SKIP_DIRECTIVE && l->directives) {
            l->i = end;
            return (struct lex_tok){i, end - i, TOK_DIRECTIVE};
        }
        if (k == SKIP_COMMENT || k == SKIP_DIRECTIVE) {
            l->i = end;
            continue;
        }
        l->bol = false;
        if (k == SKIP_LITERAL) {
            l->i = end;
            return (struct lex_tok){i, end - i, TOK_OTHER};
        }
        if (lex_ident_char(c)) {
            bool num = isdigit((unsigned char)c);
            while (lex_ident_char(s[l->i]) || (num && (s[l->i] == '.' || s[l->i] == '\'')))
                l->i++;
            return (struct lex_tok){i, l->i - i, num ? TOK_OTHER : TOK_IDENT};
        }
        l->i++;
        return (struct lex_tok){i, 1, (unsigned char)c};
    }
}

bool lex_is(const struct lexer *l, struct lex_tok t, const char *word)
{
    return t.kind == TOK_IDENT && t.len == strlen(word) && strncmp(l->s + t.at, word, t.len) == 0;
}

/* Past the group opened by the token just read (open: '(' , '[' or '{'); the closing token,
 * or a TOK_END one. */
struct lex_tok lex_match(struct lexer *l, int open)
{
    int close = open == '(' ? ')' : open == '[' ? ']' : '}', depth = 1;
    for (struct lex_tok t = lex_next(l);; t = lex_next(l)) {
        if (t.kind == TOK_END || (t.kind == close && --depth == 0))
            return t;
        depth += t.kind == open;
    }
}

void lex_init(struct lexer *l, const char *s, enum lex_dialect d)
{
    *l = (struct lexer){s, 0, d, true, false};
}
