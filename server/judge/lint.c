/*
 * lint: the shadowing classes seal_lint refuses (lint.h), one walk over tokens per language.
 *
 * C and C++: preprocessor lines come from the lexer as one token each (lexer.directives) and
 * are read here past `#` or `%:`, splices and comments: the directive's word and its first
 * name. The tests' function definitions are the identifiers followed by a parenthesised list
 * and a `{` at the tests' top level (the least brace depth they reach: MultiPL-E's tests
 * begin by closing the prompt's function). C++ scopes are kept on a stack, each `{` marked
 * by what opened it (a namespace, `extern "C"`, a class, anything else), so that an operator
 * declared where every enclosing scope is a namespace is told from a member.
 * Go: declarations at depth 0 (every bracket kind), one name list per spec; grouped specs
 * (`const (`) begin at a line's first token. Tests' use of a builtin: tokens of the tests,
 * and of the bodies of `func Test...` in the code when the tests are joined to it.
 * Rust: an item keyword followed by a name (not a lifetime: `'static`), enum bodies' variants,
 * `as` inside `use` and `extern crate`, and `impl` items (an `impl` whose header reaches a `{`
 * before a `,`, `;`, `)` or `=`): the trait's identifiers before `for`, the type's name after.
 */
#include "server/judge/lint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/judge/lex.h"

#define REFUSE(why, ...) err_set(why, -EPERM, __VA_ARGS__)

/* Whether the n bytes at s are one of list's words (NULL-terminated list). */
static bool in_list(const char *const *list, const char *s, size_t n)
{
    for (; *list; list++)
        if (strlen(*list) == n && strncmp(*list, s, n) == 0)
            return true;
    return false;
}

/* A set of names, each a pointer into a text and a length (heap array). */
struct names {
    struct {
        const char *s;
        size_t n;
    } * v;
    int len, cap;
    int err;
};

static void names_add(struct names *ns, const char *s, size_t n)
{
    if (ns->err)
        return;
    if (ns->len == ns->cap) {
        int cap = ns->cap ? ns->cap * 2 : 16;
        void *v = realloc(ns->v, (size_t)cap * sizeof(*ns->v));
        if (!v) {
            ns->err = -ENOMEM;
            return;
        }
        ns->v = v;
        ns->cap = cap;
    }
    ns->v[ns->len].s = s;
    ns->v[ns->len++].n = n;
}

static bool names_has(const struct names *ns, const char *s, size_t n)
{
    for (int i = 0; i < ns->len; i++)
        if (ns->v[i].n == n && strncmp(ns->v[i].s, s, n) == 0)
            return true;
    return false;
}

static const char *tok_s(const struct lexer *l, struct lex_tok t)
{
    return l->s + t.at;
}

/* Whether t is the punctuation c directly followed by d (`==`, `->`, `::`). */
static bool pair(struct lex_tok t, struct lex_tok u, int c, int d)
{
    return t.kind == c && u.kind == d && u.at == t.at + 1;
}

/* ---- C and C++ ------------------------------------------------------------------------- */

