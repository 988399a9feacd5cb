#include <stdio.h>
#include <stdlib.h>

#define MOD 1000000007LL

static long long read_mod(void)
{
    long long x;
    if (scanf("%lld", &x) != 1)
        exit(1);
    x %= MOD;
    return x < 0 ? x + MOD : x;
}

int main(void)
{
    int n, m, p;
    if (scanf("%d %d %d", &n, &m, &p) != 3)
        return 1;
    long long *a = malloc(sizeof(long long) * n * m);
    long long *b = malloc(sizeof(long long) * m * p);
    long long *c = calloc((size_t)n * p, sizeof(long long));
    for (int i = 0; i < n * m; i++)
        a[i] = read_mod();
    for (int i = 0; i < m * p; i++)
        b[i] = read_mod();

    /* i-k-j order walks rows of b and c; every entry stays in [0, MOD). */
    for (int i = 0; i < n; i++)
        for (int k = 0; k < m; k++) {
            long long aik = a[(size_t)i * m + k];
            long long *crow = c + (size_t)i * p;
            const long long *brow = b + (size_t)k * p;
            for (int j = 0; j < p; j++)
                crow[j] = (crow[j] + aik * brow[j]) % MOD;
        }

    for (int i = 0; i < n; i++)
        for (int j = 0; j < p; j++)
            printf("%lld%c", c[(size_t)i * p + j], j + 1 < p ? ' ' : '\n');
    free(a);
    free(b);
    free(c);
    return 0;
}
