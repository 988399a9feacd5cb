// GPU reference for 07-matrix-transpose: A is generated on the device and transposed through a
// 32 x 33 shared-memory tile (blocks of 32 x 8 threads, each moving 4 elements), so that both
// the reads and the writes are coalesced; the checksum is a block reduction with one atomicAdd
// per block.
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

const int TILE = 32, ROWS = 8;  // a block is TILE x ROWS threads
const int THREADS = 256;

__global__ void generate(int *a, long long count, uint32_t seed)
{
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < count;
         t += (long long)gridDim.x * blockDim.x)
        a[t] = (int)(gen(seed, (uint32_t)t) % 1000000u);
}

// in: rows x cols, out: cols x rows. A block moves the tiles of in at tile column blockIdx.x
// and tile rows blockIdx.y, blockIdx.y + gridDim.y, .. (grid.y is capped at 65535, and rows can
// be up to 2^24): each tile is read row by row and written column by column.
__global__ void transpose(const int *in, int *out, int rows, int cols)
{
    __shared__ int tile[TILE][TILE + 1];  // +1: no bank conflicts when reading columns
    int tiles_y = (rows + TILE - 1) / TILE;
    for (int by = blockIdx.y; by < tiles_y; by += gridDim.y) {
        int x = blockIdx.x * TILE + threadIdx.x;
        int y = by * TILE + threadIdx.y;
        for (int j = 0; j < TILE; j += ROWS)
            if (x < cols && y + j < rows)
                tile[threadIdx.y + j][threadIdx.x] = in[(long long)(y + j) * cols + x];
        __syncthreads();
        x = by * TILE + threadIdx.x;           // column in out = row in in
        y = blockIdx.x * TILE + threadIdx.y;   // row in out = column in in
        for (int j = 0; j < TILE; j += ROWS)
            if (x < rows && y + j < cols)
                out[(long long)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
        __syncthreads();  // before the next tile overwrites this one
    }
}

__global__ void checksum(const int *t, long long count, unsigned long long *out)
{
    __shared__ long long part[THREADS];
    long long acc = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
         i += (long long)gridDim.x * blockDim.x)
        acc += (i % 1009 + 1) * t[i];
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
    int rows, cols;
    unsigned long long seed;
    if (scanf("%d %d %llu", &rows, &cols, &seed) != 3 || rows < 1 || cols < 1)
        return 1;
    long long total = (long long)rows * cols;
    int *a, *t;
    unsigned long long *sum;
    CK(cudaMalloc(&a, total * sizeof(int)));
    CK(cudaMalloc(&t, total * sizeof(int)));
    CK(cudaMalloc(&sum, sizeof(unsigned long long)));
    CK(cudaMemset(sum, 0, sizeof(unsigned long long)));

    long long b = (total + THREADS - 1) / THREADS;
    int blocks = (int)(b < 2048 ? b : 2048);
    generate<<<blocks, THREADS>>>(a, total, (uint32_t)seed);
    CK(cudaGetLastError());
    int tiles_y = (rows + TILE - 1) / TILE;
    dim3 block(TILE, ROWS), grid((cols + TILE - 1) / TILE, tiles_y < 65535 ? tiles_y : 65535);
    transpose<<<grid, block>>>(a, t, rows, cols);
    CK(cudaGetLastError());
    checksum<<<blocks, THREADS>>>(t, total, sum);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    int first[10];
    int m = total < 10 ? (int)total : 10;
    unsigned long long s;
    CK(cudaMemcpy(first, t, m * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&s, sum, sizeof(s), cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++)
        printf(i ? " %d" : "%d", first[i]);
    printf("\n%lld\n", (long long)s);
    CK(cudaFree(a));
    CK(cudaFree(t));
    CK(cudaFree(sum));
    return 0;
}
