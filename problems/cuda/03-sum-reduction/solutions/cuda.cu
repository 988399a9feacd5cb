// GPU reference for 03-sum-reduction: the array is generated on the device, then reduced in two
// passes: each block sums a grid-stride slice in 64 bits (warp shuffles, then one value per warp
// in shared memory) and writes one partial; a single block reduces the partials the same way.
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

const int THREADS = 256;       // a multiple of 32
const int MAX_BLOCKS = 1024;   // partials; the second pass uses one block of THREADS

__global__ void generate(int *a, int n, uint32_t seed)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[i] = (int)(gen(seed, (uint32_t)i) % 2000001u) - 1000000;
}

// Sum of v over the block, valid in thread 0. Every thread of the block must call it.
__device__ long long block_sum(long long v)
{
    __shared__ long long warp_sums[THREADS / 32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < THREADS / 32 ? warp_sums[lane] : 0;
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off);
    }
    return v;
}

template <class T> __global__ void reduce(const T *in, int n, long long *out)
{
    long long acc = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += in[i];
    acc = block_sum(acc);
    if (threadIdx.x == 0)
        out[blockIdx.x] = acc;
}

int main()
{
    long long nn;
    unsigned long long seed;
    if (scanf("%lld %llu", &nn, &seed) != 2 || nn < 1)
        return 1;
    int n = (int)nn;
    int *a;
    long long *partial, *total;
    CK(cudaMalloc(&a, n * sizeof(int)));
    CK(cudaMalloc(&partial, MAX_BLOCKS * sizeof(long long)));
    CK(cudaMalloc(&total, sizeof(long long)));

    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    generate<<<blocks, THREADS>>>(a, n, (uint32_t)seed);
    CK(cudaGetLastError());
    reduce<int><<<blocks, THREADS>>>(a, n, partial);
    CK(cudaGetLastError());
    reduce<long long><<<1, THREADS>>>(partial, blocks, total);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    long long sum;
    CK(cudaMemcpy(&sum, total, sizeof(sum), cudaMemcpyDeviceToHost));
    printf("%lld\n", sum);
    CK(cudaFree(a));
    CK(cudaFree(partial));
    CK(cudaFree(total));
    return 0;
}
