// GPU reference for 02-saxpy: generate x and y on the device, y = a*x + y in single precision
// (exact for these inputs), then reduce S = sum z and W = sum (i mod 7 + 1) z in 64-bit
// integers counting 1/32: a block reduction in shared memory, one atomicAdd per block.
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

const int THREADS = 256;

__global__ void generate(float *x, float *y, int n, uint32_t seed)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        x[i] = (float)((int)(gen(seed, (uint32_t)i) % 2001u) - 1000) / 8.0f;
        y[i] = (float)((int)(gen(seed, (uint32_t)(n + i)) % 2001u) - 1000) / 8.0f;
    }
}

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// out[0] += sum z*32, out[1] += sum (i mod 7 + 1) * z*32 (two's complement in unsigned long long)
__global__ void sums(const float *z, int n, unsigned long long *out)
{
    __shared__ long long s0[THREADS], s1[THREADS];
    long long a0 = 0, a1 = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        long long v = (long long)(z[i] * 32.0f);  // exact integer
        a0 += v;
        a1 += (long long)(i % 7 + 1) * v;
    }
    s0[threadIdx.x] = a0;
    s1[threadIdx.x] = a1;
    __syncthreads();
    for (int st = THREADS / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st) {
            s0[threadIdx.x] += s0[threadIdx.x + st];
            s1[threadIdx.x] += s1[threadIdx.x + st];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(&out[0], (unsigned long long)s0[0]);
        atomicAdd(&out[1], (unsigned long long)s1[0]);
    }
}

int main()
{
    long long nn, A;
    unsigned long long seed;
    if (scanf("%lld %lld %llu", &nn, &A, &seed) != 3 || nn < 1)
        return 1;
    int n = (int)nn;
    float a = (float)A / 4.0f;
    float *x, *y;
    unsigned long long *acc;
    CK(cudaMalloc(&x, n * sizeof(float)));
    CK(cudaMalloc(&y, n * sizeof(float)));
    CK(cudaMalloc(&acc, 2 * sizeof(unsigned long long)));
    CK(cudaMemset(acc, 0, 2 * sizeof(unsigned long long)));

    int blocks = (n + THREADS - 1) / THREADS;
    int capped = blocks < 2048 ? blocks : 2048;
    generate<<<capped, THREADS>>>(x, y, n, (uint32_t)seed);
    CK(cudaGetLastError());
    saxpy<<<blocks, THREADS>>>(n, a, x, y);
    CK(cudaGetLastError());
    sums<<<capped, THREADS>>>(y, n, acc);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    float first[8];
    int m = n < 8 ? n : 8;
    unsigned long long h[2];
    CK(cudaMemcpy(first, y, m * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h, acc, sizeof(h), cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++)
        printf(i ? " %.5f" : "%.5f", (double)first[i]);
    // |sums| < 2^53 / 32, so these doubles are exact and print exactly
    printf("\n%.5f\n%.5f\n", (double)(long long)h[0] / 32.0, (double)(long long)h[1] / 32.0);
    CK(cudaFree(x));
    CK(cudaFree(y));
    CK(cudaFree(acc));
    return 0;
}
