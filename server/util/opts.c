/*
 * opts: the flag parser.
 *
 * One pass over argv with no global state (unlike getopt), so subcommands and tests can call it
 * repeatedly. Numbers are parsed strictly: the whole value must be consumed, overflow is
 * -ERANGE, and a negative size or duration is refused.
 */
#include "server/util/opts.h"
#include "server/util/opts_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int opts_parse_bytes(const char *s, uint64_t *out)
{
    if (!s || !isdigit((unsigned char)*s))
        return -EINVAL;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s)
        return -EINVAL;
    if (errno == ERANGE)
        return -ERANGE;
    unsigned shift = 0;
    switch (*end) {
    case 'k':
    case 'K':
        shift = 10;
        end++;
        break;
    case 'm':
    case 'M':
        shift = 20;
        end++;
        break;
    case 'g':
    case 'G':
        shift = 30;
        end++;
        break;
    case 't':
    case 'T':
        shift = 40;
        end++;
        break;
    default:
        break;
    }
    if (shift && (*end == 'i' || *end == 'I'))
        end++;
    if (*end == 'b' || *end == 'B')
        end++;
    if (*end != '\0')
        return -EINVAL;
    if (shift && v > (UINT64_MAX >> shift))
        return -ERANGE;
    *out = (uint64_t)v << shift;
    return 0;
}

int opts_parse_duration_ms(const char *s, int64_t *out)
{
    if (!s || !(isdigit((unsigned char)*s) || *s == '.'))
        return -EINVAL; /* also refuses signs, spaces, "nan" and "inf" */
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (end == s)
        return -EINVAL;
    if (errno == ERANGE || !isfinite(v))
        return -ERANGE;
    double scale;
    if (strcmp(end, "") == 0 || strcmp(end, "s") == 0)
        scale = 1000;
    else if (strcmp(end, "ms") == 0)
        scale = 1;
    else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
        scale = 60000;
    else
        return -EINVAL;
    double ms = v * scale;
    if (ms > 9.0e15)
        return -ERANGE;
    *out = (int64_t)llround(ms);
    return 0;
}

static int parse_long(const char *s, long min, long max, long *out)
{
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0')
        return -EINVAL;
    if (errno == ERANGE || v < min || v > max)
        return -ERANGE;
    *out = v;
    return 0;
}

static int set_value(const struct opt *o, const char *value, char err[ERR_LEN])
{
    int rc = 0;
    switch (o->kind) {
    case OPT_STRING:
        *(const char **)o->dest = value;
        return 0;
    case OPT_INT:
        rc = parse_long(value, o->min, o->max, (long *)o->dest);
        if (rc == -ERANGE)
            return err_set(err, -EINVAL, "--%s: %s is out of range [%ld, %ld]", o->name, value,
                           o->min, o->max);
        break;
    case OPT_BYTES:
        rc = opts_parse_bytes(value, (uint64_t *)o->dest);
        break;
    case OPT_DURATION:
        rc = opts_parse_duration_ms(value, (int64_t *)o->dest);
        break;
    case OPT_LIST: {
        struct opt_list *l = o->dest;
        if (l->n >= OPT_LIST_MAX)
            return err_set(err, -EINVAL, "--%s given more than %d times", o->name, OPT_LIST_MAX);
        l->items[l->n++] = value;
        return 0;
    }
    case OPT_FLAG:
        return err_set(err, -EINVAL, "--%s takes no value", o->name);
    }
    if (rc < 0)
        return err_set(err, -EINVAL, "--%s: invalid %s '%s'", o->name,
                       o->metavar ? o->metavar : "value", value);
    return 0;
}

static const struct opt *find_long(const struct opt *t, const char *name, size_t len)
{
    for (; t->name; t++)
        if (strlen(t->name) == len && strncmp(t->name, name, len) == 0)
            return t;
    return NULL;
}

static const struct opt *find_short(const struct opt *t, char c)
{
    for (; t->name; t++)
        if (t->short_name && t->short_name == c)
            return t;
    return NULL;
}

/* The option at argv[*i] and its value (NULL for a flag), with *i moved past both. Returns 1,
 * 0 at the first positional argument or "--" (*i left on it), or -EINVAL with err. */
static int next_opt(const struct opt *table, int argc, char **argv, int *i, const struct opt **o,
                    const char **value, char err[ERR_LEN])
{
    if (*i >= argc)
        return 0;
    const char *a = argv[*i];
    if (strcmp(a, "--") == 0 || a[0] != '-' || a[1] == '\0')
        return 0; /* "--", or a positional ("-" alone means stdin, a positional) */
    *value = NULL;
    if (a[1] == '-') {
        const char *eq = strchr(a + 2, '=');
        size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
        *o = find_long(table, a + 2, len);
        *value = eq ? eq + 1 : NULL;
        if (!*o)
            return err_set(err, -EINVAL, "unknown option --%.*s", (int)len, a + 2);
    } else {
        *o = a[2] == '\0' ? find_short(table, a[1]) : NULL;
        if (!*o)
            return err_set(err, -EINVAL, "unknown option %s", a);
    }
    (*i)++;
    if ((*o)->kind == OPT_FLAG) {
        if (*value)
            return err_set(err, -EINVAL, "--%s takes no value", (*o)->name);
        return 1;
    }
    if (!*value) {
        if (*i >= argc)
            return err_set(err, -EINVAL, "--%s needs a value (%s)", (*o)->name,
                           (*o)->metavar ? (*o)->metavar : "value");
        *value = argv[(*i)++];
    }
    return 1;
}

