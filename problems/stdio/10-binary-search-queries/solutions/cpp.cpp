#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int n;
    std::cin >> n;
    std::vector<std::int64_t> a(n);
    for (auto &x : a)
        std::cin >> x;
    int q;
    std::cin >> q;
    std::string out;
    while (q-- > 0) {
        std::int64_t l, r;
        std::cin >> l >> r;
        long count = 0;
        if (l <= r)
            count =
                std::upper_bound(a.begin(), a.end(), r) - std::lower_bound(a.begin(), a.end(), l);
        out += std::to_string(count);
        out += '\n';
    }
    std::cout << out;
    return 0;
}
