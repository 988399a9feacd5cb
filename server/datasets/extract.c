/*
 * extract: candidates found with server/util/regex over a normalised copy of the completion.
 *
 * A fenced block is an opening fence (```tag\n) and the first closing fence after it
 * (\n, blanks, ```), found as two simple patterns rather than one lazy ".*?", so a block of
 * megabytes costs a scan, not a backtracking search under the match limit. The patterns are
 * compiled once (pthread_once) and shared by every thread.
 */
#include "server/datasets/extract.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/util/regex.h"

enum { RX_OPEN, RX_CLOSE, RX_PYTHON, RX_SQL, NRX };

static struct rx *rx[NRX];
static pthread_once_t rx_once = PTHREAD_ONCE_INIT;

static void compile_all(void)
{
    static const struct {
        const char *pattern;
        unsigned flags;
    } table[NRX] = {
        [RX_OPEN] = {"```([^\\n]*)\\n", 0},
        [RX_CLOSE] = {"\\n[ \\t\\n\\f\\v]*```", 0},
        [RX_PYTHON] = {"^(?:(?:(?:import|from)[ \\t][^\\n]*\\n|[#@][^\\n]*\\n)*+"
                       "(?:def|class)[ \\t][^\\n]*\\n(?:[ \\t][^\\n]*\\n)*+)++",
                       RX_MULTILINE},
        [RX_SQL] = {"\\b(?:select\\b|with\\b[^;]*?\\bas\\b)[^;]*;", RX_CASELESS | RX_DOTALL},
    };
    char err[ERR_LEN];
    for (int i = 0; i < NRX; i++)
        if (rx_compile(table[i].pattern, strlen(table[i].pattern), table[i].flags, &rx[i], err) < 0)
            abort(); /* a constant pattern: a bug caught by the first test */
}

const char *extract_kind_name(enum extract_kind k)
{
    static const char *const names[] = {"empty", "fenced", "incomplete_fenced", "heuristic"};
    return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

void extract_language(const char *tag, size_t len, char *out, size_t cap)
{
    static const struct {
        const char *lang, *aliases;
    } table[] = {
        {"python", " python py python3 py3 "},
        {"cpp", " cpp c++ cxx cc hpp "},
        {"c", " c h "},
        {"nodejs", " javascript js node nodejs "},
        {"go", " go golang "},
        {"java", " java "},
        {"csharp", " csharp c# cs "},
        {"bash", " bash sh shell "},
        {"rust", " rust rs "},
        {"typescript", " typescript ts "},
        {"cuda", " cuda cu "},
        {"perl", " perl pl "},
        {"ruby", " ruby rb "},
        {"racket", " racket rkt "},
        {"julia", " julia jl "},
        {"d", " d dlang d_ut "},
    };
    size_t s = 0;
    while (s < len && isspace((unsigned char)tag[s]))
        s++;
    size_t e = s;
    while (e < len && !isspace((unsigned char)tag[e]) && tag[e] != '{')
        e++; /* the first word: "python title=x" names python */
    char word[40];
    size_t n = e - s < sizeof(word) - 3 ? e - s : sizeof(word) - 3;
    word[0] = ' ';
    for (size_t i = 0; i < n; i++)
        word[i + 1] = (char)tolower((unsigned char)tag[s + i]);
    word[n + 1] = ' ';
    word[n + 2] = '\0';
    for (size_t i = 0; n && i < sizeof(table) / sizeof(table[0]); i++) {
        if (strstr(table[i].aliases, word)) {
            snprintf(out, cap, "%s", table[i].lang);
            return;
        }
    }
    snprintf(out, cap, "%.*s", (int)(n ? n : 0), word + 1);
}

/* The text with CRLF as LF and everything up to the last "</think>" dropped (heap). */
static char *normalise(const char *text, size_t len, size_t *out_len)
{
    static const char close_tag[] = "</think>";
    const size_t cl = sizeof(close_tag) - 1;
    for (size_t i = len; i >= cl; i--) {
        if (memcmp(text + i - cl, close_tag, cl) == 0) {
            text += i;
            len -= i;
            break;
        }
    }
    char *t = malloc(len + 2);
    if (!t)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < len; i++)
        if (!(text[i] == '\r' && i + 1 < len && text[i + 1] == '\n'))
            t[o++] = text[i];
    t[o] = '\0';
    *out_len = o;
    return t;
}

