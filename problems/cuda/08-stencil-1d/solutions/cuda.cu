// GPU reference for 08-stencil-1d: a is generated on the device; each block loads its 256
// outputs' inputs plus a halo of R on each side into shared memory (zeros outside [0, n)) and
// every thread applies the 2R+1 triangular weights from shared memory. The checksum is a block
// reduction with one atomicAdd per block.
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
const int MAX_R = 128;

__global__ void generate(int *a, int n, uint32_t seed)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[i] = (int)(gen(seed, (uint32_t)i) % 1000u);
}

__global__ void stencil(const int *a, int *out, int n, int R)
{
    __shared__ int s[THREADS + 2 * MAX_R];
    int base = blockIdx.x * THREADS;  // first output of the block
    // s[k] = a[base - R + k] for k in [0, THREADS + 2R)
    for (int k = threadIdx.x; k < THREADS + 2 * R; k += THREADS) {
        int x = base - R + k;
        s[k] = x >= 0 && x < n ? a[x] : 0;
    }
    __syncthreads();
    int i = base + threadIdx.x;
    if (i < n) {
        int acc = 0;
        const int *c = s + threadIdx.x + R;  // a[i] is c[0]
        for (int j = -R; j <= R; j++)
            acc += (R + 1 - (j < 0 ? -j : j)) * c[j];
        out[i] = acc;
    }
}

__global__ void checksum(const int *v, int n, unsigned long long *out)
{
    __shared__ long long part[THREADS];
    long long acc = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += (long long)(i % 1009 + 1) * v[i];
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int st = THREADS / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st)
            part[threadIdx.x] += part[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, (unsigned long long)part[0]);
}

int main()
{
    int n, R;
    unsigned long long seed;
    if (scanf("%d %d %llu", &n, &R, &seed) != 3 || n < 1 || R < 0 || R > MAX_R)
        return 1;
    int *a, *out;
    unsigned long long *sum;
    CK(cudaMalloc(&a, n * sizeof(int)));
    CK(cudaMalloc(&out, n * sizeof(int)));
    CK(cudaMalloc(&sum, sizeof(unsigned long long)));
    CK(cudaMemset(sum, 0, sizeof(unsigned long long)));

    int blocks = (n + THREADS - 1) / THREADS;
    int capped = blocks < 2048 ? blocks : 2048;
    generate<<<capped, THREADS>>>(a, n, (uint32_t)seed);
    CK(cudaGetLastError());
    stencil<<<blocks, THREADS>>>(a, out, n, R);
    CK(cudaGetLastError());
    checksum<<<capped, THREADS>>>(out, n, sum);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    int first[10];
    int m = n < 10 ? n : 10;
    unsigned long long s;
    CK(cudaMemcpy(first, out, m * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&s, sum, sizeof(s), cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++)
        printf(i ? " %d" : "%d", first[i]);
    printf("\n%lld\n", (long long)s);
    CK(cudaFree(a));
    CK(cudaFree(out));
    CK(cudaFree(sum));
    return 0;
}
