/* CPU reference for 10-histogram: value i is ((g(2i) mod B) * (g(2i+1) mod B)) div B; prints the
 * count of each value 0 .. B-1. */
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
    long long n, B;
    unsigned long long seed;
    if (scanf("%lld %lld %llu", &n, &B, &seed) != 3)
        return 1;
    uint32_t s = (uint32_t)seed, b = (uint32_t)B;
    long long *h = calloc((size_t)B, sizeof(long long));
    if (!h)
        return 1;
    for (long long i = 0; i < n; i++) {
        uint32_t x = gen(s, (uint32_t)(2 * i)) % b, y = gen(s, (uint32_t)(2 * i + 1)) % b;
        h[x * y / b]++;
    }
    for (long long k = 0; k < B; k++)
        printf(k ? " %lld" : "%lld", h[k]);
    putchar('\n');
    free(h);
    return 0;
}
