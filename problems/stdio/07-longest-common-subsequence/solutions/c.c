#include <stdio.h>
#include <string.h>

#define MAXLEN 3000

static char a[MAXLEN + 2], b[MAXLEN + 2];
static int prev[MAXLEN + 1], cur[MAXLEN + 1];

int main(void)
{
    if (scanf("%3000s %3000s", a, b) != 2)
        return 1;
    int n = (int)strlen(a), m = (int)strlen(b);
    /* prev[j] / cur[j]: LCS of a[0..i) and b[0..j) for the previous / current i */
    for (int i = 1; i <= n; i++) {
        cur[0] = 0;
        for (int j = 1; j <= m; j++) {
            if (a[i - 1] == b[j - 1])
                cur[j] = prev[j - 1] + 1;
            else
                cur[j] = prev[j] > cur[j - 1] ? prev[j] : cur[j - 1];
        }
        memcpy(prev, cur, sizeof(int) * (m + 1));
    }
    printf("%d\n", prev[m]);
    return 0;
}
