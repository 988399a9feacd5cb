/* CPU reference for 04-max-reduction: maximum and minimum of a[i] = g(i) mod 2000001 - 1000000,
 * each with the smallest index where it occurs. */
#include <stdint.h>
#include <stdio.h>

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
    long long n;
    unsigned long long seed;
    if (scanf("%lld %llu", &n, &seed) != 2)
        return 1;
    uint32_t s = (uint32_t)seed;
    int mx = 0, mn = 0;
    long long imx = -1, imn = -1;
    for (long long i = 0; i < n; i++) {
        int v = (int)(gen(s, (uint32_t)i) % 2000001) - 1000000;
        if (imx < 0 || v > mx)
            mx = v, imx = i;
        if (imn < 0 || v < mn)
            mn = v, imn = i;
    }
    printf("%d %lld %d %lld\n", mx, imx, mn, imn);
    return 0;
}
