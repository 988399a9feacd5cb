/*
 * engine: templates, then the cache, then GPUs (nvcc's -gencode for the first GPU's
 * architecture, sm_75 when there is none: CUDA then compiles but does not run), then cells.
 * The constants every process must agree on (the cache's cap, the uid range) live here and
 * in uidlock.h, not at each caller.
 */
#include "server/judge/engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_info.h"
#include "runners/cell.h"
#include "server/judge/gpu.h"

int engine_open(const struct engine_config *c, struct engine *e, char err[ERR_LEN])
{
    int rc = engine_load(c, e, err);
    if (rc == 0 && (rc = engine_start(c, e, err)) < 0)
        engine_close(e);
    return rc;
}

int engine_load(const struct engine_config *c, struct engine *e, char err[ERR_LEN])
{
    memset(e, 0, sizeof(*e));
    int rc = lang_load_dir(c->languages ? c->languages : VERDICT_LANGUAGES_DIR, &e->langs, err);
    if (rc < 0)
        return rc;
    lang_probe(e->langs, c->probe);
    return 0;
}

/* nvcc's flag for GPU 0's compute capability (sm_75 without a GPU or without probe), and
 * the GPU count (0 without probe: loading the CUDA runtime costs time). */
static int find_gpus(struct engine *e, bool probe)
{
    struct gpu_info g = {.count = 0};
    if (probe)
        gpu_probe(&g);
    int cc = g.count > 0 ? g.dev[0].cc_major * 10 + g.dev[0].cc_minor : 75;
    snprintf(e->env.cuda_arch, sizeof(e->env.cuda_arch),
             "-gencode=arch=compute_%d,code=[sm_%d,compute_%d]", cc, cc, cc);
    return g.count;
}

int engine_start(const struct engine_config *c, struct engine *e, char err[ERR_LEN])
{
    int rc =
        cache_open(c->cache ? c->cache : VERDICT_CACHE_DIR, ENGINE_CACHE_BYTES, &e->cache, err);
    if (rc < 0)
        goto fail;
    e->gpus = find_gpus(e, !c->no_gpu_cells);
    int nb = 0;
    const char *const *lb = lang_binds(e->langs, &nb);
    const char *binds[CELL_MAX_BINDS];
    if (nb > CELL_MAX_BINDS - 1) { /* the cache takes the last slot */
        rc = err_set(err, -E2BIG, "the languages need %d toolchain binds; cells hold %d", nb,
                     CELL_MAX_BINDS - 1);
        goto fail;
    }
    for (int i = 0; i < nb; i++)
        binds[i] = lb[i];
    binds[nb++] = cache_dir(e->cache);
    /* uid_base/uid_count/uid_lock_dir 0: the host-wide range, taken slot by slot with locks */
    struct pool_config pc = {.cells = c->cells,
                             .max_cells = c->max_cells,
                             .idle_ms = c->cell_idle_ms,
                             .nbinds = nb,
                             .binds = binds,
                             .gpus = e->gpus};
    if ((rc = pool_new(&pc, &e->pool, err)) < 0)
        goto fail;
    e->env.pool = e->pool;
    e->env.cache = e->cache;
    e->env.gpus = e->gpus;
    e->env.cells = c->cells;
    const char *warm = c->python_warm ? c->python_warm : getenv("VERDICT_PYTHON_WARM");
    e->env.cold = warm && strcmp(warm, "off") == 0;
    return 0;
fail:
    pool_free(e->pool);
    cache_close(e->cache);
    e->pool = NULL;
    e->cache = NULL;
    return rc;
}

void engine_close(struct engine *e)
{
    pool_free(e->pool);
    cache_close(e->cache);
    lang_set_free(e->langs);
    memset(e, 0, sizeof(*e));
}
