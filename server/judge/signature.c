/*
 * signature: a function's declaration in C-like text, by tokens (signature.h).
 */
#include "server/judge/signature.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runners/buf.h"
#include "server/judge/lex.h"

/* Whether a token can end a declaration's return type (or be its last qualifier). */
static bool ends_type(const struct lex_tok t)
{
    return t.kind == TOK_IDENT || t.kind == '>' || t.kind == '*' || t.kind == '&' || t.kind == ']';
}

/* A lexer at text[start], which is inside a line. */
static void lex_from(struct lexer *l, const char *text, size_t start)
{
    lex_init(l, text, LEX_C);
    l->i = start;
    l->bol = false;
}

/* The tokens of text[start, end) joined (heap), and whether they are plain (signature.h). */
static char *join_tokens(const char *text, size_t start, size_t end, bool rust, bool *plain)
{
    struct lexer l;
    lex_from(&l, text, start);
    struct buf b;
    buf_init(&b, 0);
    int parens = 0, lists = 0;
    int prev = TOK_END;
    struct lex_tok last = {0, 0, TOK_END};
    *plain = true;
    for (struct lex_tok t = lex_next(&l); t.kind != TOK_END && t.at < end; t = lex_next(&l)) {
        /* Rust's `mut x: T` binds x mutably: the declaration's type is `x: T` */
        if (rust && parens == 1 && (prev == '(' || prev == ',') && lex_is(&l, t, "mut"))
            continue;
        bool number = t.kind == TOK_OTHER && isdigit((unsigned char)text[t.at]);
        bool arrow = rust && t.kind == '-' && text[t.at + 1] == '>'; /* Rust's `->` */
        if (t.kind == '(' && prev != '!') /* D's Tuple!(long, long) is a type */
            lists++;
        parens += t.kind == '(' ? 1 : t.kind == ')' ? -1 : 0;
        /* Go's empty interface{}: its braces open no scope */
        bool empty_interface =
            (t.kind == '{' && lex_is(&l, last, "interface")) || (t.kind == '}' && prev == '{');
        if (!(t.kind == TOK_IDENT || number || empty_interface || arrow ||
              (t.kind != TOK_OTHER && strchr("<>,&*:()[]!", t.kind))))
            *plain = false;
        if (b.len > 0 && !(prev == ':' && t.kind == ':') && !(prev == '.' && t.kind == '.') &&
            !(prev == '-' && t.kind == '>'))
            buf_append(&b, " ", 1); /* C++'s `::`, Go's `...` and Rust's `->` stay whole */
        buf_append(&b, text + t.at, t.len);
        prev = t.kind;
        last = t;
    }
    if ((lists != 1 && !rust) || parens != 0) /* Rust's tuple types have parentheses */
        *plain = false;
    return buf_take(&b, NULL);
}

/* The names of the parameters in the list text[open, close] (its parentheses): the last
 * identifier before each comma outside nested brackets (heap), and whether the return type
 * before open is void. */
static char *param_names(const char *text, size_t start, size_t open, size_t close, bool go,
                         bool *returns)
{
    struct lexer l;
    lex_from(&l, text, start);
    struct buf b;
    buf_init(&b, 0);
    struct lex_tok last = {0, 0, TOK_END}, before_name = {0, 0, TOK_END}, prev = last;
    struct lex_tok named = last; /* Scala's and Kotlin's `name : Type`: the name before `:`;
                                    Go's `name Type` (or `a, b Type`): the first identifier */
    int nest = 0;
    for (struct lex_tok t = lex_next(&l); t.kind != TOK_END && t.at <= close; t = lex_next(&l)) {
        if (t.at < open) {
            before_name = prev; /* ends at the token before the name */
            prev = t;
            continue;
        }
        if (t.at == open)
            continue;
        if (t.kind == '<' || t.kind == '(' || t.kind == '[' || t.kind == '{')
            nest++;
        else if ((t.kind == '>' || t.kind == ')' || t.kind == ']' || t.kind == '}') && nest > 0 &&
                 t.at != close)
            nest--;
        if ((t.kind == ',' && nest == 0) || t.at == close) {
            if (named.kind == TOK_IDENT)
                last = named;
            if (last.kind == TOK_IDENT) {
                if (b.len > 0)
                    buf_append(&b, ", ", 2);
                buf_append(&b, text + last.at, last.len);
            }
            last = named = (struct lex_tok){0, 0, TOK_END};
        } else if (nest == 0) {
            if (go && named.kind == TOK_END && t.kind == TOK_IDENT)
                named = t;
            if (t.kind == ':' && named.kind == TOK_END && last.kind == TOK_IDENT &&
                text[t.at + 1] != ':' && text[t.at - 1] != ':') /* not C++'s `::` */
                named = last;
            last = t;
        }
    }
    *returns = !(before_name.kind == TOK_IDENT && before_name.len == 4 &&
                 strncmp(text + before_name.at, "void", 4) == 0);
    return buf_take(&b, NULL);
}

