/* passk: see passk.h for the formula and why it is a product. */
#include "server/datasets/passk.h"

#include <math.h>

double passk(int n, int c, int k)
{
    if (k < 1 || n < k || c < 0 || c > n)
        return NAN;
    if (n - c < k)
        return 1.0; /* every draw of k includes a passing sample */
    double none = 1.0;
    for (int i = n - c + 1; i <= n; i++)
        none *= 1.0 - (double)k / i;
    return 1.0 - none;
}

double passk_mean(const int *n, const int *c, int problems, int k, int *counted)
{
    double sum = 0;
    int m = 0;
    for (int i = 0; i < problems; i++) {
        double p = passk(n[i], c[i], k);
        if (!isnan(p)) {
            sum += p;
            m++;
        }
    }
    if (counted)
        *counted = m;
    return m ? sum / m : NAN;
}
