// GPU reference for 06-matrix-multiply: A and B are generated on the device; C = A * B with the
// classic shared-memory tiling (32 x 32 tiles, zero padding at the edges); the checksum is a
// block reduction in 64 bits with one atomicAdd per block.
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

const int TS = 32;  // tile side; blocks of TS x TS threads
const int THREADS = 256;

// out[t] = g(first + t) mod 19 - 9
__global__ void generate(int *out, long long count, uint32_t first, uint32_t seed)
{
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < count;
         t += (long long)gridDim.x * blockDim.x)
        out[t] = (int)(gen(seed, first + (uint32_t)t) % 19u) - 9;
}

__global__ void matmul(const int *A, const int *B, int *C, int m, int k, int n)
{
    __shared__ int As[TS][TS];
    __shared__ int Bs[TS][TS + 1];
    int row = blockIdx.y * TS + threadIdx.y;
    int col = blockIdx.x * TS + threadIdx.x;
    int acc = 0;
    for (int t0 = 0; t0 < k; t0 += TS) {
        int ac = t0 + threadIdx.x, br = t0 + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = row < m && ac < k ? A[(long long)row * k + ac] : 0;
        Bs[threadIdx.y][threadIdx.x] = br < k && col < n ? B[(long long)br * n + col] : 0;
        __syncthreads();
        for (int q = 0; q < TS; q++)
            acc += As[threadIdx.y][q] * Bs[q][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n)
        C[(long long)row * n + col] = acc;
}

__global__ void checksum(const int *C, long long count, unsigned long long *out)
{
    __shared__ long long part[THREADS];
    long long acc = 0;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < count;
         t += (long long)gridDim.x * blockDim.x)
        acc += (t % 1009 + 1) * C[t];
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

static int grid_for(long long count)
{
    long long b = (count + THREADS - 1) / THREADS;
    return (int)(b < 2048 ? b : 2048);
}

int main()
{
    int m, k, n;
    unsigned long long seed;
    if (scanf("%d %d %d %llu", &m, &k, &n, &seed) != 4 || m < 1 || k < 1 || n < 1)
        return 1;
    long long mk = (long long)m * k, kn = (long long)k * n, mn = (long long)m * n;
    int *A, *B, *C;
    unsigned long long *sum;
    CK(cudaMalloc(&A, mk * sizeof(int)));
    CK(cudaMalloc(&B, kn * sizeof(int)));
    CK(cudaMalloc(&C, mn * sizeof(int)));
    CK(cudaMalloc(&sum, sizeof(unsigned long long)));
    CK(cudaMemset(sum, 0, sizeof(unsigned long long)));

    generate<<<grid_for(mk), THREADS>>>(A, mk, 0, (uint32_t)seed);
    CK(cudaGetLastError());
    generate<<<grid_for(kn), THREADS>>>(B, kn, (uint32_t)mk, (uint32_t)seed);
    CK(cudaGetLastError());
    dim3 block(TS, TS), grid((n + TS - 1) / TS, (m + TS - 1) / TS);
    matmul<<<grid, block>>>(A, B, C, m, k, n);
    CK(cudaGetLastError());
    checksum<<<grid_for(mn), THREADS>>>(C, mn, sum);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    int first, last;
    unsigned long long s;
    CK(cudaMemcpy(&first, C, sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&last, C + (mn - 1), sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&s, sum, sizeof(s), cudaMemcpyDeviceToHost));
    printf("%d %d\n%lld\n", first, last, (long long)s);
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(C));
    CK(cudaFree(sum));
    return 0;
}
