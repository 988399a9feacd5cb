/* CPU reference for 01-vector-add: c[i] = a[i] + b[i], first values and a weighted checksum. */
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
    long long sum = 0;
    for (long long i = 0; i < n; i++) {
        int c = (int)(gen(s, (uint32_t)i) % 1000) + (int)(gen(s, (uint32_t)(n + i)) % 1000);
        if (i < 10)
            printf(i ? " %d" : "%d", c);
        sum += (long long)(i % 1009 + 1) * c;
    }
    printf("\n%lld\n", sum);
    return 0;
}
