/*
 * signature: a function's declaration in C-like text, by tokens (signature.h).
 */
#include "server/judge/signature.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runners/buf.h"
#include "server/judge/lex.h"

/* Whether a token can end a declaration's return type (or be its last qualifier). */
static bool ends_type(const struct lex_tok t)
{
    return t.kind == TOK_IDENT || t.kind == '>' || t.kind == '*' || t.kind == '&';
}

/* The tokens of text[start, end) joined (heap), and whether they are plain (signature.h). */
static char *join_tokens(const char *text, size_t start, size_t end, bool *plain)
{
    struct lexer l;
    lex_init(&l, text, LEX_C);
    l.i = start;
    l.bol = false;
    struct buf b;
    buf_init(&b, 0);
    int parens = 0, lists = 0;
    int prev = TOK_END;
    *plain = true;
    for (struct lex_tok t = lex_next(&l); t.kind != TOK_END && t.at < end; t = lex_next(&l)) {
        bool number = t.kind == TOK_OTHER && isdigit((unsigned char)text[t.at]);
        if (t.kind == '(')
            lists++;
        parens += t.kind == '(' ? 1 : t.kind == ')' ? -1 : 0;
        if (!(t.kind == TOK_IDENT || number || (t.kind != TOK_OTHER && strchr("<>,&*:()", t.kind))))
            *plain = false;
        if (b.len > 0 && !(prev == ':' && t.kind == ':'))
            buf_append(&b, " ", 1);
        buf_append(&b, text + t.at, t.len);
        prev = t.kind;
    }
    if (lists != 1 || parens != 0)
        *plain = false;
    return buf_take(&b, NULL);
}

int signature_find(const char *text, const char *name, bool last, struct signature *s)
{
    memset(s, 0, sizeof(*s));
    struct lexer l;
    lex_init(&l, text, LEX_C);
    int depth = 0, parens = 0;
    bool found = false, at_start = true;
    size_t stmt = 0;
    struct lex_tok prev = {0, 0, TOK_END};
    for (struct lex_tok t = lex_next(&l); t.kind != TOK_END; prev = t, t = lex_next(&l)) {
        if (depth == 0 && parens == 0 && at_start) {
            stmt = t.at;
            at_start = false;
        }
        if (t.kind == '{' || t.kind == '}') {
            depth += t.kind == '{' ? 1 : (depth > 0 ? -1 : 0);
            at_start = depth == 0;
        } else if (t.kind == ';' && depth == 0) {
            at_start = true;
        } else if (t.kind == '(' || t.kind == ')') {
            parens += t.kind == '(' ? 1 : (parens > 0 ? -1 : 0);
        } else if (depth == 0 && parens == 0 && lex_is(&l, t, name) && ends_type(prev) &&
                   t.at > stmt) {
            struct lexer ahead = l;
            if (lex_next(&ahead).kind != '(')
                continue;
            struct lex_tok close = lex_match(&ahead, '(');
            if (close.kind != ')')
                continue;
            s->start = stmt;
            s->end = close.at + 1;
            found = true;
            if (!last)
                break;
        }
    }
    if (!found)
        return -ENOENT;
    s->text = join_tokens(text, s->start, s->end, &s->plain);
    return s->text ? 0 : -ENOMEM;
}
