// GPU reference for 12-bitonic-sort: the array is generated on the device and padded with
// 0xffffffff (above every value) to a power of two P >= 2048. A bitonic sorting network:
// first every tile of 2048 elements is sorted in shared memory (1024 threads, one
// compare-exchange each per step); then for each merge size k = 4096 .. P, the steps with a
// distance j >= 2048 run as one global kernel each, and the remaining steps j = 1024 .. 1 run
// together in shared memory per tile. Element i sorts ascending when (i & k) == 0.
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

const int TILE = 2048;          // elements sorted / merged in shared memory by one block
const int TILE_THREADS = 1024;  // one compare-exchange per thread per step
const int THREADS = 256;

__global__ void generate(uint32_t *a, int n, int padded, uint32_t M, uint32_t seed)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < padded; i += gridDim.x * blockDim.x)
        a[i] = i < n ? gen(seed, (uint32_t)i) % M : 0xffffffffu;
}

__device__ inline void compare_exchange(uint32_t &x, uint32_t &y, bool ascending)
{
    if ((x > y) == ascending) {
        uint32_t t = x;
        x = y;
        y = t;
    }
}

// Steps j = jstart, jstart/2, .., 1 of merge size k on each tile, in shared memory. With
// k = 2, 4, .., TILE in turn (sort_tiles) this sorts every tile.
__device__ void tile_steps(uint32_t *s, unsigned base, unsigned k, unsigned jstart)
{
    for (unsigned j = jstart; j > 0; j >>= 1) {
        unsigned t = threadIdx.x;
        unsigned i = 2 * j * (t / j) + t % j;  // the lower element of this thread's pair
        compare_exchange(s[i], s[i + j], ((base + i) & k) == 0);
        __syncthreads();
    }
}

__global__ void sort_tiles(uint32_t *a)
{
    __shared__ uint32_t s[TILE];
    unsigned base = blockIdx.x * TILE;
    s[threadIdx.x] = a[base + threadIdx.x];
    s[threadIdx.x + TILE_THREADS] = a[base + threadIdx.x + TILE_THREADS];
    __syncthreads();
    for (unsigned k = 2; k <= TILE; k <<= 1)
        tile_steps(s, base, k, k / 2);
    a[base + threadIdx.x] = s[threadIdx.x];
    a[base + threadIdx.x + TILE_THREADS] = s[threadIdx.x + TILE_THREADS];
}

__global__ void merge_tiles(uint32_t *a, unsigned k)
{
    __shared__ uint32_t s[TILE];
    unsigned base = blockIdx.x * TILE;
    s[threadIdx.x] = a[base + threadIdx.x];
    s[threadIdx.x + TILE_THREADS] = a[base + threadIdx.x + TILE_THREADS];
    __syncthreads();
    tile_steps(s, base, k, TILE / 2);
    a[base + threadIdx.x] = s[threadIdx.x];
    a[base + threadIdx.x + TILE_THREADS] = s[threadIdx.x + TILE_THREADS];
}

// One step (k, j) over the whole array: thread t owns pair t of P/2.
__global__ void global_step(uint32_t *a, unsigned pairs, unsigned k, unsigned j)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= pairs)
        return;
    unsigned i = 2 * j * (t / j) + t % j;
    compare_exchange(a[i], a[i + j], (i & k) == 0);
}

int main()
{
    int n;
    long long M;
    unsigned long long seed;
    if (scanf("%d %lld %llu", &n, &M, &seed) != 3 || n < 1 || M < 1)
        return 1;
    int P = TILE;
    while (P < n)
        P <<= 1;
    uint32_t *a;
    CK(cudaMalloc(&a, (size_t)P * sizeof(uint32_t)));
    generate<<<(P + THREADS - 1) / THREADS, THREADS>>>(a, n, P, (uint32_t)M, (uint32_t)seed);
    CK(cudaGetLastError());

    int tiles = P / TILE;
    sort_tiles<<<tiles, TILE_THREADS>>>(a);
    CK(cudaGetLastError());
    unsigned pairs = (unsigned)P / 2;
    for (unsigned k = 2 * TILE; k <= (unsigned)P; k <<= 1) {
        for (unsigned j = k / 2; j >= (unsigned)TILE; j >>= 1) {
            global_step<<<(pairs + THREADS - 1) / THREADS, THREADS>>>(a, pairs, k, j);
            CK(cudaGetLastError());
        }
        merge_tiles<<<tiles, TILE_THREADS>>>(a, k);
        CK(cudaGetLastError());
    }
    CK(cudaDeviceSynchronize());

    std::vector<uint32_t> h(n);
    CK(cudaMemcpy(h.data(), a, (size_t)n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int t = 0; t < n; t++)
        sum += (long long)(t % 1009 + 1) * h[t];
    for (int t = 0; t < n && t < 10; t++)
        printf(t ? " %u" : "%u", h[t]);
    printf("\n%lld\n", sum);
    CK(cudaFree(a));
    return 0;
}