int opts_parse(const struct opt *table, int argc, char **argv, int start, bool *dashdash,
               char err[ERR_LEN])
{
    if (dashdash)
        *dashdash = false;
    int i = start, rc;
    const struct opt *o;
    const char *value;
    while ((rc = next_opt(table, argc, argv, &i, &o, &value, err)) == 1) {
        if (o->kind == OPT_FLAG)
            *(bool *)o->dest = true;
        else if ((rc = set_value(o, value, err)) < 0)
            return rc;
    }
    if (rc < 0)
        return rc;
    if (i < argc && strcmp(argv[i], "--") == 0) {
        if (dashdash)
            *dashdash = true;
        return i + 1;
    }
    return i;
}

void opts_usage(FILE *out, const struct opt *table)
{
    for (const struct opt *o = table; o->name; o++) {
        char flag[64];
        const char *mv = o->metavar ? o->metavar : "";
        if (o->short_name)
            snprintf(flag, sizeof(flag), "-%c, --%s %s", o->short_name, o->name, mv);
        else
            snprintf(flag, sizeof(flag), "    --%s %s", o->name, mv);
        fprintf(out, "  %-30s %s\n", flag, o->help);
    }
}

const char *opts_peek(const struct opt *table, int argc, char **argv, int start, const char *name)
{
    char err[ERR_LEN]; /* a bad command line is opts_parse's to report */
    const struct opt *o;
    const char *value, *found = NULL;
    for (int i = start; next_opt(table, argc, argv, &i, &o, &value, err) == 1;)
        if (strcmp(o->name, name) == 0)
            found = value;
    return found;
}

/* Sets o from a string that came from outside argv; where says where (for err). */
static int set_from(const struct opt *o, const char *value, const char *where, char err[ERR_LEN])
{
    int rc = 0;
    if (o->kind == OPT_FLAG) {
        const char *yes[] = {"1", "true", "yes"}, *no[] = {"0", "false", "no"};
        for (int i = 0; i < 3; i++) {
            if (strcmp(value, yes[i]) == 0 || strcmp(value, no[i]) == 0) {
                *(bool *)o->dest = strcmp(value, yes[i]) == 0;
                return 0;
            }
        }
        err_set(err, -EINVAL, "--%s takes 1/true/yes or 0/false/no, not '%s'", o->name, value);
        rc = -EINVAL;
    } else {
        rc = set_value(o, value, err);
    }
    if (rc < 0) {
        char inner[ERR_LEN];
        snprintf(inner, sizeof(inner), "%s", err);
        return err_set(err, -EINVAL, "%s: %s", where, inner);
    }
    return 0;
}

int opts_env(const struct opt *table, const char *prefix, char err[ERR_LEN])
{
    for (const struct opt *o = table; o->name; o++) {
        if (strcmp(o->name, "help") == 0)
            continue;
        char var[128];
        int n = snprintf(var, sizeof(var), "%s", prefix);
        for (const char *c = o->name; *c && n < (int)sizeof(var) - 1; c++)
            var[n++] = *c == '-' ? '_' : (char)toupper((unsigned char)*c);
        var[n] = '\0';
        const char *v = getenv(var);
        if (v && *v && set_from(o, v, var, err) < 0)
            return -EINVAL;
    }
    return 0;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

int opts_file(const struct opt *table, const char *path, char err[ERR_LEN])
{
    FILE *f = fopen(path, "re");
    if (!f)
        return err_set(err, -EINVAL, "--config %s: %s", path, strerror(errno));
    char line[4096], where[300];
    int rc = 0;
    for (int no = 1; rc == 0 && fgets(line, sizeof(line), f); no++) {
        snprintf(where, sizeof(where), "%s:%d", path, no);
        size_t len = strlen(line);
        if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
            rc = err_set(err, -EINVAL, "%s: line too long", where);
            break;
        }
        char *l = trim(line), *eq = strchr(l, '=');
        if (*l == '\0' || *l == '#')
            continue;
        if (!eq) {
            rc = err_set(err, -EINVAL, "%s: expected name = value", where);
            break;
        }
        *eq = '\0';
        char *name = trim(l), *value = trim(eq + 1);
        const struct opt *o = find_long(table, name, strlen(name));
        if (!o || strcmp(name, "help") == 0 || strcmp(name, "config") == 0) {
            rc = err_set(err, -EINVAL, "%s: unknown option '%s'", where, name);
            break;
        }
        char *kept = strdup(value); /* strings and lists borrow it for the process's life */
        if (!kept) {
            rc = err_set(err, -ENOMEM, "%s: out of memory", where);
            break;
        }
        rc = set_from(o, kept, where, err);
        if (rc < 0 || (o->kind != OPT_STRING && o->kind != OPT_LIST))
            free(kept);
    }
    if (rc == 0 && ferror(f))
        rc = err_set(err, -EINVAL, "%s: read error", path);
    fclose(f);
    return rc;
}
