#include <stdio.h>
#include <stdlib.h>

static int *parent, *sz;

static int find(int x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]]; /* path halving */
        x = parent[x];
    }
    return x;
}

static void unite(int a, int b)
{
    a = find(a);
    b = find(b);
    if (a == b)
        return;
    if (sz[a] < sz[b]) {
        int t = a;
        a = b;
        b = t;
    }
    parent[b] = a;
    sz[a] += sz[b];
}

int main(void)
{
    int n, q;
    if (scanf("%d %d", &n, &q) != 2)
        return 0;
    parent = malloc((size_t)(n + 1) * sizeof(int));
    sz = malloc((size_t)(n + 1) * sizeof(int));
    for (int i = 0; i <= n; i++) {
        parent[i] = i;
        sz[i] = 1;
    }
    char op[16];
    int a, b;
    while (q-- > 0 && scanf("%15s %d %d", op, &a, &b) == 3) {
        if (op[0] == 'u')
            unite(a, b);
        else
            puts(find(a) == find(b) ? "YES" : "NO");
    }
    free(parent);
    free(sz);
    return 0;
}
