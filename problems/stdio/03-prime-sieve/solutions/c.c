#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int q;
    if (scanf("%d", &q) != 1)
        return 0;
    int *qs = malloc((size_t)q * sizeof *qs);
    int max = 2;
    for (int i = 0; i < q; i++) {
        if (scanf("%d", &qs[i]) != 1)
            return 1;
        if (qs[i] > max)
            max = qs[i];
    }

    /* composite[i] != 0 for i not prime; then count[i] = primes <= i */
    char *composite = calloc((size_t)max + 1, 1);
    int *count = malloc(((size_t)max + 1) * sizeof *count);
    composite[0] = composite[1] = 1;
    for (long long i = 2; i * i <= max; i++)
        if (!composite[i])
            for (long long j = i * i; j <= max; j += i)
                composite[j] = 1;
    int c = 0;
    for (int i = 0; i <= max; i++) {
        c += !composite[i];
        count[i] = c;
    }

    for (int i = 0; i < q; i++)
        printf("%d\n", count[qs[i]]);
    free(qs);
    free(composite);
    free(count);
    return 0;
}
