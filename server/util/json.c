/*
 * json: a thin, typed layer over cJSON.
 *
 * `struct json` is never defined: pointers are cJSON nodes cast at this boundary, so the rest
 * of verdict neither sees cJSON's API nor its public struct fields.
 *
 * cJSON keeps a node's children as a linked list whose head's prev is the tail: appending is
 * O(1), while counting and indexing walk the list (O(n), O(i)). Loops therefore go through
 * json_first/json_next, the list's own links; json_at and json_len are for single use.
 */
#include "server/util/json.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/util/utf8.h"

#define C(j)  ((cJSON *)(j))
#define CC(j) ((const cJSON *)(j))
#define J(c)  ((struct json *)(c))

struct json *json_object(void)
{
    return J(cJSON_CreateObject());
}

struct json *json_array(void)
{
    return J(cJSON_CreateArray());
}

struct json *json_set(struct json *obj, const char *key, struct json *child)
{
    if (!obj || !child)
        return NULL;
    if (cJSON_GetObjectItemCaseSensitive(C(obj), key)) { /* a member is set once: replace */
        if (!cJSON_ReplaceItemInObjectCaseSensitive(C(obj), key, C(child))) {
            cJSON_Delete(C(child));
            return NULL;
        }
        return child;
    }
    if (!cJSON_AddItemToObject(C(obj), key, C(child))) {
        cJSON_Delete(C(child));
        return NULL;
    }
    return child;
}

/* s[0..len) with each invalid sequence (and NUL) as U+FFFD (heap), or NULL. */
static char *utf8_fix(const void *data, size_t len)
{
    size_t n;
    return utf8_repair(data, len, &n);
}

struct json *json_set_str(struct json *obj, const char *key, const char *value)
{
    return obj ? json_set(obj, key, J(value ? cJSON_CreateString(value) : cJSON_CreateNull()))
               : NULL;
}

struct json *json_set_str_take(struct json *obj, const char *key, char *s)
{
    cJSON *c = obj && s ? cJSON_CreateStringReference(s) : NULL;
    if (!c) {
        free(s);
        return NULL;
    }
    c->type &= ~cJSON_IsReference; /* s is the node's now: cJSON_Delete frees it */
    return json_set(obj, key, J(c));
}

struct json *json_set_bytes(struct json *obj, const char *key, const void *data, size_t len)
{
    if (!obj)
        return NULL;
    char *s = !len ? strdup("") : utf8_valid(data, len) ? strndup(data, len) : utf8_fix(data, len);
    if (!s)
        return NULL;
    struct json *j = json_set(obj, key, J(cJSON_CreateString(s)));
    free(s);
    return j;
}

/* Bytes cJSON renders the sequence at p (n bytes of valid UTF-8, or 0: one invalid byte) as. */
static size_t rendered_seq(const unsigned char *p, size_t n)
{
    if (n != 1)
        return n ? n : 3;
    return strchr("\"\\\b\f\n\r\t", *p) ? 2 : *p < 0x20 ? 6 : 1;
}

struct json *json_set_bytes_max(struct json *obj, const char *key, const void *data, size_t len,
                                size_t max_out, bool *cut)
{
    const unsigned char *p = data;
    size_t i = 0, out = 0;
    while (i < len) {
        size_t n = utf8_seq(p + i, len - i), r = rendered_seq(p + i, n);
        if (out + r > max_out)
            break;
        out += r;
        i += n ? n : 1;
    }
    *cut = i < len;
    return json_set_bytes(obj, key, data, i);
}

struct json *json_set_num(struct json *obj, const char *key, double value)
{
    return obj ? json_set(obj, key, J(cJSON_CreateNumber(value))) : NULL;
}

struct json *json_set_bool(struct json *obj, const char *key, bool value)
{
    return obj ? json_set(obj, key, J(cJSON_CreateBool(value))) : NULL;
}

struct json *json_set_null(struct json *obj, const char *key)
{
    return obj ? json_set(obj, key, J(cJSON_CreateNull())) : NULL;
}

struct json *json_push(struct json *arr, struct json *child)
{
    if (!arr || !child)
        return NULL;
    if (!cJSON_AddItemToArray(C(arr), C(child))) {
        cJSON_Delete(C(child));
        return NULL;
    }
    return child;
}

