#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

int main()
{
    std::ios::sync_with_stdio(false);
    std::string a, b;
    std::cin >> a >> b;
    const size_t m = b.size();
    std::vector<int> prev(m + 1, 0), cur(m + 1, 0);
    for (char ca : a) {
        for (size_t j = 1; j <= m; j++)
            cur[j] = ca == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
        std::swap(prev, cur);
    }
    std::cout << prev[m] << '\n';
    return 0;
}
