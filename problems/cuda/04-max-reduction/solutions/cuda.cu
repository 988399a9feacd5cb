// GPU reference for 04-max-reduction. Each element becomes two 64-bit keys whose order is the
// order we want: for the maximum, (v + 10^6) << 32 | (2^32 - 1 - i), so that among equal values
// the smallest index is the largest key; for the minimum, (v + 10^6) << 32 | i. Threads reduce
// their grid-stride slices, warps reduce with shuffles, blocks through shared memory, and one
// atomicMax / atomicMin per block combines the blocks.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define CK(call)                                                                              \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            fprintf(stderr, "CUDA error: %s at %s:%d\n", cudaGetErrorString(e_), __FILE__,  \
                    __LINE__);                                                                \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

__host__ __device__ inline uint32_t mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

__host__ __device__ inline uint32_t gen(uint32_t seed, uint32_t t) { return mix32(seed + 0x9e3779b9U * t); }

typedef unsigned long long u64;
const int THREADS = 256;
const int OFFSET = 1000000;

__global__ void generate(int *a, int n, uint32_t seed)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[i] = (int)(gen(seed, (uint32_t)i) % 2000001u) - OFFSET;
}

__global__ void minmax(const int *a, int n, u64 *best_max, u64 *best_min)
{
    __shared__ u64 smax[THREADS / 32], smin[THREADS / 32];
    u64 kmax = 0, kmin = ~0ull;  // identities: below / above every key
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        u64 v = (u64)(a[i] + OFFSET) << 32;
        u64 hi = v | (u64)(0xffffffffu - (uint32_t)i), lo = v | (uint32_t)i;
        kmax = hi > kmax ? hi : kmax;
        kmin = lo < kmin ? lo : kmin;
    }
    for (int off = 16; off > 0; off >>= 1) {
        u64 o1 = __shfl_down_sync(0xffffffffu, kmax, off);
        u64 o2 = __shfl_down_sync(0xffffffffu, kmin, off);
        kmax = o1 > kmax ? o1 : kmax;
        kmin = o2 < kmin ? o2 : kmin;
    }
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) {
        smax[warp] = kmax;
        smin[warp] = kmin;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < THREADS / 32; w++) {
            kmax = smax[w] > kmax ? smax[w] : kmax;
            kmin = smin[w] < kmin ? smin[w] : kmin;
        }
        atomicMax(best_max, kmax);
        atomicMin(best_min, kmin);
    }
}

int main()
{
    long long nn;
    unsigned long long seed;
    if (scanf("%lld %llu", &nn, &seed) != 2 || nn < 1)
        return 1;
    int n = (int)nn;
    int *a;
    u64 *keys;  // keys[0]: max key, keys[1]: min key
    CK(cudaMalloc(&a, n * sizeof(int)));
    CK(cudaMalloc(&keys, 2 * sizeof(u64)));
    u64 init[2] = {0, ~0ull};
    CK(cudaMemcpy(keys, init, sizeof(init), cudaMemcpyHostToDevice));

    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > 2048)
        blocks = 2048;
    generate<<<blocks, THREADS>>>(a, n, (uint32_t)seed);
    CK(cudaGetLastError());
    minmax<<<blocks, THREADS>>>(a, n, keys, keys + 1);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    u64 k[2];
    CK(cudaMemcpy(k, keys, sizeof(k), cudaMemcpyDeviceToHost));
    int mx = (int)(k[0] >> 32) - OFFSET, mn = (int)(k[1] >> 32) - OFFSET;
    long long imx = 0xffffffffu - (uint32_t)(k[0] & 0xffffffffu), imn = (uint32_t)(k[1] & 0xffffffffu);
    printf("%d %lld %d %lld\n", mx, imx, mn, imn);
    CK(cudaFree(a));
    CK(cudaFree(keys));
    return 0;
}
