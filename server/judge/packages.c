/*
 * packages: a template's packages command, run on the host at probe time (toolchain_filter),
 * its lines parsed into the language's list.
 */
#include "server/judge/packages.h"

#include <stdlib.h>
#include <string.h>

#include "server/judge/lang.h"
#include "server/judge/toolchain.h"

#define PACKAGES_MS    10000 /* importlib.metadata over a few packages: well under 1 s */
#define PACKAGES_BYTES (64 << 10)

/* One field of a line into buf (cap bytes), up to a tab or the line's end: 0, or -1 when it
 * is empty or too long. *p moves past the field and its tab. */
static int field(const char **p, const char *end, char *buf, size_t cap)
{
    const char *s = *p, *t = s;
    while (t < end && *t != '\t')
        t++;
    size_t n = (size_t)(t - s);
    if (n == 0 || n >= cap)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    *p = t < end ? t + 1 : t;
    return 0;
}

int packages_parse(const char *text, struct lang_package *out, int max)
{
    int n = 0;
    for (const char *line = text; line && *line && n < max;) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        const char *p = line;
        struct lang_package k;
        if (field(&p, end, k.name, sizeof(k.name)) == 0 &&
            field(&p, end, k.version, sizeof(k.version)) == 0 &&
            field(&p, end, k.import, sizeof(k.import)) == 0 && p == end)
            out[n++] = k;
        line = *end ? end + 1 : end;
    }
    return n;
}

void packages_probe(struct lang *const *langs, size_t n)
{
    struct toolchain_filter *f = calloc(n + 1, sizeof(*f));
    struct lang **of = calloc(n + 1, sizeof(*of));
    char(*errs)[ERR_LEN] = calloc(n + 1, sizeof(*errs));
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        struct lang *l = langs[i];
        free(l->packages);
        l->packages = NULL;
        l->npackages = 0;
        if (!l->available || l->npackages_cmd == 0 || !f || !of || !errs)
            continue;
        f[m] = (struct toolchain_filter){
            .argv = (const char *const *)l->packages_cmd, .max = PACKAGES_BYTES, .err = errs[m]};
        of[m++] = l;
    }
    if (m > 0 && toolchain_filter(f, m, PACKAGES_MS) >= 0)
        for (size_t k = 0; k < m; k++) {
            struct lang_package *list = calloc(PACKAGES_MAX, sizeof(*list));
            if (f[k].rc == 0 && list) {
                of[k]->npackages = packages_parse(f[k].out, list, PACKAGES_MAX);
                of[k]->packages = list;
                list = NULL;
            }
            free(list);
            free(f[k].out);
        }
    free(f);
    free(of);
    free(errs);
}
