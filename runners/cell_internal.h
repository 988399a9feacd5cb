/*
 * cell_internal: the cell's configuration message (CELL_CONFIG), which the server encodes and
 * the cell decodes before it builds its sandbox, exposed for the fuzzer
 * (tests/fuzz/fuzz_wire.c). Not a contract for other modules (they use cell.h).
 */
#ifndef VERDICT_CELL_INTERNAL_H
#define VERDICT_CELL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "runners/cell.h"
#include "runners/wire.h"

#define CELL_MAX_GPU 1023 /* the highest GPU index a configuration may name */

/* A cell's configuration as decoded inside the cell; binds borrow from the message. */
struct cell_setup {
    int index;
    unsigned uid, gid, grader_uid;
    struct cg_tree tree;
    int nbinds;
    const char *binds[CELL_MAX_BINDS];
    uint64_t tmpfs_bytes;  /* bytes */
    uint32_t tmpfs_inodes; /* inodes */
    bool gpu_cell;
    int gpu; /* 0..CELL_MAX_GPU when gpu_cell */
};

/* Appends cfg's CELL_CONFIG payload to b (zero tmpfs fields as their defaults). Check b->err
 * afterwards. */
void cell_encode_config(const struct cell_config *cfg, struct buf *b);

/* Decodes a CELL_CONFIG payload. Returns 0, or -EBADMSG for a short message, a count past its
 * bound (CG_MAX_DIRS, CELL_MAX_BINDS), a cgroup version or GPU index out of range, or a cgroup
 * path of CG_PATH bytes or more. */
int cell_decode_config(struct rbuf *r, struct cell_setup *cs);

#endif
