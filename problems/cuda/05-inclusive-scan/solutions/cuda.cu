// GPU reference for 05-inclusive-scan. A scan of 64-bit values in tiles of 1024: each block
// loads its tile into shared memory (coalesced), every thread scans 4 consecutive elements,
// the block scans the per-thread totals (warp shuffles, then the warp totals), and the tile is
// written back with the block's total saved. The block totals are scanned recursively and
// added to the following tiles. The checksum is reduced on the device modulo 2^64.
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
const int THREADS = 256;  // a multiple of 32, at most 32 warps
const int ITEMS = 4;
const int TILE = THREADS * ITEMS;
const unsigned FULL = 0xffffffffu;

__global__ void generate(u64 *s, int n, uint32_t seed)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        s[i] = gen(seed, (uint32_t)i) % 1000u;
}

// Exclusive scan of v over the block; *total gets the block's sum. Every thread must call it.
__device__ u64 block_exclusive_scan(u64 v, u64 *total)
{
    __shared__ u64 warp_tot[THREADS / 32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    u64 x = v;
    for (int off = 1; off < 32; off <<= 1) {
        u64 y = __shfl_up_sync(FULL, x, off);
        if (lane >= off)
            x += y;
    }
    if (lane == 31)
        warp_tot[warp] = x;
    __syncthreads();
    if (warp == 0) {
        u64 w = lane < THREADS / 32 ? warp_tot[lane] : 0;
        for (int off = 1; off < 32; off <<= 1) {
            u64 y = __shfl_up_sync(FULL, w, off);
            if (lane >= off)
                w += y;
        }
        if (lane < THREADS / 32)
            warp_tot[lane] = w;  // inclusive scan of the warp totals
    }
    __syncthreads();
    u64 before = warp ? warp_tot[warp - 1] : 0;
    *total = warp_tot[THREADS / 32 - 1];
    return before + x - v;
}

// Inclusive scan of each tile of d in place; sums[blockIdx.x] = the tile's total (if sums).
__global__ void scan_tiles(u64 *d, int n, u64 *sums)
{
    __shared__ u64 tile[TILE];
    long long base = (long long)blockIdx.x * TILE;
    for (int k = threadIdx.x; k < TILE; k += THREADS)
        tile[k] = base + k < n ? d[base + k] : 0;
    __syncthreads();
    u64 run = 0;
    for (int k = 0; k < ITEMS; k++) {
        run += tile[threadIdx.x * ITEMS + k];
        tile[threadIdx.x * ITEMS + k] = run;
    }
    u64 total;
    u64 excl = block_exclusive_scan(run, &total);  // contains __syncthreads
    for (int k = 0; k < ITEMS; k++)
        tile[threadIdx.x * ITEMS + k] += excl;
    __syncthreads();
    for (int k = threadIdx.x; k < TILE; k += THREADS)
        if (base + k < n)
            d[base + k] = tile[k];
    if (sums && threadIdx.x == 0)
        sums[blockIdx.x] = total;
}

// Adds the inclusive scan of the tile totals up to the previous tile to every tile but the first.
__global__ void add_offsets(u64 *d, int n, const u64 *scanned_sums)
{
    if (blockIdx.x == 0)
        return;
    u64 off = scanned_sums[blockIdx.x - 1];
    long long base = (long long)blockIdx.x * TILE;
    for (int k = threadIdx.x; k < TILE; k += THREADS)
        if (base + k < n)
            d[base + k] += off;
}

static void scan(u64 *d, int n)
{
    int tiles = (n + TILE - 1) / TILE;
    if (tiles == 1) {
        scan_tiles<<<1, THREADS>>>(d, n, nullptr);
        CK(cudaGetLastError());
        return;
    }
    u64 *sums;
    CK(cudaMalloc(&sums, tiles * sizeof(u64)));
    scan_tiles<<<tiles, THREADS>>>(d, n, sums);
    CK(cudaGetLastError());
    scan(sums, tiles);
    add_offsets<<<tiles, THREADS>>>(d, n, sums);
    CK(cudaGetLastError());
    CK(cudaFree(sums));
}

// out += sum (i+1) * s[i] mod 2^64
__global__ void checksum(const u64 *s, int n, u64 *out)
{
    __shared__ u64 part[THREADS];
    u64 acc = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += (u64)(i + 1) * s[i];
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int st = THREADS / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st)
            part[threadIdx.x] += part[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, part[0]);
}

int main()
{
    long long nn;
    unsigned long long seed;
    if (scanf("%lld %llu", &nn, &seed) != 2 || nn < 1)
        return 1;
    int n = (int)nn;
    u64 *s, *h;
    CK(cudaMalloc(&s, n * sizeof(u64)));
    CK(cudaMalloc(&h, sizeof(u64)));
    CK(cudaMemset(h, 0, sizeof(u64)));
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > 2048)
        blocks = 2048;
    generate<<<blocks, THREADS>>>(s, n, (uint32_t)seed);
    CK(cudaGetLastError());
    scan(s, n);
    checksum<<<blocks, THREADS>>>(s, n, h);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    u64 first[10], last, hash;
    int m = n < 10 ? n : 10;
    CK(cudaMemcpy(first, s, m * sizeof(u64), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&last, s + (n - 1), sizeof(u64), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&hash, h, sizeof(u64), cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++)
        printf(i ? " %llu" : "%llu", first[i]);
    printf("\n%llu\n%llu\n", last, hash);
    CK(cudaFree(s));
    CK(cudaFree(h));
    return 0;
}
