/* CPU reference for 12-bitonic-sort: sorts a[i] = g(i) mod M ascending; prints the first ten
 * sorted values and sum (t mod 1009 + 1) * b[t] over the sorted array b. */
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

static int cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    long long n, M;
    unsigned long long seed;
    if (scanf("%lld %lld %llu", &n, &M, &seed) != 3)
        return 1;
    uint32_t s = (uint32_t)seed;
    uint32_t *a = malloc(sizeof(uint32_t) * n);
    if (!a)
        return 1;
    for (long long i = 0; i < n; i++)
        a[i] = gen(s, (uint32_t)i) % (uint32_t)M;
    qsort(a, (size_t)n, sizeof(uint32_t), cmp);
    long long sum = 0;
    for (long long t = 0; t < n; t++)
        sum += (t % 1009 + 1) * (long long)a[t];
    for (long long t = 0; t < n && t < 10; t++)
        printf(t ? " %u" : "%u", a[t]);
    printf("\n%lld\n", sum);
    free(a);
    return 0;
}
