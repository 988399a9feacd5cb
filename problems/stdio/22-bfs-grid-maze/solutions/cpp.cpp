#include <array>
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
    std::vector<std::string> grid(n);
    int sr = 0, sc = 0, er = 0, ec = 0;
    for (int i = 0; i < n; i++) {
        std::cin >> grid[i];
        for (int j = 0; j < m; j++) {
            if (grid[i][j] == 'S')
                sr = i, sc = j;
            else if (grid[i][j] == 'E')
                er = i, ec = j;
        }
    }
    std::vector<int> dist(static_cast<size_t>(n) * m, -1);
    std::queue<std::pair<int, int>> q;
    dist[static_cast<size_t>(sr) * m + sc] = 0;
    q.emplace(sr, sc);
    constexpr std::array<int, 4> dr{-1, 1, 0, 0}, dc{0, 0, -1, 1};
    while (!q.empty()) {
        auto [r, c] = q.front();
        q.pop();
        if (r == er && c == ec)
            break;
        const int here = dist[static_cast<size_t>(r) * m + c];
        for (int d = 0; d < 4; d++) {
            int nr = r + dr[d], nc = c + dc[d];
            if (nr < 0 || nr >= n || nc < 0 || nc >= m || grid[nr][nc] == '#')
                continue;
            int &nd = dist[static_cast<size_t>(nr) * m + nc];
            if (nd < 0) {
                nd = here + 1;
                q.emplace(nr, nc);
            }
        }
    }
    std::cout << dist[static_cast<size_t>(er) * m + ec] << '\n';
    return 0;
}
