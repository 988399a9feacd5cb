/*
 * gpu: finding NVIDIA GPUs through the CUDA runtime, loaded with dlopen at run time.
 *
 * verdict has no link-time dependency on CUDA: a host without libcudart simply reports "no
 * CUDA runtime", and one with the runtime but no driver or device reports "no GPU".
 */
#ifndef VERDICT_GPU_H
#define VERDICT_GPU_H

#include <stdbool.h>

#include "runners/err.h"

#define GPU_MAX 16

struct gpu_device {
    char name[128]; /* e.g. "NVIDIA H200" */
    int cc_major;   /* compute capability, e.g. 9 */
    int cc_minor;   /* e.g. 0 */
};

struct gpu_info {
    bool runtime;           /* a libcudart was loaded */
    char runtime_path[256]; /* which one (as passed to dlopen) */
    int runtime_version;    /* CUDA runtime version, 1000*major + 10*minor (13000 = 13.0) */
    int driver_version;     /* same encoding; 0 when no driver is installed */
    int count;              /* devices found (at most GPU_MAX are described) */
    struct gpu_device dev[GPU_MAX];
    char detail[ERR_LEN]; /* one line for humans: why count is 0, or a summary */
};

/* Loads the CUDA runtime (VERDICT_CUDART if set, else the usual sonames and
 * /usr/local/cuda/lib64) in a throw-away child, counts the devices and reads their names and
 * compute capabilities. The driver's state never enters the caller. Always fills out; returns
 * 0, or a negative errno only when the probe itself could not run (fork failed, timed out). */
int gpu_probe(struct gpu_info *out);

#endif
