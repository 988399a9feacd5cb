#include <cstdint>
#include <functional>
#include <iostream>
#include <queue>
#include <string>
#include <utility>
#include <vector>

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int n, m, s;
    std::cin >> n >> m >> s;
    std::vector<std::vector<std::pair<int, std::int64_t>>> adj(n + 1);
    for (int i = 0; i < m; i++) {
        int u, v;
        std::int64_t w;
        std::cin >> u >> v >> w;
        adj[u].emplace_back(v, w);
    }

    const std::int64_t INF = INT64_MAX;
    std::vector<std::int64_t> dist(n + 1, INF);
    using Item = std::pair<std::int64_t, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
    dist[s] = 0;
    pq.emplace(0, s);
    while (!pq.empty()) {
        auto [d, u] = pq.top();
        pq.pop();
        if (d != dist[u])
            continue;
        for (auto [v, w] : adj[u])
            if (d + w < dist[v]) {
                dist[v] = d + w;
                pq.emplace(dist[v], v);
            }
    }

    std::string out;
    for (int u = 1; u <= n; u++) {
        out += dist[u] == INF ? std::string("-1") : std::to_string(dist[u]);
        out += '\n';
    }
    std::cout << out;
    return 0;
}
