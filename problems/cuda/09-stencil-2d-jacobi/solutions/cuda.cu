// GPU reference for 09-stencil-2d-jacobi: the grid is generated on the device and copied to a
// second buffer (so both hold the fixed boundary); each iteration is one kernel launch that
// reads the current buffer and writes the other. A block of 32 x 8 threads loads its 32 x 8
// cells plus a one-cell halo into shared memory and updates the interior cells among them.
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

const int BX = 32, BY = 8;
const int THREADS = 256;

__global__ void generate(int *a, long long count, uint32_t seed)
{
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < count;
         t += (long long)gridDim.x * blockDim.x)
        a[t] = (int)(gen(seed, (uint32_t)t) % 1000000u);
}

__global__ void jacobi(const int *in, int *out, int rows, int cols)
{
    __shared__ int tile[BY + 2][BX + 2];
    int row0 = blockIdx.y * BY - 1, col0 = blockIdx.x * BX - 1;  // grid cell of tile[0][0]
    int tid = threadIdx.y * BX + threadIdx.x;
    for (int k = tid; k < (BY + 2) * (BX + 2); k += BX * BY) {
        int r = row0 + k / (BX + 2), c = col0 + k % (BX + 2);
        tile[k / (BX + 2)][k % (BX + 2)] =
            r >= 0 && r < rows && c >= 0 && c < cols ? in[(long long)r * cols + c] : 0;
    }
    __syncthreads();
    int r = blockIdx.y * BY + threadIdx.y, c = blockIdx.x * BX + threadIdx.x;
    if (r >= 1 && r < rows - 1 && c >= 1 && c < cols - 1) {
        int ty = threadIdx.y + 1, tx = threadIdx.x + 1;
        out[(long long)r * cols + c] =
            (tile[ty - 1][tx] + tile[ty + 1][tx] + tile[ty][tx - 1] + tile[ty][tx + 1]) / 4;
    }
}

__global__ void checksum(const int *v, long long count, unsigned long long *out)
{
    __shared__ long long part[THREADS];
    long long acc = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
         i += (long long)gridDim.x * blockDim.x)
        acc += (i % 1009 + 1) * v[i];
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
    int rows, cols, iters;
    unsigned long long seed;
    if (scanf("%d %d %d %llu", &rows, &cols, &iters, &seed) != 4 || rows < 1 || cols < 1 ||
        iters < 0)
        return 1;
    long long total = (long long)rows * cols;
    int *g, *h;
    unsigned long long *sum;
    CK(cudaMalloc(&g, total * sizeof(int)));
    CK(cudaMalloc(&h, total * sizeof(int)));
    CK(cudaMalloc(&sum, sizeof(unsigned long long)));
    CK(cudaMemset(sum, 0, sizeof(unsigned long long)));

    long long b = (total + THREADS - 1) / THREADS;
    int blocks = (int)(b < 2048 ? b : 2048);
    generate<<<blocks, THREADS>>>(g, total, (uint32_t)seed);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, g, total * sizeof(int), cudaMemcpyDeviceToDevice));
    dim3 block(BX, BY), grid((cols + BX - 1) / BX, (rows + BY - 1) / BY);
    for (int it = 0; it < iters; it++) {
        jacobi<<<grid, block>>>(g, h, rows, cols);
        CK(cudaGetLastError());
        int *t = g;
        g = h;
        h = t;
    }
    checksum<<<blocks, THREADS>>>(g, total, sum);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    int centre;
    unsigned long long s;
    CK(cudaMemcpy(&centre, g + (long long)(rows / 2) * cols + cols / 2, sizeof(int),
                  cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&s, sum, sizeof(s), cudaMemcpyDeviceToHost));
    printf("%d\n%lld\n", centre, (long long)s);
    CK(cudaFree(g));
    CK(cudaFree(h));
    CK(cudaFree(sum));
    return 0;
}
