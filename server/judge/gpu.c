/*
 * gpu: CUDA runtime discovery by dlopen.
 *
 * The probe runs in a child (child_run) and writes its findings into a MAP_SHARED page, so a
 * driver that hangs or crashes costs a timeout, not the server, and no CUDA state (driver
 * threads, file descriptors on /dev/nvidia*) is left in the caller. Only stable runtime entry
 * points are used: cudaRuntimeGetVersion, cudaDriverGetVersion, cudaGetDeviceCount,
 * cudaGetErrorString, cudaDeviceGetAttribute; the device name comes from cudaDeviceProp,
 * whose first member has been `char name[256]` in every CUDA release (the rest of the struct
 * changes size between releases, so it is read into a generously sized buffer).
 */
#include "server/judge/gpu.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "runners/child.h"

#define PROBE_TIMEOUT_MS 20000
#define PROP_BYTES       (16 * 1024) /* cudaDeviceProp is about 1 KiB; room for growth */
#define ATTR_CC_MAJOR    75          /* cudaDevAttrComputeCapabilityMajor */
#define ATTR_CC_MINOR    76          /* cudaDevAttrComputeCapabilityMinor */

typedef int (*int_fn)(int *);
typedef const char *(*errstr_fn)(int);
typedef int (*attr_fn)(int *, int, int);
typedef int (*prop_fn)(void *, int);

static const char *const candidates[] = {
    "libcudart.so",
    "libcudart.so.13",
    "libcudart.so.12",
    "libcudart.so.11.0",
    "/usr/local/cuda/lib64/libcudart.so",
};

static void *open_runtime(struct gpu_info *g)
{
    const char *env = getenv("VERDICT_CUDART");
    if (env && *env) {
        snprintf(g->runtime_path, sizeof(g->runtime_path), "%s", env);
        return dlopen(env, RTLD_NOW | RTLD_LOCAL);
    }
    for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
        void *h = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
        if (h) {
            snprintf(g->runtime_path, sizeof(g->runtime_path), "%s", candidates[i]);
            return h;
        }
    }
    return NULL;
}

static void describe_devices(void *lib, struct gpu_info *g)
{
    attr_fn attr = (attr_fn)dlsym(lib, "cudaDeviceGetAttribute");
    prop_fn prop = (prop_fn)dlsym(lib, "cudaGetDeviceProperties_v2");
    if (!prop)
        prop = (prop_fn)dlsym(lib, "cudaGetDeviceProperties");
    void *buf = calloc(1, PROP_BYTES);
    for (int i = 0; i < g->count && i < GPU_MAX; i++) {
        struct gpu_device *d = &g->dev[i];
        if (buf && prop && prop(buf, i) == 0)
            snprintf(d->name, sizeof(d->name), "%.127s", (const char *)buf);
        else
            snprintf(d->name, sizeof(d->name), "device %d", i);
        if (attr) {
            attr(&d->cc_major, ATTR_CC_MAJOR, i);
            attr(&d->cc_minor, ATTR_CC_MINOR, i);
        }
    }
    free(buf);
}

static int probe_fn(void *arg, char err[ERR_LEN])
{
    struct gpu_info *g = arg;
    (void)err;
    void *lib = open_runtime(g);
    if (!lib) {
        snprintf(g->detail, sizeof(g->detail), "no CUDA runtime (libcudart not found)");
        return 0;
    }
    g->runtime = true;
    int_fn rt_ver = (int_fn)dlsym(lib, "cudaRuntimeGetVersion");
    int_fn drv_ver = (int_fn)dlsym(lib, "cudaDriverGetVersion");
    int_fn count = (int_fn)dlsym(lib, "cudaGetDeviceCount");
    errstr_fn errstr = (errstr_fn)dlsym(lib, "cudaGetErrorString");
    if (!rt_ver || !count) {
        snprintf(g->detail, sizeof(g->detail), "%.200s lacks cudaGetDeviceCount", g->runtime_path);
        return 0;
    }
    rt_ver(&g->runtime_version);
    if (drv_ver)
        drv_ver(&g->driver_version);
    int n = 0, rc = count(&n);
    if (rc != 0 || n <= 0) {
        snprintf(g->detail, sizeof(g->detail), "no GPU (CUDA runtime %d.%d: %s)",
                 g->runtime_version / 1000, g->runtime_version % 1000 / 10,
                 rc == 0  ? "0 devices"
                 : errstr ? errstr(rc)
                          : "error");
        return 0;
    }
    g->count = n;
    describe_devices(lib, g);
    snprintf(g->detail, sizeof(g->detail), "%d GPU%s (CUDA runtime %d.%d, driver %d.%d)", n,
             n == 1 ? "" : "s", g->runtime_version / 1000, g->runtime_version % 1000 / 10,
             g->driver_version / 1000, g->driver_version % 1000 / 10);
    return 0;
}

int gpu_probe(struct gpu_info *out)
{
    memset(out, 0, sizeof(*out));
    struct gpu_info *shared =
        mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) {
        snprintf(out->detail, sizeof(out->detail), "GPU probe failed: mmap: %s", strerror(errno));
        return -errno;
    }
    memset(shared, 0, sizeof(*shared));
    char err[ERR_LEN] = "";
    int rc = child_run(probe_fn, shared, PROBE_TIMEOUT_MS, err);
    *out = *shared;
    munmap(shared, sizeof(*shared));
    if (rc < 0)
        snprintf(out->detail, sizeof(out->detail), "GPU probe failed: %.200s", err);
    return rc;
}