struct block {
    size_t start, end; /* the code in the normalised text */
    char language[24];
};

#define MAX_BLOCKS 64

/* Complete fenced blocks into b (at most MAX_BLOCKS). Returns how many. */
static int fenced(const char *t, size_t n, struct block *b)
{
    struct rx_match o, c;
    int nb = 0;
    size_t from = 0;
    while (nb < MAX_BLOCKS && rx_match(rx[RX_OPEN], t, n, from, &o) == 1) {
        size_t body = (size_t)o.end[0];
        if (rx_match(rx[RX_CLOSE], t, n, body, &c) != 1)
            break; /* the closing pattern starts with the newline that ends the code */
        b[nb].start = body;
        b[nb].end = (size_t)c.start[0];
        extract_language(t + o.start[1], (size_t)(o.end[1] - o.start[1]), b[nb].language,
                         sizeof(b[nb].language));
        nb++;
        from = (size_t)c.end[0];
    }
    return nb;
}

static int incomplete(const char *t, size_t n, struct block *b)
{
    struct rx_match o;
    if (rx_match(rx[RX_OPEN], t, n, 0, &o) != 1)
        return 0;
    b->start = (size_t)o.end[0];
    b->end = n;
    extract_language(t + o.start[1], (size_t)(o.end[1] - o.start[1]), b->language,
                     sizeof(b->language));
    return 1;
}

/* Heuristic blocks for lang over t (which heuristic() may rewrite: blank lines dropped). */
static int heuristic(char *t, size_t *n, const char *lang, struct block *b)
{
    struct rx_match m;
    int nb = 0;
    if (strcmp(lang, "bash") == 0 && *n > 0) {
        *b = (struct block){0, *n, "bash"};
        return 1;
    }
    int which = strcmp(lang, "python") == 0 ? RX_PYTHON : strcmp(lang, "sql") == 0 ? RX_SQL : -1;
    if (which < 0)
        return 0;
    if (which == RX_PYTHON) { /* drop blank lines; end with a newline */
        size_t o = 0;
        bool line_start = true, blank = true;
        size_t mark = 0;
        for (size_t i = 0; i < *n; i++) {
            if (line_start) {
                mark = o;
                blank = true;
            }
            t[o++] = t[i];
            line_start = t[i] == '\n';
            if (!isspace((unsigned char)t[i]))
                blank = false;
            if (line_start && blank)
                o = mark;
        }
        if (o > 0 && t[o - 1] != '\n')
            t[o++] = '\n';
        t[o] = '\0';
        *n = o;
    }
    size_t from = 0;
    while (nb < MAX_BLOCKS && rx_match(rx[which], t, *n, from, &m) == 1 && m.end[0] > m.start[0]) {
        b[nb] = (struct block){(size_t)m.start[0], (size_t)m.end[0], ""};
        snprintf(b[nb].language, sizeof(b[nb].language), "%s", lang);
        nb++;
        from = (size_t)m.end[0];
    }
    return nb;
}

