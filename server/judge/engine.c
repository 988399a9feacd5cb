/*
 * engine: templates, then the cache, then GPUs (nvcc's -gencode for the first GPU's
 * architecture, sm_75 when there is none: CUDA then compiles but does not run), then cells.
 */
#include "server/judge/engine.h"

#include <stdio.h>
#include <string.h>

#include "build_info.h"
#include "runners/cell.h"
#include "server/judge/gpu.h"

int engine_open(const struct engine_config *c, struct engine *e, char err[ERR_LEN])
{
    memset(e, 0, sizeof(*e));
    int rc = lang_load_dir(c->languages ? c->languages : VERDICT_LANGUAGES_DIR, &e->langs, err);
    if (rc < 0)
        return rc;
    lang_probe(e->langs, NULL);
    if ((rc = cache_open(c->cache ? c->cache : VERDICT_CACHE_DIR, 4ull << 30, &e->cache, err)) <
        0) {
        engine_close(e);
        return rc;
    }
    struct gpu_info g;
    gpu_probe(&g);
    e->gpus = g.count;
    int cc = g.count > 0 ? g.dev[0].cc_major * 10 + g.dev[0].cc_minor : 75;
    snprintf(e->env.cuda_arch, sizeof(e->env.cuda_arch),
             "-gencode=arch=compute_%d,code=[sm_%d,compute_%d]", cc, cc, cc);
    int nb = 0;
    const char *const *lb = lang_binds(e->langs, &nb);
    const char *binds[CELL_MAX_BINDS];
    nb = nb < CELL_MAX_BINDS - 1 ? nb : CELL_MAX_BINDS - 1;
    for (int i = 0; i < nb; i++)
        binds[i] = lb[i];
    binds[nb++] = cache_dir(e->cache);
    struct pool_config pc = {
        .cells = c->cells, .uid_base = 61000, .nbinds = nb, .binds = binds, .gpus = g.count};
    if ((rc = pool_new(&pc, &e->pool, err)) < 0) {
        engine_close(e);
        return rc;
    }
    e->env.pool = e->pool;
    e->env.cache = e->cache;
    e->env.gpus = e->gpus;
    return 0;
}

void engine_close(struct engine *e)
{
    pool_free(e->pool);
    cache_close(e->cache);
    lang_set_free(e->langs);
    memset(e, 0, sizeof(*e));
}
