#include <stdio.h>
#include <stdlib.h>

typedef struct {
    long long dist;
    int node;
} Item;

static Item *heap;
static size_t heap_len;

static void heap_push(long long dist, int node)
{
    size_t i = heap_len++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (heap[parent].dist <= dist)
            break;
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i].dist = dist;
    heap[i].node = node;
}

static Item heap_pop(void)
{
    Item top = heap[0], last = heap[--heap_len];
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= heap_len)
            break;
        if (child + 1 < heap_len && heap[child + 1].dist < heap[child].dist)
            child++;
        if (heap[child].dist >= last.dist)
            break;
        heap[i] = heap[child];
        i = child;
    }
    heap[i] = last;
    return top;
}

int main(void)
{
    int n, m, s;
    if (scanf("%d %d %d", &n, &m, &s) != 3)
        return 1;
    int *eu = malloc(sizeof(int) * (m + 1)), *ev = malloc(sizeof(int) * (m + 1));
    long long *ew = malloc(sizeof(long long) * (m + 1));
    int *first = calloc((size_t)n + 2, sizeof(int));
    for (int i = 0; i < m; i++) {
        if (scanf("%d %d %lld", &eu[i], &ev[i], &ew[i]) != 3)
            return 1;
        first[eu[i] + 1]++;
    }
    /* adjacency in compressed form: edges of u are to[first[u] .. first[u+1]) */
    for (int u = 1; u <= n + 1; u++)
        first[u] += first[u - 1];
    int *to = malloc(sizeof(int) * (m + 1)), *fill = malloc(sizeof(int) * (n + 1));
    long long *wt = malloc(sizeof(long long) * (m + 1));
    for (int u = 0; u <= n; u++)
        fill[u] = first[u];
    for (int i = 0; i < m; i++) {
        int k = fill[eu[i]]++;
        to[k] = ev[i];
        wt[k] = ew[i];
    }

    long long *dist = malloc(sizeof(long long) * (n + 1));
    for (int u = 0; u <= n; u++)
        dist[u] = -1;
    heap = malloc(sizeof(Item) * (m + 2));
    dist[s] = 0;
    heap_push(0, s);
    while (heap_len > 0) {
        Item it = heap_pop();
        if (it.dist != dist[it.node])
            continue; /* stale entry */
        for (int k = first[it.node]; k < first[it.node + 1]; k++) {
            long long nd = it.dist + wt[k];
            if (dist[to[k]] < 0 || nd < dist[to[k]]) {
                dist[to[k]] = nd;
                heap_push(nd, to[k]);
            }
        }
    }

    for (int u = 1; u <= n; u++)
        printf("%lld\n", dist[u]);
    return 0;
}