int extract_code(const char *text, size_t len, const char *language, struct extracted *out)
{
    pthread_once(&rx_once, compile_all);
    memset(out, 0, sizeof(*out));
    char want[24] = "";
    if (language)
        extract_language(language, strlen(language), want, sizeof(want));
    size_t n;
    char *t = normalise(text, len, &n);
    if (!t)
        return -ENOMEM;
    struct block *b = calloc(MAX_BLOCKS, sizeof(*b));
    if (!b) {
        free(t);
        return -ENOMEM;
    }
    int nb = fenced(t, n, b);
    out->kind = EXTRACT_FENCED;
    if (nb == 0) {
        nb = incomplete(t, n, b);
        out->kind = EXTRACT_INCOMPLETE;
    }
    if (nb == 0) {
        nb = heuristic(t, &n, want, b);
        out->kind = EXTRACT_HEURISTIC;
    }
    int pick = -1;
    for (int i = 0; i < nb && pick < 0; i++)
        if (*want && strcmp(b[i].language, want) == 0)
            pick = i;
    if (pick < 0 && nb > 0)
        pick = 0;
    if (pick < 0)
        out->kind = EXTRACT_EMPTY;
    size_t s = pick < 0 ? 0 : b[pick].start, e = pick < 0 ? 0 : b[pick].end;
    out->code = malloc(e - s + 1);
    if (!out->code) {
        free(b);
        free(t);
        return -ENOMEM;
    }
    memcpy(out->code, t + s, e - s);
    out->code[e - s] = '\0';
    out->len = e - s;
    if (pick >= 0)
        snprintf(out->language, sizeof(out->language), "%s", b[pick].language);
    free(b);
    free(t);
    return 0;
}

void extracted_fini(struct extracted *e)
{
    free(e->code);
    e->code = NULL;
    e->len = 0;
}

/* The first occurrence of needle at the start of a line of code, or NULL. */
static char *at_line_start(char *code, const char *needle)
{
    size_t nl = strlen(needle);
    for (char *p = code; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, needle, nl) == 0)
            return p;
    return NULL;
}

size_t extract_postprocess(const char *language, char *code)
{
    char lang[24] = "";
    if (language)
        extract_language(language, strlen(language), lang, sizeof(lang));
    char *cut;
    if ((cut = at_line_start(code, "# Example usage")))
        *cut = '\0';
    if (strcmp(lang, "python") == 0) {
        if ((cut = at_line_start(code, "if __name__ == \"__main__\":")) ||
            (cut = at_line_start(code, "if __name__ == '__main__':")))
            *cut = '\0';
    } else if (strcmp(lang, "cpp") == 0) {
        if ((cut = at_line_start(code, "int main()")))
            *cut = '\0';
    } else if (strcmp(lang, "go") == 0) {
        if ((cut = at_line_start(code, "package main"))) {
            char *nl = strchr(cut, '\n');
            memmove(cut, nl ? nl + 1 : cut + strlen(cut), strlen(nl ? nl + 1 : "") + 1);
        }
    } else if (strcmp(lang, "java") == 0) {
        static const char from[] = "public class Main {", to[] = "class Solution {";
        if ((cut = at_line_start(code, from))) { /* the replacement is shorter: in place */
            memcpy(cut, to, sizeof(to) - 1);
            memmove(cut + sizeof(to) - 1, cut + sizeof(from) - 1,
                    strlen(cut + sizeof(from) - 1) + 1);
        }
    }
    return strlen(code);
}

int extract_fuzz_one(const uint8_t *data, size_t size)
{
    static const char *const langs[] = {NULL, "python", "cpp", "go", "java", "bash", "sql", "rust"};
    if (size == 0)
        return 0;
    const char *lang = langs[data[0] % (sizeof(langs) / sizeof(langs[0]))];
    struct extracted e;
    if (extract_code((const char *)data + 1, size - 1, lang, &e) < 0)
        return 0;
    /* The code is never longer than the text (a heuristic block may gain a final newline). */
    if (!e.code || e.len > size || e.code[e.len] != '\0' ||
        (e.kind == EXTRACT_EMPTY && (e.len != 0 || e.language[0] != '\0')))
        abort();
    size_t n = extract_postprocess(lang, e.code);
    if (n > e.len || e.code[n] != '\0')
        abort();
    extracted_fini(&e);
    return 0;
}
