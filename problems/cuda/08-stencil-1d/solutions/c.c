/* CPU reference for 08-stencil-1d: out[i] = sum_{j=-R..R} (R + 1 - |j|) * a[i+j] with
 * a[i] = g(i) mod 1000 inside [0, n) and 0 outside. The triangular weights are the convolution
 * of two boxes of width R + 1, so out is two box filters, each a difference of prefix sums:
 * F(x) = a[x] + ... + a[x+R] and out[i] = F(i-R) + ... + F(i). */
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
    long long n, R;
    unsigned long long seed;
    if (scanf("%lld %lld %llu", &n, &R, &seed) != 3)
        return 1;
    uint32_t s = (uint32_t)seed;
    long long *P = malloc(sizeof(long long) * (n + 1));     /* P[k] = a[0] + ... + a[k-1] */
    long long *Q = malloc(sizeof(long long) * (n + R + 1)); /* Q[k] = F(-R) + ... + F(k-1-R) */
    if (!P || !Q)
        return 1;
    P[0] = 0;
    for (long long i = 0; i < n; i++)
        P[i + 1] = P[i] + gen(s, (uint32_t)i) % 1000;
    Q[0] = 0;
    for (long long k = 0; k < n + R; k++) {
        long long x = k - R, lo = x < 0 ? 0 : x, hi = x + R + 1 > n ? n : x + R + 1;
        Q[k + 1] = Q[k] + P[hi] - P[lo];
    }
    long long sum = 0;
    for (long long i = 0; i < n; i++) {
        long long out = Q[i + R + 1] - Q[i];
        if (i < 10)
            printf(i ? " %lld" : "%lld", out);
        sum += (i % 1009 + 1) * out;
    }
    printf("\n%lld\n", sum);
    free(P);
    free(Q);
    return 0;
}