static const char *const c_keywords[] = {"auto",
                                         "break",
                                         "case",
                                         "char",
                                         "const",
                                         "continue",
                                         "default",
                                         "do",
                                         "double",
                                         "else",
                                         "enum",
                                         "extern",
                                         "float",
                                         "for",
                                         "goto",
                                         "if",
                                         "inline",
                                         "int",
                                         "long",
                                         "register",
                                         "restrict",
                                         "return",
                                         "short",
                                         "signed",
                                         "sizeof",
                                         "static",
                                         "struct",
                                         "switch",
                                         "typedef",
                                         "union",
                                         "unsigned",
                                         "void",
                                         "volatile",
                                         "while",
                                         "_Bool",
                                         "_Complex",
                                         "_Alignas",
                                         "_Alignof",
                                         "_Atomic",
                                         "_Generic",
                                         "_Noreturn",
                                         "_Static_assert",
                                         "_Thread_local",
                                         "bool",
                                         "true",
                                         "false",
                                         "alignas",
                                         "alignof",
                                         "and",
                                         "and_eq",
                                         "asm",
                                         "bitand",
                                         "bitor",
                                         "catch",
                                         "char8_t",
                                         "char16_t",
                                         "char32_t",
                                         "class",
                                         "compl",
                                         "concept",
                                         "consteval",
                                         "constexpr",
                                         "constinit",
                                         "const_cast",
                                         "decltype",
                                         "delete",
                                         "dynamic_cast",
                                         "explicit",
                                         "export",
                                         "friend",
                                         "mutable",
                                         "namespace",
                                         "new",
                                         "noexcept",
                                         "not",
                                         "not_eq",
                                         "nullptr",
                                         "operator",
                                         "or",
                                         "or_eq",
                                         "private",
                                         "protected",
                                         "public",
                                         "reinterpret_cast",
                                         "requires",
                                         "static_assert",
                                         "static_cast",
                                         "template",
                                         "this",
                                         "thread_local",
                                         "throw",
                                         "try",
                                         "typeid",
                                         "typename",
                                         "using",
                                         "virtual",
                                         "wchar_t",
                                         "xor",
                                         "xor_eq",
                                         NULL};

/* C library functions the tests call: a definition of the code's own would replace them. */
static const char *const c_library[] = {"strcmp",        "strncmp",
                                        "strcasecmp",    "strncasecmp",
                                        "memcmp",        "strlen",
                                        "strcpy",        "strncpy",
                                        "strcat",        "strstr",
                                        "strchr",        "strrchr",
                                        "strdup",        "memcpy",
                                        "memset",        "memmove",
                                        "abs",           "labs",
                                        "llabs",         "fabs",
                                        "fabsf",         "fabsl",
                                        "sqrt",          "pow",
                                        "round",         "floor",
                                        "ceil",          "fmod",
                                        "trunc",         "printf",
                                        "puts",          "putchar",
                                        "sprintf",       "snprintf",
                                        "fprintf",       "fflush",
                                        "write",         "exit",
                                        "_exit",         "abort",
                                        "free",          "malloc",
                                        "calloc",        "realloc",
                                        "atoi",          "atol",
                                        "atof",          "strtol",
                                        "strtoll",       "strtod",
                                        "isdigit",       "isalpha",
                                        "isalnum",       "isspace",
                                        "isupper",       "islower",
                                        "toupper",       "tolower",
                                        "qsort",         "bsearch",
                                        "__assert_fail", "__assert_perror_fail",
                                        "__assert",      NULL};

/* Past blanks and comments in a directive's text (splices already removed). */
static const char *dir_skip(const char *p)
{
    for (;;) {
        if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v')
            p++;
        else if (p[0] == '/' && p[1] == '*')
            p += lex_block_comment_end(p, 0, false);
        else
            return p;
    }
}

/* A directive's word and first name ("define", "true"); either may come back empty. */
static void directive_parts(const char *s, size_t len, char word[16], char name[64])
{
    char *t = malloc(len + 1), *w = t;
    word[0] = name[0] = '\0';
    if (!t)
        return;
    for (size_t i = 0; i < len;) {
        size_t sp = lex_splice(s + i);
        if (sp)
            i += sp;
        else
            *w++ = s[i++];
    }
    *w = '\0';
    const char *p = dir_skip(t);
    p += *p == '#' ? 1 : *p == '%' && p[1] == ':' ? 2 : 0;
    p = dir_skip(p);
    size_t n = 0;
    while (lex_ident_char(p[n]))
        n++;
    snprintf(word, 16, "%.*s", (int)(n < 15 ? n : 15), p);
    p = dir_skip(p + n);
    for (n = 0; lex_ident_char(p[n]);)
        n++;
    snprintf(name, 64, "%.*s", (int)(n < 63 ? n : 63), p);
    free(t);
}

