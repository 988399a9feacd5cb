/*
 * openapi: the OpenAPI 3 document (docs/openapi.json), embedded at build time and served at
 * GET /openapi.json. tests/api checks it against the routes the server has.
 */
#ifndef VERDICT_OPENAPI_H
#define VERDICT_OPENAPI_H

#include <stddef.h>

extern const char verdict_openapi[];     /* NUL-terminated JSON */
extern const size_t verdict_openapi_len; /* bytes, without the NUL */

#endif
