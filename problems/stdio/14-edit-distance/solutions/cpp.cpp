#include <algorithm>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

int main()
{
    std::ios::sync_with_stdio(false);
    std::string s, t;
    if (!(std::cin >> s >> t))
        return 0;
    const size_t n = s.size(), m = t.size();
    std::vector<int> prev(m + 1), cur(m + 1);
    std::iota(prev.begin(), prev.end(), 0);
    for (size_t i = 1; i <= n; i++) {
        cur[0] = static_cast<int>(i);
        for (size_t j = 1; j <= m; j++)
            cur[j] = std::min(
                {prev[j - 1] + (s[i - 1] != t[j - 1] ? 1 : 0), prev[j] + 1, cur[j - 1] + 1});
        std::swap(prev, cur);
    }
    std::cout << prev[m] << '\n';
    return 0;
}
