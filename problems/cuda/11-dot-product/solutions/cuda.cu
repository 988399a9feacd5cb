// GPU reference for 11-dot-product: x and y are generated on the device; one kernel computes the
// three dot products: 64-bit per-thread sums over a grid-stride slice, warp shuffles, one value
// per warp in shared memory, and one atomicAdd per block and product (two's complement in
// unsigned long long, so negative sums add up correctly).
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
const int THREADS = 256;  // a multiple of 32
const unsigned FULL = 0xffffffffu;

__global__ void generate(int *x, int *y, int n, uint32_t seed)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        x[i] = (int)(gen(seed, (uint32_t)i) % 2001u) - 1000;
        y[i] = (int)(gen(seed, (uint32_t)(n + i)) % 2001u) - 1000;
    }
}

__device__ long long warp_sum(long long v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(FULL, v, off);
    return v;
}

__global__ void dots(const int *x, const int *y, int n, u64 *out)
{
    __shared__ long long part[3][THREADS / 32];
    long long xy = 0, xx = 0, yy = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        long long a = x[i], b = y[i];
        xy += a * b;
        xx += a * a;
        yy += b * b;
    }
    xy = warp_sum(xy);
    xx = warp_sum(xx);
    yy = warp_sum(yy);
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) {
        part[0][warp] = xy;
        part[1][warp] = xx;
        part[2][warp] = yy;
    }
    __syncthreads();
    if (threadIdx.x < 3) {
        long long s = 0;
        for (int w = 0; w < THREADS / 32; w++)
            s += part[threadIdx.x][w];
        atomicAdd(&out[threadIdx.x], (u64)s);
    }
}

int main()
{
    long long nn;
    unsigned long long seed;
    if (scanf("%lld %llu", &nn, &seed) != 2 || nn < 1)
        return 1;
    int n = (int)nn;
    int *x, *y;
    u64 *acc;
    CK(cudaMalloc(&x, n * sizeof(int)));
    CK(cudaMalloc(&y, n * sizeof(int)));
    CK(cudaMalloc(&acc, 3 * sizeof(u64)));
    CK(cudaMemset(acc, 0, 3 * sizeof(u64)));

    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > 2048)
        blocks = 2048;
    generate<<<blocks, THREADS>>>(x, y, n, (uint32_t)seed);
    CK(cudaGetLastError());
    dots<<<blocks, THREADS>>>(x, y, n, acc);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    u64 h[3];
    CK(cudaMemcpy(h, acc, sizeof(h), cudaMemcpyDeviceToHost));
    printf("%lld %lld %lld\n", (long long)h[0], (long long)h[1], (long long)h[2]);
    CK(cudaFree(x));
    CK(cudaFree(y));
    CK(cudaFree(acc));
    return 0;
}
