#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    int n, m;
    if (scanf("%d %d", &n, &m) != 2)
        return 0;
    /* the grid flattened row by row with a border of walls around it */
    const int w = m + 2;
    const size_t cells = (size_t)(n + 2) * (size_t)w;
    char *grid = malloc(cells), *row = malloc((size_t)m + 2);
    memset(grid, '#', cells);
    int start = -1, end = -1;
    for (int i = 1; i <= n; i++) {
        if (scanf("%s", row) != 1)
            return 1;
        for (int j = 1; j <= m; j++) {
            int p = i * w + j;
            grid[p] = row[j - 1];
            if (grid[p] == 'S')
                start = p;
            else if (grid[p] == 'E')
                end = p;
        }
    }
    int *dist = malloc(sizeof(int) * cells), *queue = malloc(sizeof(int) * cells);
    for (size_t p = 0; p < cells; p++)
        dist[p] = -1;
    const int step[4] = {-1, 1, -w, w};
    int head = 0, tail = 0;
    dist[start] = 0;
    queue[tail++] = start;
    while (head < tail && dist[end] < 0) {
        int p = queue[head++];
        for (int d = 0; d < 4; d++) {
            int q = p + step[d];
            if (grid[q] != '#' && dist[q] < 0) {
                dist[q] = dist[p] + 1;
                queue[tail++] = q;
            }
        }
    }
    printf("%d\n", dist[end]);
    free(grid);
    free(row);
    free(dist);
    free(queue);
    return 0;
}
