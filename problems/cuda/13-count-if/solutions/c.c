/* CPU reference for 13-count-if: among a[i] = g(i), count those with a[i] mod k == r and give
 * the smallest and largest such index (-1 -1 when there is none). */
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
    long long n, k, r;
    unsigned long long seed;
    if (scanf("%lld %lld %lld %llu", &n, &k, &r, &seed) != 4)
        return 1;
    uint32_t s = (uint32_t)seed;
    long long count = 0, first = -1, last = -1;
    for (long long i = 0; i < n; i++)
        if (gen(s, (uint32_t)i) % (uint32_t)k == (uint32_t)r) {
            count++;
            if (first < 0)
                first = i;
            last = i;
        }
    printf("%lld %lld %lld\n", count, first, last);
    return 0;
}
