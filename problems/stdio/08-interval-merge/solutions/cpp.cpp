#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int n;
    std::cin >> n;
    std::vector<std::pair<std::int64_t, std::int64_t>> iv(n);
    for (auto &[l, r] : iv)
        std::cin >> l >> r;
    std::sort(iv.begin(), iv.end());

    std::vector<std::pair<std::int64_t, std::int64_t>> merged;
    for (const auto &[l, r] : iv) {
        if (!merged.empty() && l <= merged.back().second)
            merged.back().second = std::max(merged.back().second, r);
        else
            merged.emplace_back(l, r);
    }

    std::string out = std::to_string(merged.size()) + '\n';
    for (const auto &[l, r] : merged)
        out += std::to_string(l) + ' ' + std::to_string(r) + '\n';
    std::cout << out;
    return 0;
}