/* #define of a keyword; #undef of what the code did not #define (NDEBUG aside). */
static int c_directives(const char *code, char why[ERR_LEN])
{
    struct lexer l;
    lex_init(&l, code, LEX_C);
    l.directives = true;
    struct names defined = {0};
    int rc = 0;
    for (struct lex_tok t = lex_next(&l); rc == 0 && t.kind != TOK_END; t = lex_next(&l)) {
        if (t.kind != TOK_DIRECTIVE)
            continue;
        char word[16], name[64];
        directive_parts(tok_s(&l, t), t.len, word, name);
        if (strcmp(word, "define") == 0 && in_list(c_keywords, name, strlen(name)))
            rc = REFUSE(why, "`#define %s` redefines a keyword the tests rely on", name);
        else if (strcmp(word, "define") == 0)
            names_add(&defined, tok_s(&l, t), t.len); /* the directive; names kept below */
        else if (strcmp(word, "undef") == 0 && *name && strcmp(name, "NDEBUG") != 0) {
            bool own = false;
            for (int i = 0; i < defined.len && !own; i++) {
                char w2[16], n2[64];
                directive_parts(defined.v[i].s, defined.v[i].n, w2, n2);
                own = strcmp(n2, name) == 0;
            }
            if (!own)
                rc = REFUSE(why, "`#undef %s`: the code may undefine only macros it defined itself",
                            name);
        }
    }
    rc = rc ? rc : defined.err;
    free(defined.v);
    return rc;
}

/* The functions the text defines at its top level (main aside), into fns. */
static void c_test_functions(const char *tests, struct names *fns)
{
    struct lexer l;
    lex_init(&l, tests, LEX_C);
    int depth = 0, low = 0;
    for (struct lex_tok t = lex_next(&l); t.kind != TOK_END; t = lex_next(&l)) {
        depth += (t.kind == '{') - (t.kind == '}');
        low = depth < low ? depth : low;
    }
    lex_init(&l, tests, LEX_C);
    depth = 0;
    for (struct lex_tok t = lex_next(&l); t.kind != TOK_END; t = lex_next(&l)) {
        depth += (t.kind == '{') - (t.kind == '}');
        if (t.kind != TOK_IDENT || depth != low || lex_is(&l, t, "main"))
            continue;
        struct lexer a = l;
        if (lex_next(&a).kind != '(' || lex_match(&a, '(').kind != ')')
            continue;
        struct lex_tok b = lex_next(&a);
        while (lex_is(&a, b, "const") || lex_is(&a, b, "noexcept"))
            b = lex_next(&a);
        if (b.kind == '{')
            names_add(fns, tok_s(&l, t), t.len);
    }
}

enum scope { SCOPE_OTHER, SCOPE_NS, SCOPE_CLASS };

/* Whether the tokens after `operator` (at l) name a comparison: == != < > <= >= <=> (not
 * << >> or assignment forms). */
static bool comparison_after(struct lexer l)
{
    struct lex_tok a = lex_next(&l), b = lex_next(&l);
    bool adj = b.at == a.at + 1;
    if (a.kind == '=' || a.kind == '!')
        return adj && b.kind == '=';
    if (a.kind == '<' || a.kind == '>')
        return !(adj && (b.kind == a.kind)) &&
               !(adj && b.kind == '=' && lex_next(&l).kind == '='); /* <<= >>= aside */
    return false;
}

