#include <algorithm>
#include <cstdint>
#include <iostream>
#include <vector>

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int n, cap;
    std::cin >> n >> cap;
    std::vector<std::int64_t> best(cap + 1, 0);
    for (int i = 0; i < n; i++) {
        int w;
        std::int64_t v;
        std::cin >> w >> v;
        for (int c = cap; c >= w; c--)
            best[c] = std::max(best[c], best[c - w] + v);
    }
    std::cout << best[cap] << '\n';
    return 0;
}
