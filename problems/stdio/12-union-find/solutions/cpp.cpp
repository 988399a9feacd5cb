#include <iostream>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

struct DisjointSets {
    std::vector<int> parent, size;

    explicit DisjointSets(int n) : parent(n), size(n, 1)
    {
        std::iota(parent.begin(), parent.end(), 0);
    }

    int find(int x)
    {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    void unite(int a, int b)
    {
        a = find(a);
        b = find(b);
        if (a == b)
            return;
        if (size[a] < size[b])
            std::swap(a, b);
        parent[b] = a;
        size[a] += size[b];
    }
};

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int n, q;
    if (!(std::cin >> n >> q))
        return 0;
    DisjointSets ds(n + 1);
    std::string op, out;
    int a, b;
    for (int i = 0; i < q && (std::cin >> op >> a >> b); i++) {
        if (op == "union")
            ds.unite(a, b);
        else
            out += ds.find(a) == ds.find(b) ? "YES\n" : "NO\n";
    }
    std::cout << out;
    return 0;
}
