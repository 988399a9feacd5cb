/*
 * json: a thin, typed layer over cJSON.
 *
 * `struct json` is never defined: pointers are cJSON nodes cast at this boundary, so the rest
 * of verdict neither sees cJSON's API nor its public struct fields.
 */
#include "server/json.h"

#include <cjson/cJSON.h>

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

void json_free(struct json *j)
{
    cJSON_Delete(C(j));
}