/* C++: reopening namespace std; a comparison operator at namespace scope. */
static int cpp_scopes(const char *code, char why[ERR_LEN])
{
    struct lexer l;
    lex_init(&l, code, LEX_C);
    enum scope stack[256], pending = SCOPE_OTHER;
    int depth = 0;
    struct lex_tok prev = {0, 0, TOK_END}, prev2 = prev;
    for (struct lex_tok t = lex_next(&l); t.kind != TOK_END;
         prev2 = prev, prev = t, t = lex_next(&l)) {
        if (lex_is(&l, t, "namespace") && !lex_is(&l, prev, "using")) {
            struct lexer a = l;
            if (lex_is(&a, lex_next(&a), "std"))
                return REFUSE(why, "the code reopens namespace std");
            pending = SCOPE_NS;
        } else if (lex_is(&l, prev, "extern") && t.kind == TOK_OTHER) {
            pending = SCOPE_NS; /* extern "C" { } */
        } else if (lex_is(&l, t, "struct") || lex_is(&l, t, "class") || lex_is(&l, t, "union")) {
            pending = SCOPE_CLASS;
        } else if (t.kind == ';' || t.kind == '(' || t.kind == '=') {
            pending = SCOPE_OTHER;
        } else if (t.kind == '{') {
            if (depth < 256)
                stack[depth] = pending;
            depth++;
            pending = SCOPE_OTHER;
        } else if (t.kind == '}') {
            depth -= depth > 0;
        } else if (lex_is(&l, t, "operator") && comparison_after(l) &&
                   !pair(prev2, prev, ':', ':')) {
            bool ns = true;
            for (int i = 0; i < depth && i < 256; i++)
                ns = ns && stack[i] == SCOPE_NS;
            if (ns)
                return REFUSE(why, "the code declares a comparison operator outside a class "
                                   "(it would rig the tests' comparisons)");
        }
    }
    return 0;
}

static int lint_c(const char *code, const char *tests, const char *entry, bool cpp,
                  char why[ERR_LEN])
{
    int rc = c_directives(code, why);
    struct names fns = {0};
    if (rc == 0)
        c_test_functions(tests, &fns);
    struct lexer l;
    lex_init(&l, code, LEX_C);
    for (struct lex_tok t = lex_next(&l); rc == 0 && fns.len && t.kind != TOK_END; t = lex_next(&l))
        if (t.kind == TOK_IDENT && names_has(&fns, tok_s(&l, t), t.len))
            rc = REFUSE(why, "the code names `%.*s`, a function the tests define", (int)t.len,
                        tok_s(&l, t));
    struct names own = {0};
    if (rc == 0)
        c_test_functions(code, &own);
    for (int i = 0; rc == 0 && i < own.len; i++)
        if (in_list(c_library, own.v[i].s, own.v[i].n) &&
            !(entry && strlen(entry) == own.v[i].n && strncmp(entry, own.v[i].s, own.v[i].n) == 0))
            rc = REFUSE(why, "the code defines `%.*s`, a C library function the tests may call",
                        (int)own.v[i].n, own.v[i].s);
    rc = rc ? rc : fns.err ? fns.err : own.err;
    free(fns.v);
    free(own.v);
    return rc == 0 && cpp ? cpp_scopes(code, why) : rc;
}

/* ---- Go ------------------------------------------------------------------------------- */

static const char *const go_always[] = {
    "true",       "false",  "iota",   "nil",     "bool",       "byte",    "rune",
    "int",        "int8",   "int16",  "int32",   "int64",      "uint",    "uint8",
    "uint16",     "uint32", "uint64", "uintptr", "float32",    "float64", "complex64",
    "complex128", "string", "error",  "any",     "comparable", NULL};
static const char *const go_builtins[] = {
    "append", "cap", "clear", "close", "complex", "copy",    "delete", "imag",    "len", "make",
    "max",    "min", "new",   "panic", "print",   "println", "real",   "recover", NULL};
static const char *const go_methods[] = {"String", "Error", "Format", "GoString", "Equal", NULL};

struct go_walk {
    struct lexer l;
    struct names builtins; /* builtin functions the code declares at package level */
    struct names ranges;   /* bodies of func Test...: s is where, n how long */
};

