#include <stdio.h>

/* Kadane: best_here is the largest sum of a block ending at the current element. */
int main(void)
{
    int n;
    if (scanf("%d", &n) != 1)
        return 0;
    long long best = 0, best_here = 0;
    for (int i = 0; i < n; i++) {
        long long a;
        if (scanf("%lld", &a) != 1)
            return 1;
        best_here = (i > 0 && best_here > 0) ? best_here + a : a;
        if (i == 0 || best_here > best)
            best = best_here;
    }
    printf("%lld\n", best);
    return 0;
}
