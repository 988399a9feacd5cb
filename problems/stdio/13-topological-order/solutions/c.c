#include <stdio.h>
#include <stdlib.h>

/* Kahn's algorithm with a binary min-heap of the vertices that have no remaining in-edges. */

static int *heap;
static int heap_len;

static void push(int v)
{
    int i = heap_len++;
    while (i > 0 && heap[(i - 1) / 2] > v) {
        heap[i] = heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    heap[i] = v;
}

static int pop(void)
{
    int top = heap[0], last = heap[--heap_len], i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= heap_len)
            break;
        if (c + 1 < heap_len && heap[c + 1] < heap[c])
            c++;
        if (heap[c] >= last)
            break;
        heap[i] = heap[c];
        i = c;
    }
    if (heap_len > 0)
        heap[i] = last;
    return top;
}

int main(void)
{
    int n, m;
    if (scanf("%d %d", &n, &m) != 2)
        return 0;
    int *from = malloc(sizeof(int) * (size_t)(m + 1)), *to = malloc(sizeof(int) * (size_t)(m + 1));
    int *start = calloc((size_t)n + 2, sizeof(int)), *indeg = calloc((size_t)n + 1, sizeof(int));
    for (int i = 0; i < m; i++) {
        if (scanf("%d %d", &from[i], &to[i]) != 2)
            return 1;
        start[from[i] + 1]++;
        indeg[to[i]]++;
    }
    /* adjacency in compressed form: the edges out of v are adj[start[v] .. start[v+1]) */
    for (int v = 1; v <= n + 1; v++)
        start[v] += start[v - 1];
    int *fill = malloc(sizeof(int) * (size_t)(n + 2)), *adj = malloc(sizeof(int) * (size_t)(m + 1));
    for (int v = 0; v <= n + 1; v++)
        fill[v] = start[v];
    for (int i = 0; i < m; i++)
        adj[fill[from[i]]++] = to[i];

    heap = malloc(sizeof(int) * (size_t)(n + 1));
    int *order = malloc(sizeof(int) * (size_t)(n + 1)), count = 0;
    for (int v = 1; v <= n; v++)
        if (indeg[v] == 0)
            push(v);
    while (heap_len > 0) {
        int v = pop();
        order[count++] = v;
        for (int e = start[v]; e < start[v + 1]; e++)
            if (--indeg[adj[e]] == 0)
                push(adj[e]);
    }
    if (count < n) {
        puts("IMPOSSIBLE");
    } else {
        for (int i = 0; i < n; i++)
            printf("%d%c", order[i], i + 1 < n ? ' ' : '\n');
    }
    return 0;
}
