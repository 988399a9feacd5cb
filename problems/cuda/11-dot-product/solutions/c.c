/* CPU reference for 11-dot-product: x[i] = g(i) mod 2001 - 1000, y[i] = g(n+i) mod 2001 - 1000;
 * prints x.y, x.x and y.y. */
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
    long long xy = 0, xx = 0, yy = 0;
    for (long long i = 0; i < n; i++) {
        long long x = (long long)(gen(s, (uint32_t)i) % 2001) - 1000;
        long long y = (long long)(gen(s, (uint32_t)(n + i)) % 2001) - 1000;
        xy += x * y;
        xx += x * x;
        yy += y * y;
    }
    printf("%lld %lld %lld\n", xy, xx, yy);
    return 0;
}
