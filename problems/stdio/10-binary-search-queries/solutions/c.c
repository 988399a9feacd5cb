#include <stdio.h>
#include <stdlib.h>

/* First index whose value is >= x (strict == 0) or > x (strict == 1). */
static int bound(const long long *a, int n, long long x, int strict)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (a[mid] < x || (strict && a[mid] == x))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int main(void)
{
    int n, q;
    if (scanf("%d", &n) != 1)
        return 1;
    long long *a = malloc(sizeof(long long) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++)
        if (scanf("%lld", &a[i]) != 1)
            return 1;
    if (scanf("%d", &q) != 1)
        return 1;
    for (int i = 0; i < q; i++) {
        long long l, r;
        if (scanf("%lld %lld", &l, &r) != 2)
            return 1;
        int count = l > r ? 0 : bound(a, n, r, 1) - bound(a, n, l, 0);
        printf("%d\n", count);
    }
    free(a);
    return 0;
}
