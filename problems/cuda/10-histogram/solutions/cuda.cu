// GPU reference for 10-histogram: the values are generated on the device; each block counts
// its grid-stride slice in a private histogram in shared memory (shared-memory atomics), then
// adds its non-zero counts to the global histogram with one global atomicAdd per bin.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

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

const int THREADS = 256;
const int MAX_BINS = 4096;

__global__ void generate(int *v, int n, unsigned bins, uint32_t seed)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        uint32_t x = gen(seed, 2u * (uint32_t)i) % bins, y = gen(seed, 2u * (uint32_t)i + 1u) % bins;
        v[i] = (int)(x * y / bins);  // x * y < 4096^2 fits in 32 bits
    }
}

__global__ void histogram(const int *v, int n, int bins, unsigned *hist)
{
    __shared__ unsigned local[MAX_BINS];
    for (int k = threadIdx.x; k < bins; k += blockDim.x)
        local[k] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[v[i]], 1u);
    __syncthreads();
    for (int k = threadIdx.x; k < bins; k += blockDim.x)
        if (local[k])
            atomicAdd(&hist[k], local[k]);
}

int main()
{
    int n, bins;
    unsigned long long seed;
    if (scanf("%d %d %llu", &n, &bins, &seed) != 3 || n < 1 || bins < 1 || bins > MAX_BINS)
        return 1;
    int *v;
    unsigned *hist;
    CK(cudaMalloc(&v, n * sizeof(int)));
    CK(cudaMalloc(&hist, bins * sizeof(unsigned)));
    CK(cudaMemset(hist, 0, bins * sizeof(unsigned)));

    int blocks = (n + THREADS - 1) / THREADS;
    generate<<<blocks < 2048 ? blocks : 2048, THREADS>>>(v, n, (unsigned)bins, (uint32_t)seed);
    CK(cudaGetLastError());
    // few blocks: each one's private histogram is cleared and merged once
    histogram<<<blocks < 264 ? blocks : 264, THREADS>>>(v, n, bins, hist);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<unsigned> h(bins);
    CK(cudaMemcpy(h.data(), hist, bins * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int k = 0; k < bins; k++)
        printf(k ? " %u" : "%u", h[k]);
    printf("\n");
    CK(cudaFree(v));
    CK(cudaFree(hist));
    return 0;
}
