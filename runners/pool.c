/*
 * pool: cells, a free list, and replacement of the dead.
 *
 * A mutex guards the busy flags; a caller waits on a condition variable for a free cell, runs
 * its job without the lock held, and returns the cell. A cell whose run fails (it died or
 * spoke garbage) is stopped and restarted in place before the job is retried once.
 */
#include "runners/pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "runners/cell.h"
#include "runners/cgroup.h"
#include "runners/uidlock.h"

struct slot {
    struct cell *cell; /* NULL while being replaced after a failed restart */
    struct cell_config cfg;
    struct uid_slot uid;  /* cfg.uid's lock, held for the slot's life (replacements keep it) */
    struct uid_slot guid; /* cfg.grader_uid's, likewise */
    bool busy;
};

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t freed;
    struct cg_tree tree;
    int n;
    int gpus; /* GPU cells, after the ordinary ones */
    unsigned replaced;
    struct slot *slots;
    char *exe; /* copies of the configuration's strings, which every slot's cfg borrows */
    int nbinds;
    char **binds;
};

/* Copies exe (or /proc/self/exe's target) and binds into p. */
static int keep_strings(struct pool *p, const struct pool_config *cfg, char err[ERR_LEN])
{
    char self[4096];
    const char *exe = cfg->exe;
    if (!exe) {
        ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
        if (n < 0)
            return err_set(err, -errno, "/proc/self/exe: %m");
        self[n] = '\0';
        exe = self;
    }
    if (!(p->exe = strdup(exe)) || !(p->binds = calloc((size_t)cfg->nbinds + 1, sizeof(*p->binds))))
        return err_set(err, -ENOMEM, "out of memory");
    for (; p->nbinds < cfg->nbinds; p->nbinds++)
        if (!(p->binds[p->nbinds] = strdup(cfg->binds[p->nbinds])))
            return err_set(err, -ENOMEM, "out of memory");
    return 0;
}

