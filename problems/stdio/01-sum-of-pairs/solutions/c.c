#include <stdio.h>

int main(void)
{
    long long n, x, sum = 0;
    if (scanf("%lld", &n) != 1)
        return 0;
    for (long long i = 0; i < n && scanf("%lld", &x) == 1; i++)
        sum += x;
    printf("%lld\n", sum);
    return 0;
}
