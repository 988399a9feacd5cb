#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n;
    if (scanf("%d", &n) != 1 || n < 1)
        return 0;
    double *x = malloc(sizeof(double) * (size_t)n);
    double sum = 0.0;
    for (int i = 0; i < n; i++) {
        if (scanf("%lf", &x[i]) != 1)
            return 1;
        sum += x[i];
    }
    double mean = sum / n;
    /* two passes: summing squared deviations from the mean avoids the cancellation of
     * E[x^2] - mean^2 */
    double sq = 0.0;
    for (int i = 0; i < n; i++)
        sq += (x[i] - mean) * (x[i] - mean);
    printf("%.6f\n%.6f\n", mean, sqrt(sq / n));
    free(x);
    return 0;
}
