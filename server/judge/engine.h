/*
 * engine: what judging needs, set up in one place for `verdict serve` and `verdict bench`:
 * language templates (loaded and probed), the compile cache, GPUs, and the pool of cells with
 * the toolchains and the cache bound into them.
 */
#ifndef VERDICT_ENGINE_H
#define VERDICT_ENGINE_H

#include "runners/pool.h"
#include "server/judge/cache.h"
#include "server/judge/lang.h"
#include "server/judge/program.h"

struct engine_config {
    const char *languages; /* template directory (NULL: the built-in default) */
    const char *cache;     /* compile cache directory (NULL: the default) */
    int cells;             /* CPU cells */
};

struct engine {
    struct lang_set *langs;
    struct cache *cache;
    struct pool *pool;
    int gpus;               /* GPU cells, one per GPU */
    struct program_env env; /* for judge_run and program_build */
};

/* Starts everything; on failure what was started is stopped again. Call from the thread that
 * outlives the cells (they die with it). */
int engine_open(const struct engine_config *c, struct engine *e, char err[ERR_LEN]);

void engine_close(struct engine *e);

#endif
