#include <stdio.h>
#include <stdlib.h>

typedef struct {
    long long l, r;
} Interval;

static int by_left(const void *x, const void *y)
{
    const Interval *a = x, *b = y;
    if (a->l != b->l)
        return a->l < b->l ? -1 : 1;
    return (a->r > b->r) - (a->r < b->r);
}

int main(void)
{
    int n;
    if (scanf("%d", &n) != 1)
        return 1;
    Interval *iv = malloc(sizeof(Interval) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++)
        if (scanf("%lld %lld", &iv[i].l, &iv[i].r) != 2)
            return 1;
    qsort(iv, (size_t)n, sizeof(Interval), by_left);

    int k = 0; /* merged intervals are kept in iv[0..k) */
    for (int i = 0; i < n; i++) {
        if (k > 0 && iv[i].l <= iv[k - 1].r) {
            if (iv[i].r > iv[k - 1].r)
                iv[k - 1].r = iv[i].r;
        } else {
            iv[k++] = iv[i];
        }
    }
    printf("%d\n", k);
    for (int i = 0; i < k; i++)
        printf("%lld %lld\n", iv[i].l, iv[i].r);
    free(iv);
    return 0;
}
