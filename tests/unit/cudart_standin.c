/* A stand-in for libcudart with the five entry points server/judge/gpu uses, so the loader's
 * dlopen/dlsym path and device description run on hosts without a GPU. Real GPUs are checked
 * by `verdict doctor` on a GPU host. STANDIN_DEVICES sets the device count (default 0, which
 * answers cudaErrorNoDevice like the real runtime). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cudaRuntimeGetVersion(int *v);
int cudaDriverGetVersion(int *v);
int cudaGetDeviceCount(int *n);
const char *cudaGetErrorString(int e);
int cudaDeviceGetAttribute(int *value, int attr, int dev);
int cudaGetDeviceProperties_v2(void *prop, int dev);

int cudaRuntimeGetVersion(int *v)
{
    *v = 12080;
    return 0;
}

int cudaDriverGetVersion(int *v)
{
    *v = 13000;
    return 0;
}

int cudaGetDeviceCount(int *n)
{
    const char *env = getenv("STANDIN_DEVICES");
    *n = env ? atoi(env) : 0;
    return *n > 0 ? 0 : 100;
}

const char *cudaGetErrorString(int e)
{
    return e == 100 ? "no CUDA-capable device is detected" : "unknown error";
}

int cudaDeviceGetAttribute(int *value, int attr, int dev)
{
    *value = attr == 75 ? 9 : attr == 76 ? dev : -1;
    return 0;
}

int cudaGetDeviceProperties_v2(void *prop, int dev)
{
    memset(prop, 0x7f, 1024); /* the name must be read as a bounded string */
    snprintf(prop, 256, "Stand-in GPU %d", dev);
    return 0;
}
