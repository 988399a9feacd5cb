#include <cstdint>
#include <iostream>

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    std::int64_t n = 0, sum = 0;
    std::cin >> n;
    for (std::int64_t i = 0; i < n; i++) {
        std::int64_t x;
        std::cin >> x;
        sum += x;
    }
    std::cout << sum << '\n';
    return 0;
}
