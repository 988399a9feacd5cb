#include <functional>
#include <iostream>
#include <queue>
#include <string>
#include <vector>

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int n, m;
    if (!(std::cin >> n >> m))
        return 0;
    std::vector<std::vector<int>> adj(n + 1);
    std::vector<int> indeg(n + 1, 0);
    for (int i = 0; i < m; i++) {
        int a, b;
        std::cin >> a >> b;
        adj[a].push_back(b);
        indeg[b]++;
    }
    std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
    for (int v = 1; v <= n; v++)
        if (indeg[v] == 0)
            ready.push(v);
    std::vector<int> order;
    order.reserve(n);
    while (!ready.empty()) {
        int v = ready.top();
        ready.pop();
        order.push_back(v);
        for (int w : adj[v])
            if (--indeg[w] == 0)
                ready.push(w);
    }
    if ((int)order.size() < n) {
        std::cout << "IMPOSSIBLE\n";
        return 0;
    }
    std::string out;
    for (int i = 0; i < n; i++) {
        if (i)
            out += ' ';
        out += std::to_string(order[i]);
    }
    out += '\n';
    std::cout << out;
    return 0;
}
