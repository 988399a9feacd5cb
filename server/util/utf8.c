/*
 * utf8: RFC 3629's well-formed sequences, checked byte by byte (no table): the lead byte gives
 * the length, each continuation byte must be 10xxxxxx, and the second byte's range excludes
 * overlong forms, UTF-16 surrogates and code points past U+10FFFF. Repairing writes U+FFFD
 * (EF BF BD) for each byte that does not start a valid sequence and resumes at the next byte;
 * a bounded copy (utf8_copy) stops at the first character that does not fit whole, so a cut
 * never splits one.
 */
#include "server/util/utf8.h"

#include <stdlib.h>
#include <string.h>

size_t utf8_seq(const unsigned char *p, size_t left)
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

bool utf8_valid(const char *p, size_t len)
{
    const unsigned char *u = (const unsigned char *)p;
    for (size_t i = 0; i < len;) {
        if (u[i] > 0 && u[i] < 0x80) { /* ASCII: the common case, one compare a byte */
            i++;
            continue;
        }
        size_t n = utf8_seq(u + i, len - i);
        if (!n)
            return false;
        i += n;
    }
    return true;
}

char *utf8_repair(const char *p, size_t len, size_t *out_len)
{
    const unsigned char *u = (const unsigned char *)p;
    char *s = len < ((size_t)-1 - 1) / 3 ? malloc(len * 3 + 1) : NULL;
    if (!s)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_seq(u + i, len - i);
        if (n) {
            memcpy(s + o, u + i, n);
            o += n;
            i += n;
        } else {
            memcpy(s + o, "\xef\xbf\xbd", 3);
            o += 3;
            i++;
        }
    }
    s[o] = '\0';
    *out_len = o;
    return s;
}

size_t utf8_copy(char *dst, size_t cap, const char *src)
{
    const unsigned char *p = (const unsigned char *)(src ? src : "");
    size_t left = strlen((const char *)p), o = 0;
    while (left > 0) {
        size_t n = utf8_seq(p, left);
        const char *from = n ? (const char *)p : "\xef\xbf\xbd";
        size_t len = n ? n : 3;
        if (o + len >= cap)
            break;
        memcpy(dst + o, from, len);
        o += len;
        p += n ? n : 1;
        left -= n ? n : 1;
    }
    dst[o] = '\0';
    return o;
}