/* Whether there is a newline between token a's end and token b. */
static bool newline_between(const struct lexer *l, struct lex_tok a, struct lex_tok b)
{
    return a.kind != TOK_END && memchr(l->s + a.at + a.len, '\n', b.at - (a.at + a.len));
}

/* A name declared at package level: refused (a predeclared constant, type or nil), or kept
 * to be refused if the tests use it (a builtin function). */
static int go_declared(struct go_walk *w, struct lex_tok t, char why[ERR_LEN])
{
    const char *s = tok_s(&w->l, t);
    if (t.kind != TOK_IDENT)
        return 0;
    if (in_list(go_always, s, t.len))
        return REFUSE(why, "the code declares `%.*s` at package level, shadowing Go's own",
                      (int)t.len, s);
    if (in_list(go_builtins, s, t.len))
        names_add(&w->builtins, s, t.len);
    return 0;
}

/* The names of one spec after const, var, type or import (the walk just read its keyword, or
 * the spec's first token is next): an identifier list, or an import's alias. */
static int go_spec(struct go_walk *w, struct lex_tok first, bool import, char why[ERR_LEN])
{
    struct lex_tok t = first;
    if (import)
        return t.kind == TOK_IDENT ? go_declared(w, t, why) : 0;
    for (;;) {
        int rc = go_declared(w, t, why);
        struct lexer a = w->l;
        if (rc < 0 || lex_next(&a).kind != ',')
            return rc;
        lex_next(&w->l);
        t = lex_next(&w->l);
    }
}

/* After const, var, type or import: one spec, or a group of specs, each at a line's start. */
static int go_decl(struct go_walk *w, bool import, char why[ERR_LEN])
{
    struct lex_tok t = lex_next(&w->l);
    if (t.kind != '(')
        return go_spec(w, t, import, why);
    struct lex_tok prev = t;
    int depth = 1;
    for (t = lex_next(&w->l); t.kind != TOK_END; prev = t, t = lex_next(&w->l)) {
        bool ends = prev.kind == TOK_IDENT || prev.kind == TOK_OTHER || prev.kind == ')' ||
                    prev.kind == ']' || prev.kind == '}' || prev.kind == 'x';
        if (depth == 1 &&
            (prev.kind == '(' || prev.kind == ';' || (ends && newline_between(&w->l, prev, t)))) {
            if (t.kind == ')')
                break;
            int rc = go_spec(w, t, import, why);
            if (rc < 0)
                return rc;
            t = (struct lex_tok){w->l.i, 0, 'x'}; /* the spec's tokens follow */
            continue;
        }
        depth += (t.kind == '(' || t.kind == '{' || t.kind == '[') -
                 (t.kind == ')' || t.kind == '}' || t.kind == ']');
        if (depth == 0)
            break;
    }
    return 0;
}

/* After func at package level: a method's name (refused when fmt or a comparison helper calls
 * it), or a function's (a builtin's name kept; a Test's body kept as where the tests are). */
static int go_func(struct go_walk *w, char why[ERR_LEN])
{
    struct lexer *l = &w->l;
    struct lex_tok t = lex_next(l);
    bool method = t.kind == '(';
    if (method) {
        lex_match(l, '(');
        t = lex_next(l);
    }
    if (t.kind != TOK_IDENT)
        return 0;
    const char *s = tok_s(l, t);
    if (method && in_list(go_methods, s, t.len))
        return REFUSE(
            why, "the code defines a method %.*s, which fmt and comparisons call on its values",
            (int)t.len, s);
    if (method)
        return 0;
    if (t.len > 4 && strncmp(s, "Test", 4) == 0) {
        struct lexer a = *l;
        if (lex_next(&a).kind == '(' && lex_match(&a, '(').kind == ')') {
            struct lex_tok open = lex_next(&a);
            while (open.kind != '{' && open.kind != TOK_END)
                open = lex_next(&a);
            struct lex_tok close = lex_match(&a, '{');
            names_add(&w->ranges, l->s + open.at, close.at - open.at);
        }
        return 0;
    }
    return go_declared(w, t, why);
}

