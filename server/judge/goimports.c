/*
 * goimports: a Go source's imports made one block of what it uses (goimports.h).
 */
#include "server/judge/goimports.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool ident(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static const char *skip_space(const char *p)
{
    while (*p && isspace((unsigned char)*p))
        p++;
    return p;
}

/* A copy of src with comments and string/rune literals turned into spaces (newlines kept). */
static char *go_blank(const char *src)
{
    char *b = strdup(src);
    if (!b)
        return NULL;
    for (char *p = b; *p;) {
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                *p++ = ' ';
        } else if (p[0] == '/' && p[1] == '*') {
            *p++ = ' ';
            *p++ = ' ';
            while (*p && !(p[0] == '*' && p[1] == '/'))
                *p = *p == '\n' ? '\n' : ' ', p++;
            for (int i = 0; i < 2 && *p; i++)
                *p++ = ' ';
        } else if (*p == '"' || *p == '\'' || *p == '`') {
            char q = *p;
            *p++ = ' ';
            while (*p && *p != q && (q == '`' || *p != '\n')) {
                if (q != '`' && *p == '\\' && p[1])
                    *p++ = ' ';
                *p = *p == '\n' ? '\n' : ' ', p++;
            }
            if (*p == q)
                *p++ = ' ';
        } else {
            p++;
        }
    }
    return b;
}

struct spec {
    char name[64]; /* alias, or "" for the path's own name */
    char path[192];
};

#define MAX_SPECS 64

static void add_spec(struct spec *specs, int *n, const char *name, size_t nl, const char *path,
                     size_t pl)
{
    if (*n >= MAX_SPECS || pl == 0 || pl >= sizeof(specs[0].path) || nl >= sizeof(specs[0].name))
        return;
    for (int i = 0; i < *n; i++)
        if (strlen(specs[i].path) == pl && strncmp(specs[i].path, path, pl) == 0 &&
            strlen(specs[i].name) == nl && strncmp(specs[i].name, name, nl) == 0)
            return;
    snprintf(specs[*n].name, sizeof(specs[0].name), "%.*s", (int)nl, name);
    snprintf(specs[*n].path, sizeof(specs[0].path), "%.*s", (int)pl, path);
    (*n)++;
}

/* Parses the import specs in s[0..len) (`"path"` or `name "path"`, any separators). */
static void parse_specs(const char *s, size_t len, struct spec *specs, int *n)
{
    const char *end = s + len, *name = NULL;
    size_t nl = 0;
    for (const char *p = s; p < end;) {
        if (*p == '"') {
            const char *q = memchr(p + 1, '"', (size_t)(end - p - 1));
            if (!q)
                return;
            add_spec(specs, n, name ? name : "", nl, p + 1, (size_t)(q - p - 1));
            name = NULL;
            nl = 0;
            p = q + 1;
        } else if (ident(*p) || *p == '.') {
            name = p;
            while (p < end && (ident(*p) || *p == '.'))
                p++;
            nl = (size_t)(p - name);
        } else {
            p++;
        }
    }
}

/* The name a spec binds: its alias, else the last element of its path. */
static const char *spec_name(const struct spec *s)
{
    if (s->name[0])
        return s->name;
    const char *slash = strrchr(s->path, '/');
    return slash ? slash + 1 : s->path;
}

/* Whether blank uses package name (name.Ident). An empty name (a path ending in '/') is never
 * used: strstr would find "" at every byte, and then past the end. */
static bool go_uses(const char *blank, const char *name)
{
    size_t n = strlen(name);
    if (n == 0)
        return false;
    for (const char *p = strstr(blank, name); p; p = strstr(p + 1, name))
        if ((p == blank || (!ident(p[-1]) && p[-1] != '.')) && p[n] == '.' && ident(p[n + 1]))
            return true;
    return false;
}

/* Past a comment or an import path's literal at p (`//` to its line's end, a block comment past its
 * close, "..." or `...` on one line), or NULL when there is none there or it is unterminated. */
static const char *skip_token(const char *p)
{
    if (p[0] == '/' && p[1] == '/')
        return p + strcspn(p, "\n");
    if (p[0] == '/' && p[1] == '*') {
        const char *e = strstr(p + 2, "*/");
        return e ? e + 2 : NULL;
    }
    if (*p == '"' || *p == '`') {
        const char *e = p + 1 + strcspn(p + 1, *p == '"' ? "\"\n" : "`");
        return *e == *p ? e + 1 : NULL;
    }
    return NULL;
}

