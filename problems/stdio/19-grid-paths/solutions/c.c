#include <stdio.h>
#include <stdlib.h>

#define MOD 1000000007u

int main(void)
{
    int n, m;
    if (scanf("%d %d", &n, &m) != 2)
        return 0;
    char *row = malloc((size_t)m + 2);
    /* ways[j]: paths to column j of the current row (the previous row's value before update) */
    unsigned *ways = calloc((size_t)m, sizeof(unsigned));
    for (int i = 0; i < n; i++) {
        if (scanf("%s", row) != 1)
            return 1;
        for (int j = 0; j < m; j++) {
            if (row[j] == '#')
                ways[j] = 0;
            else if (i == 0 && j == 0)
                ways[j] = 1;
            else if (j > 0)
                ways[j] = (ways[j] + ways[j - 1]) % MOD;
        }
    }
    printf("%u\n", ways[m - 1]);
    free(ways);
    free(row);
    return 0;
}
