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
 * owned by obj) or NULL. O(n) in obj's members (the key is looked up first). A string is kept
 * byte for byte (a program's code is): json_set_bytes for text that may not be UTF-8. */
struct json *json_set_str(struct json *obj, const char *key, const char *value);
struct json *json_set_num(struct json *obj, const char *key, double value);
struct json *json_set_bool(struct json *obj, const char *key, bool value);
struct json *json_set_null(struct json *obj, const char *key);
struct json *json_set(struct json *obj, const char *key, struct json *child);
/* A byte string as a JSON string: valid UTF-8 is kept, NUL bytes and invalid sequences become
 * U+FFFD (lossy for binary data). */
struct json *json_set_bytes(struct json *obj, const char *key, const void *data, size_t len);

/* As json_set_str, taking s (heap, freed with free(); UTF-8 the caller vouches for, e.g. base64)
 * instead of copying it: a large string is held once. s is freed on failure too. */
struct json *json_set_str_take(struct json *obj, const char *key, char *s);

/* As json_set_bytes, cut where the string's rendering would pass max_out bytes (a control
 * character renders as 6, \u0001, a byte of invalid UTF-8 as 3, U+FFFD): what a stream of
 * n bytes costs an answer is then at most max_out, not 6n. *cut: whether it was cut. */
struct json *json_set_bytes_max(struct json *obj, const char *key, const void *data, size_t len,
                                size_t max_out, bool *cut);

/* Append to an array; return the appended child (borrowed) or NULL. O(1). */
struct json *json_push(struct json *arr, struct json *child);
struct json *json_push_str(struct json *arr, const char *value);
struct json *json_push_num(struct json *arr, double value);

/* Serialises the tree (pretty = indented) into a new heap string the caller frees with
 * free(); NULL on allocation failure or a NULL tree. */
char *json_render(const struct json *j, bool pretty);

/* Parses text; NULL if it is not exactly one valid JSON document (trailing bytes too). */
struct json *json_parse(const char *text);

/* What parsing text that another party wrote (the sandbox) may cost: each field is what is left,
 * and json_parse_budget takes from it, so one budget can serve several documents (the lines of
 * a file). A tree costs about 80 bytes of heap per value besides its strings, whatever the
 * text's size: `[1,1,...]` is 2 bytes a value, so nodes, not bytes, bound the tree. */
struct json_budget {
    size_t bytes;     /* text bytes */
    size_t nodes;     /* values (members' keys ride with their values) */
    size_t out;       /* bytes the parsed strings and numbers take rendered again (json_render) */
    int depth;        /* deepest nesting of arrays and objects (a cap, not taken from) */
    const char *over; /* after -E2BIG: the cap passed ("bytes", "values", "rendered bytes",
                         "depth") */
    size_t over_cap;  /* and what was left of it */
};

/* The budget of a document the sandbox writes: `bytes` of text, JSON_SANDBOX_NODES values,
 * `bytes` rendered, JSON_SANDBOX_DEPTH deep. The notebook and session drivers stay within it
 * (languages/python/jupyter.py: NODES_MAX, DEPTH_MAX). */
#define JSON_SANDBOX_NODES (1u << 17)
#define JSON_SANDBOX_DEPTH 128
struct json_budget json_sandbox_budget(size_t bytes);

/* Parses text[0..len), one JSON document (RFC 8259, strict: no raw control characters in
 * strings, whitespace only around it), within *b: a linear scan checks the grammar and counts
 * the cost first, and nothing is allocated for text past the budget. Invalid UTF-8 in a string
 * or key, and a lone UTF-16 surrogate escape, become U+FFFD (text is changed in place for the
 * latter), so the tree renders as valid JSON. Returns 0 with *out the tree (heap), taking its
 * cost from *b; -EINVAL when the text is not JSON; -E2BIG past a cap (b->over names it; *b
 * otherwise unchanged); -ENOMEM. *out is NULL on failure. */
int json_parse_budget(char *text, size_t len, struct json_budget *b, struct json **out);

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

/* Detaches an array's first element and returns it (heap, the caller's now), or NULL when
 * empty or arr is not an array. O(1): a loop of it empties an array in order, each element
 * moved out (and freed by the caller) as it goes. */
struct json *json_shift(struct json *arr);

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

/* Detaches member key of object obj and returns it (heap, the caller's now), or NULL when absent
 * or obj is not an object: moves a parsed value into another tree without a copy. O(n) in
 * obj's members. */
struct json *json_take(struct json *obj, const char *key);

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