struct json *json_push_str(struct json *arr, const char *value)
{
    return arr ? json_push(arr, J(cJSON_CreateString(value ? value : ""))) : NULL;
}

struct json *json_push_num(struct json *arr, double value)
{
    return arr ? json_push(arr, J(cJSON_CreateNumber(value))) : NULL;
}

char *json_render(const struct json *j, bool pretty)
{
    if (!j)
        return NULL;
    return pretty ? cJSON_Print(CC(j)) : cJSON_PrintUnformatted(CC(j));
}

struct json *json_parse(const char *text)
{
    /* Trailing bytes after the document are an error, not ignored. */
    return text ? J(cJSON_ParseWithOpts(text, NULL, 1)) : NULL;
}

/* ---- budgeted parse ------------------------------------------------------------------------ */

/* The linear scan before cJSON: the grammar, and what the tree will cost. */
struct scan {
    char *p, *end;
    size_t nodes, out; /* counted so far */
    size_t max_nodes, max_out;
    int max_depth;
    bool bad_utf8; /* some string holds invalid UTF-8: fixed after the parse */
    const char *over;
};

static void skip_ws(struct scan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

static int hex4(const char *p, const char *end, unsigned *v)
{
    if (end - p < 4)
        return -EINVAL;
    *v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16u;
        if (d > 15)
            return -EINVAL;
        *v = *v << 4 | d;
    }
    return 0;
}

/* Bytes cJSON renders code point v (from a \u escape) as. */
static size_t escaped_out(unsigned v)
{
    if (v == '"' || v == '\\' || v == '\b' || v == '\f' || v == '\n' || v == '\r' || v == '\t')
        return 2;
    return v < 0x20 ? 6 : v < 0x80 ? 1 : v < 0x800 ? 2 : 3;
}

/* A \u escape at s->p (past the backslash, at the 'u'); a lone surrogate is rewritten as
 * \ufffd in place (cJSON refuses it). */
static int scan_u(struct scan *s)
{
    unsigned v, w;
    if (hex4(s->p + 1, s->end, &v) < 0)
        return -EINVAL;
    char *at = s->p + 1;
    s->p += 5;
    if (v >= 0xd800 && v <= 0xdbff && s->end - s->p >= 6 && s->p[0] == '\\' && s->p[1] == 'u' &&
        hex4(s->p + 2, s->end, &w) == 0 && w >= 0xdc00 && w <= 0xdfff) {
        s->p += 6;
        s->out += 4;
        return 0;
    }
    if (v >= 0xd800 && v <= 0xdfff) {
        memcpy(at, "fffd", 4);
        v = 0xfffd;
    }
    s->out += escaped_out(v);
    return 0;
}

/* A string at s->p (at its opening quote). */
static int scan_string(struct scan *s)
{
    s->p++;
    s->out += 2;
    while (s->p < s->end) {
        unsigned char c = (unsigned char)*s->p;
        if (c == '"') {
            s->p++;
            return 0;
        }
        if (c < 0x20)
            return -EINVAL;
        if (c == '\\') {
            if (++s->p >= s->end)
                return -EINVAL;
            char e = *s->p;
            if (e == 'u') {
                if (scan_u(s) < 0)
                    return -EINVAL;
                continue;
            }
            if (!strchr("\"\\/bfnrt", e) || !e)
                return -EINVAL;
            s->out += e == '/' ? 1 : 2;
            s->p++;
        } else if (c < 0x80) {
            s->out++;
            s->p++;
        } else {
            size_t n = utf8_seq((const unsigned char *)s->p, (size_t)(s->end - s->p));
            if (!n)
                s->bad_utf8 = true;
            s->out += n ? n : 3;
            s->p += n ? n : 1;
        }
    }
    return -EINVAL;
}

static size_t digits(struct scan *s)
{
    size_t n = 0;
    while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
        s->p++, n++;
    return n;
}

