// GPU reference for 13-count-if: the array is generated on the device; warps walk it in
// warp-aligned chunks of 32 (so every lane takes part in each vote), take a ballot of the
// predicate, and keep the count (popcount of the ballot), the first index (lowest set bit of the
// first non-empty ballot) and the last (highest set bit of the latest one). Lane 0 of each warp
// then folds its results into the global ones with atomicAdd, atomicMin and atomicMax.
#include <climits>
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

const int THREADS = 256;  // a multiple of 32
const unsigned FULL = 0xffffffffu;

__global__ void generate(uint32_t *a, int n, uint32_t seed)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[i] = gen(seed, (uint32_t)i);
}

// res[0] = count, res[1] = first index (INT_MAX if none), res[2] = last index (-1 if none)
__global__ void count_if(const uint32_t *a, int n, uint32_t k, uint32_t r, int *res)
{
    int lane = threadIdx.x % 32;
    long long stride = (long long)gridDim.x * blockDim.x;  // a multiple of 32
    int count = 0, first = INT_MAX, last = -1;
    // base is the same for all lanes of a warp, so the loop and the ballot are warp-uniform
    for (long long base = (long long)blockIdx.x * blockDim.x + (threadIdx.x - lane); base < n;
         base += stride) {
        long long i = base + lane;
        bool pred = i < n && a[i] % k == r;
        unsigned mask = __ballot_sync(FULL, pred);
        if (mask) {
            count += __popc(mask);
            if (first == INT_MAX)
                first = (int)base + __ffs((int)mask) - 1;
            last = (int)base + 31 - __clz((int)mask);
        }
    }
    if (lane == 0 && count > 0) {
        atomicAdd(&res[0], count);
        atomicMin(&res[1], first);
        atomicMax(&res[2], last);
    }
}

int main()
{
    int n;
    long long k, r;
    unsigned long long seed;
    if (scanf("%d %lld %lld %llu", &n, &k, &r, &seed) != 4 || n < 1 || k < 1 || r < 0 || r >= k)
        return 1;
    uint32_t *a;
    int *res;
    CK(cudaMalloc(&a, n * sizeof(uint32_t)));
    CK(cudaMalloc(&res, 3 * sizeof(int)));
    int init[3] = {0, INT_MAX, -1};
    CK(cudaMemcpy(res, init, sizeof(init), cudaMemcpyHostToDevice));

    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > 2048)
        blocks = 2048;
    generate<<<blocks, THREADS>>>(a, n, (uint32_t)seed);
    CK(cudaGetLastError());
    count_if<<<blocks, THREADS>>>(a, n, (uint32_t)k, (uint32_t)r, res);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    int h[3];
    CK(cudaMemcpy(h, res, sizeof(h), cudaMemcpyDeviceToHost));
    if (h[0] == 0)
        printf("0 -1 -1\n");
    else
        printf("%d %d %d\n", h[0], h[1], h[2]);
    CK(cudaFree(a));
    CK(cudaFree(res));
    return 0;
}
