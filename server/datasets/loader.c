/*
 * loader: the problem model's builders, format detection and the record readers; the
 * normalisers live in one file per source family (loader_impl.h lists them).
 *
 * A file is read whole (at most LOADER_MAX_FILE bytes), as a JSON array when its first
 * non-blank byte is '[' and as JSON lines otherwise. The first record decides the format
 * (or the caller names it); each record is normalised and appended, and its id is checked
 * against a hash set of the ids seen so far (server/util/strset), so that reading n records
 * is O(n). A record that fails ends the read: nothing is returned, the error names the file,
 * the line (or index) and the field, and a duplicate id names the line of the first one.
 *
 * How each source's programs are assembled is the source's own harness, as
 * ../shared/datasets/README.md describes it; a normaliser only places the pieces in
 * before/preamble/after, and server/datasets/harness joins them with a completion.
 */
#include "server/datasets/loader_impl.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/util/slurp.h"
#include "server/util/strset.h"

/* ---- the problem model ------------------------------------------------------------------ */

int loader_bad(const struct loader_ctx *c, const char *field, const char *what)
{
    return err_set(c->err, -EINVAL, "%.150s:%s %ld: field \"%s\": %s", c->file,
                   c->lines ? "line" : " record", c->where, field, what);
}

int loader_need_str(const struct loader_ctx *c, const struct json *rec, const char *field,
                    const char **out)
{
    if (!json_str(json_get(rec, field), out))
        return loader_bad(c, field, json_get(rec, field) ? "must be a string" : "missing");
    return 0;
}

/* An id that is a string or an integer, as a string. The range check comes before the cast:
 * converting a double beyond long long's range is undefined. */
bool loader_id(const struct json *v, char *out, size_t cap)
{
    const char *s;
    double d;
    if (json_str(v, &s) && strlen(s) < cap)
        snprintf(out, cap, "%s", s);
    else if (json_num(v, &d) && d > -9e18 && d < 9e18 && d == (double)(long long)d)
        snprintf(out, cap, "%lld", (long long)d);
    else
        return false;
    return true;
}

int loader_need_id(const struct loader_ctx *c, const struct json *rec, const char *field, char *out,
                   size_t cap)
{
    const struct json *v = json_get(rec, field);
    if (!loader_id(v, out, cap) || !*out)
        return loader_bad(c, field, v ? "must be a non-empty string or an integer" : "missing");
    return 0;
}

char *loader_cat(const char *a, const char *b, const char *c, const char *d)
{
    char *s = NULL;
    if (asprintf(&s, "%s%s%s%s", a ? a : "", b ? b : "", c ? c : "", d ? d : "") < 0)
        return NULL;
    return s;
}

/* The name of the function a signature line declares: after "fn "/"func " (Rust, Go), else
 * the identifier just before the line's first '('. */
static void name_in_line(const char *line, size_t len, char *out, size_t cap)
{
    const char *end = line + len, *p = line;
    while (p < end && isspace((unsigned char)*p))
        p++;
    out[0] = '\0';
    static const char *const kws[] = {"pub fn ", "fn ", "func "};
    for (size_t i = 0; i < sizeof(kws) / sizeof(kws[0]); i++) {
        size_t kl = strlen(kws[i]);
        if ((size_t)(end - p) > kl && strncmp(p, kws[i], kl) == 0) {
            const char *q = p + kl;
            while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
                q++;
            snprintf(out, cap, "%.*s", (int)(q - p - kl), p + kl);
            return;
        }
    }
    const char *paren = memchr(line, '(', len);
    if (!paren)
        return;
    const char *q = paren;
    while (q > line && isspace((unsigned char)q[-1]))
        q--;
    const char *e = q;
    while (q > line && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))
        q--;
    snprintf(out, cap, "%.*s", (int)(e - q), q);
}

/* The function that text (a prompt or declaration ending in a signature) declares last. */
void loader_guess_entry(const char *text, char *out, size_t cap)
{
    out[0] = '\0';
    size_t n = strlen(text);
    while (n > 0) {
        size_t e = n;
        while (e > 0 && text[e - 1] == '\n')
            e--;
        size_t b = e;
        while (b > 0 && text[b - 1] != '\n')
            b--;
        if (memchr(text + b, '(', e - b)) {
            name_in_line(text + b, e - b, out, cap);
            if (out[0])
                return;
        }
        n = b;
    }
}

/* text up to the start of the line that declares entry (for completions that define the
 * function themselves); the whole text when no line does. */
char *loader_before_signature(const char *text, const char *entry)
{
    size_t n = strlen(text), el = strlen(entry);
    const char *cut = NULL;
    for (size_t b = 0; b < n && el;) {
        const char *nl = memchr(text + b, '\n', n - b);
        size_t e = nl ? (size_t)(nl - text) : n;
        char name[128];
        if (memchr(text + b, '(', e - b)) {
            name_in_line(text + b, e - b, name, sizeof(name));
            if (strcmp(name, entry) == 0)
                cut = text + b; /* the last such line: overloads or doc examples come first */
        }
        b = e + 1;
    }
    return cut ? strndup(text, (size_t)(cut - text)) : strdup(text);
}

