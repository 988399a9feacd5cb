/*
 * utf8: a byte-by-byte copy that checks each sequence (RFC 3629: no overlong forms, no UTF-16
 * surrogates, nothing past U+10FFFF) and writes U+FFFD for each byte that begins none; the
 * copy stops at the first character that does not fit whole, so a cut never splits one.
 */
#include "server/util/utf8.h"

#include <string.h>

/* Length of the valid UTF-8 sequence at p (1-4), or 0 when invalid (a NUL ends src first). */
static size_t seq(const unsigned char *p)
{
    unsigned c = p[0];
    size_t n = c < 0x80             ? 1
               : (c & 0xe0) == 0xc0 ? 2
               : (c & 0xf0) == 0xe0 ? 3
               : (c & 0xf8) == 0xf0 ? 4
                                    : 0;
    if (n == 0 || (n == 2 && c < 0xc2) || (n == 4 && c > 0xf4))
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80) /* a NUL too: the sequence is cut short */
            return 0;
    if (n == 3 && ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0)))
        return 0; /* overlong, or a UTF-16 surrogate */
    if (n == 4 && ((c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90)))
        return 0; /* overlong, or beyond U+10FFFF */
    return n;
}

size_t utf8_copy(char *dst, size_t cap, const char *src)
{
    const unsigned char *p = (const unsigned char *)(src ? src : "");
    size_t o = 0;
    while (*p) {
        size_t n = seq(p);
        const char *from = n ? (const char *)p : "\xef\xbf\xbd";
        size_t len = n ? n : 3;
        if (o + len >= cap)
            break;
        memcpy(dst + o, from, len);
        o += len;
        p += n ? n : 1;
    }
    dst[o] = '\0';
    return o;
}
