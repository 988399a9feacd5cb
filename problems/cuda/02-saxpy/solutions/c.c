/* CPU reference for 02-saxpy. With x = X/8, y = Y/8 and a = A/4, z = a*x + y = (A*X + 4*Y)/32
 * exactly (|A*X + 4*Y| < 2^24, so single precision is exact), so everything is computed in
 * integers counting 1/32 and printed exactly with 5 decimals. */
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

/* prints v/32 with exactly 5 decimals (1/32 = 0.03125) */
static void print32(long long v)
{
    unsigned long long m = v < 0 ? (unsigned long long)(-v) : (unsigned long long)v;
    printf("%s%llu.%05llu", v < 0 ? "-" : "", m / 32, (m % 32) * 3125);
}

int main(void)
{
    long long n, A;
    unsigned long long seed;
    if (scanf("%lld %lld %llu", &n, &A, &seed) != 3)
        return 1;
    uint32_t s = (uint32_t)seed;
    long long S = 0, W = 0;
    for (long long i = 0; i < n; i++) {
        long long X = (long long)(gen(s, (uint32_t)i) % 2001) - 1000;
        long long Y = (long long)(gen(s, (uint32_t)(n + i)) % 2001) - 1000;
        long long Z = A * X + 4 * Y;
        if (i < 8) {
            if (i)
                putchar(' ');
            print32(Z);
        }
        S += Z;
        W += (i % 7 + 1) * Z;
    }
    putchar('\n');
    print32(S);
    putchar('\n');
    print32(W);
    putchar('\n');
    return 0;
}
