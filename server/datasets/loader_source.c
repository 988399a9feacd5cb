/*
 * loader_source: what the loader knows of a source before reading it: its fingerprint (a
 * SHA-256 over the loader's version and the bytes of the file, or of a directory's files and
 * their names in name order) and the dataset name a file or directory found under a datasets
 * directory gets.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/datasets/loader_impl.h"
#include "server/util/sha256.h"
#include "server/util/slurp.h"

/* Changed whenever a normaliser changes what it produces, so stored datasets are re-read. */
#define LOADER_VERSION "verdict-loader-4"

static int hash_tree(struct sha256 *h, const char *path, const char *rel, char err[ERR_LEN])
{
    if (!loader_is_dir(path)) {
        char *data;
        size_t len;
        int rc = slurp(path, LOADER_MAX_FILE, &data, &len, err);
        if (rc < 0)
            return rc;
        sha256_update(h, rel, strlen(rel) + 1);
        sha256_update(h, &len, sizeof(len));
        sha256_update(h, data, len);
        free(data);
        return 0;
    }
    struct dirent **ents;
    int n = scandir(path, &ents, loader_visible, alphasort), rc = 0;
    if (n < 0)
        return err_set(err, -errno, "%.200s: %m", path);
    for (int i = 0; i < n; i++) {
        char sub[4096], subrel[4096];
        loader_pathf(sub, sizeof(sub), "%s/%s", path, ents[i]->d_name);
        snprintf(subrel, sizeof(subrel), "%s/%s", rel, ents[i]->d_name);
        if (rc == 0)
            rc = hash_tree(h, sub, subrel, err);
        free(ents[i]);
    }
    free(ents);
    return rc;
}

int loader_fingerprint(const char *path, char hex[65], char err[ERR_LEN])
{
    struct sha256 h;
    sha256_init(&h);
    sha256_update(&h, LOADER_VERSION, sizeof(LOADER_VERSION));
    int rc = hash_tree(&h, path, ".", err);
    if (rc == 0)
        sha256_hex(&h, hex);
    return rc;
}

int loader_default_name(const char *relpath, int dir, char *name, size_t cap)
{
    static const struct {
        const char *path, *name;
    } known[] = {
        {"HumanEval.jsonl.gz", "humaneval"},
        {"mbpp/mbpp.jsonl", "mbpp"},
        {"mbpp/sanitized-mbpp.json", "mbpp_sanitized"},
        {"humaneval-x/humaneval_cpp.jsonl.gz", "humanevalx_cpp"},
        {"humaneval-x/humaneval_go.jsonl.gz", "humanevalx_go"},
        {"humaneval-x/humaneval_rust.jsonl.gz", "humanevalx_rust"},
        {"multipl-e/humaneval-cpp.jsonl", "multiple_cpp"},
        {"multipl-e/humaneval-go.jsonl", "multiple_go"},
        {"multipl-e/humaneval-rs.jsonl", "multiple_rs"},
        {"multipl-e/mbpp-cpp.jsonl", "multiple_mbpp_cpp"},
        {"multipl-e/mbpp-go.jsonl", "multiple_mbpp_go"},
        {"multipl-e/mbpp-rs.jsonl", "multiple_mbpp_rs"},
        {"multipl-e/humaneval-cs.jsonl", "multiple_cs"},
        {"multipl-e/humaneval-d.jsonl", "multiple_d"},
        {"multipl-e/humaneval-java.jsonl", "multiple_java"},
        {"multipl-e/humaneval-jl.jsonl", "multiple_jl"},
        {"multipl-e/humaneval-js.jsonl", "multiple_js"},
        {"multipl-e/humaneval-lua.jsonl", "multiple_lua"},
        {"multipl-e/humaneval-php.jsonl", "multiple_php"},
        {"multipl-e/humaneval-pl.jsonl", "multiple_pl"},
        {"multipl-e/humaneval-r.jsonl", "multiple_r"},
        {"multipl-e/humaneval-rb.jsonl", "multiple_rb"},
        {"multipl-e/humaneval-rkt.jsonl", "multiple_rkt"},
        {"multipl-e/humaneval-scala.jsonl", "multiple_scala"},
        {"multipl-e/humaneval-sh.jsonl", "multiple_sh"},
        {"multipl-e/humaneval-swift.jsonl", "multiple_swift"},
        {"multipl-e/humaneval-ts.jsonl", "multiple_ts"},
        {"multipl-e/mbpp-cs.jsonl", "multiple_mbpp_cs"},
        {"multipl-e/mbpp-d.jsonl", "multiple_mbpp_d"},
        {"multipl-e/mbpp-java.jsonl", "multiple_mbpp_java"},
        {"multipl-e/mbpp-jl.jsonl", "multiple_mbpp_jl"},
        {"multipl-e/mbpp-js.jsonl", "multiple_mbpp_js"},
        {"multipl-e/mbpp-lua.jsonl", "multiple_mbpp_lua"},
        {"multipl-e/mbpp-php.jsonl", "multiple_mbpp_php"},
        {"multipl-e/mbpp-pl.jsonl", "multiple_mbpp_pl"},
        {"multipl-e/mbpp-r.jsonl", "multiple_mbpp_r"},
        {"multipl-e/mbpp-rb.jsonl", "multiple_mbpp_rb"},
        {"multipl-e/mbpp-rkt.jsonl", "multiple_mbpp_rkt"},
        {"multipl-e/mbpp-scala.jsonl", "multiple_mbpp_scala"},
        {"multipl-e/mbpp-sh.jsonl", "multiple_mbpp_sh"},
        {"multipl-e/mbpp-swift.jsonl", "multiple_mbpp_swift"},
        {"multipl-e/mbpp-ts.jsonl", "multiple_mbpp_ts"},
        {"stdio/sandboxfusion_code_contests.jsonl", "code_contests"},
    };
    for (size_t i = 0; !dir && i < sizeof(known) / sizeof(known[0]); i++)
        if (strcmp(relpath, known[i].path) == 0) {
            snprintf(name, cap, "%s", known[i].name);
            return 0;
        }
    const char *base = strrchr(relpath, '/');
    base = base ? base + 1 : relpath;
    size_t len = strlen(base);
    static const char *const exts[] = {".jsonl.gz", ".jsonl", ".json.gz", ".json"};
    size_t keep = 0;
    for (size_t i = 0; !dir && !keep && i < sizeof(exts) / sizeof(exts[0]); i++) {
        size_t el = strlen(exts[i]);
        if (len > el && strcmp(base + len - el, exts[i]) == 0)
            keep = len - el;
    }
    if (!dir && !keep)
        return -ENOENT;
    /* A problem-set directory is verdict_<dir>; a file is <dir>_<stem> (mceval/C -> mceval_c). */
    char raw[512];
    if (dir)
        snprintf(raw, sizeof(raw), "verdict_%s", base);
    else if (base != relpath)
        snprintf(raw, sizeof(raw), "%.*s_%.*s", (int)(base - 1 - relpath), relpath, (int)keep,
                 base);
    else
        snprintf(raw, sizeof(raw), "%.*s", (int)keep, base);
    size_t w = 0;
    for (const char *p = raw; *p && w + 1 < cap; p++)
        name[w++] = isalnum((unsigned char)*p) ? (char)tolower((unsigned char)*p) : '_';
    name[w] = '\0';
    return 0;
}
