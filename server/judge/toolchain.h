/*
 * toolchain: the compilers and interpreters verdict can offer, found on the host with their
 * versions.
 *
 * Each toolchain has a list of candidate locations (absolute paths first, then names looked up
 * in PATH) and a version command. Python is Debian's /usr/bin/python3 only (a pyenv shim on
 * PATH starts an order of magnitude slower); rustc is the rustup toolchain's own binary, never
 * the rustup proxy. The languages issue builds on this table.
 */
#ifndef VERDICT_TOOLCHAIN_H
#define VERDICT_TOOLCHAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "runners/err.h"

#define TOOLCHAIN_PATH    512
#define TOOLCHAIN_VERSION 160

struct toolchain_found {
    const char *name;                /* "gcc", "python3", ...; static */
    bool found;                      /* an executable was located */
    bool ok;                         /* and its version command succeeded */
    char path[TOOLCHAIN_PATH];       /* the executable that will be used */
    char version[TOOLCHAIN_VERSION]; /* the version line it printed */
    char err[ERR_LEN];               /* why not found / not ok */
};

/* Number of toolchains in the table (the size of the array toolchain_probe_all fills). */
size_t toolchain_count(void);

/* Locates every toolchain and runs all version commands in parallel, each with stdin from
 * /dev/null, killing any still running after timeout_ms. Fills out[0..toolchain_count()).
 * Returns the number found and working. */
int toolchain_probe_all(struct toolchain_found *out, int timeout_ms);

/* One version command for toolchain_versions: argv (argv[0] an absolute path) and pick in,
 * the version line (out, cap bytes) and rc (0, or a negative errno with the reason in err:
 * not executable, failed, timed out, no version line) back. */
struct toolchain_ask {
    const char *const *argv;
    const char *pick;
    char *out;
    size_t cap;
    char *err; /* ERR_LEN bytes */
    int rc;
};

/* Runs n version commands at once (stdin /dev/null, stdout and stderr captured), killing any
 * still running after timeout_ms, and picks each one's version line as toolchain_pick_line
 * does. Returns the number that answered, or -ENOMEM. */
int toolchain_versions(struct toolchain_ask *asks, size_t n, int timeout_ms);

/* One filter for toolchain_filter: argv (argv[0] an absolute path) reads in[0..in_len) on
 * stdin and writes at most max bytes on stdout (stderr is discarded). Back: rc (0, or a
 * negative errno with the reason in err: failed, timed out, wrote more than max), and on 0
 * the output in out (heap, NUL-terminated; the caller frees it) and out_len. */
struct toolchain_filter {
    const char *const *argv;
    const char *in;
    size_t in_len, max;
    char *out;
    size_t out_len;
    char *err; /* ERR_LEN bytes */
    int rc;
};

/* Runs n filters at once, killing any still running after timeout_ms. Returns the number
 * that succeeded, or -ENOMEM. */
int toolchain_filter(struct toolchain_filter *f, size_t n, int timeout_ms);

/* The rustup default toolchain's directory ($RUSTUP_HOME or ~/.rustup, then
 * toolchains/<default_toolchain>) into dir. Returns 0, or -ENOENT when there is none. */
int toolchain_rustup_dir(char *dir, size_t cap);

/* From a version command's output, the first line containing pick (or the first non-empty
 * line when pick is NULL), trimmed, into buf (cap bytes). Returns buf, or NULL if no line
 * matches. Pure. */
char *toolchain_pick_line(const char *output, const char *pick, char *buf, size_t cap);

/* The value of `default_toolchain = "..."` in a rustup settings.toml, into buf. Returns 0, or
 * -ENOENT when the key is absent. Pure. */
int toolchain_rustup_default(const char *settings, char *buf, size_t cap);

#endif