/* The end of the import specs that start at s: a grouped list's `)`, or a single spec's line
 * end; NULL when the text there is not import specs (names, paths, comments, blanks and `;`
 * only), so that an `import (` the tests did not write never swallows their text. */
static const char *specs_end(const char *s, bool grouped)
{
    int paths = 0;
    for (const char *p = s; *p;) {
        if (grouped && *p == ')')
            return p;
        if (!grouped && *p == '\n')
            return paths == 1 ? p : NULL;
        if (*p == '"' || *p == '`')
            paths++;
        const char *past = skip_token(p);
        if (past)
            p = past;
        else if (ident(*p) || *p == '.' || *p == ';' || isspace((unsigned char)*p))
            p++;
        else
            return NULL;
    }
    return !grouped && paths == 1 ? s + strlen(s) : NULL;
}

char *goimports_fix(const char *src)
{
    static const char *const std[] = {
        "fmt",     "math",         "strings", "strconv", "sort",      "bytes",
        "regexp",  "time",         "unicode", "errors",  "math/rand", "crypto/md5",
        "reflect", "encoding/hex", "os",      "bufio",   "math/bits", "container/heap",
        "testing", "unicode/utf8", "math/big"};
    struct spec specs[MAX_SPECS];
    int n = 0;
    char pkg[128] = "";
    size_t len = strlen(src);
    char *body = malloc(len + 1), *w = body;
    if (!body)
        return NULL;
    /* Drop package clauses and import declarations at the start of lines. */
    for (const char *p = src; *p;) {
        const char *nl = strchr(p, '\n'), *e = nl ? nl : p + strlen(p);
        const char *next = nl ? nl + 1 : e;
        if (strncmp(p, "package ", 8) == 0) {
            if (!pkg[0])
                snprintf(pkg, sizeof(pkg), "%.*s", (int)(e - p), p);
        } else if (strncmp(p, "import", 6) == 0 && (p[6] == ' ' || p[6] == '(' || p[6] == '\t') &&
                   specs_end(skip_space(p + 6) + (*skip_space(p + 6) == '('),
                             *skip_space(p + 6) == '(')) {
            const char *q = skip_space(p + 6);
            if (*q == '(') {
                const char *close = specs_end(q + 1, true);
                parse_specs(q + 1, (size_t)(close - q - 1), specs, &n);
                const char *cnl = strchr(close, '\n');
                next = cnl ? cnl + 1 : close + 1;
            } else {
                /* `import` then a newline: the spec is on a later line, up to that line's end */
                const char *qe = specs_end(q, false);
                parse_specs(q, (size_t)(qe - q), specs, &n);
                if (qe > e)
                    next = *qe ? qe + 1 : qe;
            }
        } else {
            memcpy(w, p, (size_t)(next - p));
            w += next - p;
        }
        p = next;
    }
    *w = '\0';
    char *blank = go_blank(body);
    if (!pkg[0] || !blank) {
        free(body);
        free(blank);
        return strdup(src);
    }
    size_t cap = strlen(body) + strlen(pkg) + 64 + (MAX_SPECS + 24) * 260;
    char *out = malloc(cap);
    if (!out) {
        free(body);
        free(blank);
        return NULL;
    }
    int o = snprintf(out, cap, "%s\n\nimport (\n", pkg);
    for (int i = 0; i < n; i++) {
        const char *nm = spec_name(&specs[i]);
        if (strcmp(nm, "_") == 0 || strcmp(nm, ".") == 0 || go_uses(blank, nm))
            o += snprintf(out + o, cap - (size_t)o, "\t%s%s\"%s\"\n", specs[i].name,
                          specs[i].name[0] ? " " : "", specs[i].path);
        o = (size_t)o < cap ? o : (int)cap - 1; /* sized above; never past the end */
    }
    for (size_t i = 0; i < sizeof(std) / sizeof(std[0]); i++) {
        struct spec s = {"", ""};
        snprintf(s.path, sizeof(s.path), "%s", std[i]);
        bool have = false;
        for (int k = 0; k < n; k++)
            have = have || strcmp(spec_name(&specs[k]), spec_name(&s)) == 0;
        if (!have && go_uses(blank, spec_name(&s)))
            o += snprintf(out + o, cap - (size_t)o, "\t\"%s\"\n", s.path);
        o = (size_t)o < cap ? o : (int)cap - 1;
    }
    snprintf(out + o, cap - (size_t)o, ")\n%s", body);
    free(body);
    free(blank);
    return out;
}
