#include <stdio.h>
#include <string.h>

#define MAXLEN 2000

static char s[MAXLEN + 2], t[MAXLEN + 2];
static int prev[MAXLEN + 1], cur[MAXLEN + 1];

int main(void)
{
    if (scanf("%2001s %2001s", s, t) != 2)
        return 0;
    int n = (int)strlen(s), m = (int)strlen(t);
    /* prev[j] = distance between the first i-1 characters of s and the first j of t */
    for (int j = 0; j <= m; j++)
        prev[j] = j;
    for (int i = 1; i <= n; i++) {
        cur[0] = i;
        for (int j = 1; j <= m; j++) {
            int best = prev[j - 1] + (s[i - 1] != t[j - 1]);
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            cur[j] = best;
        }
        memcpy(prev, cur, sizeof(int) * (size_t)(m + 1));
    }
    printf("%d\n", prev[m]);
    return 0;
}
