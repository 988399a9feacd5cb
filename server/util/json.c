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
#include <stdlib.h>
#include <string.h>

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

struct json *json_set_str(struct json *obj, const char *key, const char *value)
{
    return obj ? json_set(obj, key, J(value ? cJSON_CreateString(value) : cJSON_CreateNull()))
               : NULL;
}

/* Length of the valid UTF-8 sequence at p (1-4), or 0 if invalid or NUL. */
static size_t utf8_seq(const unsigned char *p, size_t left)
{
    unsigned c = p[0];
    size_t n = c == 0               ? 0
               : c < 0x80           ? 1
               : (c & 0xe0) == 0xc0 ? 2
               : (c & 0xf0) == 0xe0 ? 3
               : (c & 0xf8) == 0xf0 ? 4
                                    : 0;
    if (n == 0 || n > left || (n == 2 && c < 0xc2) || (n == 4 && c > 0xf4))
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if (n == 3 && ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0)))
        return 0; /* overlong, or a UTF-16 surrogate */
    if (n == 4 && ((c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90)))
        return 0; /* overlong, or beyond U+10FFFF */
    return n;
}

struct json *json_set_bytes(struct json *obj, const char *key, const void *data, size_t len)
{
    if (!obj)
        return NULL;
    const unsigned char *p = data;
    char *s = malloc(len * 3 + 1); /* each bad byte becomes 3 bytes of U+FFFD */
    if (!s)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_seq(p + i, len - i);
        if (n) {
            memcpy(s + o, p + i, n);
            o += n;
            i += n;
        } else {
            memcpy(s + o, "\xef\xbf\xbd", 3);
            o += 3;
            i++;
        }
    }
    s[o] = '\0';
    struct json *j = json_set(obj, key, J(cJSON_CreateString(s)));
    free(s);
    return j;
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