/* A number: an integer of up to 15 digits renders as written, any other up to 26 bytes. */
static int scan_number(struct scan *s)
{
    const char *start = s->p;
    bool plain = true;
    if (*s->p == '-')
        s->p++;
    if (s->p < s->end && *s->p == '0')
        s->p++;
    else if (!digits(s))
        return -EINVAL;
    if (s->p < s->end && *s->p == '.') {
        s->p++;
        plain = false;
        if (!digits(s))
            return -EINVAL;
    }
    if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
        s->p++;
        plain = false;
        if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
            s->p++;
        if (!digits(s))
            return -EINVAL;
    }
    size_t n = (size_t)(s->p - start);
    s->out += plain && n <= 15 ? n : 26;
    return 0;
}

static int scan_literal(struct scan *s, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
        return -EINVAL;
    s->p += n;
    s->out += n;
    return 0;
}

static int scan_value(struct scan *s, int depth);

/* An array or object at s->p (at its bracket), its members at depth. */
static int scan_container(struct scan *s, int depth)
{
    bool object = *s->p == '{';
    char close = object ? '}' : ']';
    s->p++;
    s->out += 2;
    skip_ws(s);
    if (s->p < s->end && *s->p == close) {
        s->p++;
        return 0;
    }
    for (;;) {
        int rc;
        skip_ws(s);
        if (object) {
            if (s->p >= s->end || *s->p != '"' || (rc = scan_string(s)) < 0)
                return -EINVAL;
            skip_ws(s);
            if (s->p >= s->end || *s->p++ != ':')
                return -EINVAL;
            s->out++;
        }
        if ((rc = scan_value(s, depth)) < 0)
            return rc;
        skip_ws(s);
        if (s->p >= s->end)
            return -EINVAL;
        char c = *s->p++;
        if (c == close)
            return 0;
        if (c != ',')
            return -EINVAL;
        s->out++;
    }
}

static int scan_value(struct scan *s, int depth)
{
    skip_ws(s);
    if (s->p >= s->end)
        return -EINVAL;
    if (++s->nodes > s->max_nodes) {
        s->over = "values";
        return -E2BIG;
    }
    if (s->out > s->max_out) {
        s->over = "rendered bytes";
        return -E2BIG;
    }
    char c = *s->p;
    if (c == '{' || c == '[') {
        if (depth >= s->max_depth) {
            s->over = "depth";
            return -E2BIG;
        }
        return scan_container(s, depth + 1);
    }
    if (c == '"')
        return scan_string(s);
    if (c == '-' || (c >= '0' && c <= '9'))
        return scan_number(s);
    return scan_literal(s, c == 't' ? "true" : c == 'f' ? "false" : "null");
}

/* After a parse of text that held invalid UTF-8: each string and key that does, as U+FFFD. */
static int fix_utf8(cJSON *c)
{
    for (; c; c = c->next) {
        char **str[2] = {cJSON_IsString(c) ? &c->valuestring : NULL, &c->string};
        for (int i = 0; i < 2; i++) {
            if (!str[i] || !*str[i] || utf8_valid(*str[i], strlen(*str[i])))
                continue;
            char *fixed = utf8_fix(*str[i], strlen(*str[i]));
            if (!fixed)
                return -ENOMEM;
            cJSON_free(*str[i]);
            *str[i] = fixed;
        }
        if (c->child && fix_utf8(c->child) < 0)
            return -ENOMEM;
    }
    return 0;
}

struct json_budget json_sandbox_budget(size_t bytes)
{
    return (struct json_budget){
        .bytes = bytes, .nodes = JSON_SANDBOX_NODES, .out = bytes, .depth = JSON_SANDBOX_DEPTH};
}

int json_parse_budget(char *text, size_t len, struct json_budget *b, struct json **out)
{
    *out = NULL;
    if (len > b->bytes) {
        b->over = "bytes";
        b->over_cap = b->bytes;
        return -E2BIG;
    }
    struct scan s = {.p = text,
                     .end = text + len,
                     .max_nodes = b->nodes,
                     .max_out = b->out,
                     .max_depth = b->depth};
    int rc = scan_value(&s, 0);
    if (rc == 0 && s.out > s.max_out) {
        s.over = "rendered bytes";
        rc = -E2BIG;
    }
    skip_ws(&s);
    if (rc == 0 && s.p != s.end)
        rc = -EINVAL;
    if (rc == -E2BIG) {
        b->over = s.over;
        b->over_cap = s.over[0] == 'v' ? b->nodes : s.over[0] == 'r' ? b->out : (size_t)b->depth;
    }
    if (rc < 0)
        return rc;
    cJSON *c = cJSON_ParseWithLength(text, len);
    if (!c) /* what the scan let through and cJSON refuses: a number of over 63 characters */
        return -EINVAL;
    if (s.bad_utf8 && fix_utf8(c) < 0) {
        cJSON_Delete(c);
        return -ENOMEM;
    }
    b->bytes -= len;
    b->nodes -= s.nodes;
    b->out -= s.out;
    *out = J(c);
    return 0;
}