/* Whether the identifier name occurs as a token in the n bytes at s. */
static bool go_uses(const char *s, size_t n, const char *name, size_t len)
{
    char *t = strndup(s, n);
    if (!t)
        return true; /* out of memory: refuse rather than pass */
    struct lexer l;
    lex_init(&l, t, LEX_GO);
    bool found = false;
    for (struct lex_tok k = lex_next(&l); !found && k.kind != TOK_END; k = lex_next(&l))
        found = k.kind == TOK_IDENT && k.len == len && strncmp(t + k.at, name, len) == 0;
    free(t);
    return found;
}

static int lint_go(const char *code, const char *tests, char why[ERR_LEN])
{
    struct go_walk w = {0};
    lex_init(&w.l, code, LEX_GO);
    int depth = 0, rc = 0;
    for (struct lex_tok t = lex_next(&w.l); rc == 0 && t.kind != TOK_END; t = lex_next(&w.l)) {
        depth += (t.kind == '(' || t.kind == '{' || t.kind == '[') -
                 (t.kind == ')' || t.kind == '}' || t.kind == ']');
        if (depth != 0 || t.kind != TOK_IDENT)
            continue;
        if (lex_is(&w.l, t, "func"))
            rc = go_func(&w, why);
        else if (lex_is(&w.l, t, "const") || lex_is(&w.l, t, "var") || lex_is(&w.l, t, "type") ||
                 lex_is(&w.l, t, "import"))
            rc = go_decl(&w, lex_is(&w.l, t, "import"), why);
    }
    for (int i = 0; rc == 0 && i < w.builtins.len; i++) {
        const char *s = w.builtins.v[i].s;
        size_t n = w.builtins.v[i].n;
        bool used = go_uses(tests, strlen(tests), s, n);
        for (int k = 0; !used && k < w.ranges.len; k++)
            used = go_uses(w.ranges.v[k].s, w.ranges.v[k].n, s, n);
        if (used)
            rc = REFUSE(why, "the code declares `%.*s` at package level, and the tests use Go's",
                        (int)n, s);
    }
    rc = rc ? rc : w.builtins.err ? w.builtins.err : w.ranges.err;
    free(w.builtins.v);
    free(w.ranges.v);
    return rc;
}

/* ---- Rust ----------------------------------------------------------------------------- */

static const char *const rust_std[] = {
    "bool",       "char",     "str",          "i8",         "i16",          "i32",       "i64",
    "i128",       "isize",    "u8",           "u16",        "u32",          "u64",       "u128",
    "usize",      "f32",      "f64",          "String",     "Vec",          "Option",    "Some",
    "None",       "Result",   "Ok",           "Err",        "Box",          "HashMap",   "HashSet",
    "BTreeMap",   "BTreeSet", "VecDeque",     "BinaryHeap", "LinkedList",   "Rc",        "Arc",
    "Cell",       "RefCell",  "Cow",          "Ordering",   "Reverse",      "ToString",  "ToOwned",
    "Clone",      "Copy",     "Default",      "Drop",       "Eq",           "PartialEq", "Ord",
    "PartialOrd", "Iterator", "IntoIterator", "Extend",     "FromIterator", "Fn",        "FnMut",
    "FnOnce",     "From",     "Into",         "TryFrom",    "TryInto",      "AsRef",     "AsMut",
    "Send",       "Sync",     "Sized",        "Debug",      "Display",      "std",       "core",
    "alloc",      NULL};
/* The prelude's values: a variant of these names, glob-imported, would replace them. */
static const char *const rust_values[] = {"Some", "None", "Ok", "Err", NULL};
static const char *const rust_items[] = {"struct", "enum",  "union",  "trait", "type",
                                         "fn",     "const", "static", "mod",   NULL};
