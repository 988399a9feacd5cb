/* CPU reference for 05-inclusive-scan: inclusive prefix sums s of a[i] = g(i) mod 1000; prints
 * the first ten, s[n-1] and H = sum (i+1) * s[i] mod 2^64. */
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
    unsigned long long run = 0, h = 0;
    for (long long i = 0; i < n; i++) {
        run += gen(s, (uint32_t)i) % 1000;
        if (i < 10)
            printf(i ? " %llu" : "%llu", run);
        h += (unsigned long long)(i + 1) * run;
    }
    printf("\n%llu\n%llu\n", run, h);
    return 0;
}
