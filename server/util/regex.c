/*
 * regex: a compiled pcre2_code plus the flags rx_match needs. Match data is created per call
 * (matches run on many worker threads at once, and a pcre2_code is safe to share).
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "server/util/regex.h"

#include <errno.h>
#include <pcre2.h>
#include <stdbool.h>
#include <stdlib.h>

#define MATCH_LIMIT 1000000
#define DEPTH_LIMIT 10000

struct rx {
    pcre2_code *code;
    bool full;
};

int rx_compile(const char *pattern, size_t len, unsigned flags, struct rx **out, char err[ERR_LEN])
{
    *out = NULL;
    uint32_t opts = (flags & RX_DOTALL ? PCRE2_DOTALL : 0) |
                    (flags & RX_MULTILINE ? PCRE2_MULTILINE : 0) |
                    (flags & RX_CASELESS ? PCRE2_CASELESS : 0);
    int ecode;
    PCRE2_SIZE eoff;
    struct rx *r = calloc(1, sizeof(*r));
    if (!r)
        return err_set(err, -ENOMEM, "out of memory");
    r->code = pcre2_compile((PCRE2_SPTR)pattern, len, opts, &ecode, &eoff, NULL);
    if (!r->code) {
        PCRE2_UCHAR msg[120];
        pcre2_get_error_message(ecode, msg, sizeof(msg));
        free(r);
        return err_set(err, -EINVAL, "bad pattern at %zu: %s", (size_t)eoff, (char *)msg);
    }
    r->full = flags & RX_FULL;
    *out = r;
    return 0;
}

int rx_match(const struct rx *r, const char *subject, size_t len, size_t from, struct rx_match *m)
{
    m->ngroups = 0;
    for (int i = 0; i <= RX_MAX_GROUPS; i++)
        m->start[i] = m->end[i] = -1;
    if (from > len)
        return 0;
    pcre2_match_data *md = pcre2_match_data_create(RX_MAX_GROUPS + 1, NULL);
    pcre2_match_context *mc = pcre2_match_context_create(NULL);
    int rc = -ENOMEM;
    if (md && mc) {
        pcre2_set_match_limit(mc, MATCH_LIMIT);
        pcre2_set_depth_limit(mc, DEPTH_LIMIT);
        uint32_t opts = r->full ? PCRE2_ANCHORED | PCRE2_ENDANCHORED : 0;
        rc = pcre2_match(r->code, (PCRE2_SPTR)subject, len, from, opts, md, mc);
    }
    int result = rc >= 0 ? 1 : rc == PCRE2_ERROR_NOMATCH ? 0 : rc == -ENOMEM ? -ENOMEM : -E2BIG;
    if (rc >= 0) {
        /* rc == 0: more groups than the match data holds; it holds RX_MAX_GROUPS + 1. */
        int n = rc == 0 ? RX_MAX_GROUPS + 1 : rc;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        m->ngroups = n;
        for (int i = 0; i < n; i++) {
            bool unset = ov[2 * i] == PCRE2_UNSET;
            m->start[i] = unset ? -1 : (long)ov[2 * i];
            m->end[i] = unset ? -1 : (long)ov[2 * i + 1];
        }
    }
    pcre2_match_context_free(mc);
    pcre2_match_data_free(md);
    return result;
}

void rx_free(struct rx *r)
{
    if (!r)
        return;
    pcre2_code_free(r->code);
    free(r);
}