struct json *loader_new_problem(const char *id, const char *prompt, const char *lang,
                                const char *entry, const char *kind, long time_ms, long memory_mb)
{
    struct json *p = json_object();
    json_set_str(p, "id", id);
    json_set_str(p, "prompt", prompt);
    json_set_str(p, "language", lang);
    json_set_str(p, "entry_point", entry);
    json_set_str(p, "kind", kind);
    json_set_num(p, "time_ms", (double)time_ms);
    json_set_num(p, "memory_mb", (double)memory_mb);
    json_set(p, "solutions", json_object());
    json_set(p, "stop", json_array());
    json_set_bool(p, "stop_line", false);
    json_set_bool(p, "continues", false);
    json_set(p, "labels", json_object());
    return p;
}

/* Takes ownership of the three strings. */
int loader_set_harness(struct json *p, char *before, char *preamble, char *after)
{
    int rc = before && preamble && after ? 0 : -ENOMEM;
    if (rc == 0) {
        json_set_str(p, "before", before);
        json_set_str(p, "preamble", preamble);
        json_set_str(p, "after", after);
    }
    free(before);
    free(preamble);
    free(after);
    return rc;
}

void loader_set_solution(struct json *p, const char *lang, const char *code)
{
    json_set_str(json_child(p, "solutions"), lang, code);
}

/* ---- formats and detection --------------------------------------------------------------- */

typedef int (*norm_fn)(const struct loader_ctx *c, const struct json *r, struct json **out);

static const struct format {
    const char *name;
    norm_fn fn;
    const char *fields[4]; /* a record with all of these is of this format */
} formats[] = {
    {"humanevalx", loader_norm_humanevalx, {"declaration", "canonical_solution", "task_id"}},
    {"humaneval", loader_norm_humaneval, {"entry_point", "canonical_solution", "test", "prompt"}},
    {"mbpp", loader_norm_mbpp_full, {"test_list", "test_setup_code", "code"}},
    {"mbpp_sanitized", loader_norm_mbpp_sanitized, {"test_list", "test_imports", "code"}},
    {"multiple", loader_norm_multiple, {"stop_tokens", "tests", "prompt", "name"}},
    {"mceval", loader_norm_mceval, {"signature", "entry_point", "canonical_solution", "test"}},
    {"code_contests", loader_norm_code_contests, {"content", "test", "id"}},
};

const char *loader_formats(void)
{
    return "humaneval, mbpp, mbpp_sanitized, humanevalx, multiple, mceval, code_contests, "
           "problem_dir";
}

static const struct format *detect(const struct json *rec)
{
    const char *id;
    /* McEval rows also have HumanEval's fields; its signature field tells them apart. */
    if (json_get(rec, "signature") && json_get(rec, "entry_point"))
        return &formats[5];
    if (json_str(json_get(rec, "task_id"), &id) && strncmp(id, "HumanEval/", 10) != 0 &&
        json_get(rec, "declaration"))
        return &formats[0];
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
        bool all = true;
        for (int k = 0; k < 4 && formats[i].fields[k]; k++)
            all = all && json_get(rec, formats[i].fields[k]);
        if (all)
            return &formats[i];
    }
    return NULL;
}

static const struct format *format_named(const char *name)
{
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
        if (strcmp(formats[i].name, name) == 0)
            return &formats[i];
    return NULL;
}

/* One read in progress: where records come from, the format (once known), the problems so
 * far and their ids (each with the line or index where it was first seen). */
struct reader {
    struct loader_ctx c;
    const struct format *f;
    const char *want; /* the format named by the caller, or NULL / "" to detect */
    struct json *arr;
    struct strset *ids;
    int count;
    char *fmt; /* the format's name is written here (cap bytes) */
    size_t cap;
};

/* The first record names the format (or the caller did). */
static int choose_format(struct reader *r, const struct json *rec)
{
    if (r->f)
        return 0;
    r->f = r->want && *r->want ? format_named(r->want) : detect(rec);
    if (!r->f)
        return err_set(r->c.err, -EINVAL, "%.150s: records of an unknown shape (known formats: %s)",
                       r->c.file, loader_formats());
    snprintf(r->fmt, r->cap, "%s", r->f->name);
    return 0;
}

