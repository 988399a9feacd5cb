/* CPU reference for 06-matrix-multiply: C = A * B with A[p][q] = g(p*k + q) mod 19 - 9 (m x k)
 * and B[p][q] = g(m*k + p*n + q) mod 19 - 9 (k x n); prints C[0][0], C[m-1][n-1] and
 * sum over t = p*n + q of (t mod 1009 + 1) * C[p][q]. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

static uint32_t gen(uint32_t seed, uint32_t t)
{
    return mix32(seed + 0x9e3779b9U * t);
}

int main(void)
{
    long long m, k, n;
    unsigned long long seed;
    if (scanf("%lld %lld %lld %llu", &m, &k, &n, &seed) != 4)
        return 1;
    uint32_t s = (uint32_t)seed;
    int *A = malloc(sizeof(int) * m * k), *B = malloc(sizeof(int) * k * n);
    int *C = calloc((size_t)(m * n), sizeof(int));
    if (!A || !B || !C)
        return 1;
    for (long long t = 0; t < m * k; t++)
        A[t] = (int)(gen(s, (uint32_t)t) % 19) - 9;
    for (long long t = 0; t < k * n; t++)
        B[t] = (int)(gen(s, (uint32_t)(m * k + t)) % 19) - 9;
    for (long long p = 0; p < m; p++) {
        int *c = C + p * n;
        for (long long q = 0; q < k; q++) {
            int a = A[p * k + q];
            const int *b = B + q * n;
            for (long long j = 0; j < n; j++)
                c[j] += a * b[j];
        }
    }
    long long sum = 0;
    for (long long t = 0; t < m * n; t++)
        sum += (t % 1009 + 1) * C[t];
    printf("%d %d\n%lld\n", C[0], C[m * n - 1], sum);
    free(A);
    free(B);
    free(C);
    return 0;
}