/* Traits whose hand-written impl for a returned type can make a wrong answer pass a check. */
static const char *const rust_rigging[] = {
    "PartialOrd", "Ord",   "Not",    "Neg",   "Deref", "Add",     "Sub",  "Mul",  "Div", "Rem",
    "BitAnd",     "BitOr", "BitXor", "Index", "Debug", "Display", "Into", "From", NULL};

struct rust_walk {
    struct lexer l;
    bool next_is_impl;     /* the next `{` opens an impl or trait body */
    bool impl_body[256];   /* per open brace: an impl or trait body (its `type`s are associated) */
    struct names returned; /* identifiers of every `->` type */
    struct names rigged;   /* types with a hand-written impl of a rust_rigging trait */
    bool returns_impl;     /* some function returns `impl Trait` */
};

static bool is_std(const struct lexer *l, struct lex_tok t)
{
    return t.kind == TOK_IDENT && in_list(rust_std, tok_s(l, t), t.len);
}

/* After `enum Name`: the variants in its body. */
static int rust_variants(struct lexer a, char why[ERR_LEN])
{
    struct lex_tok t = lex_next(&a);
    while (t.kind != '{' && t.kind != ';' && t.kind != TOK_END)
        t = lex_next(&a);
    if (t.kind != '{')
        return 0;
    struct lex_tok prev = t;
    int depth = 1;
    for (t = lex_next(&a); depth > 0 && t.kind != TOK_END; prev = t, t = lex_next(&a)) {
        if (depth == 1 && (prev.kind == '{' || prev.kind == ',') && t.kind == TOK_IDENT &&
            in_list(rust_values, tok_s(&a, t), t.len))
            return REFUSE(why, "the code has a variant named `%.*s`, like Rust's own", (int)t.len,
                          tok_s(&a, t));
        if (t.kind == '#') /* an attribute: #[...] */
            continue;
        depth += (t.kind == '{' || t.kind == '(' || t.kind == '[') -
                 (t.kind == '}' || t.kind == ')' || t.kind == ']');
        if (t.kind == ']' && depth == 1)
            t.kind = ','; /* a variant may follow an attribute */
    }
    return 0;
}

/* At `impl` (l just read it): an impl item's trait and type. PartialEq is refused; a rigging
 * trait's type kept. Not an item (`x: impl Trait`, `-> impl Trait`): nothing. */
static int rust_impl(struct rust_walk *w, char why[ERR_LEN])
{
    struct lexer a = w->l;
    bool trait_part = true, partial_eq = false, rigging = false;
    struct lex_tok type = {0, 0, TOK_END};
    int angle = 0;
    for (struct lex_tok t = lex_next(&a); t.kind != TOK_END; t = lex_next(&a)) {
        if (angle == 0 && (t.kind == ',' || t.kind == ';' || t.kind == ')' || t.kind == '='))
            return 0;
        if (angle == 0 && (t.kind == '{' || lex_is(&a, t, "where")))
            break;
        angle += (t.kind == '<') - (t.kind == '>' && angle > 0);
        if (angle == 0 && lex_is(&a, t, "for"))
            trait_part = false;
        else if (trait_part && lex_is(&a, t, "PartialEq"))
            partial_eq = true;
        else if (trait_part && t.kind == TOK_IDENT && in_list(rust_rigging, tok_s(&a, t), t.len))
            rigging = true;
        else if (!trait_part && angle == 0 && t.kind == TOK_IDENT)
            type = t;
    }
    if (partial_eq)
        return REFUSE(why, "the code implements PartialEq by hand (it would rig the tests' "
                           "comparisons; #[derive(PartialEq)] is accepted)");
    if (rigging && type.kind == TOK_IDENT)
        names_add(&w->rigged, tok_s(&a, type), type.len);
    w->next_is_impl = true;
    return 0;
}

