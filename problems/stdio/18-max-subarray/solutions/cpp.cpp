#include <algorithm>
#include <iostream>
#include <limits>

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int n;
    if (!(std::cin >> n))
        return 0;
    long long best = std::numeric_limits<long long>::min(), best_here = 0;
    for (int i = 0; i < n; i++) {
        long long a;
        std::cin >> a;
        best_here = std::max(best_here, 0LL) + a; // best block sum ending here
        best = std::max(best, best_here);
    }
    std::cout << best << '\n';
    return 0;
}
