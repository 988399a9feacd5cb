/*
 * opts: table-driven command-line flags for verdict's subcommands.
 *
 * A subcommand declares a table of `struct opt` ending in OPT_END; opts_parse() fills the
 * destinations and stops at the first positional argument or after "--". Values may be given
 * as `--name value`, `--name=value` or, with a short name, `-n value`.
 */
#ifndef VERDICT_OPTS_H
#define VERDICT_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "runners/err.h"

enum opt_kind {
    OPT_FLAG,     /* bool; takes no value */
    OPT_STRING,   /* const char * borrowed from argv */
    OPT_INT,      /* long, decimal, within [min, max] */
    OPT_BYTES,    /* uint64_t bytes: 4096, 64K, 256M, 2G (binary units) */
    OPT_DURATION, /* int64_t milliseconds: 2 (seconds), 1.5, 500ms, 2s, 1m */
    OPT_LIST,     /* struct opt_list: the flag may repeat; values borrowed from argv */
};

#define OPT_LIST_MAX 64

struct opt_list {
    int n;
    const char *items[OPT_LIST_MAX];
};

struct opt {
    const char *name; /* long name without "--"; NULL ends the table */
    char short_name;  /* 0 for none */
    enum opt_kind kind;
    void *dest; /* bool* / const char ** / long* / uint64_t* / int64_t* / struct opt_list* */
    const char *metavar; /* shown in usage, e.g. "SECONDS" */
    const char *help;    /* one line */
    long min, max;       /* bounds for OPT_INT; ignored otherwise */
};

#define OPT_END                                                                                    \
    {                                                                                              \
        NULL, 0, OPT_FLAG, NULL, NULL, NULL, 0, 0                                                  \
    }

/* Parses argv[start..argc). Returns the index of the first positional argument (argc if
 * none; the index after "--" if "--" was given, with *dashdash set when non-NULL), or -EINVAL
 * with a one-line message naming the flag in err (unknown flag, missing or malformed value,
 * out of range). */
int opts_parse(const struct opt *table, int argc, char **argv, int start, bool *dashdash,
               char err[ERR_LEN]);

/* The value of --name (or its short form) as argv[start..argc) gives it last, read the way
 * opts_parse reads (up to the first positional argument, "--" or malformed option), or NULL;
 * nothing is set. For options that say where other options come from (--config). */
const char *opts_peek(const struct opt *table, int argc, char **argv, int start, const char *name);

/* Sets options from the environment: for each option but help, PREFIX and its name in upper
 * case with '-' as '_' (VERDICT_MAX_BODY for --max-body). A flag takes 1/true/yes or
 * 0/false/no. Values are borrowed from the environment. Returns 0, or -EINVAL with err naming
 * the variable. */
int opts_env(const struct opt *table, const char *prefix, char err[ERR_LEN]);

/* Sets options from a file of `name = value` lines (long names without "--"; blank lines and
 * lines starting with '#' ignored; a flag takes a value as in opts_env). String values are
 * kept for the life of the process. Returns 0, or -EINVAL with err naming the file and line
 * (unreadable file, unknown name, bad value, a line over 4 KiB). */
int opts_file(const struct opt *table, const char *path, char err[ERR_LEN]);

/* Prints one line per option: "  -s, --name METAVAR   help". */
void opts_usage(FILE *out, const struct opt *table);

#endif
