// GPU reference for 01-vector-add: generate a and b on the device, add them with one thread per
// element, copy c back and print its first values and the weighted checksum.
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

// a[i] = g(i) mod 1000, b[i] = g(n + i) mod 1000
__global__ void generate(int *a, int *b, int n, uint32_t seed)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        a[i] = (int)(gen(seed, (uint32_t)i) % 1000u);
        b[i] = (int)(gen(seed, (uint32_t)(n + i)) % 1000u);
    }
}

__global__ void vector_add(const int *a, const int *b, int *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main()
{
    long long nn;
    unsigned long long seed;
    if (scanf("%lld %llu", &nn, &seed) != 2 || nn < 1)
        return 1;
    int n = (int)nn;
    int *a, *b, *c;
    CK(cudaMalloc(&a, n * sizeof(int)));
    CK(cudaMalloc(&b, n * sizeof(int)));
    CK(cudaMalloc(&c, n * sizeof(int)));

    const int threads = 256;
    int blocks = (n + threads - 1) / threads;
    generate<<<blocks < 4096 ? blocks : 4096, threads>>>(a, b, n, (uint32_t)seed);
    CK(cudaGetLastError());
    vector_add<<<blocks, threads>>>(a, b, c, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<int> h(n);
    CK(cudaMemcpy(h.data(), c, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int i = 0; i < n; i++)
        sum += (long long)(i % 1009 + 1) * h[i];
    for (int i = 0; i < n && i < 10; i++)
        printf(i ? " %d" : "%d", h[i]);
    printf("\n%lld\n", sum);
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(c));
    return 0;
}