/* The return type: the tokens from start to the name at name_at, less the leading modifiers
 * (C#'s and Java's), one space between two (heap). */
static char *return_type(const char *text, size_t start, size_t name_at)
{
    static const char *const modifiers[] = {"public",   "private", "protected",   "internal",
                                            "static",   "final",   "virtual",     "override",
                                            "abstract", "sealed",  "extern",      "unsafe",
                                            "new",      "async",   "synchronized"};
    struct lexer l;
    lex_from(&l, text, start);
    struct buf b;
    buf_init(&b, 0);
    bool leading = true;
    for (struct lex_tok t = lex_next(&l); t.kind != TOK_END && t.at < name_at; t = lex_next(&l)) {
        bool modifier = false;
        for (size_t i = 0; leading && i < sizeof(modifiers) / sizeof(modifiers[0]); i++)
            modifier = modifier || lex_is(&l, t, modifiers[i]);
        if (modifier)
            continue;
        leading = false;
        if (b.len > 0)
            buf_append(&b, " ", 1);
        buf_append(&b, text + t.at, t.len);
    }
    return buf_take(&b, NULL);
}

/* The type that starts at l's next token, up to a `{`, `=` or `;` at depth 0 or a `where`
 * clause (Kotlin's, Rust's), which start the body or its bounds: the end of the declaration
 * past it, *type_at its first token's offset; else end as it is, *type_at 0. */
static size_t type_to_body(struct lexer *l, size_t end, size_t *type_at)
{
    size_t after = end;
    int nest = 0;
    *type_at = 0;
    for (struct lex_tok t = lex_next(l); t.kind != TOK_END; t = lex_next(l)) {
        if (nest == 0 && (t.kind == '=' || t.kind == '{' || t.kind == ';' || lex_is(l, t, "where")))
            break;
        nest += t.kind == '[' || t.kind == '(' || t.kind == '<' ? 1 : 0;
        nest -= (t.kind == ']' || t.kind == ')' || t.kind == '>') && nest > 0 ? 1 : 0;
        if (!*type_at)
            *type_at = t.at;
        after = t.at + t.len;
    }
    return *type_at ? after : end;
}

/* A return type after the parameter list (Scala's and Kotlin's `) : Type`), up to the body:
 * as type_to_body. */
static size_t trailing_type(const char *text, size_t end, size_t *type_at)
{
    struct lexer l;
    lex_from(&l, text, end);
    struct lex_tok colon = lex_next(&l);
    *type_at = 0;
    if (colon.kind != ':' || text[colon.at + 1] == ':')
        return end;
    return type_to_body(&l, end, type_at);
}

/* Go's result type after the parameter list (`) []int {`, `) (int, error) {`), up to the `{`
 * that starts the body (an `interface {`'s or a `struct {`'s braces belong to the type): the
 * end of the declaration past it, *type_at its first token's offset; else end, *type_at 0. */
static size_t go_result(const char *text, size_t end, size_t *type_at)
{
    struct lexer l;
    lex_from(&l, text, end);
    size_t after = end;
    int nest = 0;
    bool literal = false; /* the last token was `interface` or `struct` */
    *type_at = 0;
    for (struct lex_tok t = lex_next(&l); t.kind != TOK_END; t = lex_next(&l)) {
        if (nest == 0 && !literal && (t.kind == '{' || t.kind == ';' || t.kind == '='))
            break;
        nest += t.kind == '[' || t.kind == '(' || t.kind == '{' ? 1 : 0;
        nest -= (t.kind == ']' || t.kind == ')' || t.kind == '}') && nest > 0 ? 1 : 0;
        literal = t.kind == TOK_IDENT && (lex_is(&l, t, "interface") || lex_is(&l, t, "struct"));
        if (!*type_at)
            *type_at = t.at;
        after = t.at + t.len;
    }
    return *type_at ? after : end;
}

