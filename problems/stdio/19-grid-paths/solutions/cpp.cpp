#include <iostream>
#include <string>
#include <vector>

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    constexpr unsigned mod = 1000000007u;
    int n, m;
    if (!(std::cin >> n >> m))
        return 0;
    // ways[j]: paths reaching column j of the current row
    std::vector<unsigned> ways(m, 0);
    std::string row;
    for (int i = 0; i < n; i++) {
        std::cin >> row;
        for (int j = 0; j < m; j++) {
            if (row[j] == '#')
                ways[j] = 0;
            else if (i == 0 && j == 0)
                ways[j] = 1;
            else if (j > 0)
                ways[j] = (ways[j] + ways[j - 1]) % mod;
        }
    }
    std::cout << ways[m - 1] << '\n';
    return 0;
}