const char *json_get_str(const struct json *j, const char *key)
{
    const char *s;
    return json_str(json_get(j, key), &s) ? s : NULL;
}

struct json *json_child(struct json *j, const char *key)
{
    return j && cJSON_IsObject(C(j)) ? J(cJSON_GetObjectItemCaseSensitive(C(j), key)) : NULL;
}

const struct json *json_get(const struct json *j, const char *key)
{
    if (!j || !cJSON_IsObject(CC(j)))
        return NULL;
    return (const struct json *)cJSON_GetObjectItemCaseSensitive(CC(j), key);
}

bool json_str(const struct json *j, const char **out)
{
    if (!j || !cJSON_IsString(CC(j)))
        return false;
    *out = CC(j)->valuestring;
    return true;
}

bool json_num(const struct json *j, double *out)
{
    if (!j || !cJSON_IsNumber(CC(j)))
        return false;
    *out = CC(j)->valuedouble;
    return true;
}

bool json_bool(const struct json *j, bool *out)
{
    if (!j || !cJSON_IsBool(CC(j)))
        return false;
    *out = cJSON_IsTrue(CC(j));
    return true;
}

const struct json *json_first(const struct json *j)
{
    if (!j || !(cJSON_IsArray(CC(j)) || cJSON_IsObject(CC(j))))
        return NULL;
    return (const struct json *)CC(j)->child;
}

const struct json *json_next(const struct json *e)
{
    return e ? (const struct json *)CC(e)->next : NULL;
}

struct json *json_shift(struct json *arr)
{
    if (!arr || !cJSON_IsArray(C(arr)) || !C(arr)->child)
        return NULL;
    return J(cJSON_DetachItemViaPointer(C(arr), C(arr)->child));
}

int json_len(const struct json *j)
{
    return j && cJSON_IsArray(CC(j)) ? cJSON_GetArraySize(CC(j)) : 0;
}

const struct json *json_at(const struct json *j, int i)
{
    if (!j || !cJSON_IsArray(CC(j)) || i < 0)
        return NULL;
    return (const struct json *)cJSON_GetArrayItem(CC(j), i);
}

int json_members(const struct json *j)
{
    return j && cJSON_IsObject(CC(j)) ? cJSON_GetArraySize(CC(j)) : 0;
}

const struct json *json_member(const struct json *j, int i)
{
    if (!j || !cJSON_IsObject(CC(j)) || i < 0)
        return NULL;
    return (const struct json *)cJSON_GetArrayItem(CC(j), i);
}

const char *json_key(const struct json *member)
{
    return member ? CC(member)->string : NULL;
}

bool json_is_object(const struct json *j)
{
    return j && cJSON_IsObject(CC(j));
}

bool json_is_array(const struct json *j)
{
    return j && cJSON_IsArray(CC(j));
}

bool json_is_string(const struct json *j)
{
    return j && cJSON_IsString(CC(j));
}

bool json_is_null(const struct json *j)
{
    return j && cJSON_IsNull(CC(j));
}

struct json *json_take(struct json *obj, const char *key)
{
    return obj && cJSON_IsObject(C(obj)) ? J(cJSON_DetachItemFromObjectCaseSensitive(C(obj), key))
                                         : NULL;
}

struct json *json_dup(const struct json *j)
{
    return j ? J(cJSON_Duplicate(CC(j), 1)) : NULL;
}

void json_free(struct json *j)
{
    cJSON_Delete(C(j));
}

struct json *json_append(struct json *obj, const char *key, struct json *child)
{
    if (!obj || !child || !cJSON_IsObject(C(obj)) ||
        !cJSON_AddItemToObject(C(obj), key, C(child))) {
        cJSON_Delete(C(child));
        return NULL;
    }
    return child;
}