int pool_new(const struct pool_config *cfg, struct pool **out, char err[ERR_LEN])
{
    *out = NULL;
    if (cfg->cells < 1 || cfg->cells > POOL_MAX_CELLS)
        return err_set(err, -EINVAL, "cells must be 1..%d, not %d", POOL_MAX_CELLS, cfg->cells);
    if (cfg->gpus < 0 || cfg->gpus > 64)
        return err_set(err, -EINVAL, "gpus must be 0..64, not %d", cfg->gpus);
    struct cg_host host;
    int rc = cg_detect(&host, err);
    if (rc < 0)
        return rc;
    struct pool *p = calloc(1, sizeof(*p));
    int total = cfg->cells + cfg->gpus;
    if (!p || !(p->slots = calloc((size_t)total, sizeof(*p->slots)))) {
        free(p);
        return err_set(err, -ENOMEM, "out of memory");
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->freed, NULL);
    if ((rc = keep_strings(p, cfg, err)) < 0 || (rc = cg_tree_create(&host, &p->tree, err)) < 0) {
        pool_free(p);
        return rc;
    }
    p->gpus = cfg->gpus;
    for (int i = 0; i < total; i++) {
        uidlock_init(&p->slots[i].uid);
        uidlock_init(&p->slots[i].guid);
    }
    for (int i = 0; i < total && rc == 0; i++) {
        struct slot *s = &p->slots[i];
        p->n = i + 1;
        if ((rc = uidlock_take(cfg->uid_lock_dir, cfg->uid_base, cfg->uid_count, &s->uid, err)) <
                0 ||
            (rc = uidlock_take(cfg->uid_lock_dir, cfg->uid_base, cfg->uid_count, &s->guid, err)) <
                0)
            break;
        s->cfg = (struct cell_config){.exe = p->exe,
                                      .index = i,
                                      .uid = s->uid.uid,
                                      .gid = s->uid.uid,
                                      .grader_uid = s->guid.uid,
                                      .tree = &p->tree,
                                      .nbinds = p->nbinds,
                                      .binds = (const char *const *)p->binds,
                                      .tmpfs_bytes = cfg->tmpfs_bytes,
                                      .tmpfs_inodes = cfg->tmpfs_inodes,
                                      .gpu_cell = i >= cfg->cells,
                                      .gpu = i - cfg->cells};
        rc = cell_start(&s->cfg, &s->cell, err);
    }
    if (rc < 0) {
        pool_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

/* A free cell of the kind asked for (a GPU cell or an ordinary one); waits for one. */
static struct slot *acquire(struct pool *p, bool gpu)
{
    pthread_mutex_lock(&p->lock);
    struct slot *s = NULL;
    while (!s) {
        for (int i = 0; i < p->n && !s; i++)
            if (!p->slots[i].busy && p->slots[i].cfg.gpu_cell == gpu)
                s = &p->slots[i];
        if (!s)
            pthread_cond_wait(&p->freed, &p->lock);
    }
    s->busy = true;
    pthread_mutex_unlock(&p->lock);
    return s;
}

static void release(struct pool *p, struct slot *s)
{
    pthread_mutex_lock(&p->lock);
    s->busy = false;
    pthread_cond_broadcast(&p->freed); /* waiters may want either kind */
    pthread_mutex_unlock(&p->lock);
}

/* Replaces a dead cell; on failure the slot stays empty and the next run tries again. */
static void replace(struct pool *p, struct slot *s, char err[ERR_LEN])
{
    cell_stop(s->cell);
    s->cell = NULL;
    pthread_mutex_lock(&p->lock);
    p->replaced++;
    pthread_mutex_unlock(&p->lock);
    cell_start(&s->cfg, &s->cell, err);
}

static void run_on(struct pool *p, bool gpu, const struct job *j, struct job_result *res,
                   uint8_t **payload)
{
    struct slot *s = acquire(p, gpu);
    char err[ERR_LEN] = "";
    int rc = -EIO;
    *payload = NULL;
    for (int attempt = 0; attempt < 2 && rc < 0; attempt++) {
        if (!s->cell)
            replace(p, s, err);
        if (s->cell && (rc = cell_run(s->cell, j, res, payload, err)) < 0)
            replace(p, s, err); /* so the next job finds a working cell */
    }
    release(p, s);
    if (rc < 0) {
        memset(res, 0, sizeof(*res));
        res->status = JOB_SE;
        res->exit_code = -1;
        snprintf(res->message, sizeof(res->message), "sandbox cell failed twice: %.200s", err);
    }
}

void pool_run(struct pool *p, const struct job *j, struct job_result *res, uint8_t **payload)
{
    run_on(p, false, j, res, payload);
}

void pool_run_gpu(struct pool *p, const struct job *j, struct job_result *res, uint8_t **payload)
{
    if (p->gpus == 0) {
        *payload = NULL;
        memset(res, 0, sizeof(*res));
        res->status = JOB_SE;
        res->exit_code = -1;
        snprintf(res->message, sizeof(res->message), "no GPU on this server");
        return;
    }
    run_on(p, true, j, res, payload);
}

unsigned pool_replaced(struct pool *p)
{
    pthread_mutex_lock(&p->lock);
    unsigned n = p->replaced;
    pthread_mutex_unlock(&p->lock);
    return n;
}

unsigned pool_cell_uid(struct pool *p, int i)
{
    pthread_mutex_lock(&p->lock);
    unsigned uid = i >= 0 && i < p->n ? p->slots[i].uid.uid : 0;
    pthread_mutex_unlock(&p->lock);
    return uid;
}

int pool_cell_pid(struct pool *p, int i)
{
    pthread_mutex_lock(&p->lock);
    int pid = i >= 0 && i < p->n && p->slots[i].cell ? (int)cell_pid(p->slots[i].cell) : -1;
    pthread_mutex_unlock(&p->lock);
    return pid;
}

void pool_free(struct pool *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->n; i++) {
        cell_stop(p->slots[i].cell);
        uidlock_give(&p->slots[i].uid); /* after the cell and its jobs are gone */
        uidlock_give(&p->slots[i].guid);
    }
    cg_tree_remove(&p->tree);
    pthread_cond_destroy(&p->freed);
    pthread_mutex_destroy(&p->lock);
    free(p->slots);
    for (int i = 0; i < p->nbinds; i++)
        free(p->binds[i]);
    free(p->binds);
    free(p->exe);
    free(p);
}