/* Rust's return type after the parameter list (`) -> Vec<i32> {`), up to the body's `{`, a
 * `where` clause or a `;`: as type_to_body (no `->`: it returns nothing). */
static size_t rust_result(const char *text, size_t end, size_t *type_at)
{
    struct lexer l;
    lex_from(&l, text, end);
    struct lex_tok minus = lex_next(&l), gt = lex_next(&l);
    *type_at = 0;
    if (minus.kind != '-' || gt.kind != '>' || gt.at != minus.at + 1)
        return end;
    return type_to_body(&l, end, type_at);
}

int signature_find(const char *text, const char *name, bool last, bool member, struct signature *s)
{
    memset(s, 0, sizeof(*s));
    struct lexer l;
    lex_init(&l, text, LEX_C);
    int depth = 0, parens = 0, want = member ? 1 : 0;
    bool found = false, at_start = true, after_class = false, bang = false, go = false;
    bool rust = false;
    size_t stmt = 0, open = 0, name_at = 0, instance_end = SIZE_MAX;
    char owner[sizeof(s->owner)] = "";
    struct lex_tok prev = {0, 0, TOK_END};
    for (struct lex_tok t = lex_next(&l); t.kind != TOK_END; prev = t, t = lex_next(&l)) {
        if (depth == want && parens == 0 && at_start) {
            stmt = t.at;
            at_start = false;
        }
        if (depth == 0 && t.kind == TOK_IDENT && after_class)
            snprintf(owner, sizeof(owner), "%.*s", (int)t.len, text + t.at);
        after_class = depth == 0 && (lex_is(&l, t, "class") || lex_is(&l, t, "object"));
        if (t.kind == '{' || t.kind == '}') {
            depth += t.kind == '{' ? 1 : (depth > 0 ? -1 : 0);
            at_start = depth == want;
        } else if (t.kind == ';' && depth == want) {
            at_start = true;
        } else if (t.kind == '(' || t.kind == ')') {
            /* a D template instance, Tuple!(long, long), ends a type too */
            bang = bang || (t.kind == '(' && parens == 0 && prev.kind == '!');
            parens += t.kind == '(' ? 1 : (parens > 0 ? -1 : 0);
            if (t.kind == ')' && parens == 0 && bang) {
                instance_end = t.at;
                bang = false;
            }
        } else if (depth == want && parens == 0 && lex_is(&l, t, name) &&
                   (ends_type(prev) || (prev.kind == ')' && prev.at == instance_end)) &&
                   t.at > stmt) {
            struct lexer ahead = l;
            struct lex_tok paren = lex_next(&ahead);
            if (paren.kind != '(')
                continue;
            struct lex_tok close = lex_match(&ahead, '(');
            if (close.kind != ')')
                continue;
            /* Scala's and Kotlin's members need no `;` before them: `def` / `fun` starts one;
             * Go's `func` starts a function; Rust's `fn` keeps what precedes it in its item
             * (`pub`, attributes) */
            go = prev.kind == TOK_IDENT && lex_is(&l, prev, "func");
            rust = prev.kind == TOK_IDENT && lex_is(&l, prev, "fn");
            s->start =
                prev.kind == TOK_IDENT && (lex_is(&l, prev, "def") || lex_is(&l, prev, "fun") || go)
                    ? prev.at
                    : stmt;
            s->end = close.at + 1;
            open = paren.at;
            name_at = t.at;
            snprintf(s->owner, sizeof(s->owner), "%s", member ? owner : "");
            found = true;
            if (!last)
                break;
        }
    }
    if (!found)
        return -ENOENT;
    size_t close_at = s->end - 1, type_at = 0;
    s->end = go     ? go_result(text, s->end, &type_at)
             : rust ? rust_result(text, s->end, &type_at)
                    : trailing_type(text, s->end, &type_at);
    s->text = join_tokens(text, s->start, s->end, rust, &s->plain);
    s->args = param_names(text, s->start, open, close_at, go, &s->returns);
    s->type = type_at      ? return_type(text, type_at, s->end)
              : go || rust ? strdup("")
                           : return_type(text, s->start, name_at);
    if (type_at && s->type)
        s->returns = strcmp(s->type, "Unit") != 0;
    if (go || rust)
        s->returns = type_at != 0;
    if (!s->text || !s->args || !s->type) {
        signature_fini(s);
        return -ENOMEM;
    }
    return 0;
}

void signature_fini(struct signature *s)
{
    free(s->text);
    free(s->args);
    free(s->type);
    s->text = s->args = s->type = NULL;
}
