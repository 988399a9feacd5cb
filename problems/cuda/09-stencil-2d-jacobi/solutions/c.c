/* CPU reference for 09-stencil-2d-jacobi: G[p][q] = g(p*cols + q) mod 10^6; each iteration
 * replaces every interior cell by (up + down + left + right) / 4 (rounded down), all at once,
 * boundary cells fixed. Prints the centre cell and sum (t mod 1009 + 1) * G_t. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    long long rows, cols, iters;
    unsigned long long seed;
    if (scanf("%lld %lld %lld %llu", &rows, &cols, &iters, &seed) != 4)
        return 1;
    uint32_t s = (uint32_t)seed;
    long long total = rows * cols;
    int *g = malloc(sizeof(int) * total), *h = malloc(sizeof(int) * total);
    if (!g || !h)
        return 1;
    for (long long t = 0; t < total; t++)
        g[t] = (int)(gen(s, (uint32_t)t) % 1000000);
    memcpy(h, g, sizeof(int) * total); /* the boundary of h never changes */
    for (long long it = 0; it < iters; it++) {
        for (long long p = 1; p + 1 < rows; p++) {
            const int *up = g + (p - 1) * cols, *mid = g + p * cols, *down = g + (p + 1) * cols;
            int *o = h + p * cols;
            for (long long q = 1; q + 1 < cols; q++)
                o[q] = (up[q] + down[q] + mid[q - 1] + mid[q + 1]) / 4;
        }
        int *t = g;
        g = h;
        h = t;
    }
    long long sum = 0;
    for (long long t = 0; t < total; t++)
        sum += (t % 1009 + 1) * g[t];
    printf("%d\n%lld\n", g[(rows / 2) * cols + cols / 2], sum);
    free(g);
    free(h);
    return 0;
}
