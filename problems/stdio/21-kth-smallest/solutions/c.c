#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng_state = 88172645463325252ull;

static uint64_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void swap(int *a, int *b)
{
    int t = *a;
    *a = *b;
    *b = t;
}

/* Quickselect with a random pivot and a three-way partition (so that many equal values do
 * not make it quadratic): the element of rank k (0-based) of a[0..n). */
static int select_kth(int *a, int n, int k)
{
    int lo = 0, hi = n;
    for (;;) {
        int pivot = a[lo + (int)(next_random() % (uint64_t)(hi - lo))];
        int lt = lo, i = lo, gt = hi; /* a[lo,lt) < pivot, a[lt,i) == pivot, a[gt,hi) > pivot */
        while (i < gt) {
            if (a[i] < pivot)
                swap(&a[lt++], &a[i++]);
            else if (a[i] > pivot)
                swap(&a[i], &a[--gt]);
            else
                i++;
        }
        if (k < lt)
            hi = lt;
        else if (k >= gt)
            lo = gt;
        else
            return pivot;
    }
}

int main(void)
{
    int n, k;
    if (scanf("%d %d", &n, &k) != 2)
        return 0;
    int *a = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        if (scanf("%d", &a[i]) != 1)
            return 1;
    printf("%d\n", select_kth(a, n, k - 1));
    free(a);
    return 0;
}