/* A duplicate id is an error at the record that repeats it, naming where it first was. */
static int check_id(struct reader *r, const struct json *p)
{
    const char *id = "";
    long first = 0;
    json_str(json_get(p, "id"), &id);
    if (!*id) /* a problem is found by its id: "" names none (a source's empty name or task_id) */
        return loader_bad(&r->c, "id", "must not be empty");
    int added = strset_add(r->ids, id, r->c.where, &first);
    if (added < 0)
        return err_set(r->c.err, -ENOMEM, "out of memory");
    if (added == 1)
        return 0;
    char what[240];
    snprintf(what, sizeof(what), "duplicate id \"%.120s\" (first at %s %ld)", id,
             r->c.lines ? "line" : "record", first);
    return loader_bad(&r->c, "id", what);
}

/* One record: normalise, check the id is new, append. */
static int add_record(struct reader *r, const struct json *rec)
{
    if (!json_is_object(rec))
        return loader_bad(&r->c, "(record)", "each record is a JSON object");
    int rc = choose_format(r, rec);
    struct json *p = NULL;
    if (rc == 0)
        rc = r->f->fn(&r->c, rec, &p);
    if (rc == 0)
        rc = check_id(r, p);
    if (rc < 0) {
        json_free(p);
        return rc == -ENOMEM ? err_set(r->c.err, rc, "out of memory") : rc;
    }
    if (!json_push(r->arr, p)) /* json_push frees p when it fails */
        return err_set(r->c.err, -ENOMEM, "out of memory");
    r->count++;
    return 0;
}

/* A JSON array of records. */
static int read_array(struct reader *r, const struct json *doc)
{
    int rc = 0;
    r->c.where = 0;
    for (const struct json *e = json_first(doc); rc == 0 && e; e = json_next(e), r->c.where++)
        rc = add_record(r, e);
    return rc;
}

/* JSON lines: one record a line, blank lines skipped. text is changed (lines are cut). */
static int read_lines(struct reader *r, char *text, size_t len)
{
    int rc = 0;
    r->c.lines = true;
    char *line = text;
    for (long no = 1; rc == 0 && line < text + len; no++) {
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        if (nl)
            *nl = '\0';
        r->c.where = no;
        const char *p = line;
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (*p) {
            struct json *rec = json_parse(line);
            rc = rec ? add_record(r, rec)
                     : err_set(r->c.err, -EINVAL, "%.150s: line %ld: not a JSON object (%s)",
                               r->c.file, no,
                               no == 1 ? "is this a JSON or JSON lines file?"
                                       : "a bad or truncated line");
            json_free(rec);
        }
        line = nl ? nl + 1 : text + len;
    }
    return rc;
}

static int read_records(struct reader *r, const char *path)
{
    char *text;
    size_t len;
    int rc = slurp(path, LOADER_MAX_FILE, &text, &len, r->c.err);
    if (rc < 0)
        return rc;
    const char *s = text;
    while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')
        s++;
    struct json *doc = *s == '[' ? json_parse(text) : NULL;
    rc = doc ? read_array(r, doc) : read_lines(r, text, len);
    json_free(doc);
    free(text);
    if (rc == 0 && r->count == 0)
        rc = err_set(r->c.err, -EINVAL, "%.200s: no records", path);
    return rc < 0 ? rc : r->count;
}

int loader_record(const struct json *rec, const char *format, struct json **problem,
                  char err[ERR_LEN])
{
    struct reader r = {.c = {.file = "provided_data", .err = err},
                       .f = format && *format ? format_named(format) : NULL,
                       .arr = json_array(),
                       .ids = strset_new()};
    char fmt[32];
    r.fmt = fmt;
    r.cap = sizeof(fmt);
    int rc = r.arr && r.ids ? add_record(&r, rec) : err_set(err, -ENOMEM, "out of memory");
    if (rc == 0 && !(*problem = json_dup(json_first(r.arr))))
        rc = err_set(err, -ENOMEM, "out of memory");
    json_free(r.arr);
    strset_free(r.ids);
    return rc;
}

int loader_read(const char *path, const char *format, struct json **problems, char *fmt, size_t cap,
                char err[ERR_LEN])
{
    if (format && *format && strcmp(format, "problem_dir") != 0 && !format_named(format))
        return err_set(err, -EINVAL, "unknown format \"%.60s\" (known: %s)", format,
                       loader_formats());
    struct reader r = {.c = {.file = path, .err = err},
                       .want = format,
                       .arr = json_array(),
                       .ids = strset_new(),
                       .fmt = fmt,
                       .cap = cap};
    int rc;
    if (!r.arr || !r.ids) {
        rc = err_set(err, -ENOMEM, "out of memory");
    } else if (loader_is_dir(path)) {
        snprintf(fmt, cap, "problem_dir");
        rc = loader_read_problem_set(path, r.arr, err);
    } else if (format && strcmp(format, "problem_dir") == 0) {
        rc = err_set(err, -ENOTDIR, "%.200s: format problem_dir is a directory", path);
    } else {
        rc = read_records(&r, path);
    }
    strset_free(r.ids);
    if (rc < 0) {
        json_free(r.arr);
        return rc;
    }
    *problems = r.arr;
    return rc;
}