/* After `->`: the identifiers of the type, up to its body, `where` or `;`. */
static void rust_returns(struct rust_walk *w)
{
    struct lexer a = w->l;
    for (struct lex_tok t = lex_next(&a); t.kind != TOK_END; t = lex_next(&a)) {
        if (t.kind == '{' || t.kind == ';' || lex_is(&a, t, "where"))
            return;
        if (lex_is(&a, t, "impl"))
            w->returns_impl = true;
        else if (t.kind == TOK_IDENT)
            names_add(&w->returned, tok_s(&a, t), t.len);
    }
}

static int lint_rust(const char *code, char why[ERR_LEN])
{
    struct rust_walk w = {0};
    lex_init(&w.l, code, LEX_RUST);
    int rc = 0, depth = 0;
    bool in_use = false;
    struct lex_tok prev = {0, 0, TOK_END}, prev2 = prev;
    for (struct lex_tok t = lex_next(&w.l); rc == 0 && t.kind != TOK_END;
         prev2 = prev, prev = t, t = lex_next(&w.l)) {
        struct lexer a = w.l;
        struct lex_tok next = lex_next(&a);
        bool associated = depth > 0 && depth <= 256 && w.impl_body[depth - 1];
        if (t.kind == '{') {
            if (depth < 256)
                w.impl_body[depth] = w.next_is_impl;
            depth++;
            w.next_is_impl = false;
        } else if (t.kind == '}') {
            depth -= depth > 0;
        } else if (lex_is(&w.l, t, "trait")) {
            w.next_is_impl = true;
        }
        if (t.kind == ';')
            in_use = false;
        else if (lex_is(&w.l, t, "use") ||
                 (lex_is(&w.l, t, "crate") && lex_is(&w.l, prev, "extern")))
            in_use = true;
        else if (in_use && lex_is(&w.l, t, "as") && is_std(&w.l, next))
            rc = REFUSE(why, "the code imports something as `%.*s`, like Rust's own", (int)next.len,
                        tok_s(&w.l, next));
        else if (t.kind == TOK_IDENT && in_list(rust_items, tok_s(&w.l, t), t.len) &&
                 prev.kind != '\'' && is_std(&w.l, next) &&
                 !(associated && lex_is(&w.l, t, "type")))
            rc = REFUSE(why, "the code defines `%.*s %.*s`, shadowing Rust's own", (int)t.len,
                        tok_s(&w.l, t), (int)next.len, tok_s(&w.l, next));
        else if (lex_is(&w.l, t, "enum"))
            rc = rust_variants(w.l, why);
        else if (lex_is(&w.l, t, "impl") && !pair(prev2, prev, '-', '>'))
            rc = rust_impl(&w, why);
        else if (pair(prev, t, '-', '>'))
            rust_returns(&w);
    }
    for (int i = 0; rc == 0 && i < w.rigged.len; i++)
        if (w.returns_impl || names_has(&w.returned, w.rigged.v[i].s, w.rigged.v[i].n))
            rc = REFUSE(why,
                        "the code implements an operator, ordering or formatting trait by hand "
                        "for `%.*s`, a type it returns",
                        (int)w.rigged.v[i].n, w.rigged.v[i].s);
    rc = rc ? rc : w.returned.err ? w.returned.err : w.rigged.err;
    free(w.returned.v);
    free(w.rigged.v);
    return rc;
}

/* ---- the checks ----------------------------------------------------------------------- */

int seal_lint(const char *language, const char *code, const char *tests, const char *entry,
              char why[ERR_LEN])
{
    code = code ? code : "";
    tests = tests ? tests : "";
    if (!language)
        return 0;
    if (strcmp(language, "c") == 0 || strcmp(language, "cpp") == 0)
        return lint_c(code, tests, entry, strcmp(language, "cpp") == 0, why);
    if (strcmp(language, "go") == 0 || strcmp(language, "go_test") == 0)
        return lint_go(code, tests, why);
    if (strcmp(language, "rust") == 0 || strcmp(language, "rust_test") == 0)
        return lint_rust(code, why);
    return 0;
}
