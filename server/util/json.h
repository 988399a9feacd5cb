/*
 * json: building and reading JSON documents; the only module that includes cJSON.h.
 *
 * A document is a tree of `struct json` nodes. Builders attach children to a parent, which
 * then owns them: freeing the root frees the tree. Adding to a NULL parent, or adding a NULL
 * child, is a no-op that returns NULL, so a builder chain needs one NULL check at the end
 * (json_render() returns NULL for a NULL tree).
 */
#ifndef VERDICT_JSON_H
#define VERDICT_JSON_H

#include <stdbool.h>
#include <stddef.h>

struct json;

/* New empty object / array (heap; free with json_free unless attached to a parent). */
struct json *json_object(void);
struct json *json_array(void);

/* Attach a member to an object, replacing one of that key; return the new child (borrowed,
 * owned by obj) or NULL. O(n) in obj's members (the key is looked up first). */
struct json *json_set_str(struct json *obj, const char *key, const char *value);
struct json *json_set_num(struct json *obj, const char *key, double value);
struct json *json_set_bool(struct json *obj, const char *key, bool value);
struct json *json_set_null(struct json *obj, const char *key);
struct json *json_set(struct json *obj, const char *key, struct json *child);
/* A byte string as a JSON string: valid UTF-8 is kept, NUL bytes and invalid sequences become
 * U+FFFD (lossy for binary data). */
struct json *json_set_bytes(struct json *obj, const char *key, const void *data, size_t len);

/* Append to an array; return the appended child (borrowed) or NULL. O(1). */
struct json *json_push(struct json *arr, struct json *child);
struct json *json_push_str(struct json *arr, const char *value);
struct json *json_push_num(struct json *arr, double value);

/* Serialises the tree (pretty = indented) into a new heap string the caller frees with
 * free(); NULL on allocation failure or a NULL tree. */
char *json_render(const struct json *j, bool pretty);

/* Parses text; NULL if it is not exactly one valid JSON document (trailing bytes too). */
struct json *json_parse(const char *text);

/* Member lookup (case-sensitive) on an object; NULL if absent or j is not an object. O(n) in
 * the object's members (the objects verdict reads have a handful). */
const struct json *json_get(const struct json *j, const char *key);

/* The same lookup, for changing the member in place. */
struct json *json_child(struct json *j, const char *key);

/* The string member key of object j, or NULL when absent or not a string. */
const char *json_get_str(const struct json *j, const char *key);

/* Typed reads; each returns false when j is NULL or of another type. */
bool json_str(const struct json *j, const char **out);
bool json_num(const struct json *j, double *out);
bool json_bool(const struct json *j, bool *out);

/* Iteration in order over an array's elements or an object's members: the first (NULL when j
 * is empty, NULL, or neither), and the one after e (NULL after the last). O(1) each, so
 *     for (const struct json *e = json_first(arr); e; e = json_next(e))
 * is linear; loop this way, never with json_at or json_member. */
const struct json *json_first(const struct json *j);
const struct json *json_next(const struct json *e);

/* Array length (0 for a non-array). O(n): it walks the array; take it once, outside a loop. */
int json_len(const struct json *j);

/* Element i (NULL when out of range). O(i): it walks the array from the start; for one
 * element only (a loop over json_at is quadratic: use json_first/json_next). */
const struct json *json_at(const struct json *j, int i);

/* Object members in order: count (0 for a non-object; O(n)), the i-th member (NULL when out
 * of range; O(i): iterate with json_first/json_next instead), and a member's key (borrowed;
 * NULL for an array element). */
int json_members(const struct json *j);
const struct json *json_member(const struct json *j, int i);
const char *json_key(const struct json *member);

/* True for an object / an array / a string / null. */
bool json_is_object(const struct json *j);
bool json_is_array(const struct json *j);
bool json_is_string(const struct json *j);
bool json_is_null(const struct json *j);

/* A deep copy (heap; NULL on allocation failure or a NULL j). */
struct json *json_dup(const struct json *j);

/* Frees a whole tree; NULL is a no-op. */
void json_free(struct json *j);

/* Appends a member to an object without looking its key up first (json_set does): O(1), for
 * keys the caller knows are distinct (a repeated key would be rendered twice). Returns the
 * child (borrowed, owned by obj), or NULL (child freed) when obj or child is NULL or out of
 * memory. */
struct json *json_append(struct json *obj, const char *key, struct json *child);

#endif
