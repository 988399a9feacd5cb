#include <cstdio>
__global__ void k(int *v) { *v = 42; }
int main() {
    int *d, h = 0;
    if (cudaMalloc(&d, sizeof(int)) != cudaSuccess) { std::puts("no device"); return 1; }
    k<<<1, 1>>>(d);
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("hello %d\n", h);
    return h == 42 ? 0 : 1;
}
