/* CPU reference for 07-matrix-transpose: T = transpose of A, A[p][q] = g(p*cols + q) mod 10^6;
 * prints the first ten elements of T in row-major order and sum (t mod 1009 + 1) * T_t. */
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
    long long rows, cols;
    unsigned long long seed;
    if (scanf("%lld %lld %llu", &rows, &cols, &seed) != 3)
        return 1;
    uint32_t s = (uint32_t)seed;
    long long total = rows * cols;
    int *A = malloc(sizeof(int) * total), *T = malloc(sizeof(int) * total);
    if (!A || !T)
        return 1;
    for (long long t = 0; t < total; t++)
        A[t] = (int)(gen(s, (uint32_t)t) % 1000000);
    /* blocked so that both sides stay in cache */
    for (long long p0 = 0; p0 < rows; p0 += 32)
        for (long long q0 = 0; q0 < cols; q0 += 32)
            for (long long p = p0; p < p0 + 32 && p < rows; p++)
                for (long long q = q0; q < q0 + 32 && q < cols; q++)
                    T[q * rows + p] = A[p * cols + q];
    long long sum = 0;
    for (long long t = 0; t < total; t++)
        sum += (t % 1009 + 1) * T[t];
    for (long long t = 0; t < total && t < 10; t++)
        printf(t ? " %d" : "%d", T[t]);
    printf("\n%lld\n", sum);
    free(A);
    free(T);
    return 0;
}
