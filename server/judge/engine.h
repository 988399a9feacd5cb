/*
 * engine: what judging needs, set up in one place for `verdict serve`, `verdict bench` and
 * `verdict run --lang`: language templates (loaded and probed), the compile cache (one size
 * cap for every process that shares it), GPUs, and the pool of cells with the toolchains and
 * the cache bound into them. Cells take their uids through uid locks (runners/uidlock.h), so
 * processes opening engines side by side never share a uid.
 */
#ifndef VERDICT_ENGINE_H
#define VERDICT_ENGINE_H

#include <stdbool.h>

#include "runners/pool.h"
#include "server/judge/cache.h"
#include "server/judge/lang.h"
#include "server/judge/program.h"

/* The compile cache's size cap, the same for every process that opens it. */
#define ENGINE_CACHE_BYTES (4ull << 30)

struct engine_config {
    const char *languages;   /* template directory (NULL: the built-in default) */
    const char *cache;       /* compile cache directory (NULL: the default) */
    int cells;               /* warm CPU cells */
    int max_cells;           /* CPU cells at most, started on demand (0: cells) */
    int cell_idle_ms;        /* a cell beyond the warm ones idle this long stops (0: default) */
    const char *probe;       /* probe only these languages' toolchains (comma-separated names or
                                aliases; NULL: every language) */
    bool no_gpu_cells;       /* neither look for GPUs nor start GPU cells (nvcc's flag: sm_75) */
    const char *python_warm; /* "on" (templates' "warm" field), "off", NULL: env
                                VERDICT_PYTHON_WARM, else on */
};

struct engine {
    struct lang_set *langs;
    struct cache *cache;
    struct pool *pool;
    int gpus;               /* GPU cells, one per GPU */
    struct program_env env; /* for judge_run and program_build */
};

/* engine_load, then engine_start; on failure everything is closed again (e is zeroed). */
int engine_open(const struct engine_config *c, struct engine *e, char err[ERR_LEN]);

/* First half: loads the templates and probes them (all, or c->probe). Returns 0, or a
 * negative errno with the reason (the directory or a template is unreadable); e holds
 * nothing on failure. Lets a caller look at e->langs before any cell starts. */
int engine_load(const struct engine_config *c, struct engine *e, char err[ERR_LEN]);

/* Second half, after engine_load: opens the cache (ENGINE_CACHE_BYTES), finds GPUs, starts
 * the cells. On failure what was started is stopped again (engine_close then frees the
 * templates). Call from the thread that outlives the cells (they die with it). */
int engine_start(const struct engine_config *c, struct engine *e, char err[ERR_LEN]);

/* Stops and frees whatever was opened; a zeroed engine is a no-op. */
void engine_close(struct engine *e);

#endif
