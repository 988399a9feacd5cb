#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n, cap;
    if (scanf("%d %d", &n, &cap) != 2)
        return 1;
    /* best[c]: the largest value of a subset of the items so far with weight <= c */
    long long *best = calloc((size_t)cap + 1, sizeof *best);
    for (int i = 0; i < n; i++) {
        int w;
        long long v;
        if (scanf("%d %lld", &w, &v) != 2)
            return 1;
        for (int c = cap; c >= w; c--)
            if (best[c - w] + v > best[c])
                best[c] = best[c - w] + v;
    }
    printf("%lld\n", best[cap]);
    free(best);
    return 0;
}
